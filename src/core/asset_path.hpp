// Asset paths: files a scene or an effect names (effects, meshes, textures) resolve relative to
// the file that names them and must stay inside an asset root, so a downloaded scene cannot read
// the machine's files (docs/design/reliability.md, "Asset paths"). The root is the current
// directory unless the caller chooses another (`mote render --asset-root`, SceneLoadOptions,
// ParticleRendererDesc).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "mote/result.hpp"

namespace mote::core {

// `root` made absolute with its "..", "." and symbolic links resolved; the current directory
// when empty. kNotFound when it cannot be resolved.
Result<std::filesystem::path> canonical_asset_root(const std::filesystem::path& root);

// `named` (as the file wrote it) against `naming_dir`, resolved the same way, when it lies inside
// `canonical_root` (from canonical_asset_root). Refused with `code` at `where` (the JSON pointer
// of the string, or a file and pointer): an empty name, a NUL, an absolute path, and a path that
// resolves outside the root ("../../etc/passwd", or a symbolic link out of it).
Result<std::filesystem::path> resolve_asset_path(std::string_view named, const std::filesystem::path& naming_dir,
                                                 const std::filesystem::path& canonical_root, const std::string& where,
                                                 ErrorCode code = ErrorCode::kInvalidArgument);

}  // namespace mote::core
