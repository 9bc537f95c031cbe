// The compute draw path: a tile-based sort-then-blend rasterizer for particle quads, the scheme of
// Laine & Karras, "High-Performance Software Rasterization on GPUs" (HPG 2011: bin primitives to
// screen tiles, then one workgroup per tile) with the per-tile depth order of 3D Gaussian
// Splatting's tile rasterizer (Kerbl et al., SIGGRAPH 2023: duplicate each primitive per covered
// tile with a (tile | depth) key, radix-sort, find each tile's run, blend front to back with
// shared-memory batches and an early out), which is also how per-tile sorting gives
// order-independent transparency. Every count stays on the GPU (indirect dispatches); nothing is
// read back per frame.
//
// Passes (shaders/render/tile_*.comp; layouts in shaders/shared/compute_path.h):
//   1. tile_setup (clamp): clear the tile ranges; n = min(alive count word, pool capacity,
//      max_particles); tile_bin's indirect dispatch.
//   2. tile_bin (count), one invocation per alive-list entry i < n: the sprite (particle_fetch,
//      slot clamped below the capacity) is skipped when stale/hidden, a mesh particle
//      (kProjectionMesh), of zero area or zero alpha. Its four corners are projected and the quad
//      is CLIPPED to the near plane (clip w >= RenderView::clip.x, Sutherland-Hodgman) -- not
//      culled when one corner is behind it, so a big sprite through the near plane keeps its
//      visible part as a clipping rasterizer would; wholly behind it: culled. The screen
//      bounding box of the rest (plus one pixel of margin) gives an inclusive rectangle of
//      16 x 16 tiles; wholly off the screen: culled. Depth key: the centre's view distance d,
//      q = 65535 * clamp(log2(d / near) / 24, 0, 1), nearest first (2,730 steps an octave).
//   3. PrefixScan (exclusive, in place) of the per-particle tile counts: each particle's first
//      pair. Pairs are placed by alive-list order, not by atomics, so equal keys reach the stable
//      sort in alive-list order and the image is deterministic.
//   4. tile_setup (pairs): total pairs, kept = min(total, max_tile_pairs), dropped = the rest;
//      tile_ranges' indirect dispatch.
//   5. tile_bin (emit): key = tile << 16 | q, value = alive-list index, for every covered tile;
//      pairs at or past max_tile_pairs are not written (counted as dropped in step 4).
//   6. RadixSort of the kept pairs, count from the counters word, 16 + ceil(log2(tiles)) key bits.
//   7. tile_ranges: where the tile changes between neighbouring sorted pairs, the run starts/ends.
//   8. tile_blend, one 16 x 16 workgroup per tile: rounds of 128 sprites staged in shared memory;
//      each pixel intersects its centre ray (unprojected with inverse_view_projection; Vulkan NDC,
//      y = -1 on the top row) with the quad's plane, solves the hit for the quad coordinates c in
//      the axis_x / axis_y basis (inside when |c.x|, |c.y| <= 0.5), and draws it when its view
//      distance lies in [near, scene distance] (the depth texel through particle_view_depth):
//      texel = particle_sample(particle_corner_uv(c)), colour = particle_premultiply with the
//      soft fade (particle_soft_fade) -- lit sprites lit per pixel as the raster path lights them.
//      Front to back, C += (1 - A) c, A += (1 - A) a; a pixel stops at A > 0.996 and the tile stops when all of
//      its pixels have; colour = C + (1 - A) colour_in (alpha likewise).
//
// The order is per particle (its quantised centre depth, ties by alive-list order), exact as a
// sorted raster path's is, NOT per fragment: two quads that intersect do not cut each other, and
// two centres within one depth step (0.026 %) keep alive-list order. Camera-facing quads
// (billboards, stretched) have one depth over their whole area, so for them the two agree.
#include "render/particle_compute_path.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/check.hpp"
#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "shared/compute_path.h"
#include "shared/particle_render.h"

