// Every VkResult is checked in every build. A failed call becomes a mote::Error naming the call
// and the result; nothing is assert-only.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "mote/result.hpp"

namespace mote::gpu {

const char* vk_result_name(VkResult result);
Error vk_error(VkResult result, const char* call);

}  // namespace mote::gpu

// MOTE_VK_TRY(vkCall(...)): on failure return a kVulkan Error naming the call.
#define MOTE_VK_TRY(call)                                   \
  do {                                                      \
    VkResult mote_vk_result_ = (call);                      \
    if (mote_vk_result_ != VK_SUCCESS) [[unlikely]]         \
      return ::mote::gpu::vk_error(mote_vk_result_, #call); \
  } while (0)

// For calls that cannot return an error to a caller (destructors, recording helpers): a failed
// call there is a Mote bug or a lost device, so it aborts with the call named — in every build.
#define MOTE_VK_CHECK(call)                                                             \
  do {                                                                                  \
    VkResult mote_vk_result_ = (call);                                                  \
    if (mote_vk_result_ != VK_SUCCESS) [[unlikely]]                                     \
      ::mote::gpu::detail::vk_check_failed(mote_vk_result_, #call, __FILE__, __LINE__); \
  } while (0)

namespace mote::gpu::detail {
[[noreturn]] void vk_check_failed(VkResult result, const char* call, const char* file, int line);
}
