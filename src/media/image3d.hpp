// RAII 3-D images with one view (VK_IMAGE_VIEW_TYPE_3D), device-local, destruction deferred
// until the GPU is done (Device::defer_destroy), for the media component's textures: the noise
// atlas and the froxel volumes. The layer over src/gpu/'s 2-D Image that media needs.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::media {

struct Image3DCreateInfo {
  uint32_t width = 1;
  uint32_t height = 1;
  uint32_t depth = 1;
  VkFormat format = VK_FORMAT_R8_UNORM;
  VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  std::string name = "mote.image3d";
};

class Image3D {
 public:
  Image3D() = default;
  // Errors: kInvalidArgument for a zero extent, kUnsupported past maxImageDimension3D, kVulkan
  // and kOutOfMemory from the driver.
  static Result<Image3D> create(gpu::Device& device, const Image3DCreateInfo& info);
  ~Image3D() { release(); }
  Image3D(Image3D&& other) noexcept { *this = std::move(other); }
  Image3D& operator=(Image3D&& other) noexcept;
  Image3D(const Image3D&) = delete;
  Image3D& operator=(const Image3D&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t depth() const { return depth_; }
  bool valid() const { return image_ != VK_NULL_HANDLE; }

 private:
  void release();
  gpu::Device* device_ = nullptr;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize memory_bytes_ = 0;  // the allocation's size (Device::memory_in_use)
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  uint32_t width_ = 0, height_ = 0, depth_ = 0;
};

// A layout transition of the whole image (synchronization2).
void image3d_barrier(VkCommandBuffer cmd, const Image3D& image, VkImageLayout from, VkImageLayout to,
                     VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                     VkAccessFlags2 dst_access);

// Bytes per texel of the formats media images use (0 for any other).
uint32_t texel_bytes(VkFormat format);

}  // namespace mote::media
