#include "render/gpu_mesh.hpp"

#include "gpu/transfer.hpp"

namespace mote::render {

Result<GpuMesh> GpuMesh::upload(gpu::Device& device, const assets::Mesh& mesh, const std::string& name) {
  if (mesh.vertices.empty() || mesh.indices.empty())
    return make_error(ErrorCode::kInvalidArgument, "mesh has no triangles", name);
  GpuMesh m;
  m.index_count = uint32_t(mesh.indices.size());
  m.bounds_min = mesh.bounds_min;
  m.bounds_max = mesh.bounds_max;
  MOTE_TRY_ASSIGN(m.vertices, gpu::Buffer::create(device, {.size = mesh.vertices.size() * sizeof(assets::MeshVertex),
                                                           .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                           .name = name + ".vertices"}));
  MOTE_TRY_ASSIGN(m.indices, gpu::Buffer::create(device, {.size = mesh.indices.size() * sizeof(uint32_t),
                                                          .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                          .name = name + ".indices"}));
  MOTE_TRY(gpu::upload_span(device, m.vertices, std::span<const assets::MeshVertex>(mesh.vertices)));
  MOTE_TRY(gpu::upload_span(device, m.indices, std::span<const uint32_t>(mesh.indices)));
  return m;
}

}  // namespace mote::render
