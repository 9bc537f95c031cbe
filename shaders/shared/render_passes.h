// Push constants and small blocks of the renderer's own passes (src/render/, shaders/render/):
// the opaque draws, the particle quads and mesh particles, the draw-argument and sort-key
// passes, the OIT resolve and the tonemapper. std430/push-constant rules of shared/interop.h.
#ifndef MOTE_SHADERS_SHARED_RENDER_PASSES_H
#define MOTE_SHADERS_SHARED_RENDER_PASSES_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

struct OpaquePush {
  mat4 model;
  vec4 base_color;  // rgb, roughness
  vec4 emissive;    // rgb, metallic
};
MOTE_ASSERT_SIZE(OpaquePush, 96);
MOTE_ASSERT_OFFSET(OpaquePush, model, 0);
MOTE_ASSERT_OFFSET(OpaquePush, base_color, 64);
MOTE_ASSERT_OFFSET(OpaquePush, emissive, 80);

// Particle quads (particle_quad.vert/.frag), mesh particles (mesh_particle.vert) and the sort-key
// and draw-argument passes.
struct ParticleDrawPush {
  uint record_words;
  uint record_count;
  uint capacity;
  uint alive_count_word;  // the counters block's word holding the list length
  uint mesh_row;          // mesh particles: the one emitter row this draw shows
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(ParticleDrawPush, 32);
MOTE_ASSERT_OFFSET(ParticleDrawPush, record_words, 0);
MOTE_ASSERT_OFFSET(ParticleDrawPush, record_count, 4);
MOTE_ASSERT_OFFSET(ParticleDrawPush, capacity, 8);
MOTE_ASSERT_OFFSET(ParticleDrawPush, alive_count_word, 12);
MOTE_ASSERT_OFFSET(ParticleDrawPush, mesh_row, 16);
MOTE_ASSERT_OFFSET(ParticleDrawPush, pad0, 20);
MOTE_ASSERT_OFFSET(ParticleDrawPush, pad1, 24);
MOTE_ASSERT_OFFSET(ParticleDrawPush, pad2, 28);

// The draw-argument pass writes, from the alive count: [0] the quads' VkDrawIndexedIndirectCommand
// (6 indices over 4 vertices per instance, so the post-transform cache runs each corner's vertex
// shader once), the sort's element count, then one VkDrawIndexedIndirectCommand per mesh-particle
// draw (index counts given in `mesh_index_counts`).
MOTE_CONSTANT(uint, kMaxMeshParticleDraws, 16u);
MOTE_CONSTANT(uint, kDrawArgsQuadOffset, 0u);     // bytes
MOTE_CONSTANT(uint, kDrawArgsSortCountWord, 5u);  // u32 word: elements the sort sees
MOTE_CONSTANT(uint, kDrawArgsMeshOffset, 32u);    // bytes; 20 bytes per mesh draw
MOTE_CONSTANT(uint, kDrawArgsWords, 8u + 5u * 16u);

struct DrawArgsParams {
  uint alive_count_word;
  uint capacity;
  uint mesh_draws;
  uint pad0;
  uvec4 mesh_index_counts[4];  // 16 counts, packed 4 per uvec4
};
MOTE_ASSERT_SIZE(DrawArgsParams, 80);
MOTE_ASSERT_OFFSET(DrawArgsParams, alive_count_word, 0);
MOTE_ASSERT_OFFSET(DrawArgsParams, capacity, 4);
MOTE_ASSERT_OFFSET(DrawArgsParams, mesh_draws, 8);
MOTE_ASSERT_OFFSET(DrawArgsParams, pad0, 12);
MOTE_ASSERT_OFFSET(DrawArgsParams, mesh_index_counts, 16);

// Transparency of the raster path.
MOTE_CONSTANT(uint, kRasterModeWboit, 0u);   // weighted blended OIT (McGuire & Bavoil 2013)
MOTE_CONSTANT(uint, kRasterModeSorted, 1u);  // back-to-front sorted, premultiplied over

struct TonemapPush {
  uint width;
  uint height;
  uint operator_id;  // kTonemapAces / kTonemapAgx
  float exposure;
};
MOTE_ASSERT_SIZE(TonemapPush, 16);
MOTE_ASSERT_OFFSET(TonemapPush, width, 0);
MOTE_ASSERT_OFFSET(TonemapPush, height, 4);
MOTE_ASSERT_OFFSET(TonemapPush, operator_id, 8);
MOTE_ASSERT_OFFSET(TonemapPush, exposure, 12);
MOTE_CONSTANT(uint, kTonemapAces, 0u);
MOTE_CONSTANT(uint, kTonemapAgx, 1u);

MOTE_SHARED_END
#endif