namespace mote::render {
namespace {

using shader::kTileSize;

constexpr uint32_t kMaxTiles = 1u << 16;  // the tile index is the key's high 16 bits

uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

Result<ParticleComputePath> ParticleComputePath::create(gpu::Device& device, const ComputePathOptions& options) {
  if (options.max_particles == 0 || options.width == 0 || options.height == 0) {
    return make_error(ErrorCode::kInvalidArgument, "compute path needs max_particles, width and height above 0",
                      std::to_string(options.max_particles) + " particles, " + std::to_string(options.width) + " x " +
                          std::to_string(options.height));
  }
  const uint64_t tiles_x = div_up(options.width, kTileSize), tiles_y = div_up(options.height, kTileSize);
  if (tiles_x * tiles_y > kMaxTiles) {
    return make_error(ErrorCode::kUnsupported,
                      "compute path: the target has more than 65536 16x16 tiles (the sort key keeps 16 bits of tile "
                      "index; 4096 x 4096 is the largest square)",
                      std::to_string(options.width) + " x " + std::to_string(options.height) + " = " +
                          std::to_string(tiles_x * tiles_y) + " tiles");
  }
  // Each pair is 4 bytes of key and 4 of value, each buffer one storage binding.
  const uint64_t binding_words = device.limits().maxStorageBufferRange / 4;
  uint64_t max_pairs = options.max_tile_pairs;
  if (max_pairs == 0) {
    max_pairs = std::max<uint64_t>(uint64_t(options.max_particles) * 8, 1u << 16);
    max_pairs = std::min<uint64_t>({max_pairs, binding_words, 1ull << 31});
  }
  if (max_pairs > binding_words || max_pairs > (1ull << 31)) {
    return make_error(ErrorCode::kUnsupported, "compute path: max_tile_pairs exceeds one storage buffer binding",
                      std::to_string(max_pairs) + " pairs");
  }
  if (uint64_t(options.max_particles) * sizeof(shader::TileParticleBin) > device.limits().maxStorageBufferRange) {
    return make_error(ErrorCode::kUnsupported, "compute path: max_particles exceeds one storage buffer binding",
                      std::to_string(options.max_particles) + " particles");
  }

  ParticleComputePath path;
  path.device_ = &device;
  path.options_ = options;
  path.tiles_x_ = uint32_t(tiles_x);
  path.tiles_y_ = uint32_t(tiles_y);
  path.key_bits_ = shader::kTileDepthBits + uint32_t(std::bit_width(uint32_t(tiles_x * tiles_y - 1)));
  path.max_tile_pairs_ = uint32_t(max_pairs);
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MOTE_TRY_ASSIGN(path.keys_,
                  gpu::Buffer::create(device, {.size = max_pairs * 4, .usage = storage, .name = "compute_path.keys"}));
  MOTE_TRY_ASSIGN(path.values_,
                  gpu::Buffer::create(device,
                                      {.size = max_pairs * 4, .usage = storage, .name = "compute_path.values"}));
  MOTE_TRY_ASSIGN(path.tile_ranges_, gpu::Buffer::create(device, {.size = tiles_x * tiles_y * 8,
                                                                  .usage = storage,
                                                                  .name = "compute_path.tile_ranges"}));
  MOTE_TRY_ASSIGN(path.counters_, gpu::Buffer::create(device, {.size = sizeof(shader::TileCounters),
                                                               .usage = storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                                                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                               .name = "compute_path.counters"}));
  MOTE_TRY_ASSIGN(path.bins_, gpu::Buffer::create(device, {.size = uint64_t(options.max_particles) *
                                                                   sizeof(shader::TileParticleBin),
                                                           .usage = storage,
                                                           .name = "compute_path.bins"}));
  MOTE_TRY_ASSIGN(path.offsets_, gpu::Buffer::create(device, {.size = uint64_t(options.max_particles) * 4,
                                                              .usage = storage,
                                                              .name = "compute_path.offsets"}));
  // Until the first frame, the stats read zero pairs.
  const std::vector<uint8_t> no_counts(sizeof(shader::TileCounters), 0);
  MOTE_TRY(gpu::upload(device, path.counters_, no_counts));
  MOTE_TRY_ASSIGN(path.scan_, gpu::PrefixScan::create(device, options.max_particles));
  MOTE_TRY_ASSIGN(path.sort_, gpu::RadixSort::create(device, uint32_t(max_pairs)));
  MOTE_TRY_ASSIGN(path.setup_, gpu::ComputePipeline::create(device, "render/tile_setup"));
  MOTE_TRY_ASSIGN(path.bin_, gpu::ComputePipeline::create(device, "render/tile_bin"));
  MOTE_TRY_ASSIGN(path.ranges_, gpu::ComputePipeline::create(device, "render/tile_ranges"));
  MOTE_TRY_ASSIGN(path.blend_, gpu::ComputePipeline::create(device, "render/tile_blend"));
  MOTE_TRY_ASSIGN(path.no_fog_, NoFog::create(device));
  return path;
}

namespace {

// The recording contract of ParticleComputePath::record: a misuse is a Mote bug, so it aborts.
void check_record_inputs(const ParticleInputs& inputs, const ParticleTargets& targets, VkSampler depth_sampler,
                         const ComputePathOptions& options) {
  MOTE_CHECK(targets.color && targets.depth, "compute path targets lack an image");
  const gpu::Image& color = *targets.color;
  const gpu::Image& depth = *targets.depth;
  MOTE_CHECK(inputs.pool && inputs.alive && inputs.counters && inputs.records && inputs.view,
             "compute path inputs lack a buffer");
  MOTE_CHECK(inputs.atlas != VK_NULL_HANDLE && inputs.atlas_sampler != VK_NULL_HANDLE &&
                 depth_sampler != VK_NULL_HANDLE,
             "compute path inputs lack the atlas or a sampler");
  MOTE_CHECK(inputs.capacity > 0 && inputs.record_words > 0, "compute path inputs: empty pool");
  MOTE_CHECK(inputs.lighting.luma && inputs.lighting.chroma && inputs.lighting.sampler && inputs.lighting.sampling,
             "compute path inputs lack the irradiance volume");
  MOTE_CHECK(color.width() == options.width && color.height() == options.height && depth.width() == options.width &&
                 depth.height() == options.height,
             "compute path targets differ from the size it was created for");
  MOTE_CHECK(color.format() == VK_FORMAT_R16G16B16A16_SFLOAT, "compute path colour target must be R16G16B16A16_SFLOAT");
}

}  // namespace

void ParticleComputePath::record(VkCommandBuffer cmd, const ParticleInputs& inputs, const ParticleTargets& targets,
                                 VkSampler depth_sampler) {
  MOTE_CHECK(device_ != nullptr, "compute path used before create()");
  check_record_inputs(inputs, targets, depth_sampler, options_);
  const gpu::Image& color = *targets.color;
  const gpu::Image& depth = *targets.depth;
  shader::TilePathParams params{};
  params.width = options_.width;
  params.height = options_.height;
  params.tiles_x = tiles_x_;
  params.tiles_y = tiles_y_;
  params.capacity = inputs.capacity;
  params.max_particles = options_.max_particles;
  params.record_words = inputs.record_words;
  params.record_count = inputs.record_count;
  params.alive_count_word = inputs.alive_count_word;
  params.max_pairs = max_tile_pairs_;
  const VkDeviceSize bins_bytes = VkDeviceSize(options_.max_particles) * sizeof(shader::TileParticleBin);
  const VkDeviceSize offsets_bytes = VkDeviceSize(options_.max_particles) * 4;

  // This frame's scratch is last frame's: its readers (blend, indirect reads, stats copies) are done
  // before it is rewritten; the caller's simulate / opaque writes are visible already (contract).
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                          VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT |
                          VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
  gpu::ComputeRecorder rec(*device_, cmd);
  auto setup = [&](uint32_t mode) {
    params.mode = mode;
    rec.bind(setup_)
        .buffers({{0, inputs.counters},
                  {1, &counters_},
                  {2, &tile_ranges_},
                  {3, &bins_, 0, bins_bytes},
                  {4, &offsets_, 0, offsets_bytes}})
        .push(params);
  };
  auto bin = [&](uint32_t mode) {
    params.mode = mode;
    rec.bind(bin_)
        .buffers({{0, inputs.pool},
                  {1, inputs.records},
                  {2, inputs.view, 0, sizeof(shader::RenderView)},
                  {3, inputs.alive},
                  {4, &counters_},
                  {5, &bins_, 0, bins_bytes},
                  {6, &offsets_, 0, offsets_bytes},
                  {7, &keys_},
                  {8, &values_}})
        .push(params)
        .dispatch_indirect(counters_, offsetof(shader::TileCounters, bin_groups_x));
  };

  // 1. Clear the ranges, clamp the count, tile_bin's dispatch.
  setup(shader::kTileSetupClamp);
  rec.dispatch(div_up(tiles_x_ * tiles_y_, shader::kTileSetupWorkgroupSize));
  gpu::compute_to_indirect(cmd);
  // 2. Each particle's tiles and depth key.
  bin(shader::kTileBinCount);
  gpu::compute_to_compute(cmd);
  // 3. First pair of each particle (the scan opens with its own barrier).
  const gpu::ScanCount alive_count = gpu::ScanCount::from_buffer(counters_, offsetof(shader::TileCounters, alive) / 4);
  Status scanned = scan_.record(cmd, offsets_, offsets_, alive_count, gpu::ScanKind::kExclusive);
  MOTE_CHECK(scanned.ok(), "compute path: the offsets scan was refused");
  gpu::compute_to_compute(cmd);
  // 4. Pair totals and tile_ranges' dispatch.
  setup(shader::kTileSetupPairs);
  rec.dispatch(1);
  gpu::compute_to_indirect(cmd);
  // 5. The pairs.
  bin(shader::kTileBinEmit);
  // 6. Sorted by (tile, depth); the sort opens with a barrier from the emit's writes.
  Status sorted = sort_.record(cmd, keys_, values_,
                               gpu::ScanCount::from_buffer(counters_, offsetof(shader::TileCounters, kept) / 4),
                               key_bits_);
  MOTE_CHECK(sorted.ok(), "compute path: the pair sort was refused");
  gpu::compute_to_compute(cmd);
  // 7. Each tile's run.
  params.mode = 0;
  rec.bind(ranges_)
      .buffers({{0, &counters_}, {1, &keys_}, {2, &tile_ranges_}})
      .push(params)
      .dispatch_indirect(counters_, offsetof(shader::TileCounters, ranges_groups_x));
  gpu::compute_to_compute(cmd);
  // 8. Blend, one workgroup per tile, over the colour target.
  const VkImageLayout depth_layout = sampled_depth_layout(targets.depth_layout);
  acquire_target(cmd, color, targets.color_layout, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  acquire_target(cmd, depth, targets.depth_layout, depth_layout, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  const FogInput fog = no_fog_.or_none(inputs.fog);
  rec.bind(blend_)
      .bind_resources({{0, inputs.pool},
                       {1, inputs.records},
                       {2, inputs.view, 0, sizeof(shader::RenderView)},
                       {3, inputs.alive},
                       {4, &values_},
                       {5, &tile_ranges_},
                       {11, fog.sampling},
                       {13, inputs.lighting.sampling}},
                      {{6, inputs.atlas, inputs.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       {7, depth.view(), depth_sampler, depth_layout},
                       {8, color.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                       {9, inputs.lighting.luma, inputs.lighting.sampler, VK_IMAGE_LAYOUT_GENERAL},
                       {10, fog.integrated, fog.sampler, VK_IMAGE_LAYOUT_GENERAL},
                       {12, inputs.lighting.chroma, inputs.lighting.sampler, VK_IMAGE_LAYOUT_GENERAL}})
      .push(params)
      .dispatch(tiles_x_, tiles_y_);
  release_target(cmd, color, VK_IMAGE_LAYOUT_GENERAL, targets.color_layout, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  release_target(cmd, depth, depth_layout, targets.depth_layout, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_NONE);
}

Result<ComputePathStats> ParticleComputePath::read_stats() {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "compute path used before create()");
  MOTE_TRY_ASSIGN(std::vector<shader::TileCounters> counters,
                  gpu::readback_as<shader::TileCounters>(*device_, counters_, 1));
  return ComputePathStats{counters[0].pairs, counters[0].dropped};
}

}  // namespace mote::render
