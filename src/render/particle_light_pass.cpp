#include "render/particle_light_pass.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <glm/matrix.hpp>
#include <vector>

#include "gpu/commands.hpp"

namespace mote::render {

namespace {

// The list's readers (the previous frame's, before this frame's writes; this frame's after) and
// the selection's own stages.
constexpr VkPipelineStageFlags2 kReaderStages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;

}  // namespace

Result<ParticleLightPass> ParticleLightPass::create(gpu::Device& device, const ParticleLightPassOptions& options) {
  if (options.capacity == 0 || options.max_lights == 0 || options.max_lights > shader::kParticleLightsMaxCapacity)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the particle-light pass needs a capacity above 0 and 1..{} lights ({}, {})",
                                  shader::kParticleLightsMaxCapacity, options.capacity, options.max_lights));
  if (options.cluster &&
      (options.width == 0 || options.height == 0 || !(options.near > 0.0f) || !(options.far > options.near) ||
       !std::isfinite(options.far) || options.entries > shader::kParticleLightClusterMaxEntries))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the particle-light grid needs pixels, 0 < near < far and at most {} entries "
                                  "({}x{}, {}..{}, {})",
                                  shader::kParticleLightClusterMaxEntries, options.width, options.height, options.near,
                                  options.far, options.entries));
  ParticleLightPass p;
  p.device_ = &device;
  p.options_ = options;
  if (options.cluster) {
    p.tiles_x_ = particle_light_tiles(options.width);
    p.tiles_y_ = particle_light_tiles(options.height);
  }
  const uint64_t clusters = uint64_t(p.tiles_x_) * p.tiles_y_ * shader::kParticleLightClusterSlices;
  p.entries_ = options.entries != 0
                   ? options.entries
                   : uint32_t(std::min<uint64_t>(clusters * shader::kParticleLightClusterEntriesPerCluster,
                                                 shader::kParticleLightClusterMaxEntries));
  MOTE_TRY_ASSIGN(p.sort_, gpu::RadixSort::create(device, options.capacity));
  MOTE_TRY_ASSIGN(p.candidates_pipeline_, gpu::ComputePipeline::create(device, "render/particle_lights_candidates"));
  MOTE_TRY_ASSIGN(p.select_pipeline_, gpu::ComputePipeline::create(device, "render/particle_lights_select"));
  MOTE_TRY_ASSIGN(p.bin_pipeline_, gpu::ComputePipeline::create(device, "render/particle_lights_bin"));
  const auto buffer = [&](gpu::Buffer& out, VkDeviceSize bytes, const char* name) -> Status {
    MOTE_TRY_ASSIGN(out, gpu::Buffer::create(device, {.size = bytes,
                                                      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                      .name = name}));
    return ok_status();
  };
  MOTE_TRY(buffer(p.keys_, VkDeviceSize(options.capacity) * 4, "mote.render.particle_light_keys"));
  MOTE_TRY(buffer(p.values_, VkDeviceSize(options.capacity) * 4, "mote.render.particle_light_values"));
  MOTE_TRY(buffer(p.list_, particle_light_list_bytes(options.max_lights), "mote.render.particle_lights"));
  MOTE_TRY(buffer(p.clusters_, particle_light_cluster_bytes(clusters, p.entries_),
                  "mote.render.particle_light_clusters"));
  // Every light zero until the first frame writes the header: a reader of a list never recorded
  // sees no lights (and a grid of no tiles).
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, p.list_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, p.clusters_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaderStages,
                        VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  }));
  return p;
}

shader::ParticleLightClusterHeader particle_light_cluster_header(uint32_t width, uint32_t height, float near, float far,
                                                                 uint32_t entries, const shader::RenderView& view) {
  shader::ParticleLightClusterHeader h{};
  h.view = view.view;
  h.projection = view.projection;
  h.inverse_projection = glm::inverse(view.projection);
  h.tiles_x = particle_light_tiles(width);
  h.tiles_y = particle_light_tiles(height);
  h.slices = shader::kParticleLightClusterSlices;
  h.clusters = h.tiles_x * h.tiles_y * h.slices;
  h.tile_ndc_x = 2.0f * float(shader::kParticleLightClusterTilePixels) / float(width);
  h.tile_ndc_y = 2.0f * float(shader::kParticleLightClusterTilePixels) / float(height);
  h.near = near;
  h.slice_scale = float(shader::kParticleLightClusterSlices) / std::log(far / near);
  h.entry_capacity = entries;
  return h;
}

