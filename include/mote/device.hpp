// The Vulkan devices a Context saw, the one it runs on and why, the limits Mote cares about, and
// a verified compute pass on it (`mote info`, `mote selftest`).
//
// Threading: as the Context (one thread at a time). Errors are values (mote/result.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mote/particles.hpp"
#include "mote/result.hpp"

namespace mote {

// VkPhysicalDeviceType, without the Vulkan header.
enum class DeviceType { kOther, kIntegrated, kDiscrete, kVirtual, kCpu };
// "other", "integrated", "discrete", "virtual", "cpu": the words ContextOptions::device accepts.
const char* device_type_name(DeviceType type);
// A Vulkan version number (VK_MAKE_API_VERSION) as "major.minor.patch".
std::string vulkan_version_string(uint32_t version);

// One physical device as Mote sees it.
struct DeviceInfo {
  uint32_t index = 0;  // in the instance's enumeration order (what a numeric selector names)
  std::string name;
  DeviceType type = DeviceType::kOther;
  uint32_t api_version = 0;  // vulkan_version_string prints it
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string driver_name;
  std::string driver_info;
  uint32_t subgroup_size = 0;
  uint64_t device_local_bytes = 0;  // the largest device-local heap
  // Whether Mote can run on it (Vulkan 1.3, synchronization2, maintenance4, timeline semaphores,
  // subgroup ballot, push descriptors, a compute queue); when not, the first thing it lacks.
  bool suitable = false;
  std::string unsuitable_reason;
};

// The VkPhysicalDeviceLimits Mote's passes are sized by.
struct DeviceLimits {
  uint32_t max_storage_buffer_range = 0;  // bytes
  uint32_t max_workgroup_size[3] = {0, 0, 0};
  uint32_t max_workgroup_invocations = 0;
  uint32_t max_workgroup_count[3] = {0, 0, 0};
  uint32_t max_shared_memory_bytes = 0;
  uint32_t max_push_constants_bytes = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  float timestamp_period_ns = 0.0f;
};

// What a Context runs on: every device its instance lists, and the one ContextOptions::device (or
// MOTE_DEVICE, or the automatic order) chose, with the reason — for an adopted device
// (Context::adopt), the host's, "adopted from the host application".
struct DeviceReport {
  std::vector<DeviceInfo> devices;
  DeviceInfo chosen;
  std::string choice_reason;  // "discrete GPU preferred", "MOTE_DEVICE=llvmpipe matched by name", ...
  DeviceLimits limits;        // the chosen device's
  bool validation = false;    // the Khronos validation layer is on
};
// Reads what the Context recorded when it was made: no Vulkan call, no wait.
DeviceReport describe_device(const Context& context);

// The self-check behind `mote selftest`: a saxpy over `elements` floats into a poisoned output
// buffer, compared element by element with the same arithmetic on the CPU, timed with GPU
// timestamps.
struct SelftestReport {
  uint32_t elements = 0;
  uint32_t mismatches = 0;      // elements the GPU got wrong (0: the device computes correctly)
  uint32_t first_mismatch = 0;  // valid when mismatches > 0
  double gpu_ms = 0.0;
};
// Submits and waits (a tool's call, never a frame's). A wrong result is a report with
// mismatches, not an error; errors: kInvalidArgument (elements == 0), kVulkan, kOutOfMemory.
Result<SelftestReport> run_selftest(Context& context, uint32_t elements = 1u << 20);

}  // namespace mote
