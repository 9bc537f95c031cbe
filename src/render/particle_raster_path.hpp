// The raster draw path (R6 "Two ways to draw", 1): for engines that draw particles in their own
// render pass. Instanced quads expanded in the vertex stage from the pool and a draw list
// (shaders/render/particle_quad.vert), depth-tested read-only against the scene, depth writes
// off, composited either order-independently — weighted blended OIT (McGuire & Bavoil, JCGT
// 2013) with a separate emission accumulator for additive particles — or exactly back to front
// (`kSorted`: a GPU radix sort of the alive list by view distance, then premultiplied over), or
// volume-based (`kAvboit`: the same accumulators, each fragment weighted by the transmittance in
// front of it from an extinction volume the particles are splatted into first,
// render/avboit_volume.hpp).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/image.hpp"
#include "mote/result.hpp"
#include "render/avboit_volume.hpp"
#include "render/particle_fog.hpp"
#include "render/particle_inputs.hpp"
#include "render/particle_targets.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "shared/render_passes.h"

namespace mote::render {

enum class Transparency { kOit, kSorted, kAvboit };

inline constexpr VkFormat kRevealageFormat = VK_FORMAT_R16_SFLOAT;

struct RasterPathOptions {
  uint32_t capacity = 0;  // the pool's: the sort's size
  uint32_t width = 0;     // the targets' size: the OIT accumulators are made at it
  uint32_t height = 0;
  glm::uvec3 avboit_grid{0, 0, 0};  // AVBOIT's volume (a zero in it: avboit_grid_for the size)
};

class ParticleRasterPath {
 public:
  // The pipelines, the sort and its buffers (8 bytes a particle plus the sort's), and the OIT
  // accumulators (18 bytes a pixel: RGBA16F accumulation and emission, R16F revealage), which
  // AVBOIT shares, and AVBOIT's volume (8 bytes a voxel).
  // Errors: kUnsupported without independentBlend; kInvalidArgument for a zero size or capacity.
  static Result<ParticleRasterPath> create(gpu::Device& device, const RasterPathOptions& options);
  ParticleRasterPath() = default;
  ParticleRasterPath(ParticleRasterPath&&) noexcept = default;
  ParticleRasterPath& operator=(ParticleRasterPath&&) noexcept = default;

  // Records the sort (kSorted) and the draw; `draw_args` holds the quads' VkDrawIndexedIndirectCommand
  // at kDrawArgsQuadOffset and the sort's count at word kDrawArgsSortCountWord (render/draw_args).
  // Before: the particle buffers and draw_args visible to compute, vertex and indirect stages.
  // `targets` follow render/particle_targets.hpp's contract: the colour holds the opaque scene
  // and the particles are composited over it — drawn into it as a colour attachment (kSorted,
  // COLOR_ATTACHMENT_OPTIMAL) or resolved into it from the accumulators as a storage image (kOit,
  // GENERAL; kAvboit likewise, its volume's passes recorded first); the depth is tested
  // read-only and sampled by soft particles (and AVBOIT's splat) in
  // DEPTH_STENCIL_READ_ONLY_OPTIMAL, never written (its store op is NONE). After: both back in
  // the layouts they came in. Errors: kInvalidArgument for targets that break the contract.
  Status record(VkCommandBuffer cmd, const ParticleInputs& inputs, const ParticleTargets& targets, Transparency mode,
                const gpu::Buffer& draw_args, VkSampler depth_sampler);

  // The ribbons of `inputs` alone (inputs.ribbons; nothing without them), premultiplied "over" the
  // colour in their own rendering scope, depth-tested read-only: how the compute path's renderer
  // draws ribbons after its tiles (docs/design/ribbons.md). The targets' contract as record's.
  Status record_ribbons(VkCommandBuffer cmd, const ParticleInputs& inputs, const ParticleTargets& targets,
                        VkSampler depth_sampler);

  // AVBOIT's volume (benchmarks time it; tests read it).
  AvboitVolume& avboit_volume() { return avboit_volume_; }

 private:
  // The OIT accumulators (sampled) resolved onto the colour (WBOIT and AVBOIT alike).
  void record_resolve(VkCommandBuffer cmd, const ParticleTargets& targets, VkSampler sampler);
  // The ribbon pieces (inputs.ribbons) with `pipeline`, in the rendering scope the sprites drew in:
  // the same bindings as theirs plus the ribbon build's points, pieces and records.
  void draw_ribbons(VkCommandBuffer cmd, const ParticleInputs& inputs, const gpu::GraphicsPipeline& pipeline,
                    bool avboit, std::initializer_list<gpu::ImageBinding> images, const FogInput& fog,
                    const shader::ParticleDrawPush& push);

  gpu::Device* device_ = nullptr;
  RasterPathOptions options_;
  gpu::GraphicsPipeline oit_;
  gpu::GraphicsPipeline sorted_;
  gpu::GraphicsPipeline avboit_;
  gpu::GraphicsPipeline ribbon_oit_;  // the ribbon pieces (ribbon.vert) for each mode above
  gpu::GraphicsPipeline ribbon_sorted_;
  gpu::GraphicsPipeline ribbon_avboit_;
  AvboitVolume avboit_volume_;
  gpu::ComputePipeline resolve_;
  gpu::ComputePipeline sort_keys_;
  gpu::RadixSort sort_;
  gpu::Buffer sort_keys_buffer_;
  gpu::Buffer sort_values_;
  gpu::Buffer quad_indices_;  // 0 1 2 0 2 3
  gpu::Image oit_accum_;      // RGBA16F
  gpu::Image oit_revealage_;  // R16F
  gpu::Image oit_emission_;   // RGBA16F
  NoFog no_fog_;              // bound when the inputs bring no fog
};

}  // namespace mote::render
