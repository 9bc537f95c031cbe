// Mote on the host application's own Vulkan device (Context::adopt, mote/vulkan_interop.hpp):
// the test plays the host — its own instance with the validation layer and its own messenger,
// its own device and queue — runs particles through the public API, and checks that Mote's
// frames on the adopted device equal those on a device Mote owns, that Mote refuses a device
// without what it needs, and that after the Context is gone the host can destroy its device
// with nothing of Mote's left on it (the validation layer reports leaked objects).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mote/files.hpp"
#include "mote/particles.hpp"
#include "mote/vulkan_interop.hpp"

namespace mote {
namespace {

std::vector<std::string>& host_messages() {
  static std::vector<std::string> messages;
  return messages;
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_host_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  host_messages().push_back(data && data->pMessage ? data->pMessage : "(no text)");
  return VK_FALSE;
}

// The host's side: an instance with validation, a device with the features Mote documents (or
// without the push-descriptor extension), one queue.
class Host {
 public:
  explicit Host(bool push_descriptors = true) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "mote host test";
    app.apiVersion = VK_API_VERSION_1_3;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    messenger.pfnUserCallback = on_host_message;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = &messenger;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &debug_utils;
    if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return;
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create_messenger) create_messenger(instance, &messenger, nullptr, &messenger_);

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(d, &props);
      if (props.apiVersion < VK_API_VERSION_1_3) continue;
      uint32_t families = 0;
      vkGetPhysicalDeviceQueueFamilyProperties(d, &families, nullptr);
      std::vector<VkQueueFamilyProperties> family(families);
      vkGetPhysicalDeviceQueueFamilyProperties(d, &families, family.data());
      for (uint32_t f = 0; f < families; ++f)
        if ((family[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && (family[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
          physical_device = d;
          queue_family = f;
          break;
        }
      if (physical_device) break;
    }
    if (!physical_device) return;

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.synchronization2 = VK_TRUE;
    f13.dynamicRendering = VK_TRUE;
    f13.maintenance4 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.pNext = &f13;
    f12.timelineSemaphore = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &f12;
    const char* push = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dinfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dinfo.pNext = &features;
    dinfo.queueCreateInfoCount = 1;
    dinfo.pQueueCreateInfos = &queue_info;
    dinfo.enabledExtensionCount = push_descriptors ? 1 : 0;
    dinfo.ppEnabledExtensionNames = &push;
    if (vkCreateDevice(physical_device, &dinfo, nullptr, &device) != VK_SUCCESS) return;
    vkGetDeviceQueue(device, queue_family, 0, &queue);
  }
  ~Host() {
    if (device) vkDestroyDevice(device, nullptr);
    if (messenger_) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy) destroy(instance, messenger_, nullptr);
    }
    if (instance) vkDestroyInstance(instance, nullptr);
  }
  bool ready() const { return queue != VK_NULL_HANDLE; }
  HostVulkanDevice handles() const { return {instance, physical_device, device, queue, queue_family, false}; }
  // Destroys the device now (the validation layer checks for objects left on it).
  void destroy_device() {
    vkDestroyDevice(device, nullptr);
    device = VK_NULL_HANDLE;
  }

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;

 private:
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

CompiledEffect load_fire() {
  auto effect = compile_effect_file(std::string(MOTE_EFFECTS_DIR) + "/fire.json");
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return std::move(effect).value();
}

// Alive counts of 40 frames of the fire preset on `context`.
std::vector<uint32_t> run_fire(Context& context) {
  std::vector<uint32_t> alive;
  auto system = ParticleSystem::create(context, {.capacity = 4096, .max_emitters = 4});
  EXPECT_TRUE(system.ok()) << system.error().to_string();
  if (!system.ok()) return alive;
  const CompiledEffect fire = load_fire();
  EXPECT_TRUE((*system)->add_emitter(fire, {.seed = 5}).ok());
  for (int f = 0; f < 40; ++f) {
    EXPECT_TRUE((*system)->execute(1.0f / 60.0f).ok());
    auto stats = (*system)->read_stats();
    EXPECT_TRUE(stats.ok());
    alive.push_back(stats.ok() ? stats->alive : 0);
  }
  return alive;
}

TEST(HostDevice, ParticlesRunOnTheHostsDeviceAsOnMotesOwn) {
  host_messages().clear();
  std::vector<uint32_t> on_host;
  {
    Host host;
    ASSERT_TRUE(host.ready()) << "the test could not create its host device";
    {
      auto context = Context::adopt(host.handles());
      ASSERT_TRUE(context.ok()) << context.error().to_string();
      on_host = run_fire(**context);
      const VulkanContext vk = vulkan_context(**context);
      EXPECT_EQ(vk.device, host.device) << "Mote works on the host's device";
      EXPECT_EQ(vk.queue, host.queue);
    }
    // Mote is gone: the host destroys its device, and the validation layer would name any
    // buffer, pipeline, pool or semaphore Mote left on it.
    host.destroy_device();
  }
  for (const std::string& m : host_messages()) ADD_FAILURE() << "Vulkan validation (host instance): " << m;

  auto own = Context::create({.validation = true});
  ASSERT_TRUE(own.ok()) << own.error().to_string();
  const std::vector<uint32_t> on_own = run_fire(**own);
  EXPECT_EQ(on_host, on_own);
  ASSERT_FALSE(on_host.empty());
  EXPECT_GT(on_host.back(), 0u);
}

TEST(HostDevice, ADeviceWithoutWhatMoteNeedsIsRefused) {
  host_messages().clear();
  {
    Host host(/*push_descriptors=*/false);
    ASSERT_TRUE(host.ready());
    auto refused = Context::adopt(host.handles());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
    EXPECT_NE(refused.error().message.find("VK_KHR_push_descriptor"), std::string::npos) << refused.error().message;

    HostVulkanDevice partial = host.handles();
    partial.queue = VK_NULL_HANDLE;
    auto missing = Context::adopt(partial);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::kInvalidArgument);

    HostVulkanDevice bad_family = host.handles();
    bad_family.queue_family = 1000;
    auto no_family = Context::adopt(bad_family);
    ASSERT_FALSE(no_family.ok());
    EXPECT_EQ(no_family.error().code, ErrorCode::kUnsupported);
  }
  for (const std::string& m : host_messages()) ADD_FAILURE() << "Vulkan validation (host instance): " << m;
}

}  // namespace
}  // namespace mote
