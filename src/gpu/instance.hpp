// The Vulkan instance: headless (no surface extensions), with the Khronos validation layer and a
// debug messenger when validation is asked for. Validation messages go to one process-wide
// handler so a test framework can turn each into a failure of the test that caused it.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <string>

#include "mote/result.hpp"

namespace mote::gpu {

struct ValidationMessage {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity;
  VkDebugUtilsMessageTypeFlagsEXT type;
  std::string id_name;  // e.g. "VUID-vkCmdDispatch-None-02697"
  std::string text;
};

// The handler sees every validation warning and error of every instance. The default prints
// to stderr. Returns the previous handler. Thread-safe.
using ValidationHandler = std::function<void(const ValidationMessage&)>;
ValidationHandler set_validation_handler(ValidationHandler handler);
// Messages seen since process start (all instances), for tools that want a summary.
uint64_t validation_message_count();

// Validation is on when asked for in code or when MOTE_VALIDATION=1 is in the environment.
bool validation_requested(bool from_options);

class Instance {
 public:
  static Result<std::unique_ptr<Instance>> create(bool validation);
  // A host application's instance, not owned (never destroyed here). Mote installs no debug
  // messenger on it and names no objects: validation, if the host turned it on, reports to the
  // host's own messenger.
  static std::unique_ptr<Instance> adopt(VkInstance instance, uint32_t api_version);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
  bool debug_utils() const { return debug_utils_; }
  uint32_t api_version() const { return api_version_; }

 private:
  Instance() = default;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  bool owned_ = true;
  bool debug_utils_ = false;
  uint32_t api_version_ = 0;
};

}  // namespace mote::gpu
