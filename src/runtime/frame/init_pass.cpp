#include "runtime/frame/init_pass.hpp"

#include <algorithm>

#include "gpu/commands.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

Result<InitPass> InitPass::create(gpu::Device& device) {
  InitPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/init"));
  return pass;
}

Status InitPass::run(gpu::Device& device, const FrameBuffers& buffers, uint32_t capacity) const {
  return device.submit_and_wait([&](VkCommandBuffer cmd) {
    const uint32_t groups = std::min((capacity + shader::kFrameWorkgroupSize - 1) / shader::kFrameWorkgroupSize,
                                     shader::kFrameMaxGroups);
    gpu::ComputeRecorder(device, cmd)
        .bind(pipeline_)
        .buffers({{shader::kFrameBindingFreeList, &buffers.free_list},
                  {shader::kFrameBindingCounters, &buffers.counters}})
        .push(capacity)
        .dispatch(groups);
    frame_end_barrier(cmd);
  });
}

}  // namespace mote::runtime
