// The host application's Vulkan device Mote can work on (Context::adopt, gpu::Device::adopt):
// one declaration for the public API and the Vulkan layer.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace mote {

// A host application's device for Context::adopt. Vulkan cannot say which features a device
// was created with, so the host promises them: API 1.3; the Vulkan 1.3 features
// synchronization2, maintenance4 and dynamicRendering; the Vulkan 1.2 feature timelineSemaphore;
// the device extension VK_KHR_push_descriptor; `queue` from `queue_family`, which supports
// compute (and graphics for Mote's renderer). independentBlend is optional: say whether it is
// enabled. Mote submits its own command buffers on `queue` (a timeline semaphore orders them):
// the host must not submit to the same queue from another thread at the same time. Mote checks
// what it can (the physical device is the instance's and supports all of the above, the queue
// family computes, vkCmdPushDescriptorSetKHR resolves on the device) and refuses otherwise.
struct HostVulkanDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  bool independent_blend_enabled = false;
};

}  // namespace mote
