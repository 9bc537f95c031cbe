#version 460
// The draws' indirect arguments from the frame's alive count (read on the GPU, never on the
// host): the quads' VkDrawIndexedIndirectCommand, one VkDrawIndexedIndirectCommand per mesh-particle
// draw, and the element count the depth sort sees.
#include "shared/render_passes.h"

layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Counters { uint counters[]; };
layout(std430, binding = 1) writeonly buffer Args { uint args[]; };
layout(std140, binding = 2) uniform Params { DrawArgsParams params; };

void main() {
  uint alive = min(counters[params.alive_count_word], params.capacity);
  args[0] = 6u;      // indexCount (two triangles over corners 0..3)
  args[1] = alive;   // instanceCount
  args[2] = 0u;      // firstIndex
  args[3] = 0u;      // vertexOffset
  args[4] = 0u;      // firstInstance
  args[kDrawArgsSortCountWord] = alive;
  for (uint i = 0u; i < min(params.mesh_draws, kMaxMeshParticleDraws); ++i) {
    uint base = kDrawArgsMeshOffset / 4u + i * 5u;
    args[base + 0u] = params.mesh_index_counts[i / 4u][i % 4u];  // indexCount
    args[base + 1u] = alive;                                      // instanceCount
    args[base + 2u] = 0u;                                         // firstIndex
    args[base + 3u] = 0u;                                         // vertexOffset
    args[base + 4u] = 0u;                                         // firstInstance
  }
}
