#include "gpu/vk_check.hpp"

#include <cstdio>
#include <cstdlib>

namespace mote::gpu {

const char* vk_result_name(VkResult result) {
  switch (result) {
#define MOTE_CASE(x) \
  case x: return #x;
    MOTE_CASE(VK_SUCCESS)
    MOTE_CASE(VK_NOT_READY)
    MOTE_CASE(VK_TIMEOUT)
    MOTE_CASE(VK_EVENT_SET)
    MOTE_CASE(VK_EVENT_RESET)
    MOTE_CASE(VK_INCOMPLETE)
    MOTE_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    MOTE_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    MOTE_CASE(VK_ERROR_INITIALIZATION_FAILED)
    MOTE_CASE(VK_ERROR_DEVICE_LOST)
    MOTE_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    MOTE_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    MOTE_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    MOTE_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    MOTE_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    MOTE_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    MOTE_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    MOTE_CASE(VK_ERROR_FRAGMENTED_POOL)
    MOTE_CASE(VK_ERROR_UNKNOWN)
    MOTE_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    MOTE_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    MOTE_CASE(VK_ERROR_FRAGMENTATION)
    MOTE_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    MOTE_CASE(VK_PIPELINE_COMPILE_REQUIRED)
#undef MOTE_CASE
    default: return "VkResult(unknown)";
  }
}

Error vk_error(VkResult result, const char* call) {
  ErrorCode code = ErrorCode::kVulkan;
  if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY) code = ErrorCode::kOutOfMemory;
  return make_error(code, std::string(call) + " returned " + vk_result_name(result) + " (" +
                              std::to_string(int(result)) + ")");
}

namespace detail {
void vk_check_failed(VkResult result, const char* call, const char* file, int line) {
  std::fprintf(stderr, "mote: %s returned %s at %s:%d\n", call, vk_result_name(result), file, line);
  std::fflush(stderr);
  std::abort();
}
}  // namespace detail

}  // namespace mote::gpu
