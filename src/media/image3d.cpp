#include "media/image3d.hpp"

#include <fmt/format.h>

#include <utility>

#include "gpu/vk_check.hpp"

namespace mote::media {

Result<Image3D> Image3D::create(gpu::Device& device, const Image3DCreateInfo& info) {
  if (info.width == 0 || info.height == 0 || info.depth == 0)
    return make_error(ErrorCode::kInvalidArgument, "3-D image of zero size", info.name);
  const uint32_t limit = device.limits().maxImageDimension3D;
  if (info.width > limit || info.height > limit || info.depth > limit)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("3-D image {}x{}x{} exceeds the device limit {}", info.width, info.height, info.depth,
                                  limit),
                      info.name);
  Image3D img;
  img.device_ = &device;
  img.format_ = info.format;
  img.width_ = info.width;
  img.height_ = info.height;
  img.depth_ = info.depth;

  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_3D;
  ci.format = info.format;
  ci.extent = {info.width, info.height, info.depth};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = info.usage;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  MOTE_VK_TRY(vkCreateImage(device.handle(), &ci, nullptr, &img.image_));
  device.set_name(VK_OBJECT_TYPE_IMAGE, img.image_, info.name);

  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device.handle(), img.image_, &req);
  MOTE_TRY_ASSIGN(uint32_t type, device.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
  MOTE_TRY_ASSIGN(img.memory_, device.allocate_memory(req, type, info.name));
  img.memory_bytes_ = req.size;
  MOTE_VK_TRY(vkBindImageMemory(device.handle(), img.image_, img.memory_, 0));

  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = img.image_;
  vi.viewType = VK_IMAGE_VIEW_TYPE_3D;
  vi.format = info.format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  MOTE_VK_TRY(vkCreateImageView(device.handle(), &vi, nullptr, &img.view_));
  device.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, img.view_, info.name);
  return img;
}

Image3D& Image3D::operator=(Image3D&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    memory_bytes_ = std::exchange(other.memory_bytes_, 0);
    format_ = other.format_;
    width_ = other.width_;
    height_ = other.height_;
    depth_ = other.depth_;
  }
  return *this;
}

void Image3D::release() {
  if (!device_) return;
  gpu::Device* device = device_;
  VkImage image = image_;
  VkImageView view = view_;
  VkDeviceMemory memory = memory_;
  VkDeviceSize bytes = memory_bytes_;
  device_->defer_destroy([device, image, view, memory, bytes] {
    if (view) vkDestroyImageView(device->handle(), view, nullptr);
    if (image) vkDestroyImage(device->handle(), image, nullptr);
    device->free_memory(memory, bytes);
  });
  device_ = nullptr;
  image_ = VK_NULL_HANDLE;
  view_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  memory_bytes_ = 0;
}

void image3d_barrier(VkCommandBuffer cmd, const Image3D& image, VkImageLayout from, VkImageLayout to,
                     VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                     VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.handle();
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

uint32_t texel_bytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8_UNORM: return 1;
    case VK_FORMAT_R8G8_UNORM:
    case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT: return 4;
    case VK_FORMAT_R16G16B16A16_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 0;
  }
}

}  // namespace mote::media
