#include "gpu/image.hpp"

#include <utility>

#include "gpu/vk_check.hpp"

namespace mote::gpu {

Result<Image> Image::create(Device& device, const ImageCreateInfo& info) {
  if (info.width == 0 || info.height == 0)
    return make_error(ErrorCode::kInvalidArgument, "image of zero size", info.name);
  const auto& limits = device.limits();
  if (info.width > limits.maxImageDimension2D || info.height > limits.maxImageDimension2D)
    return make_error(ErrorCode::kUnsupported,
                      "image " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                          " exceeds the device limit " + std::to_string(limits.maxImageDimension2D),
                      info.name);
  Image img;
  img.device_ = &device;
  img.format_ = info.format;
  img.aspect_ = info.aspect;
  img.width_ = info.width;
  img.height_ = info.height;

  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = info.format;
  ci.extent = {info.width, info.height, 1};
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
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = info.format;
  vi.subresourceRange = {info.aspect, 0, 1, 0, 1};
  MOTE_VK_TRY(vkCreateImageView(device.handle(), &vi, nullptr, &img.view_));
  device.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, img.view_, info.name);
  return img;
}

Image Image::borrow(VkImage image, VkImageView view, VkFormat format, uint32_t width, uint32_t height,
                    VkImageAspectFlags aspect) {
  Image img;
  img.image_ = image;
  img.view_ = view;
  img.format_ = format;
  img.aspect_ = aspect;
  img.width_ = width;
  img.height_ = height;
  return img;
}

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    memory_bytes_ = std::exchange(other.memory_bytes_, 0);
    format_ = other.format_;
    aspect_ = other.aspect_;
    width_ = other.width_;
    height_ = other.height_;
  }
  return *this;
}

void Image::release() {
  if (!device_) {  // empty or borrowed: the handles are someone else's
    image_ = VK_NULL_HANDLE;
    view_ = VK_NULL_HANDLE;
    return;
  }
  Device* device = device_;
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

void transition_image(VkCommandBuffer cmd, const Image& image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.handle();
  b.subresourceRange = {image.aspect(), 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace mote::gpu
