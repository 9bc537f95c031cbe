// The compute draw path (R6 "Two ways to draw", 2): particles binned into 16 x 16 pixel screen
// tiles, each tile's particles sorted front to back (GPU radix sort of tile << 16 | depth keys),
// then blended per pixel in a compute pass, front to back with an early out once a pixel is
// opaque, against the scene depth: exact per-particle order, no OIT approximation. Compute runs on
// every SM of a Hopper GPU, where vertex and pixel work runs on only a couple of its clusters;
// whether that wins is measured (docs/PERFORMANCE.md), not assumed.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/image.hpp"
#include "mote/result.hpp"
#include "render/particle_inputs.hpp"
#include "runtime_passes/radix_sort.hpp"

namespace mote::render {

inline constexpr uint32_t kComputeTileSize = 16;

struct ComputePathOptions {
  uint32_t max_particles = 0;  // the pool's capacity
  uint32_t width = 0;          // the colour target's size
  uint32_t height = 0;
  // Tile-particle pairs the binning may emit per frame (a large sprite covers many tiles);
  // pairs beyond it are dropped and counted (stats). 0 = 8 x max_particles, at least 2^16.
  uint32_t max_tile_pairs = 0;
};

struct ComputePathStats {
  uint32_t pairs = 0;          // tile-particle pairs this frame
  uint32_t dropped_pairs = 0;  // pairs over max_tile_pairs
};

class ParticleComputePath {
 public:
  static Result<ParticleComputePath> create(gpu::Device& device, const ComputePathOptions& options);
  ParticleComputePath() = default;
  ParticleComputePath(ParticleComputePath&&) noexcept = default;
  ParticleComputePath& operator=(ParticleComputePath&&) noexcept = default;

  // Records: bin (one thread per alive particle: project its quad, emit a (tile, depth) key per
  // covered tile), sort the keys, find each tile's range, blend. `color` is the scene's HDR target
  // (R16G16B16A16_SFLOAT) in GENERAL layout, read and written as a storage image: the particles are
  // composited OVER what it holds (premultiplied, additive alpha 0). `depth` is the scene's depth
  // (D32, reversed-Z) in SHADER_READ_ONLY_OPTIMAL or DEPTH_READ_ONLY_OPTIMAL (given by
  // `depth_layout`), sampled with `depth_sampler` (nearest). Before: the frame's simulate and the
  // opaque pass must be made visible to compute shaders by the caller. After: `color` written by
  // compute shaders (the caller barriers before tonemapping).
  void record(VkCommandBuffer cmd, const ParticleInputs& inputs, const gpu::Image& color, const gpu::Image& depth,
              VkImageLayout depth_layout, VkSampler depth_sampler);

  // Readback of last frame's counters (tests and tools; submit-and-wait).
  Result<ComputePathStats> read_stats();

 private:
  gpu::Device* device_ = nullptr;
  ComputePathOptions options_;
  // Implementation-defined scratch: keys, values, tile ranges, counters, indirect args.
  gpu::Buffer keys_;
  gpu::Buffer values_;
  gpu::Buffer tile_ranges_;
  gpu::Buffer counters_;
  runtime::RadixSort sort_;
  gpu::ComputePipeline bin_;
  gpu::ComputePipeline ranges_;
  gpu::ComputePipeline blend_;
};

}  // namespace mote::render
