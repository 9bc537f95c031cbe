// libFuzzer harness: glTF 2.0 (.gltf JSON with data URIs, and .glb) through decode_gltf:
// tinygltf's parser and the flattener's accessor, index and hierarchy checks. External files
// resolve in an empty folder (nothing there to read). What loads is a mesh whose indices all
// name vertices.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "assets/mesh.hpp"
#include "fuzz_check.hpp"

namespace {

const std::filesystem::path& empty_folder() {
  static const std::filesystem::path folder = [] {
    std::filesystem::path p = std::filesystem::temp_directory_path() / "mote_fuzz_gltf_empty";
    std::filesystem::create_directories(p);
    return p;
  }();
  return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::Result<mote::assets::Mesh> mesh = mote::assets::decode_gltf(std::span<const uint8_t>(data, size),
                                                                    empty_folder(), "fuzz");
  if (!mesh.ok()) return 0;
  for (uint32_t index : mesh->indices) FUZZ_REQUIRE(index < mesh->vertices.size(), "indices name vertices");
  return 0;
}
