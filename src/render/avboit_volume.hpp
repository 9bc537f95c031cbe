// The raster path's volume-based order-independent transparency, AVBOIT (docs/design/render.md,
// "Raster path"; shaders/shared/avboit.h): the passes that build the volume the draw weights each
// fragment by, recorded before the draw —
//   occupancy  each non-additive emitter row's measured world box (the runtime frame's
//              FrameEmitterBounds, published per row) as a view-depth interval, OR-ed into 64
//              depth bins; the slices are shared out among the occupied bins;
//   splat      every non-additive sprite's extinction into the voxels of the columns it covers
//              (its coverage at the four standard 4x multisample positions of each column's
//              footprint, the soft fade included), fixed point;
//   integrate  per column, the optical depth in front of each slice boundary.
// The draw (particle_quad.frag, RASTER_AVBOIT) reads the slices and the optical depth. The
// volume's buffers are the path's own, made at create for the grid.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include <glm/glm.hpp>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/result.hpp"
#include "render/particle_inputs.hpp"

namespace mote::render {

struct AvboitDesc {
  glm::uvec3 grid{0, 0, 0};  // columns across, down, slices; a zero in it: avboit_grid_for the size
  uint32_t width = 0;        // the targets' size
  uint32_t height = 0;
  float near_distance = 0.5f;  // metres of view depth the occupancy bins span
  float far_distance = 200.0f;
};

// The grid a target of width x height gets by default: the froxel resolution, a column per
// 16 x 16 pixels, and 64 slices.
glm::uvec3 avboit_grid_for(uint32_t width, uint32_t height);

class AvboitVolume {
 public:
  // Errors: kInvalidArgument for a zero size, a grid past 4096 columns a side or 256 slices, or
  // a depth range that is not 0 < near < far; the device's own.
  static Result<AvboitVolume> create(gpu::Device& device, const AvboitDesc& desc);
  AvboitVolume() = default;
  AvboitVolume(AvboitVolume&&) noexcept = default;
  AvboitVolume& operator=(AvboitVolume&&) noexcept = default;

  // The three passes for this frame's particles against `scene_depth` (sampled by the splat, in
  // `depth_layout`, which the caller has made visible to compute shaders). Opens with a barrier
  // from the previous frame's readers of the volume; ends with the slices and optical depth
  // visible to fragment shaders.
  void record(VkCommandBuffer cmd, const ParticleInputs& inputs, VkImageView scene_depth, VkImageLayout depth_layout,
              VkSampler depth_sampler);

  // Timestamps around the passes ("avboit") of every record from now on (null: none; benchmarks).
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }

  // What the draw binds: shader::AvboitSlices and the optical depth (f32, columns x (slices + 1)).
  const gpu::Buffer& slices() const { return slices_; }
  const gpu::Buffer& optical_depth() const { return optical_depth_; }
  const AvboitDesc& desc() const { return desc_; }

 private:
  gpu::Device* device_ = nullptr;
  AvboitDesc desc_;
  gpu::ComputePipeline occupancy_;
  gpu::ComputePipeline splat_;
  gpu::ComputePipeline integrate_;
  gpu::Buffer slices_;
  gpu::Buffer extinction_;     // u32 per voxel
  gpu::Buffer optical_depth_;  // f32 per column per boundary
  gpu::Buffer no_bounds_;      // bound when the inputs bring no measured bounds (every bin occupied)
  gpu::GpuProfiler* profiler_ = nullptr;
};

}  // namespace mote::render