shader::ParticleLightClusterHeader ParticleLightPass::cluster_header(const shader::RenderView& view) const {
  if (tiles_x_ == 0) return shader::ParticleLightClusterHeader{};  // no grid: every reader loops over the whole list
  return particle_light_cluster_header(options_.width, options_.height, options_.near, options_.far, entries_, view);
}

void ParticleLightPass::reset(VkCommandBuffer cmd, const shader::ParticleLightClusterHeader& grid) const {
  gpu::memory_barrier(cmd, kReaderStages, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  const shader::ParticleLightHeader header{0, 0, 0, options_.max_lights};
  vkCmdUpdateBuffer(cmd, list_.handle(), 0, sizeof(header), &header);
  vkCmdUpdateBuffer(cmd, clusters_.handle(), 0, sizeof(grid), &grid);
}

void ParticleLightPass::finish(VkCommandBuffer cmd) const {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaderStages,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

void ParticleLightPass::record_empty(VkCommandBuffer cmd) const {
  if (!device_) return;
  reset(cmd, shader::ParticleLightClusterHeader{});  // no lights, no grid
  finish(cmd);
}

Status ParticleLightPass::record(VkCommandBuffer cmd, const ParticleInputs& in, const gpu::Buffer& light_records,
                                 const shader::RenderView& view) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle-light pass used before create()");
  if (!in.pool || !in.alive || !in.counters || !in.records || in.record_words == 0)
    return make_error(ErrorCode::kInvalidArgument,
                      "the particle-light pass needs the pool, alive list, counters and records");
  if (in.capacity == 0 || in.capacity > options_.capacity ||
      light_records.size() < VkDeviceSize(in.record_count) * sizeof(shader::ParticleLightRecord))
    return make_error(ErrorCode::kInvalidArgument, "the frame is larger than the particle-light pass was made for");
  const shader::ParticleLightClusterHeader grid = cluster_header(view);
  reset(cmd, grid);
  gpu::transfer_to_compute(cmd);
  const shader::ParticleLightPush push{
      in.record_words, in.record_count, in.capacity, in.alive_count_word, options_.max_lights, 0, 0, 0};
  const std::vector<gpu::BufferBinding> common = {{0, in.pool},
                                                  {1, in.records},
                                                  {2, &light_records},
                                                  {3, in.counters},
                                                  {7, &list_}};
  std::vector<gpu::BufferBinding> bindings = common;
  bindings.insert(bindings.end(), {{4, in.alive}, {5, &keys_}, {6, &values_}});
  gpu::ComputeRecorder(*device_, cmd)
      .bind(candidates_pipeline_)
      .buffers(std::span<const gpu::BufferBinding>(bindings))
      .push(push)
      .dispatch_threads(in.capacity);
  // Stable sorts, least significant key first: by slot, then by brightness.
  const gpu::ScanCount count = gpu::ScanCount::from_buffer(list_, 1);  // ParticleLightHeader::candidates
  MOTE_TRY(sort_.record(cmd, values_, keys_, count, 32));
  MOTE_TRY(sort_.record(cmd, keys_, values_, count, 32));
  gpu::compute_to_compute(cmd);
  bindings = common;
  bindings.push_back({6, &values_});
  gpu::ComputeRecorder(*device_, cmd)
      .bind(select_pipeline_)
      .buffers(std::span<const gpu::BufferBinding>(bindings))
      .push(push)
      .dispatch_threads(options_.max_lights);
  if (grid.clusters != 0) {
    // The binning reads the list select wrote (docs/design/particle_lights.md, "The clustered list").
    gpu::compute_to_compute(cmd);
    gpu::ComputeRecorder(*device_, cmd)
        .bind(bin_pipeline_)
        .buffers({{0, &list_}, {1, &clusters_}})
        .dispatch_threads(grid.clusters);
  }
  finish(cmd);
  return ok_status();
}

}  // namespace mote::render
