#include "gpu/commands.hpp"

#include <vector>

#include "core/check.hpp"

namespace mote::gpu {

ComputeRecorder& ComputeRecorder::bind(const ComputePipeline& pipeline) {
  MOTE_CHECK(pipeline.valid(), "binding an empty pipeline");
  pipeline_ = &pipeline;
  vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  return *this;
}

ComputeRecorder& ComputeRecorder::buffers(std::initializer_list<BufferBinding> bindings) {
  MOTE_CHECK(pipeline_, "buffers() before bind()");
  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(bindings.size());
  std::vector<VkWriteDescriptorSet> writes;
  writes.reserve(bindings.size());
  for (const BufferBinding& b : bindings) {
    const ReflectedBinding* reflected = pipeline_->reflection().find_binding(0, b.binding);
    MOTE_CHECK(reflected, "binding not declared by the shader");
    MOTE_CHECK(reflected->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                   reflected->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
               "binding is not a buffer in the shader");
    MOTE_CHECK(b.buffer && b.buffer->valid(), "binding an empty buffer");
    infos.push_back({b.buffer->handle(), b.offset, b.range});
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = b.binding;
    w.descriptorCount = 1;
    w.descriptorType = reflected->type;
    w.pBufferInfo = &infos.back();
    writes.push_back(w);
  }
  device_.cmd_push_descriptor_set(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_->layout(), 0,
                                  uint32_t(writes.size()), writes.data());
  return *this;
}

ComputeRecorder& ComputeRecorder::push_bytes(const void* data, uint32_t size) {
  MOTE_CHECK(pipeline_, "push() before bind()");
  // The niagara habit: the C++ struct must be exactly what the shader declares.
  MOTE_CHECK(size == pipeline_->reflection().push_constant_size, "push constant size differs from the shader's");
  vkCmdPushConstants(cmd_, pipeline_->layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, size, data);
  return *this;
}

ComputeRecorder& ComputeRecorder::dispatch(uint32_t x, uint32_t y, uint32_t z) {
  MOTE_CHECK(pipeline_, "dispatch() before bind()");
  const auto& limits = device_.limits();
  MOTE_CHECK(x <= limits.maxComputeWorkGroupCount[0] && y <= limits.maxComputeWorkGroupCount[1] &&
                 z <= limits.maxComputeWorkGroupCount[2],
             "dispatch exceeds maxComputeWorkGroupCount");
  if (x && y && z) vkCmdDispatch(cmd_, x, y, z);
  return *this;
}

ComputeRecorder& ComputeRecorder::dispatch_threads(uint32_t invocations) {
  const uint32_t local = pipeline_->local_size_x();
  return dispatch((invocations + local - 1) / local);
}

ComputeRecorder& ComputeRecorder::dispatch_indirect(const Buffer& args, VkDeviceSize offset) {
  MOTE_CHECK(pipeline_, "dispatch_indirect() before bind()");
  vkCmdDispatchIndirect(cmd_, args.handle(), offset);
  return *this;
}

void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

void compute_to_compute(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void compute_to_indirect(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void transfer_to_compute(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void compute_to_transfer(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

}  // namespace mote::gpu
