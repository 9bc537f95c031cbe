// What examples 03 and 05 share: a minimal host renderer in raw Vulkan beside Mote's public API —
// its own HDR colour and reversed-Z depth images, a readback buffer, a command pool and a fence,
// the clears that stand in for its opaque pass, a camera, and a CPU tonemap for the PNG.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mote/image.hpp"
#include "mote/particle_renderer.hpp"
#include "mote/particles.hpp"
#include "mote/vulkan_interop.hpp"

namespace example {

inline constexpr uint32_t kWidth = 640;
inline constexpr uint32_t kHeight = 360;
inline constexpr float kDt = 1.0f / 60.0f;

inline bool check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return true;
  std::fprintf(stderr, "%s: VkResult %d\n", what, int(r));
  return false;
}

inline int fail(const char* what, const mote::Error& e) {
  std::fprintf(stderr, "%s: %s\n", what, e.to_string().c_str());
  return 1;
}

// What a host renderer owns: its images, a readback buffer, a command pool and a fence.
struct Host {
  mote::VulkanContext vk;
  VkImage color = VK_NULL_HANDLE, depth = VK_NULL_HANDLE;
  VkImageView color_view = VK_NULL_HANDLE, depth_view = VK_NULL_HANDLE;
  VkDeviceMemory color_memory = VK_NULL_HANDLE, depth_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
  VkBuffer readback = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  ~Host() {
    VkDevice d = vk.device;
    if (d == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(d);
    vkDestroyFence(d, fence, nullptr);
    vkDestroyCommandPool(d, pool, nullptr);
    vkDestroyBuffer(d, readback, nullptr);
    vkDestroyImageView(d, color_view, nullptr);
    vkDestroyImageView(d, depth_view, nullptr);
    vkDestroyImage(d, color, nullptr);
    vkDestroyImage(d, depth, nullptr);
    for (VkDeviceMemory m : {color_memory, depth_memory, readback_memory}) vkFreeMemory(d, m, nullptr);
  }

  bool allocate(VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory& memory) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(vk.physical_device, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
      if (!(req.memoryTypeBits & (1u << i)) || (props.memoryTypes[i].propertyFlags & want) != want) continue;
      VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, i};
      return check(vkAllocateMemory(vk.device, &info, nullptr, &memory), "vkAllocateMemory");
    }
    std::fprintf(stderr, "no memory type fits\n");
    return false;
  }

  bool make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage& image,
                  VkDeviceMemory& memory, VkImageView& view) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {kWidth, kHeight, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.usage = usage;
    if (!check(vkCreateImage(vk.device, &info, nullptr, &image), "vkCreateImage")) return false;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(vk.device, image, &req);
    if (!allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, memory)) return false;
    if (!check(vkBindImageMemory(vk.device, image, memory, 0), "vkBindImageMemory")) return false;
    VkImageViewCreateInfo v{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    v.image = image;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = format;
    v.subresourceRange = {aspect, 0, 1, 0, 1};
    return check(vkCreateImageView(vk.device, &v, nullptr, &view), "vkCreateImageView");
  }

  bool create(mote::Context& context) {
    vk = mote::vulkan_context(context);
    constexpr VkImageUsageFlags kColor = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    constexpr VkImageUsageFlags kDepth = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (!make_image(VK_FORMAT_R16G16B16A16_SFLOAT, kColor, VK_IMAGE_ASPECT_COLOR_BIT, color, color_memory, color_view))
      return false;
    if (!make_image(VK_FORMAT_D32_SFLOAT, kDepth, VK_IMAGE_ASPECT_DEPTH_BIT, depth, depth_memory, depth_view))
      return false;
    VkBufferCreateInfo b{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    b.size = VkDeviceSize(kWidth) * kHeight * 8;
    b.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (!check(vkCreateBuffer(vk.device, &b, nullptr, &readback), "vkCreateBuffer")) return false;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk.device, readback, &req);
    if (!allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, readback_memory))
      return false;
    if (!check(vkBindBufferMemory(vk.device, readback, readback_memory, 0), "vkBindBufferMemory")) return false;
    VkCommandPoolCreateInfo p{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    p.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    p.queueFamilyIndex = vk.queue_family;
    if (!check(vkCreateCommandPool(vk.device, &p, nullptr, &pool), "vkCreateCommandPool")) return false;
    VkCommandBufferAllocateInfo a{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    if (!check(vkAllocateCommandBuffers(vk.device, &a, &cmd), "vkAllocateCommandBuffers")) return false;
    VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    return check(vkCreateFence(vk.device, &f, nullptr, &fence), "vkCreateFence");
  }
};

