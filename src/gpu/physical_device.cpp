#include "gpu/physical_device.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "gpu/vk_check.hpp"

namespace mote::gpu {
namespace {

bool has_device_extension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, exts.data()) != VK_SUCCESS) return false;
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 3;
    default: return 4;
  }
}

}  // namespace

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

std::string api_version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

Result<std::vector<PhysicalDeviceDescription>> enumerate_devices(VkInstance instance) {
  uint32_t count = 0;
  MOTE_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> handles(count);
  MOTE_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, handles.data()));
  handles.resize(count);

  std::vector<PhysicalDeviceDescription> out;
  for (uint32_t i = 0; i < count; ++i) {
    PhysicalDeviceDescription d;
    d.index = i;
    d.handle = handles[i];

    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    subgroup.pNext = &driver;
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(handles[i], &props);
    d.name = props.properties.deviceName;
    d.type = props.properties.deviceType;
    d.api_version = props.properties.apiVersion;
    d.vendor_id = props.properties.vendorID;
    d.device_id = props.properties.deviceID;
    d.limits = props.properties.limits;
    d.driver_name = driver.driverName;
    d.driver_info = driver.driverInfo;
    d.subgroup_size = subgroup.subgroupSize;

    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(handles[i], &mem);
    for (uint32_t h = 0; h < mem.memoryHeapCount; ++h)
      if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
        d.device_local_bytes = std::max<uint64_t>(d.device_local_bytes, mem.memoryHeaps[h].size);

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(handles[i], &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(handles[i], &family_count, families.data());
    // Prefer a family with graphics + compute (the renderer records both in one submission).
    for (uint32_t f = 0; f < family_count && d.compute_queue_family == UINT32_MAX; ++f)
      if ((families[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT))
        d.compute_queue_family = f;
    for (uint32_t f = 0; f < family_count && d.compute_queue_family == UINT32_MAX; ++f)
      if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) d.compute_queue_family = f;
    d.queue_has_graphics = d.compute_queue_family != UINT32_MAX &&
                           (families[d.compute_queue_family].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.pNext = &f13;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &f12;
    if (d.api_version >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(handles[i], &features);

    if (d.api_version < VK_API_VERSION_1_3)
      d.unsuitable_reason = "Vulkan " + api_version_string(d.api_version) + " (Mote needs 1.3)";
    else if (!f13.synchronization2) d.unsuitable_reason = "no synchronization2";
    else if (!f13.maintenance4) d.unsuitable_reason = "no maintenance4";
    else if (!f12.timelineSemaphore) d.unsuitable_reason = "no timeline semaphores";
    else if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
             !(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT))
      d.unsuitable_reason = "no subgroup ballot in compute shaders";
    else if (!has_device_extension(handles[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
      d.unsuitable_reason = "no VK_KHR_push_descriptor";
    else if (d.compute_queue_family == UINT32_MAX) d.unsuitable_reason = "no compute queue";
    else if (props.properties.limits.timestampComputeAndGraphics == VK_FALSE)
      d.unsuitable_reason = "no timestamps on compute queues";
    d.suitable = d.unsuitable_reason.empty();
    out.push_back(std::move(d));
  }
  return out;
}

Result<DeviceChoice> choose_device(const std::vector<PhysicalDeviceDescription>& devices,
                                   const std::string& selector_in) {
  if (devices.empty())
    return make_error(ErrorCode::kNotFound,
                      "no Vulkan device found (install mesa-vulkan-drivers for the lavapipe CPU device)");
  std::string selector = selector_in;
  std::string origin = "--device";
  if (selector.empty()) {
    if (const char* env = std::getenv("MOTE_DEVICE"); env && env[0]) {
      selector = env;
      origin = "MOTE_DEVICE";
    }
  }

  auto accept = [&](const PhysicalDeviceDescription& d, std::string reason) -> Result<DeviceChoice> {
    if (!d.suitable)
      return make_error(ErrorCode::kUnsupported, "device " + std::to_string(d.index) + " (" + d.name +
                                                     ") cannot run Mote: " + d.unsuitable_reason);
    return DeviceChoice{d.index, std::move(reason)};
  };

  if (!selector.empty()) {
    uint32_t index = 0;
    auto [ptr, ec] = std::from_chars(selector.data(), selector.data() + selector.size(), index);
    if (ec == std::errc() && ptr == selector.data() + selector.size()) {
      if (index >= devices.size())
        return make_error(ErrorCode::kNotFound,
                          origin + "=" + selector + ": there are only " + std::to_string(devices.size()) + " devices");
      return accept(devices[index], origin + "=" + selector + " chose it by index");
    }
    const std::string want = lower(selector);
    for (const auto& d : devices)
      if (want == device_type_name(d.type) && d.suitable)
        return accept(d, origin + "=" + selector + " chose the first suitable device of that type");
    for (const auto& d : devices)
      if (lower(d.name).find(want) != std::string::npos)
        return accept(d, origin + "=" + selector + " matched its name");
    return make_error(ErrorCode::kNotFound, origin + "=" + selector + " matches no device");
  }

  const PhysicalDeviceDescription* best = nullptr;
  for (const auto& d : devices)
    if (d.suitable && (!best || type_rank(d.type) < type_rank(best->type))) best = &d;
  if (!best) {
    std::string why;
    for (const auto& d : devices) why += "\n  " + d.name + ": " + d.unsuitable_reason;
    return make_error(ErrorCode::kUnsupported, "no device can run Mote:" + why);
  }
  return DeviceChoice{best->index, std::string("first suitable ") + device_type_name(best->type) +
                                       " device (order: discrete, integrated, cpu)"};
}

}  // namespace mote::gpu
