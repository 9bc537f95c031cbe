// A triangle mesh in device memory (vertex buffer of assets::MeshVertex, u32 index buffer), for
// the opaque set and the mesh particles.
#pragma once

#include <cstdint>

#include "assets/mesh.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::render {

struct GpuMesh {
  gpu::Buffer vertices;
  gpu::Buffer indices;
  uint32_t index_count = 0;
  glm::vec3 bounds_min{0.0f};
  glm::vec3 bounds_max{0.0f};

  // Uploads (submit and wait: set-up path). An empty mesh is an error.
  static Result<GpuMesh> upload(gpu::Device& device, const assets::Mesh& mesh, const std::string& name);
};

}  // namespace mote::render
