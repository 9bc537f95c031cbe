#include "gpu/device.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "gpu/vk_check.hpp"

namespace mote::gpu {

Result<std::unique_ptr<Device>> Device::create(const DeviceOptions& options) {
  std::unique_ptr<Device> device(new Device());
  MOTE_TRY(device->init(options));
  return device;
}

Status Device::init(const DeviceOptions& options) {
  MOTE_TRY_ASSIGN(instance_, Instance::create(validation_requested(options.validation)));
  MOTE_TRY_ASSIGN(all_devices_, enumerate_devices(instance_->handle()));
  MOTE_TRY_ASSIGN(DeviceChoice choice, choose_device(all_devices_, options.device_selector));
  description_ = all_devices_[choice.index];
  choice_reason_ = choice.reason;
  vkGetPhysicalDeviceMemoryProperties(description_.handle, &memory_);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = description_.compute_queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  f13.dynamicRendering = VK_TRUE;  // core in 1.3: the renderer draws without render pass objects
  f13.maintenance4 = VK_TRUE;      // SPIR-V 1.6 (Vulkan 1.3 target) declares workgroup sizes with LocalSizeId
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.pNext = &f13;
  f12.timelineSemaphore = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f12;
  {
    // Optional core features the renderer uses where present: per-attachment blend states
    // (weighted OIT's three accumulators blend differently).
    VkPhysicalDeviceFeatures core{};
    vkGetPhysicalDeviceFeatures(description_.handle, &core);
    features.features.independentBlend = core.independentBlend;
    independent_blend_ = core.independentBlend == VK_TRUE;
  }

  std::vector<const char*> extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  // Optional: the driver's per-pipeline statistics, for benchmarks and tuning.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  {
    uint32_t count = 0;
    MOTE_VK_TRY(vkEnumerateDeviceExtensionProperties(description_.handle, nullptr, &count, nullptr));
    std::vector<VkExtensionProperties> available(count);
    MOTE_VK_TRY(vkEnumerateDeviceExtensionProperties(description_.handle, nullptr, &count, available.data()));
    for (const auto& e : available)
      if (std::string_view(e.extensionName) == VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) {
        VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        query.pNext = &executable;
        vkGetPhysicalDeviceFeatures2(description_.handle, &query);
        if (executable.pipelineExecutableInfo) {
          extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
          executable.pNext = nullptr;
          f13.pNext = &executable;
          pipeline_statistics_ = true;
        }
      }
  }
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  MOTE_VK_TRY(vkCreateDevice(description_.handle, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, description_.compute_queue_family, 0, &queue_);
  return init_device_objects();
}

Result<std::unique_ptr<Device>> Device::adopt(const AdoptedDevice& host) {
  if (!host.instance || !host.physical_device || !host.device || !host.queue)
    return make_error(ErrorCode::kInvalidArgument,
                      "an adopted device needs its instance, physical device, device and queue");
  std::unique_ptr<Device> self(new Device());
  self->instance_ = Instance::adopt(host.instance, VK_API_VERSION_1_3);
  MOTE_TRY_ASSIGN(self->all_devices_, enumerate_devices(host.instance));
  auto found = std::find_if(self->all_devices_.begin(), self->all_devices_.end(),
                            [&](const PhysicalDeviceDescription& d) { return d.handle == host.physical_device; });
  if (found == self->all_devices_.end())
    return make_error(ErrorCode::kInvalidArgument, "the adopted physical device is not one the instance lists");
  if (!found->suitable) return make_error(ErrorCode::kUnsupported, found->name + ": " + found->unsuitable_reason);
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(host.physical_device, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  vkGetPhysicalDeviceQueueFamilyProperties(host.physical_device, &families, family.data());
  if (host.queue_family >= families || !(family[host.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    return make_error(ErrorCode::kUnsupported,
                      "queue family " + std::to_string(host.queue_family) + " of the adopted device has no compute");
  self->description_ = *found;
  self->description_.compute_queue_family = host.queue_family;
  self->description_.queue_has_graphics = (family[host.queue_family].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
  self->choice_reason_ = "adopted from the host application";
  vkGetPhysicalDeviceMemoryProperties(host.physical_device, &self->memory_);
  self->device_ = host.device;
  self->owns_device_ = false;
  self->queue_ = host.queue;
  self->independent_blend_ = host.independent_blend_enabled;
  MOTE_TRY(self->init_device_objects());
  return self;
}

Status Device::init_device_objects() {
  cmd_push_descriptor_set =
      reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
  if (!cmd_push_descriptor_set)
    return make_error(ErrorCode::kUnsupported,
                      "vkCmdPushDescriptorSetKHR missing (VK_KHR_push_descriptor not enabled)");
  if (instance_->debug_utils())
    set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_->handle(), "vkSetDebugUtilsObjectNameEXT"));

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = description_.compute_queue_family;
  MOTE_VK_TRY(vkCreateCommandPool(device_, &pool_info, nullptr, &command_pool_));
  set_name(VK_OBJECT_TYPE_COMMAND_POOL, command_pool_, "mote.command_pool");

  VkSemaphoreTypeCreateInfo type_info{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type_info.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type_info.initialValue = 0;
  VkSemaphoreCreateInfo sem_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sem_info.pNext = &type_info;
  MOTE_VK_TRY(vkCreateSemaphore(device_, &sem_info, nullptr, &timeline_));
  set_name(VK_OBJECT_TYPE_SEMAPHORE, timeline_, "mote.submission_timeline");
  return {};
}

Device::~Device() {
  if (device_ != VK_NULL_HANDLE) {
    if (owns_device_) {
      MOTE_VK_CHECK(vkDeviceWaitIdle(device_));
    } else if (timeline_ != VK_NULL_HANDLE) {
      // The host's device: wait for Mote's own submissions only, not for the host's work.
      VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
      info.semaphoreCount = 1;
      info.pSemaphores = &timeline_;
      info.pValues = &submitted_serial_;
      MOTE_VK_CHECK(vkWaitSemaphores(device_, &info, UINT64_MAX));
    }
    for (auto& d : deferred_) d.destroy();
    deferred_.clear();
    for (auto& f : in_flight_) vkFreeCommandBuffers(device_, command_pool_, 1, &f.cmd);
    in_flight_.clear();
    if (timeline_) vkDestroySemaphore(device_, timeline_, nullptr);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    if (owns_device_) vkDestroyDevice(device_, nullptr);
  }
}

void Device::set_name(VkObjectType type, uint64_t handle, std::string_view name) const {
  if (!set_object_name_ || handle == 0) return;
  std::string owned(name);
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = owned.c_str();
  MOTE_VK_CHECK(set_object_name_(device_, &info));
}

Result<uint64_t> Device::submit(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  MOTE_VK_TRY(vkAllocateCommandBuffers(device_, &alloc, &cmd));
  set_name(VK_OBJECT_TYPE_COMMAND_BUFFER, cmd, "mote.one_shot");

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult r = vkBeginCommandBuffer(cmd, &begin);
  if (r == VK_SUCCESS) {
    record(cmd);
    r = vkEndCommandBuffer(cmd);
  }
  if (r != VK_SUCCESS) {
    vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
    return vk_error(r, "vkBeginCommandBuffer/vkEndCommandBuffer");
  }

  const uint64_t serial = submitted_serial_ + 1;
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal.semaphore = timeline_;
  signal.value = serial;
  signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  submit.signalSemaphoreInfoCount = 1;
  submit.pSignalSemaphoreInfos = &signal;
  r = vkQueueSubmit2(queue_, 1, &submit, VK_NULL_HANDLE);
  if (r != VK_SUCCESS) {
    vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
    return vk_error(r, "vkQueueSubmit2");
  }
  submitted_serial_ = serial;
  in_flight_.push_back({serial, cmd});
  collect_garbage();
  return serial;
}

Status Device::wait(uint64_t serial, uint64_t timeout_ns) {
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &timeline_;
  info.pValues = &serial;
  VkResult r = vkWaitSemaphores(device_, &info, timeout_ns);
  if (r == VK_TIMEOUT)
    return make_error(ErrorCode::kVulkan,
                      "GPU work did not finish within " + std::to_string(timeout_ns / 1000000) + " ms");
  if (r != VK_SUCCESS) return vk_error(r, "vkWaitSemaphores");
  collect_garbage();
  return {};
}

Status Device::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) {
  MOTE_TRY_ASSIGN(uint64_t serial, submit(record));
  return wait(serial);
}

Status Device::wait_idle() {
  MOTE_VK_TRY(vkQueueWaitIdle(queue_));
  collect_garbage();
  return {};
}

Result<uint64_t> Device::completed_serial() const {
  uint64_t value = 0;
  MOTE_VK_TRY(vkGetSemaphoreCounterValue(device_, timeline_, &value));
  return value;
}

void Device::defer_destroy(std::function<void()> destroy) {
  std::lock_guard lock(mutex_);
  deferred_.push_back({submitted_serial_, std::move(destroy)});
}

void Device::collect_garbage() {
  uint64_t done = 0;
  MOTE_VK_CHECK(vkGetSemaphoreCounterValue(device_, timeline_, &done));
  while (!in_flight_.empty() && in_flight_.front().serial <= done) {
    vkFreeCommandBuffers(device_, command_pool_, 1, &in_flight_.front().cmd);
    in_flight_.pop_front();
  }
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard lock(mutex_);
    while (!deferred_.empty() && deferred_.front().serial <= done) {
      ready.push_back(std::move(deferred_.front().destroy));
      deferred_.pop_front();
    }
  }
  for (auto& destroy : ready) destroy();
}

Result<VkDeviceMemory> Device::allocate_memory(const VkMemoryRequirements& requirements, uint32_t type,
                                               std::string_view name) {
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = requirements.size;
  ai.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  MOTE_VK_TRY(vkAllocateMemory(device_, &ai, nullptr, &memory));
  set_name(VK_OBJECT_TYPE_DEVICE_MEMORY, memory, name);
  allocated_bytes_ += requirements.size;
  ++allocation_count_;
  return memory;
}

void Device::free_memory(VkDeviceMemory memory, VkDeviceSize bytes) {
  if (memory == VK_NULL_HANDLE) return;
  vkFreeMemory(device_, memory, nullptr);  // unmaps implicitly
  allocated_bytes_ -= bytes;
  --allocation_count_;
}

Result<uint32_t> Device::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                          VkMemoryPropertyFlags preferred) const {
  for (int pass = 0; pass < 2; ++pass) {
    const VkMemoryPropertyFlags want = pass == 0 ? (required | preferred) : required;
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  }
  return make_error(ErrorCode::kUnsupported, "no memory type with the required properties");
}

}  // namespace mote::gpu
