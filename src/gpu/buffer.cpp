#include "gpu/buffer.hpp"

#include <utility>

#include "gpu/vk_check.hpp"

namespace mote::gpu {

Result<Buffer> Buffer::create(Device& device, const BufferCreateInfo& info) {
  if (info.size == 0) return make_error(ErrorCode::kInvalidArgument, "buffer size 0", info.name);
  Buffer b;
  b.device_ = &device;
  b.size_ = info.size;

  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = info.size;
  ci.usage = info.usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  MOTE_VK_TRY(vkCreateBuffer(device.handle(), &ci, nullptr, &b.buffer_));
  device.set_name(VK_OBJECT_TYPE_BUFFER, b.buffer_, info.name);

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device.handle(), b.buffer_, &req);
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (info.memory) {
    case MemoryUsage::kDeviceLocal: required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
    case MemoryUsage::kUpload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryUsage::kReadback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
  }
  MOTE_TRY_ASSIGN(uint32_t type, device.find_memory_type(req.memoryTypeBits, required, preferred));

  MOTE_TRY_ASSIGN(b.memory_, device.allocate_memory(req, type, info.name));
  b.memory_bytes_ = req.size;
  MOTE_VK_TRY(vkBindBufferMemory(device.handle(), b.buffer_, b.memory_, 0));

  if (info.memory != MemoryUsage::kDeviceLocal) {
    MOTE_VK_TRY(vkMapMemory(device.handle(), b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_));
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(device.physical_device(), &props);
    b.coherent_ = props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  }
  return b;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    memory_bytes_ = std::exchange(other.memory_bytes_, 0);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    coherent_ = other.coherent_;
  }
  return *this;
}

void Buffer::release() {
  if (!device_) return;
  Device* device = device_;
  VkBuffer buffer = buffer_;
  VkDeviceMemory memory = memory_;
  VkDeviceSize bytes = memory_bytes_;
  device_->defer_destroy([device, buffer, memory, bytes] {
    if (buffer) vkDestroyBuffer(device->handle(), buffer, nullptr);
    device->free_memory(memory, bytes);
  });
  device_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  memory_bytes_ = 0;
  mapped_ = nullptr;
}

Status Buffer::invalidate() const {
  if (coherent_ || !mapped_) return {};
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  MOTE_VK_TRY(vkInvalidateMappedMemoryRanges(device_->handle(), 1, &range));
  return {};
}

Status Buffer::flush() const {
  if (coherent_ || !mapped_) return {};
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  MOTE_VK_TRY(vkFlushMappedMemoryRanges(device_->handle(), 1, &range));
  return {};
}

}  // namespace mote::gpu
