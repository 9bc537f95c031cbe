// The froxel irradiance volume lit particles are lit from (docs/design/render.md, "Lighting";
// shaders/media/froxel_irradiance.comp): a grid of froxels over the view frustum (x and y across
// the viewport, logarithmic slices between near and far, as the fog's), each holding the
// irradiance of the hemisphere ambient, the sun through its shadow map and the point lights at a
// point jittered through it every frame, as luma SH (L1) and constant chroma in two RGBA16F 3-D
// images (shared/particle_lighting.h). No medium is in it, so it runs with or without fog. The
// volumes stay in GENERAL layout.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/image.hpp"
#include "gpu/profiler.hpp"
#include "gpu/sampler.hpp"
#include "media/image3d.hpp"
#include "mote/result.hpp"
#include "shared/media_passes.h"
#include "shared/particle_render.h"

namespace mote::media {

// The sun's shadow map a froxel pass reads (D32, 1 = far, drawn with the view's
// sun_view_projection) in `layout` (SHADER_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL);
// none: the sun is unshadowed.
struct SunShadowMap {
  VkImageView view = VK_NULL_HANDLE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
};

struct IrradianceVolumeDesc {
  glm::uvec3 grid{120, 68, 64};  // 16-pixel tiles of 1920 x 1080, 64 slices
  float near_distance = 0.5f;
  float far_distance = 200.0f;
};

// The grid a target of width x height gets by default: a froxel per 16 x 16 pixels, 64 slices.
glm::uvec3 irradiance_grid_for(uint32_t width, uint32_t height);

class IrradianceVolume {
 public:
  // Errors: kInvalidArgument for a zero grid or a depth range that is not 0 < near < far; the
  // device's own.
  static Result<IrradianceVolume> create(gpu::Device& device, const IrradianceVolumeDesc& desc);

  // One frame: uploads the frame block and `view.point_light_count` of `lights`, then the pass,
  // which also adds the particle lights of `particle_lights` (shared/particle_lights.h's list,
  // written earlier in the command buffer and visible to compute shaders; null: none), each
  // froxel's point those of its cluster in `particle_light_clusters` (the list's grid; null: the
  // whole list).
  // Opens with a barrier from the previous frame's readers; ends with the volumes visible to
  // compute and fragment shaders. Errors (kInvalidArgument, nothing recorded): fewer lights given
  // than the view counts.
  Status record(VkCommandBuffer cmd, const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                const SunShadowMap& shadow_map, const gpu::Buffer* particle_lights = nullptr,
                const gpu::Buffer* particle_light_clusters = nullptr);

  // Timestamps around the pass ("irradiance") of every record from now on, into `profiler`
  // (null: none; benchmarks).
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }

  // What a lit draw binds (valid after a record in the same command buffer): the two volumes
  // (GENERAL) with a linear clamp sampler, and the grid's depth range (MediaFogSampling, w = 1).
  VkImageView luma_view() const { return luma_.view(); }
  VkImageView chroma_view() const { return chroma_.view(); }
  VkSampler sampler() const { return linear_.handle(); }
  const gpu::Buffer& sampling_buffer() const { return sampling_; }

  // For tests and tools.
  const Image3D& luma() const { return luma_; }
  const Image3D& chroma() const { return chroma_; }
  const IrradianceVolumeDesc& desc() const { return desc_; }
  uint32_t frame_index() const { return frame_; }

 private:
  gpu::Device* device_ = nullptr;
  IrradianceVolumeDesc desc_;
  Image3D luma_;
  Image3D chroma_;
  gpu::Image far_shadow_;  // 1 x 1 at far: the binding when there is no shadow map
  gpu::Buffer frame_buffer_;
  gpu::Buffer sampling_;
  gpu::Buffer lights_;
  gpu::Buffer no_particle_lights_;  // a list of no lights (zero), bound when none is given
  gpu::Sampler linear_;
  gpu::Sampler shadow_sampler_;
  gpu::ComputePipeline pass_;
  gpu::GpuProfiler* profiler_ = nullptr;
  uint32_t frame_ = 0;
};

}  // namespace mote::media
