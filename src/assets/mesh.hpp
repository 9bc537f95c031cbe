// Triangle meshes for the opaque scene and for mesh particles: the procedural unit shapes (plane,
// box, sphere) and glTF 2.0 files (.gltf / .glb, through tinygltf). A glTF file is flattened: every
// mesh primitive of mode TRIANGLES reachable from the default scene's nodes, with the node
// transforms applied, into one indexed list. Loading untrusted files answers kParse / kFormat /
// kNotFound with the file and the glTF element (e.g. "model.glb#/meshes/0/primitives/1") in
// `where`, never crashes; limits: kMaxMeshVertices vertices, kMaxMeshIndices indices.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "mote/result.hpp"

namespace mote::assets {

inline constexpr uint32_t kMaxMeshVertices = 1u << 22;
inline constexpr uint32_t kMaxMeshIndices = 1u << 24;

// Interleaved as the renderer's vertex buffer expects it (std430-compatible, 32 bytes).
struct MeshVertex {
  float position[3];
  float normal[3];
  float uv[2];
};
static_assert(sizeof(MeshVertex) == 32);

struct Mesh {
  std::vector<MeshVertex> vertices;
  std::vector<uint32_t> indices;  // triangle list, counter-clockwise front faces
  glm::vec3 bounds_min{0.0f};
  glm::vec3 bounds_max{0.0f};
};

// A 1 x 1 plane in XZ centred at the origin, facing +Y.
Mesh make_plane();
// A unit cube centred at the origin (24 vertices, flat normals).
Mesh make_box();
// A sphere of diameter 1 centred at the origin (UV sphere, `segments` around, segments / 2 rings).
// `segments` is clamped to [kMinSphereSegments, kMaxSphereSegments] (2048: 2.1M vertices).
inline constexpr uint32_t kMinSphereSegments = 4;
inline constexpr uint32_t kMaxSphereSegments = 2048;
Mesh make_sphere(uint32_t segments = 32);

// Loads a glTF 2.0 file (.gltf with external or embedded buffers, or .glb). Normals are computed
// (area-weighted) when a primitive has none; UVs default to 0.
Result<Mesh> load_gltf(const std::filesystem::path& path);
// Same, from memory (a .glb when it starts with the glTF magic, else JSON); `base_dir` resolves
// external buffers; `name` is used in errors.
Result<Mesh> decode_gltf(std::span<const uint8_t> bytes, const std::filesystem::path& base_dir, std::string_view name);

}  // namespace mote::assets
