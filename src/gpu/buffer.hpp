// RAII buffers with their own memory (one allocation each: Mote's buffers are few and large).
// Destruction is deferred through Device::defer_destroy until the GPU is done with them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::gpu {

enum class MemoryUsage {
  kDeviceLocal,  // GPU-only; reached through staging copies
  kUpload,       // host-visible, coherent, write-combined where possible: CPU writes, GPU reads
  kReadback,     // host-visible and cached: GPU writes, CPU reads
};

struct BufferCreateInfo {
  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MemoryUsage memory = MemoryUsage::kDeviceLocal;
  std::string name = "mote.buffer";
};

class Buffer {
 public:
  Buffer() = default;
  static Result<Buffer> create(Device& device, const BufferCreateInfo& info);
  ~Buffer() { release(); }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  bool valid() const { return buffer_ != VK_NULL_HANDLE; }
  // Host pointer for kUpload / kReadback buffers (persistently mapped), nullptr otherwise.
  void* mapped() const { return mapped_; }
  // For kReadback memory that is not host-coherent: make GPU writes visible to the CPU.
  Status invalidate() const;
  // For kUpload memory that is not host-coherent: make CPU writes visible to the GPU.
  Status flush() const;

 private:
  void release();
  Device* device_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize memory_bytes_ = 0;  // the allocation's size (Device::memory_in_use)
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

}  // namespace mote::gpu
