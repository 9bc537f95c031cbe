// The one public header with Vulkan types: Mote on a host application's own device
// (HostVulkanDevice, Context::adopt), and what a renderer needs to draw Mote's particles on
// Mote's device. The renderer creates its own pipelines on `device`, reads `pool` (records of
// `record_words` u32, word 0 = emitter row | generation << 20, fields at the offsets its effects'
// programs give) through `alive` (u32 slots; the count is u32 word `alive_count_word` of
// `counters`, for a vkCmdDrawIndirect instance count written by a compute pass), after waiting
// for `timeline` to reach `frame_serial` (or recording on `queue`, which executes in order).
// The handles stay valid while the objects live; the buffers' contents while no later
// execute() has been submitted.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "mote/host_vulkan_device.hpp"
#include "mote/particles.hpp"

namespace mote {

struct VulkanContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;  // graphics + compute where the device has one
  uint32_t queue_family = 0;
  VkSemaphore timeline = VK_NULL_HANDLE;  // signalled with each submission's serial
};
VulkanContext vulkan_context(Context& context);

struct ParticleDrawBuffers {
  VkBuffer pool = VK_NULL_HANDLE;
  VkBuffer alive = VK_NULL_HANDLE;  // this frame's alive list
  VkBuffer counters = VK_NULL_HANDLE;
  uint32_t alive_count_word = 0;
  uint32_t record_words = 0;
  uint32_t capacity = 0;
  uint64_t frame_serial = 0;  // the timeline value at which the last execute() completes
};
ParticleDrawBuffers draw_buffers(ParticleSystem& system);

}  // namespace mote
