#include "render/particle_light_pass.hpp"

#include <fmt/format.h>

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
  ParticleLightPass p;
  p.device_ = &device;
  p.options_ = options;
  MOTE_TRY_ASSIGN(p.sort_, gpu::RadixSort::create(device, options.capacity));
  MOTE_TRY_ASSIGN(p.candidates_pipeline_, gpu::ComputePipeline::create(device, "render/particle_lights_candidates"));
  MOTE_TRY_ASSIGN(p.select_pipeline_, gpu::ComputePipeline::create(device, "render/particle_lights_select"));
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
  // Every light zero until the first frame writes the header: a reader of a list never recorded
  // sees no lights.
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, p.list_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaderStages,
                        VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  }));
  return p;
}

void ParticleLightPass::reset(VkCommandBuffer cmd) const {
  gpu::memory_barrier(cmd, kReaderStages, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  const shader::ParticleLightHeader header{0, 0, 0, options_.max_lights};
  vkCmdUpdateBuffer(cmd, list_.handle(), 0, sizeof(header), &header);
}

void ParticleLightPass::finish(VkCommandBuffer cmd) const {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaderStages,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

void ParticleLightPass::record_empty(VkCommandBuffer cmd) const {
  if (!device_) return;
  reset(cmd);
  finish(cmd);
}

Status ParticleLightPass::record(VkCommandBuffer cmd, const ParticleInputs& in,
                                 const gpu::Buffer& light_records) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle-light pass used before create()");
  if (!in.pool || !in.alive || !in.counters || !in.records || in.record_words == 0)
    return make_error(ErrorCode::kInvalidArgument,
                      "the particle-light pass needs the pool, alive list, counters and records");
  if (in.capacity == 0 || in.capacity > options_.capacity ||
      light_records.size() < VkDeviceSize(in.record_count) * sizeof(shader::ParticleLightRecord))
    return make_error(ErrorCode::kInvalidArgument, "the frame is larger than the particle-light pass was made for");
  reset(cmd);
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
  finish(cmd);
  return ok_status();
}

}  // namespace mote::render
