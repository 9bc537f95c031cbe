#include "gpu/instance.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "gpu/vk_check.hpp"

namespace mote::gpu {
namespace {

std::mutex g_handler_mutex;
ValidationHandler g_handler;  // empty = print to stderr
std::atomic<uint64_t> g_message_count{0};

void default_print(const ValidationMessage& m) {
  std::fprintf(stderr, "[vulkan %s] %s: %s\n",
               (m.severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning", m.id_name.c_str(),
               m.text.c_str());
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT type,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  ValidationMessage m{severity, type, data && data->pMessageIdName ? data->pMessageIdName : "",
                      data && data->pMessage ? data->pMessage : ""};
  g_message_count.fetch_add(1, std::memory_order_relaxed);
  ValidationHandler handler;
  {
    std::lock_guard lock(g_handler_mutex);
    handler = g_handler;
  }
  if (handler) handler(m);
  else default_print(m);
  return VK_FALSE;  // never abort the call: the test decides what a message means
}

bool has_layer(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_instance_extension(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> exts(count);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data()) != VK_SUCCESS) return false;
  for (const auto& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

}  // namespace

ValidationHandler set_validation_handler(ValidationHandler handler) {
  std::lock_guard lock(g_handler_mutex);
  std::swap(g_handler, handler);
  return handler;
}

uint64_t validation_message_count() { return g_message_count.load(); }

bool validation_requested(bool from_options) {
  if (from_options) return true;
  const char* env = std::getenv("MOTE_VALIDATION");
  return env && env[0] == '1';
}

Result<std::unique_ptr<Instance>> Instance::create(bool validation) {
  std::unique_ptr<Instance> self(new Instance());
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS) loader_version = VK_API_VERSION_1_0;
  if (loader_version < VK_API_VERSION_1_3)
    return make_error(ErrorCode::kUnsupported,
                      "the Vulkan loader supports only " + std::to_string(VK_API_VERSION_MAJOR(loader_version)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(loader_version)) + "; Mote needs 1.3");
  self->api_version_ = VK_API_VERSION_1_3;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  self->debug_utils_ = has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (self->debug_utils_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (validation) {
    if (!has_layer("VK_LAYER_KHRONOS_validation"))
      return make_error(ErrorCode::kUnsupported,
                        "validation was requested but VK_LAYER_KHRONOS_validation is not installed "
                        "(Debian package vulkan-validationlayers)");
    if (!self->debug_utils_)
      return make_error(ErrorCode::kUnsupported, "validation needs VK_EXT_debug_utils, which the loader lacks");
    layers.push_back("VK_LAYER_KHRONOS_validation");
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "mote";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "mote";
  app.engineVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.apiVersion = self->api_version_;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  messenger_info.pfnUserCallback = on_debug_message;

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (validation) info.pNext = &messenger_info;  // also catch messages from create/destroy
  MOTE_VK_TRY(vkCreateInstance(&info, nullptr, &self->instance_));

  if (validation) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (!create_messenger) return make_error(ErrorCode::kUnsupported, "vkCreateDebugUtilsMessengerEXT missing");
    MOTE_VK_TRY(create_messenger(self->instance_, &messenger_info, nullptr, &self->messenger_));
  }
  return self;
}

std::unique_ptr<Instance> Instance::adopt(VkInstance instance, uint32_t api_version) {
  std::unique_ptr<Instance> self(new Instance());
  self->instance_ = instance;
  self->api_version_ = api_version;
  self->owned_ = false;
  return self;
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy_messenger) destroy_messenger(instance_, messenger_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE && owned_) vkDestroyInstance(instance_, nullptr);
}

}  // namespace mote::gpu
