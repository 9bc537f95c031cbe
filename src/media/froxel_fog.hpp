// The froxel fog (docs/design/media.md, "The froxel passes"): a grid of froxels over the view
// frustum (default 160 x 90 x 64, logarithmic slices between near and far) in which, each frame,
// in the host's command buffer:
//   uploads     the frame block, the volume rows and the point lights (vkCmdUpdateBuffer)
//   inject      each froxel's scattering and extinction at a point jittered per frame
//   light       the radiance scattered towards the eye (ambient, the sun through its shadow map,
//               point lights, a Henyey-Greenstein phase), blended with the history reprojected
//               by the camera's motion
//   integrate   front to back along each froxel column: light and transmittance to each slice
//   composite   the opaque scene's colour seen through the fog in front of its depth
// The particles drawn after it fog their own fragments from the integrated volume
// (render::FogInput, shaders/media/fog_apply.glsl). The froxel volumes stay in GENERAL layout.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
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
#include "media/irradiance_volume.hpp"
#include "media/tile_atlas.hpp"
#include "mote/result.hpp"
#include "render/particle_targets.hpp"
#include "shared/media_density.h"
#include "shared/media_passes.h"
#include "shared/particle_render.h"

namespace mote::media {

struct FroxelFogDesc {
  uint32_t width = 0;  // the targets' size
  uint32_t height = 0;
  glm::uvec3 grid{160, 90, 64};
  float near_distance = 0.5f;
  float far_distance = 200.0f;
  float anisotropy = 0.2f;
  float history_weight = 0.95f;
  uint32_t max_volumes = 64;
  bool count_noise_taps = false;  // the injection's counting variant (tests: read_noise_taps)
};

// The sun's shadow map the light pass reads (media/irradiance_volume.hpp's; none: unshadowed).
using FogShadowMap = SunShadowMap;

class FroxelFog {
 public:
  // Errors: kInvalidArgument for a zero size or grid, a depth range that is not 0 < near < far;
  // the device's own.
  static Result<FroxelFog> create(gpu::Device& device, const FroxelFogDesc& desc);

  // One frame of the passes over `targets` (render/particle_targets.hpp's contract: the colour
  // is composited in GENERAL, the depth sampled). `rows`: the live volumes (at most
  // max_volumes); `view.point_light_count` of `lights` are used. Without rows nothing runs: the
  // colour is left as it is and the particles read no fog. Errors (kInvalidArgument,
  // nothing recorded): targets check_targets refuses, too many rows or lights. `particle_lights`:
  // the particle-light list (shared/particle_lights.h) the light pass adds, written earlier in
  // the command buffer and visible to compute shaders; null: none. `particle_light_clusters`: its
  // cluster grid (each froxel's point reads its cluster's lights); null: the whole list.
  Status record(VkCommandBuffer cmd, const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                std::span<const shader::MediaVolume> rows, const TileAtlas3D& atlas,
                const render::ParticleTargets& targets, const FogShadowMap& shadow_map,
                const gpu::Buffer* particle_lights = nullptr, const gpu::Buffer* particle_light_clusters = nullptr);
  // Timestamps around each pass of every record from now on ("fog_upload", "fog_inject",
  // "fog_light", "fog_integrate", "fog_composite"), into `profiler` (null: none; benchmarks).
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }
  // The next frame starts without history (after a cut, or for a test's first frame). A fresh
  // history is a running mean of the frames so far until history_weight's window is reached.
  void reset_history() { history_valid_ = false; }

  // What a draw that fogs its own fragments binds (valid after a record in the same command
  // buffer): the integrated volume (GENERAL), a linear clamp sampler, MediaFogSampling (uniform).
  VkImageView integrated_view() const { return integrated_.view(); }
  VkSampler sampler() const { return linear_.handle(); }
  const gpu::Buffer& sampling_buffer() const { return sampling_; }

  // For tests and tools: the froxel volumes of the last frame, and the noise taps the counting
  // variant took since the last call (submit and wait).
  const Image3D& medium() const { return medium_; }
  const Image3D& integrated() const { return integrated_; }
  const Image3D& lit() const { return lit_[current_]; }
  Result<uint64_t> read_noise_taps();
  const FroxelFogDesc& desc() const { return desc_; }
  uint32_t frame_index() const { return frame_; }

 private:
  shader::MediaFrame frame_block(const shader::RenderView& view, uint32_t volumes, uint32_t lights) const;
  void record_uploads(VkCommandBuffer cmd, const shader::MediaFrame& frame,
                      std::span<const shader::PointLightGpu> lights, std::span<const shader::MediaVolume> rows);
  void record_grid_passes(VkCommandBuffer cmd, const TileAtlas3D& atlas, const FogShadowMap& shadow_map,
                          const gpu::Buffer& particle_lights, const gpu::Buffer& particle_light_clusters);
  void record_composite(VkCommandBuffer cmd, const render::ParticleTargets& targets);
  Status record_empty(VkCommandBuffer cmd);

  gpu::Device* device_ = nullptr;
  FroxelFogDesc desc_;
  Image3D medium_;                  // scattering rgb, extinction a
  Image3D lit_[2];                  // in-scattered radiance rgb, extinction a: this frame's and the history
  Image3D integrated_;              // light rgb, transmittance a, to each slice's far side
  gpu::Image far_shadow_;           // 1 x 1 at far: the binding when there is no shadow map
  gpu::Buffer frame_buffer_;        // MediaFrame (uniform)
  gpu::Buffer sampling_;            // MediaFogSampling (uniform)
  gpu::Buffer volumes_;             // MediaVolume[max_volumes]
  gpu::Buffer lights_;              // PointLightGpu[kMaxPointLights]
  gpu::Buffer no_particle_lights_;  // a particle-light list of none (zero)
  gpu::Buffer taps_;                // u32, the counting variant's
  gpu::Sampler linear_;
  gpu::Sampler nearest_;  // the scene depth (read texel by texel)
  gpu::Sampler shadow_sampler_;
  gpu::ComputePipeline inject_;
  gpu::ComputePipeline light_;
  gpu::ComputePipeline integrate_;
  gpu::ComputePipeline composite_;
  gpu::GpuProfiler* profiler_ = nullptr;
  uint32_t current_ = 0;  // lit_[current_] is the last frame's: the next one's history
  uint32_t frame_ = 0;
  bool history_valid_ = false;
  uint32_t accumulated_ = 0;    // frames in the history since it was last reset
  bool empty_written_ = false;  // the sampling block says "no fog" (a frame without volumes)
  glm::mat4 previous_view_projection_{1.0f};
};

}  // namespace mote::media
