#include "runtime/frame/bucket_pass.hpp"

#include <algorithm>
#include <bit>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "runtime/frame/frame_buffers.hpp"

namespace mote::runtime {

Result<BucketPass> BucketPass::create(gpu::Device& device, uint32_t max_programs) {
  BucketPass pass;
  const uint32_t ids = std::max(max_programs, 1u);
  MOTE_TRY_ASSIGN(pass.count_, gpu::ComputePipeline::create(device, "runtime/frame/bucket_count"));
  MOTE_TRY_ASSIGN(pass.pad_, gpu::ComputePipeline::create(device, "runtime/frame/bucket_pad"));
  MOTE_TRY_ASSIGN(pass.layout_, gpu::ComputePipeline::create(device, "runtime/frame/bucket_layout"));
  MOTE_TRY_ASSIGN(pass.scatter_, gpu::ComputePipeline::create(device, "runtime/frame/bucket_scatter"));
  MOTE_TRY_ASSIGN(pass.scan_, gpu::PrefixScan::create(device, ids));
  MOTE_TRY_ASSIGN(pass.buckets_,
                  make_frame_buffer(device, VkDeviceSize(ids) * sizeof(shader::FrameBucket),
                                    kFrameStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "mote.frame.buckets"));
  MOTE_TRY_ASSIGN(pass.sizes_,
                  make_frame_buffer(device, VkDeviceSize(ids) * 4, kFrameStorageUsage, "mote.frame.bucket_sizes"));
  MOTE_TRY_ASSIGN(pass.offsets_,
                  make_frame_buffer(device, VkDeviceSize(ids) * 4, kFrameStorageUsage, "mote.frame.bucket_offsets"));
  return pass;
}

Status BucketPass::ensure(gpu::Device& device, uint32_t capacity, uint32_t program_ids, RetiredBuffers& retired,
                          uint64_t frame) {
  if (!entry_programs_.valid()) {
    MOTE_TRY_ASSIGN(entry_programs_, make_frame_buffer(device, VkDeviceSize(capacity) * 4, kFrameStorageUsage,
                                                       "mote.frame.entry_programs"));
  }
  if (coherence_.valid() && program_ids <= coherence_ids_) return ok_status();
  // Every bucket pads fewer than 64 entries: the list never exceeds capacity + 64 per id. Room
  // for twice the ids (a power of two) so a growing scene reallocates rarely.
  const uint32_t ids = std::bit_ceil(std::max(program_ids, 2u));
  const VkDeviceSize entries = VkDeviceSize(capacity) + VkDeviceSize(shader::kFrameWorkgroupSize) * ids;
  MOTE_TRY_ASSIGN(gpu::Buffer grown,
                  make_frame_buffer(device, entries * 4, kFrameStorageUsage, "mote.frame.coherence"));
  if (coherence_.valid()) retired.retire(std::move(coherence_), frame);
  coherence_ = std::move(grown);
  coherence_ids_ = ids;
  return ok_status();
}

Status BucketPass::record(const FrameRecording& frame, uint32_t program_ids) const {
  if (!ready() || program_ids == 0 || VkDeviceSize(program_ids) * 4 > sizes_.size())
    return make_error(ErrorCode::kInternal, "the coherence buckets were recorded without their buffers");
  const FrameBuffers& b = frame.buffers;
  const VkCommandBuffer cmd = frame.cmd;
  const shader::FrameBucketPush push{program_ids, 0u, 0u, 0u};
  vkCmdFillBuffer(cmd, sizes_.handle(), 0, VkDeviceSize(program_ids) * 4, 0u);
  gpu::transfer_to_compute(cmd);
  gpu::ComputeRecorder rec(frame.device, cmd);
  rec.bind(count_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingEmitters, &b.emitters},
                {shader::kFrameBindingAliveIn, &frame.alive_in},
                {shader::kFrameBindingPool, &b.pool},
                {shader::kFrameBindingBucketSizes, &sizes_},
                {shader::kFrameBindingEntryPrograms, &entry_programs_}})
      .push(push)
      .dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_compute(cmd);
  rec.bind(pad_)
      .buffers({{shader::kFrameBindingBucketSizes, &sizes_}, {shader::kFrameBindingBucketOffsets, &offsets_}})
      .push(push)
      .dispatch_threads(program_ids);
  // PrefixScan's own barrier orders the pad's writes before its reads.
  MOTE_TRY(scan_.record(cmd, offsets_, offsets_, gpu::ScanCount::host(program_ids), gpu::ScanKind::kExclusive));
  gpu::compute_to_compute(cmd);
  rec.bind(layout_)
      .buffers({{shader::kFrameBindingBucketSizes, &sizes_},
                {shader::kFrameBindingBucketOffsets, &offsets_},
                {shader::kFrameBindingBuckets, &buckets_},
                {shader::kFrameBindingCoherence, &coherence_}})
      .push(push)
      .dispatch_threads(program_ids);
  gpu::compute_to_compute(cmd);
  rec.bind(scatter_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingEntryPrograms, &entry_programs_},
                {shader::kFrameBindingBuckets, &buckets_},
                {shader::kFrameBindingCoherence, &coherence_}})
      .push(push)
      .dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_indirect(cmd);
  return ok_status();
}

Result<BucketReadback> BucketPass::read(gpu::Device& device, uint32_t program_ids) const {
  BucketReadback out;
  if (!ready() || program_ids == 0) return out;
  MOTE_TRY_ASSIGN(out.buckets, gpu::readback_as<shader::FrameBucket>(device, buckets_, program_ids));
  uint64_t end = 0;
  for (const shader::FrameBucket& bucket : out.buckets)
    end = std::max<uint64_t>(end, uint64_t(bucket.first) + bucket.entries);
  end = std::min<uint64_t>(end, coherence_.size() / 4);
  if (end > 0) {
    MOTE_TRY_ASSIGN(out.coherence, gpu::readback_as<uint32_t>(device, coherence_, size_t(end)));
  }
  return out;
}

}  // namespace mote::runtime
