// RAII 2-D images with one view, device-local, destruction deferred like buffers.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::gpu {

struct ImageCreateInfo {
  uint32_t width = 1;
  uint32_t height = 1;
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  std::string name = "mote.image";
};

class Image {
 public:
  Image() = default;
  static Result<Image> create(Device& device, const ImageCreateInfo& info);
  ~Image() { release(); }
  Image(Image&& other) noexcept { *this = std::move(other); }
  Image& operator=(Image&& other) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  VkImageAspectFlags aspect() const { return aspect_; }
  bool valid() const { return image_ != VK_NULL_HANDLE; }

 private:
  void release();
  Device* device_ = nullptr;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkImageAspectFlags aspect_ = VK_IMAGE_ASPECT_COLOR_BIT;
  uint32_t width_ = 0, height_ = 0;
};

// Records a layout transition with a synchronization2 barrier covering all commands.
void transition_image(VkCommandBuffer cmd, const Image& image, VkImageLayout from, VkImageLayout to);

}  // namespace mote::gpu
