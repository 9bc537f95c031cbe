// Test processes keep the Vulkan drivers loaded from their first device to their exit.
#pragma once

#include <vulkan/vulkan.h>

namespace mote::test {

// One bare instance made on first use and never destroyed keeps the Vulkan drivers loaded for the
// whole test process. Without it every test's device loads and unloads them: NVIDIA's driver
// takes a block of static TLS each time it is loaded after start-up, and after a few dozen cycles
// vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER ("cannot allocate memory in static TLS
// block", seen on the H200). A failure here is left to the device creation that follows to report.
inline void keep_vulkan_drivers_loaded() {
  static const VkInstance kept = [] {
    VkApplicationInfo app{.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return VkInstance{VK_NULL_HANDLE};
    return instance;
  }();
  (void)kept;
}

}  // namespace mote::test
