#include "runtime/frame/compact_pass.hpp"

#include <cstddef>

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<CompactPass> CompactPass::create(gpu::Device& device) {
  CompactPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/compact"));
  return pass;
}

Status CompactPass::record(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  frame.begin_pass("compact");
  // The walked tiles' survivor counts scanned in place, sized from the GPU's count of them.
  const gpu::ScanCount walked = gpu::ScanCount::from_buffer(b.counters,
                                                            offsetof(shader::FrameCounters, walk_tiles) / 4);
  const Status scanned = b.keep_scan.record(frame.cmd, b.keep, b.keep, walked, gpu::ScanKind::kInclusive);
  gpu::compute_to_compute(frame.cmd);
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(pipeline_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingKeep, &b.keep},
                {shader::kFrameBindingAliveIn, &frame.alive_in},
                {shader::kFrameBindingAliveOut, &frame.alive_out},
                {shader::kFrameBindingFreeList, &b.free_list}})
      .dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
  return scanned;
}

}  // namespace mote::runtime
