// The raster draw path (R6 "Two ways to draw", 1): for engines that draw particles in their own
// render pass. Instanced quads expanded in the vertex stage from the pool and a draw list
// (shaders/render/particle_quad.vert), depth-tested read-only against the scene, depth writes
// off, composited either order-independently — weighted blended OIT (McGuire & Bavoil, JCGT
// 2013) with a separate emission accumulator for additive particles — or exactly back to front
// (`kSorted`: a GPU radix sort of the alive list by view distance, then premultiplied over).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/sampler.hpp"
#include "mote/result.hpp"
#include "render/particle_inputs.hpp"
#include "render/render_targets.hpp"
#include "gpu/passes/radix_sort.hpp"

namespace mote::render {

enum class Transparency { kOit, kSorted };

class ParticleRasterPath {
 public:
  static Result<ParticleRasterPath> create(gpu::Device& device, uint32_t capacity);
  ParticleRasterPath() = default;
  ParticleRasterPath(ParticleRasterPath&&) noexcept = default;
  ParticleRasterPath& operator=(ParticleRasterPath&&) noexcept = default;

  // Records the sort (kSorted) and the draw; `draw_args` holds the quads' VkDrawIndexedIndirectCommand at
  // kDrawArgsQuadOffset and the sort's count at word kDrawArgsSortCountWord (render/draw_args).
  // Before: the particle buffers and draw_args visible to compute, vertex and indirect stages;
  // targets.hdr in COLOR_ATTACHMENT_OPTIMAL holding the opaque scene, targets.depth in
  // DEPTH_STENCIL_READ_ONLY_OPTIMAL (tested, and sampled by soft particles). After: targets.hdr in
  // GENERAL with the particles composited, written by compute (OIT resolve) or colour-attachment
  // output (sorted) — the caller barriers from both before reading it.
  Status record(VkCommandBuffer cmd, const ParticleInputs& inputs, RenderTargets& targets, Transparency mode,
                const gpu::Buffer& draw_args, VkSampler depth_sampler);

 private:
  gpu::Device* device_ = nullptr;
  uint32_t capacity_ = 0;
  gpu::GraphicsPipeline oit_;
  gpu::GraphicsPipeline sorted_;
  gpu::ComputePipeline resolve_;
  gpu::ComputePipeline sort_keys_;
  gpu::RadixSort sort_;
  gpu::Buffer sort_keys_buffer_;
  gpu::Buffer sort_values_;
  gpu::Buffer quad_indices_;  // 0 1 2 0 2 3
};

}  // namespace mote::render
