// Recording helpers: bind a compute pipeline, push its descriptors and constants (checked
// against the shader's reflection), dispatch directly or indirectly, and synchronization2
// barriers between the stages Mote uses.
#pragma once

#include <vulkan/vulkan.h>

#include <initializer_list>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/image.hpp"

namespace mote::gpu {

struct BufferBinding {
  uint32_t binding = 0;
  const Buffer* buffer = nullptr;
  VkDeviceSize offset = 0;
  VkDeviceSize range = VK_WHOLE_SIZE;
};

class ComputeRecorder {
 public:
  ComputeRecorder(Device& device, VkCommandBuffer cmd) : device_(device), cmd_(cmd) {}

  ComputeRecorder& bind(const ComputePipeline& pipeline);
  // Every binding must exist in the shader with a buffer type; a mismatch is a Mote bug.
  ComputeRecorder& buffers(std::initializer_list<BufferBinding> bindings);
  ComputeRecorder& push_bytes(const void* data, uint32_t size);
  template <typename T>
  ComputeRecorder& push(const T& constants) {
    return push_bytes(&constants, sizeof(T));
  }
  ComputeRecorder& dispatch(uint32_t x, uint32_t y = 1, uint32_t z = 1);
  // Enough workgroups of the pipeline's local_size.x to cover `invocations` (1-D).
  ComputeRecorder& dispatch_threads(uint32_t invocations);
  ComputeRecorder& dispatch_indirect(const Buffer& args, VkDeviceSize offset = 0);

  VkCommandBuffer cmd() const { return cmd_; }

 private:
  Device& device_;
  VkCommandBuffer cmd_;
  const ComputePipeline* pipeline_ = nullptr;
};

// A global memory barrier (synchronization2).
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
// Compute writes -> compute reads/writes.
void compute_to_compute(VkCommandBuffer cmd);
// Compute writes -> indirect argument reads (and compute).
void compute_to_indirect(VkCommandBuffer cmd);
// Transfer writes (copy, fill) -> compute.
void transfer_to_compute(VkCommandBuffer cmd);
// Compute writes -> transfer reads.
void compute_to_transfer(VkCommandBuffer cmd);

}  // namespace mote::gpu
