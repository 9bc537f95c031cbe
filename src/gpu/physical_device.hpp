// Finding and describing the Vulkan devices, and choosing one.
//
// Choice: a discrete GPU, then an integrated one, then a CPU device (lavapipe), then anything
// else that is suitable. MOTE_DEVICE (or the CLI's --device) overrides it: a device index
// ("1"), a type ("discrete", "integrated", "cpu") or a case-insensitive name substring
// ("llvmpipe", "H200").
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "mote/result.hpp"

namespace mote::gpu {

struct PhysicalDeviceDescription {
  uint32_t index = 0;
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t api_version = 0;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string driver_name;  // VkPhysicalDeviceDriverProperties
  std::string driver_info;
  uint32_t subgroup_size = 0;
  VkPhysicalDeviceLimits limits{};
  uint64_t device_local_bytes = 0;             // largest device-local heap
  uint32_t compute_queue_family = UINT32_MAX;  // a family with compute (graphics too when possible)
  bool queue_has_graphics = false;             // that family also draws (the renderer needs it)
  bool suitable = false;
  std::string unsuitable_reason;  // why not, when !suitable: the missing feature or extension
};

const char* device_type_name(VkPhysicalDeviceType type);
std::string api_version_string(uint32_t version);

// Every device the instance sees, described, with suitability checked against what Mote needs
// (Vulkan 1.3, synchronization2, timeline semaphores, push descriptors, a compute queue).
Result<std::vector<PhysicalDeviceDescription>> enumerate_devices(VkInstance instance);

struct DeviceChoice {
  uint32_t index = 0;
  std::string reason;  // "discrete GPU preferred", "MOTE_DEVICE=llvmpipe matched by name", …
};

// selector: "" means MOTE_DEVICE from the environment, then the automatic order.
Result<DeviceChoice> choose_device(const std::vector<PhysicalDeviceDescription>& devices, const std::string& selector);

}  // namespace mote::gpu
