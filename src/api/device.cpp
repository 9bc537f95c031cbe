// mote/device.hpp over gpu::Device's description of what it found and chose (src/gpu/) and the
// saxpy self-check (src/gpu/selftest.hpp).
#include "mote/device.hpp"

#include "api/api_access.hpp"
#include "gpu/physical_device.hpp"
#include "gpu/selftest.hpp"

namespace mote {

namespace {

DeviceType to_device_type(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceType::kIntegrated;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceType::kDiscrete;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceType::kVirtual;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceType::kCpu;
    default: return DeviceType::kOther;
  }
}

VkPhysicalDeviceType to_vk_type(DeviceType type) {
  switch (type) {
    case DeviceType::kIntegrated: return VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    case DeviceType::kDiscrete: return VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    case DeviceType::kVirtual: return VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
    case DeviceType::kCpu: return VK_PHYSICAL_DEVICE_TYPE_CPU;
    case DeviceType::kOther: break;
  }
  return VK_PHYSICAL_DEVICE_TYPE_OTHER;
}

DeviceInfo to_info(const gpu::PhysicalDeviceDescription& d) {
  DeviceInfo info;
  info.index = d.index;
  info.name = d.name;
  info.type = to_device_type(d.type);
  info.api_version = d.api_version;
  info.vendor_id = d.vendor_id;
  info.device_id = d.device_id;
  info.driver_name = d.driver_name;
  info.driver_info = d.driver_info;
  info.subgroup_size = d.subgroup_size;
  info.device_local_bytes = d.device_local_bytes;
  info.suitable = d.suitable;
  info.unsuitable_reason = d.unsuitable_reason;
  return info;
}

DeviceLimits to_limits(const VkPhysicalDeviceLimits& l) {
  DeviceLimits limits;
  limits.max_storage_buffer_range = l.maxStorageBufferRange;
  for (int i = 0; i < 3; ++i) {
    limits.max_workgroup_size[i] = l.maxComputeWorkGroupSize[i];
    limits.max_workgroup_count[i] = l.maxComputeWorkGroupCount[i];
  }
  limits.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
  limits.max_shared_memory_bytes = l.maxComputeSharedMemorySize;
  limits.max_push_constants_bytes = l.maxPushConstantsSize;
  limits.max_storage_buffers_per_stage = l.maxPerStageDescriptorStorageBuffers;
  limits.timestamp_period_ns = l.timestampPeriod;
  return limits;
}

}  // namespace

// The Vulkan layer's names, so a type prints as the device selector spells it.
const char* device_type_name(DeviceType type) { return gpu::device_type_name(to_vk_type(type)); }

std::string vulkan_version_string(uint32_t version) { return gpu::api_version_string(version); }

DeviceReport describe_device(const Context& context) {
  const gpu::Device& device = detail::ApiAccess::device(context);
  DeviceReport report;
  for (const gpu::PhysicalDeviceDescription& d : device.all_devices()) report.devices.push_back(to_info(d));
  report.chosen = to_info(device.description());
  report.choice_reason = device.choice_reason();
  report.limits = to_limits(device.limits());
  report.validation = device.validation_enabled();
  return report;
}

Result<SelftestReport> run_selftest(Context& context, uint32_t elements) {
  MOTE_TRY_ASSIGN(const gpu::SelftestReport r, gpu::run_selftest(detail::ApiAccess::device(context), elements));
  return SelftestReport{r.elements, r.mismatches, r.first_mismatch, r.gpu_ms};
}

}  // namespace mote
