#include "render/avboit_volume.hpp"

#include <fmt/format.h>

#include "gpu/commands.hpp"
#include "shared/avboit.h"
#include "shared/frame.h"
#include "shared/render_passes.h"

namespace mote::render {

namespace {

constexpr uint32_t kMaxColumnsPerSide = 4096;
constexpr uint32_t kMaxSlices = 256;

}  // namespace

glm::uvec3 avboit_grid_for(uint32_t width, uint32_t height) {
  return {std::max((width + 15) / 16, 1u), std::max((height + 15) / 16, 1u), 64};
}

Result<AvboitVolume> AvboitVolume::create(gpu::Device& device, const AvboitDesc& desc) {
  if (desc.width == 0 || desc.height == 0)
    return make_error(ErrorCode::kInvalidArgument, "AVBOIT needs a target size above 0", "avboit volume");
  AvboitVolume v;
  v.device_ = &device;
  v.desc_ = desc;
  if (!desc.grid.x || !desc.grid.y || !desc.grid.z) v.desc_.grid = avboit_grid_for(desc.width, desc.height);
  const glm::uvec3 g = v.desc_.grid;
  if (g.x > kMaxColumnsPerSide || g.y > kMaxColumnsPerSide || g.z > kMaxSlices)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("an AVBOIT grid of {}x{}x{}: at most {} columns a side and {} slices", g.x, g.y, g.z,
                                  kMaxColumnsPerSide, kMaxSlices),
                      "avboit volume");
  if (!(desc.near_distance > 0.0f && desc.far_distance > desc.near_distance))
    return make_error(ErrorCode::kInvalidArgument, "the AVBOIT depth range must be 0 < near < far", "avboit volume");
  MOTE_TRY_ASSIGN(v.occupancy_, gpu::ComputePipeline::create(device, "render/avboit_occupancy"));
  MOTE_TRY_ASSIGN(v.splat_, gpu::ComputePipeline::create(device, "render/avboit_splat"));
  MOTE_TRY_ASSIGN(v.integrate_, gpu::ComputePipeline::create(device, "render/avboit_integrate"));
  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const VkDeviceSize columns = VkDeviceSize(g.x) * g.y;
  MOTE_TRY_ASSIGN(v.slices_, gpu::Buffer::create(device, {.size = sizeof(shader::AvboitSlices),
                                                          .usage = kStorage,
                                                          .name = "mote.render.avboit_slices"}));
  MOTE_TRY_ASSIGN(v.extinction_, gpu::Buffer::create(device, {.size = columns * g.z * 4,
                                                              .usage = kStorage,
                                                              .name = "mote.render.avboit_extinction"}));
  MOTE_TRY_ASSIGN(v.optical_depth_, gpu::Buffer::create(device, {.size = columns * (g.z + 1) * 4,
                                                                 .usage = kStorage,
                                                                 .name = "mote.render.avboit_optical_depth"}));
  MOTE_TRY_ASSIGN(v.no_bounds_, gpu::Buffer::create(device, {.size = sizeof(shader::FrameEmitterBounds),
                                                             .usage = kStorage,
                                                             .name = "mote.render.avboit_no_bounds"}));
  return v;
}

void AvboitVolume::record(VkCommandBuffer cmd, const ParticleInputs& in, VkImageView scene_depth,
                          VkImageLayout depth_layout, VkSampler depth_sampler) {
  gpu::Device& device = *device_;
  const glm::uvec3 g = desc_.grid;
  if (profiler_) profiler_->begin(cmd, "avboit");
  // The previous frame's readers (its splat, integrate and draw) before this frame's writes.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  shader::AvboitSlices header{};
  header.depth_range = {desc_.near_distance, desc_.far_distance, float(g.z), float(shader::kAvboitBins)};
  header.grid = {g.x, g.y, g.z, 0};
  vkCmdUpdateBuffer(cmd, slices_.handle(), 0, offsetof(shader::AvboitSlices, occupancy), &header);
  vkCmdFillBuffer(cmd, extinction_.handle(), 0, VK_WHOLE_SIZE, 0);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

  const bool measured = in.emitter_bounds && in.emitter_bounds_rows > 0;
  const shader::AvboitPush push{in.record_words,
                                in.record_count,
                                in.capacity,
                                in.alive_count_word,
                                measured ? in.emitter_bounds_rows : 0u,
                                0,
                                0,
                                0};
  gpu::ComputeRecorder(device, cmd)
      .bind(occupancy_)
      .buffers({{0, in.view}, {1, in.records}, {2, measured ? in.emitter_bounds : &no_bounds_}, {3, &slices_}})
      .push(push)
      .dispatch(1);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  gpu::ComputeRecorder(device, cmd)
      .bind(splat_)
      .bind_resources({{0, in.view},
                       {1, in.pool},
                       {2, in.records},
                       {3, in.alive},
                       {4, in.counters},
                       {5, &slices_},
                       {6, &extinction_}},
                      {{7, in.atlas, in.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       {8, scene_depth, depth_sampler, depth_layout}})
      .push(push)
      .dispatch_threads(in.capacity);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  gpu::ComputeRecorder(device, cmd)
      .bind(integrate_)
      .buffers({{0, &slices_}, {1, &extinction_}, {2, &optical_depth_}})
      .dispatch_threads(g.x * g.y);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  if (profiler_) profiler_->end(cmd);
}

}  // namespace mote::render
