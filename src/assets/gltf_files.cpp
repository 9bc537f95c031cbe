#include "assets/gltf_files.hpp"

#include <system_error>

#include "core/file.hpp"

namespace mote::assets {
namespace {

// Whether `path`, with its "..", "." and symbolic links resolved, lies inside `folder` (canonical).
bool inside_folder(const std::filesystem::path& path, const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
  if (ec) return false;
  const std::filesystem::path relative = resolved.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != ".." && !relative.is_absolute();
}

}  // namespace

// tinygltf looks for an external file first under base_dir, then under "."; only files inside
// the model's folder are ours to read (the working directory is not the file's, and a buffer URI
// of "../../x" must not reach another file: the check runs on the resolved path, finding 9 of
// docs/design/reliability.md).
bool fs_file_exists(const std::string& path, void* user) {
  const auto* ctx = static_cast<const FsContext*>(user);
  if (!inside_folder(path, ctx->base)) return false;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::string fs_expand_path(const std::string& path, void*) { return path; }

bool fs_read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  if (!inside_folder(path, static_cast<const FsContext*>(user)->base)) {
    if (err) *err = "File not found outside the model's folder";
    return false;
  }
  auto bytes = read_file_bytes(path, kMaxGltfFileBytes);
  if (!bytes.ok()) {
    static_cast<FsContext*>(user)->read_failed = true;
    if (err) *err = bytes.error().to_string();
    return false;
  }
  *out = std::move(bytes).value();
  return true;
}

bool fs_write_whole_file(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err = "the glTF loader does not write files";
  return false;
}

bool json_nesting_within(std::span<const uint8_t> text, uint32_t limit) {
  uint32_t depth = 0;
  bool in_string = false, escaped = false;
  for (const uint8_t ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > limit) return false;
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace mote::assets