inline void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                    VkPipelineStageFlags2 src, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst,
                    VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect, 0, 1, 0, 1};
  VkDependencyInfo d{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  d.imageMemoryBarrierCount = 1;
  d.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &d);
}

// The stages the particle renderer hands the images back in (mote/particle_renderer.hpp).
inline constexpr VkPipelineStageFlags2 kParticleStages = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                         VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                         VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                                                         VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                                         VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;

// The host's "opaque pass" here is two clears: a dusk sky, and depth at the far plane (0, reversed-Z).
inline void record_clears(const Host& h) {
  // Last frame's contents are discarded (UNDEFINED), after its writes.
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  barrier(h.cmd, h.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearColorValue sky{{0.05f, 0.07f, 0.12f, 1.0f}};
  const VkClearDepthStencilValue far{0.0f, 0};
  const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(h.cmd, h.color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sky, 1, &color_range);
  vkCmdClearDepthStencilImage(h.cmd, h.depth, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &depth_range);
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
          kParticleStages, VK_ACCESS_2_NONE);
  barrier(h.cmd, h.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
          VK_ACCESS_2_TRANSFER_WRITE_BIT, kParticleStages, VK_ACCESS_2_NONE);
}

inline void record_readback(const Host& h) {
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kWidth, kHeight, 1};
  vkCmdCopyImageToBuffer(h.cmd, h.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, h.readback, 1, &region);
}

// A right-handed look-at view and a reversed-Z infinite perspective into Vulkan's clip space
// (y down), column-major — the conventions mote::ParticleView documents.
inline mote::ParticleView camera(float time) {
  mote::ParticleView v;
  const float angle = 0.3f * time;
  const std::array<float, 3> eye{3.2f * std::sin(angle), 1.8f, 3.2f * std::cos(angle)};
  const std::array<float, 3> target{0.0f, 1.0f, 0.0f};
  std::array<float, 3> f{target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
  const float fl = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (float& c : f) c /= fl;
  std::array<float, 3> r{f[1] * 0.0f - f[2] * 1.0f, f[2] * 0.0f - f[0] * 0.0f, f[0] * 1.0f - f[1] * 0.0f};  // f × +Y
  const float rl = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (float& c : r) c /= rl;
  const std::array<float, 3> u{r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
  auto dot = [](const std::array<float, 3>& a, const std::array<float, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  v.view = {r[0], u[0], -f[0], 0, r[1],         u[1],         -f[1],       0,
            r[2], u[2], -f[2], 0, -dot(r, eye), -dot(u, eye), dot(f, eye), 1};
  const float near = 0.1f, focal = 1.0f / std::tan(0.5f * 0.9f), aspect = float(kWidth) / float(kHeight);
  v.projection = {focal / aspect, 0, 0, 0, 0, -focal, 0, 0, 0, 0, 0, -1, 0, 0, near, 0};
  v.near_plane = near;
  v.far_plane = 500.0f;
  v.time = time;
  v.sun_direction = {-0.3f, -1.0f, -0.2f};
  v.sun_radiance = {0.6f, 0.6f, 0.7f};
  v.sky_ambient = {0.15f, 0.18f, 0.25f};
  v.ground_ambient = {0.05f, 0.04f, 0.03f};
  v.point_lights.push_back({{0.0f, 0.8f, 0.0f}, 6.0f, {3.0f, 1.6f, 0.6f}});  // the fire's glow
  return v;
}

// RGBA16F (linear, premultiplied over an opaque sky) to sRGB RGBA8, a Reinhard curve on the CPU.
inline mote::ImageRgba8 tonemap(const void* halves) {
  auto half_to_float = [](uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    uint32_t bits = sign;
    if (exponent == 31) bits |= 0x7F800000u | (mantissa << 13);
    else if (exponent != 0) bits |= ((exponent + 112) << 23) | (mantissa << 13);
    else if (mantissa != 0) return (sign ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  mote::ImageRgba8 image{kWidth, kHeight, std::vector<uint8_t>(size_t(kWidth) * kHeight * 4)};
  const auto* in = static_cast<const uint16_t*>(halves);
  for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
    for (int c = 0; c < 3; ++c) {
      const float x = std::max(half_to_float(in[i * 4 + c]), 0.0f);
      const float mapped = x / (1.0f + x);
      const float srgb = mapped <= 0.0031308f ? 12.92f * mapped : 1.055f * std::pow(mapped, 1.0f / 2.4f) - 0.055f;
      image.pixels[i * 4 + c] = uint8_t(std::lround(std::clamp(srgb, 0.0f, 1.0f) * 255.0f));
    }
    image.pixels[i * 4 + 3] = 255;
  }
  return image;
}

}  // namespace example
