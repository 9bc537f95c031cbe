// Builds small glTF 2.0 files in memory for the loader tests: a JSON document (nlohmann) plus one
// binary buffer, written out as a .gltf with a base64 data URI or an external .bin, or as a .glb.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mote::test {

inline std::string base64_encode(const std::vector<uint8_t>& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint32_t(bytes[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

constexpr int kFloat = 5126, kUByte = 5121, kUShort = 5123, kUInt = 5125;
constexpr int kModePoints = 0, kModeLines = 1, kModeTriangles = 4;

class GltfBuilder {
 public:
  GltfBuilder() {
    json_ = {{"asset", {{"version", "2.0"}, {"generator", "mote tests"}}},
             {"bufferViews", nlohmann::json::array()},
             {"accessors", nlohmann::json::array()},
             {"meshes", nlohmann::json::array()},
             {"nodes", nlohmann::json::array()}};
  }

  nlohmann::json& json() { return json_; }
  std::vector<uint8_t>& bin() { return bin_; }
  const std::vector<uint8_t>& bin() const { return bin_; }

  // Appends raw bytes (4-byte aligned) as a new bufferView; returns its index.
  int add_view(const void* data, size_t size, size_t stride = 0) {
    while (bin_.size() % 4) bin_.push_back(0);
    const size_t offset = bin_.size();
    bin_.resize(offset + size);
    std::memcpy(bin_.data() + offset, data, size);
    nlohmann::json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}};
    if (stride) view["byteStride"] = stride;
    json_["bufferViews"].push_back(view);
    return int(json_["bufferViews"].size()) - 1;
  }

  int add_accessor(int view, int component_type, size_t count, const char* type, size_t byte_offset = 0) {
    nlohmann::json a = {{"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}};
    if (byte_offset) a["byteOffset"] = byte_offset;
    json_["accessors"].push_back(a);
    return int(json_["accessors"].size()) - 1;
  }

  // Float vectors (VEC2 / VEC3) as a tightly packed view + accessor.
  int add_floats(const std::vector<float>& values, int components) {
    const int view = add_view(values.data(), values.size() * sizeof(float));
    return add_accessor(view, kFloat, values.size() / size_t(components), components == 2 ? "VEC2" : "VEC3");
  }
  int add_indices_u16(const std::vector<uint16_t>& values) {
    return add_accessor(add_view(values.data(), values.size() * 2), kUShort, values.size(), "SCALAR");
  }
  int add_indices_u32(const std::vector<uint32_t>& values) {
    return add_accessor(add_view(values.data(), values.size() * 4), kUInt, values.size(), "SCALAR");
  }
  int add_indices_u8(const std::vector<uint8_t>& values) {
    return add_accessor(add_view(values.data(), values.size()), kUByte, values.size(), "SCALAR");
  }

  // A mesh with one primitive; `indices` < 0 for a non-indexed primitive, `normal`/`uv` < 0 when absent.
  int add_mesh(int position, int normal = -1, int uv = -1, int indices = -1, int mode = kModeTriangles) {
    json_["meshes"].push_back({{"primitives",
                                nlohmann::json::array({primitive(position, normal, uv, indices, mode)})}});
    return int(json_["meshes"].size()) - 1;
  }
  static nlohmann::json primitive(int position, int normal = -1, int uv = -1, int indices = -1,
                                  int mode = kModeTriangles) {
    nlohmann::json p = {{"attributes", {{"POSITION", position}}}};
    if (normal >= 0) p["attributes"]["NORMAL"] = normal;
    if (uv >= 0) p["attributes"]["TEXCOORD_0"] = uv;
    if (indices >= 0) p["indices"] = indices;
    if (mode != kModeTriangles) p["mode"] = mode;
    return p;
  }

  int add_node(nlohmann::json node) {
    json_["nodes"].push_back(std::move(node));
    return int(json_["nodes"].size()) - 1;
  }
  void set_scene(std::vector<int> roots) {
    json_["scenes"] = nlohmann::json::array({{{"nodes", roots}}});
    json_["scene"] = 0;
  }

  // The document with buffer 0 as a base64 data URI.
  std::string to_gltf_embedded() const {
    nlohmann::json j = json_;
    j["buffers"] = nlohmann::json::array({{{"byteLength", bin_.size()},
                                           {"uri", "data:application/octet-stream;base64," + base64_encode(bin_)}}});
    return j.dump(1);
  }
  // The document with buffer 0 in an external file named `uri` (write bin() there yourself).
  std::string to_gltf_external(const std::string& uri) const {
    nlohmann::json j = json_;
    j["buffers"] = nlohmann::json::array({{{"byteLength", bin_.size()}, {"uri", uri}}});
    return j.dump(1);
  }
  // A binary glTF: header, JSON chunk (space-padded), BIN chunk (zero-padded).
  std::vector<uint8_t> to_glb() const {
    nlohmann::json j = json_;
    j["buffers"] = nlohmann::json::array({{{"byteLength", bin_.size()}}});
    std::string text = j.dump();
    while (text.size() % 4) text += ' ';
    std::vector<uint8_t> payload = bin_;
    while (payload.size() % 4) payload.push_back(0);
    std::vector<uint8_t> out{'g', 'l', 'T', 'F'};
    auto u32 = [&out](uint32_t v) {
      for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
    };
    const uint32_t total = uint32_t(12 + 8 + text.size() + 8 + payload.size());
    u32(2);
    u32(total);
    u32(uint32_t(text.size()));
    u32(0x4E4F534A);  // "JSON"
    out.insert(out.end(), text.begin(), text.end());
    u32(uint32_t(payload.size()));
    u32(0x004E4942);  // "BIN\0"
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
  }

 private:
  nlohmann::json json_;
  std::vector<uint8_t> bin_;
};

// The reference scene the loader tests and the fuzzer share:
//   node 0 (root): translation (10, 0, 0), scale 2, children [1]
//   node 1: translation (0, 5, 0), mesh 0 — a unit quad in XY facing +Z, normals, UVs, u16 indices
//   node 2 (root): mesh 1 — one triangle without normals or indices
// so mesh 0's vertices land at 2 * p + (10, 10, 0) and mesh 1's stay where they are.
inline GltfBuilder reference_scene() {
  GltfBuilder b;
  const int quad_pos = b.add_floats({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, 3);
  const int quad_nrm = b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, 3);
  const int quad_uv = b.add_floats({0, 1, 1, 1, 1, 0, 0, 0}, 2);
  const int quad_idx = b.add_indices_u16({0, 1, 2, 0, 2, 3});
  b.add_mesh(quad_pos, quad_nrm, quad_uv, quad_idx);
  const int tri_pos = b.add_floats({0, 0, 0, 0, 0, 1, 1, 0, 0}, 3);  // faces +Y
  b.add_mesh(tri_pos);
  b.add_node({{"translation", {10, 0, 0}}, {"scale", {2, 2, 2}}, {"children", {1}}});
  b.add_node({{"translation", {0, 5, 0}}, {"mesh", 0}});
  b.add_node({{"mesh", 1}});
  b.set_scene({0, 2});
  return b;
}

}  // namespace mote::test
