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
#include "render/particle_fog.hpp"
#include "render/particle_inputs.hpp"
#include "render/particle_targets.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "gpu/passes/radix_sort.hpp"

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
  uint32_t pairs = 0;          // tile-particle pairs the binning asked for this frame (kept + dropped)
  uint32_t dropped_pairs = 0;  // pairs over max_tile_pairs: not drawn in the tiles they name
};

class ParticleComputePath {
 public:
  // Scratch (device-local): 16 bytes a pair (keys, values and the sort's ping-pong partners) plus
  // the sort's histograms, 20 bytes a particle plus the scan's, 8 bytes a tile. Errors:
  // kInvalidArgument for a zero size or max_particles; kUnsupported for more than 65536 tiles
  // (e.g. above 4096 x 4096: the key keeps 16 bits of tile index), buffers past one storage
  // binding, or a device without what the sort and scan need (subgroup ballot and arithmetic).
  static Result<ParticleComputePath> create(gpu::Device& device, const ComputePathOptions& options);
  ParticleComputePath() = default;
  ParticleComputePath(ParticleComputePath&&) noexcept = default;
  ParticleComputePath& operator=(ParticleComputePath&&) noexcept = default;

  // Records: bin (one thread per alive particle: project its quad, emit a (tile, depth) key per
  // covered tile), sort the keys, find each tile's range, blend. `targets` follow
  // render/particle_targets.hpp's contract: the colour (R16G16B16A16_SFLOAT) is read and written
  // as a storage image in GENERAL, the particles composited OVER what it holds (premultiplied,
  // additive alpha 0); the depth (D32, reversed-Z) is sampled with `depth_sampler` (nearest) in
  // the layout it came in when that can be sampled, else DEPTH_STENCIL_READ_ONLY_OPTIMAL. Before:
  // the frame's particle buffers made visible to compute shaders by the caller. After: both images
  // back in the layouts they came in. The counts stay on the GPU: the alive count is clamped to
  // inputs.capacity and max_particles, alive-list slots below the capacity; kProjectionMesh
  // sprites are left to the mesh pipeline. A frame's pair count is a u32: a frame asking for 2^32
  // pairs or more draws garbage (never out of bounds). Misuse (a missing buffer, targets of
  // another size or colour format) aborts through MOTE_CHECK.
  void record(VkCommandBuffer cmd, const ParticleInputs& inputs, const ParticleTargets& targets,
              VkSampler depth_sampler);

  // Readback of last frame's counters (tests and tools; submit-and-wait).
  Result<ComputePathStats> read_stats();

 private:
  gpu::Device* device_ = nullptr;
  ComputePathOptions options_;
  uint32_t tiles_x_ = 0;
  uint32_t tiles_y_ = 0;
  uint32_t key_bits_ = 0;        // 16 depth bits + enough for the tile index
  uint32_t max_tile_pairs_ = 0;  // options_.max_tile_pairs resolved
  gpu::Buffer keys_;             // max_tile_pairs_ u32: tile << 16 | depth
  gpu::Buffer values_;           // max_tile_pairs_ u32: alive-list index
  gpu::Buffer tile_ranges_;      // uvec2 [first, end) per tile
  gpu::Buffer counters_;         // shader::TileCounters: indirect args and the pair counts
  gpu::Buffer bins_;             // shader::TileParticleBin per alive-list entry
  gpu::Buffer offsets_;          // per alive-list entry: its tile count, scanned into its first pair
  NoFog no_fog_;                 // bound when the inputs bring no fog
  gpu::PrefixScan scan_;         // offsets_, exclusive, in place
  gpu::RadixSort sort_;
  gpu::ComputePipeline setup_;
  gpu::ComputePipeline bin_;
  gpu::ComputePipeline ranges_;
  gpu::ComputePipeline blend_;
};

}  // namespace mote::render
