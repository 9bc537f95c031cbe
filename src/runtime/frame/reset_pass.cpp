#include "runtime/frame/reset_pass.hpp"

#include <algorithm>

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<ResetPass> ResetPass::create(gpu::Device& device) {
  ResetPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/reset"));
  return pass;
}

void ResetPass::record(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(pipeline_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingStates, &b.states},
                {shader::kFrameBindingCommands, &b.commands}})
      .dispatch_threads(std::max(1u, frame.command_count));
  gpu::compute_to_compute(frame.cmd);
}

}  // namespace mote::runtime
