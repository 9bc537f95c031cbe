// What the glTF loader (gltf_loader.cpp) gives tinygltf to reach files with, and its check of
// the JSON text's nesting before tinygltf parses it: external files resolve inside the model's
// folder only (docs/design/reliability.md, finding 9), and a file is at most kMaxGltfFileBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace mote::assets {

// A .gltf/.glb or an external buffer over 1 GiB is refused before it is read (the vertex and
// index limits need at most ~1 GiB of buffer with the widest strides).
inline constexpr size_t kMaxGltfFileBytes = size_t(1) << 30;

struct FsContext {
  std::filesystem::path base;  // the model's folder, canonical: external files must lie inside it
  bool read_failed = false;
};

// tinygltf's FsCallbacks, with a FsContext as their user data.
bool fs_file_exists(const std::string& path, void* user);
std::string fs_expand_path(const std::string& path, void* user);
bool fs_read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user);
bool fs_write_whole_file(std::string* err, const std::string& path, const std::vector<unsigned char>& bytes,
                         void* user);

// Whether no '[' / '{' outside strings nests deeper than `limit`. Exact for valid JSON; for
// invalid JSON the parser rejects the text anyway.
bool json_nesting_within(std::span<const uint8_t> text, uint32_t limit);

}  // namespace mote::assets
