// RAII 2-D images with one view, device-local, destruction deferred like buffers; or a borrowed
// (non-owning) image made elsewhere — a host engine's colour or depth target — so that it can be
// passed wherever Mote takes a `const gpu::Image&`.
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
  // Wraps an image and a view of it that someone else created and will destroy: the handles,
  // format, size and aspect are as given (the view must cover mip level 0 and array layer 0 of
  // `aspect`); destroying or moving from the result destroys nothing. The owner keeps the image
  // alive until every command buffer that uses it has completed.
  static Image borrow(VkImage image, VkImageView view, VkFormat format, uint32_t width, uint32_t height,
                      VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT);
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
  // Made by borrow(): Mote does not own the handles.
  bool borrowed() const { return valid() && device_ == nullptr; }

 private:
  void release();
  Device* device_ = nullptr;  // nullptr for a borrowed (or empty) image: nothing to destroy
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize memory_bytes_ = 0;  // the allocation's size (Device::memory_in_use)
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkImageAspectFlags aspect_ = VK_IMAGE_ASPECT_COLOR_BIT;
  uint32_t width_ = 0, height_ = 0;
};

// Records a layout transition with a synchronization2 barrier covering all commands.
void transition_image(VkCommandBuffer cmd, const Image& image, VkImageLayout from, VkImageLayout to);

}  // namespace mote::gpu
