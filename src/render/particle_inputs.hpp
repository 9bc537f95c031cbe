// What every particle draw path reads, as the frame left it: the runtime's pool, this frame's
// alive list and its length (a word of the counters block — never read back to size anything),
// the per-emitter draw records (shaders/shared/particle_render.h), the view block and the atlas.
// ParticleRenderer (render/particle_renderer.hpp) fills one of these per frame from the
// runtime's ParticleBuffers and its own buffers; the raster path, the compute path and the mesh
// particles all take it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/image.hpp"
#include "render/particle_fog.hpp"

namespace mote::render {

// The runtime frame's buffers a frame's particles are drawn from (runtime::ParticleSystem's
// pool(), drawn_alive_list(), counters() and kAliveCountWord): nothing is owned.
struct ParticleBuffers {
  const gpu::Buffer* pool = nullptr;  // capacity * record_words u32
  uint32_t record_words = 0;
  uint32_t capacity = 0;
  const gpu::Buffer* alive = nullptr;     // u32 slots, `capacity` of them
  const gpu::Buffer* counters = nullptr;  // the alive count is u32 word `alive_count_word`
  uint32_t alive_count_word = 0;
  // The emitter rows' measured bounds the frame published (shader::FrameEmitterBounds per row,
  // runtime::ParticleSystem::emitter_bounds()), which AVBOIT's occupancy reads; none: every
  // depth bin is taken as occupied.
  const gpu::Buffer* emitter_bounds = nullptr;
  uint32_t emitter_bounds_rows = 0;
};

// The froxel irradiance volume lit sprites read (media/irradiance_volume.hpp): its luma and chroma
// volumes (3-D, RGBA16F, GENERAL) with a linear clamp sampler, and the grid's depth range
// (MediaFogSampling, uniform). The renderer always binds one; it is written only in frames that
// draw a lit emitter.
struct LightingInput {
  VkImageView luma = VK_NULL_HANDLE;
  VkImageView chroma = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
  const gpu::Buffer* sampling = nullptr;
};

// The ribbon build's output a draw expands (render/ribbon_pass.hpp): RibbonRecord per row, the
// points, the piece list and the counts block (its VkDrawIndexedIndirectCommand at
// kRibbonCountDrawOffset). All null: no ribbon rows this frame.
struct RibbonInputs {
  const gpu::Buffer* records = nullptr;
  const gpu::Buffer* points = nullptr;
  const gpu::Buffer* pieces = nullptr;
  const gpu::Buffer* counts = nullptr;
  bool valid() const { return records && points && pieces && counts; }
};

struct ParticleInputs {
  const gpu::Buffer* pool = nullptr;  // capacity * record_words u32
  uint32_t record_words = 0;
  uint32_t capacity = 0;
  const gpu::Buffer* alive = nullptr;     // u32 slots, `capacity` of them
  const gpu::Buffer* counters = nullptr;  // the alive count is u32 word `alive_count_word`
  uint32_t alive_count_word = 0;
  const gpu::Buffer* records = nullptr;         // ParticleDrawRecord per emitter row
  uint32_t record_count = 0;                    // rows in `records`
  const gpu::Buffer* view = nullptr;            // RenderView (uniform)
  const gpu::Buffer* point_lights = nullptr;    // PointLightGpu[kMaxPointLights] (storage)
  VkImageView atlas = VK_NULL_HANDLE;           // RGBA8 sRGB, SHADER_READ_ONLY_OPTIMAL
  VkSampler atlas_sampler = VK_NULL_HANDLE;     // linear, clamp to edge
  FogInput fog;                                 // the froxel fog in front of the particles (none: unfogged)
  LightingInput lighting;                       // what lit sprites are lit from
  const gpu::Buffer* emitter_bounds = nullptr;  // FrameEmitterBounds per row (ParticleBuffers'); may be null
  uint32_t emitter_bounds_rows = 0;
  RibbonInputs ribbons;  // this frame's ribbon build; none: no ribbons drawn
  // The frame's particle lights (render/particle_light_pass.hpp: ParticleLightHeader, then
  // PointLightGpu; storage), which the mesh particles are shaded by; always bound (a header of
  // no lights when none).
  const gpu::Buffer* particle_lights = nullptr;
  // Its cluster grid (ParticleLightClusterHeader, then the grid's words; storage), bound beside it.
  const gpu::Buffer* particle_light_clusters = nullptr;
};

}  // namespace mote::render
