#include "runtime/frame/compact_pass.hpp"

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
  // The tiles' survivor counts scanned in place (every tile of the capacity: zero past the list).
  const Status scanned = b.keep_scan.record(frame.cmd, b.keep, b.keep, gpu::ScanCount::host(b.keep_scan.capacity()),
                                            gpu::ScanKind::kInclusive);
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
