#include "runtime/frame/field_bind_pass.hpp"

#include <algorithm>

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<FieldBindPass> FieldBindPass::create(gpu::Device& device) {
  FieldBindPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/field_bind"));
  return pass;
}

void FieldBindPass::record(const FrameRecording& frame, const gpu::Buffer& bindings, uint32_t count) const {
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(pipeline_)
      .buffers({{shader::kFrameBindingFieldBindings, &bindings},
                {shader::kFrameBindingTransformChannels, &frame.channels},
                {shader::kFrameBindingProgram, &frame.program}})
      .push(shader::FrameFieldBindPush{count, 0u, 0u, 0u})
      .dispatch(std::min((count + shader::kFrameWorkgroupSize - 1) / shader::kFrameWorkgroupSize,
                         shader::kFrameMaxGroups));
}

}  // namespace mote::runtime
