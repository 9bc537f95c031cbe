#include "runtime/frame/bounds_pass.hpp"

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<BoundsPass> BoundsPass::create(gpu::Device& device) {
  BoundsPass pass;
  MOTE_TRY_ASSIGN(pass.accumulate_, gpu::ComputePipeline::create(device, "runtime/frame/bounds_accumulate"));
  MOTE_TRY_ASSIGN(pass.publish_, gpu::ComputePipeline::create(device, "runtime/frame/bounds_publish"));
  return pass;
}

void BoundsPass::record(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  frame.begin_pass("bounds");
  gpu::ComputeRecorder rec(frame.device, frame.cmd);
  // Finish's end barrier made its counts and the bounds' arguments (this list's size) visible
  // to indirect reads and compute.
  rec.bind(accumulate_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingEmitters, &b.emitters},
                {shader::kFrameBindingAliveOut, &frame.alive_out},
                {shader::kFrameBindingPool, &b.pool},
                {shader::kFrameBindingBoundsAccumulators, &b.bounds_accumulators}})
      .dispatch_indirect(b.counters, shader::kFrameBoundsArgsOffset);
  gpu::compute_to_compute(frame.cmd);
  if (frame.rows > 0) {
    rec.bind(publish_)
        .buffers({{shader::kFrameBindingParams, &b.params},
                  {shader::kFrameBindingEmitters, &b.emitters},
                  {shader::kFrameBindingBoundsAccumulators, &b.bounds_accumulators},
                  {shader::kFrameBindingEmitterBounds, &b.emitter_bounds}})
        .dispatch_threads(frame.rows);
  }
  frame_end_barrier(frame.cmd);
  frame.end_pass();
}

}  // namespace mote::runtime
