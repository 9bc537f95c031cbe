#include "runtime/frame/finish_pass.hpp"

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<FinishPass> FinishPass::create(gpu::Device& device) {
  FinishPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/finish"));
  return pass;
}

void FinishPass::record(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  frame.begin_pass("finish");
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(pipeline_)
      .buffers({{shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingKeep, &b.keep}})
      .dispatch(1);
  frame_end_barrier(frame.cmd);
  frame.end_pass();
}

}  // namespace mote::runtime
