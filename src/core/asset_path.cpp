#include "core/asset_path.hpp"

#include "core/error_text.hpp"

namespace mote::core {

namespace fs = std::filesystem;

Result<fs::path> canonical_asset_root(const fs::path& root) {
  std::error_code ec;
  const fs::path base = root.empty() ? fs::current_path(ec) : root;
  if (ec) return make_error(ErrorCode::kNotFound, "cannot read the current directory: " + ec.message(), "asset root");
  fs::path resolved = fs::weakly_canonical(base, ec);
  if (ec) return make_error(ErrorCode::kNotFound, "cannot resolve the asset root: " + ec.message(), base.string());
  return resolved;
}

Result<fs::path> resolve_asset_path(std::string_view named, const fs::path& naming_dir, const fs::path& canonical_root,
                                    const std::string& where, ErrorCode code) {
  if (named.empty()) return make_error(code, "the path must not be empty", where);
  if (named.find('\0') != std::string_view::npos) return make_error(code, "the path contains a NUL character", where);
  const fs::path path(named);
  if (path.is_absolute() || path.has_root_name() || path.has_root_directory())
    return make_error(code,
                      quote_token(named) + " is absolute; an asset path is relative to the file that names it and "
                                           "stays inside the asset root",
                      where);
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(naming_dir / path, ec);
  if (ec) return make_error(code, "cannot resolve " + quote_token(named) + ": " + ec.message(), where);
  const fs::path inside = resolved.lexically_relative(canonical_root);
  if (inside.empty() || inside.is_absolute() || *inside.begin() == "..")
    return make_error(code,
                      quote_token(named) + " resolves to " + resolved.string() + ", outside the asset root " +
                          canonical_root.string() + " (choose another root with --asset-root or the API's asset_root)",
                      where);
  return resolved;
}

}  // namespace mote::core
