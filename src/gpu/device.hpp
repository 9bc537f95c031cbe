// The logical device: one queue (graphics + compute where the device has one), submissions
// tracked by a timeline semaphore, and destruction deferred until the GPU is done with an
// object (Granite's PerFrame::destroyed_buffers idea, keyed by submission serial instead of
// frame). Every object Mote creates gets a debug name.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/instance.hpp"
#include "gpu/physical_device.hpp"
#include "mote/host_vulkan_device.hpp"
#include "mote/result.hpp"

namespace mote::gpu {

class Buffer;

struct DeviceOptions {
  bool validation = false;      // also turned on by MOTE_VALIDATION=1
  std::string device_selector;  // see physical_device.hpp; "" = MOTE_DEVICE, then automatic
};

// A host application's Vulkan device for Mote to work on (Device::adopt): what the host must
// have enabled is stated with the struct (include/mote/host_vulkan_device.hpp).
using AdoptedDevice = HostVulkanDevice;

class Device {
 public:
  static Result<std::unique_ptr<Device>> create(const DeviceOptions& options = {});
  // Works on the host's device and queue without owning them: the destructor waits for Mote's
  // submissions and destroys what Mote created (its command pool, timeline semaphore, every
  // buffer, image and pipeline), never the device or the instance. Errors (kInvalidArgument /
  // kUnsupported): a null handle, a physical device the instance does not list or that lacks
  // what Mote needs, a queue family without compute, or a device on which
  // vkCmdPushDescriptorSetKHR does not resolve (the extension was not enabled).
  static Result<std::unique_ptr<Device>> adopt(const AdoptedDevice& host);
  ~Device();  // waits for the GPU, runs every deferred destruction, then destroys the device (if owned)
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkInstance instance() const { return instance_->handle(); }
  VkPhysicalDevice physical_device() const { return description_.handle; }
  VkDevice handle() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return description_.compute_queue_family; }
  const PhysicalDeviceDescription& description() const { return description_; }
  const std::vector<PhysicalDeviceDescription>& all_devices() const { return all_devices_; }
  const std::string& choice_reason() const { return choice_reason_; }
  const VkPhysicalDeviceLimits& limits() const { return description_.limits; }
  bool validation_enabled() const { return instance_->validation_enabled(); }
  // VK_KHR_pipeline_executable_properties is enabled (optional): pipelines capture the driver's
  // statistics (registers, spills, ...), readable with pipeline_statistics().
  bool pipeline_statistics_enabled() const { return pipeline_statistics_; }
  // independentBlend is enabled (optional; the raster path's weighted OIT needs it).
  bool independent_blend_enabled() const { return independent_blend_; }

  // Debug names show up in validation messages and capture tools.
  void set_name(VkObjectType type, uint64_t handle, std::string_view name) const;
  template <typename T>
  void set_name(VkObjectType type, T handle, std::string_view name) const {
    set_name(type, reinterpret_cast<uint64_t>(handle), name);
  }

  // Records a one-shot command buffer with `record`, submits it and returns its serial.
  // Submissions execute in order on the one queue.
  Result<uint64_t> submit(const std::function<void(VkCommandBuffer)>& record);
  Status wait(uint64_t serial, uint64_t timeout_ns = 60'000'000'000ull);
  Status submit_and_wait(const std::function<void(VkCommandBuffer)>& record);
  Status wait_idle();
  uint64_t last_submitted_serial() const { return submitted_serial_; }
  // The timeline semaphore each submission signals with its serial (for a host renderer's waits).
  VkSemaphore timeline() const { return timeline_; }
  Result<uint64_t> completed_serial() const;

  // Runs `destroy` once every submission made so far has completed. Objects Mote owns call this
  // from their destructors, so dropping a buffer still in use by the GPU is safe.
  void defer_destroy(std::function<void()> destroy);
  // Runs the deferred destructions whose submissions have completed (called by submit()).
  void collect_garbage();

  Result<uint32_t> find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                    VkMemoryPropertyFlags preferred = 0) const;

  // Device memory Mote holds: every vkAllocateMemory of its buffers, images and volumes, less
  // what was freed (a deferred destruction counts once it ran). For tools and the soak
  // (bench/soak.cpp), which check that it stays flat over a long run.
  struct MemoryInUse {
    uint64_t bytes = 0;
    uint64_t allocations = 0;
  };
  MemoryInUse memory_in_use() const { return {allocated_bytes_.load(), allocation_count_.load()}; }
  // Every allocation of Mote's goes through these two, so memory_in_use is exact: a block of
  // `requirements.size` bytes of memory type `type`, named for the validation layer; and its
  // release (a null handle does nothing).
  Result<VkDeviceMemory> allocate_memory(const VkMemoryRequirements& requirements, uint32_t type,
                                         std::string_view name);
  void free_memory(VkDeviceMemory memory, VkDeviceSize bytes);

  PFN_vkCmdPushDescriptorSetKHR cmd_push_descriptor_set = nullptr;

  // A log of the compute dispatches ComputeRecorder records while set (tests and tools: what a
  // frame dispatches, with the size of each direct one and where each indirect one reads its
  // size); nullptr stops it. Not thread-safe: record on one thread while it is set.
  struct DispatchRecord {
    std::string pipeline;
    uint32_t groups[3] = {0, 0, 0};    // direct dispatches
    const Buffer* indirect = nullptr;  // indirect ones: the arguments' buffer and offset
    VkDeviceSize indirect_offset = 0;
  };
  void set_dispatch_log(std::vector<DispatchRecord>* log) { dispatch_log_ = log; }
  std::vector<DispatchRecord>* dispatch_log() const { return dispatch_log_; }

 private:
  Device() = default;
  std::vector<DispatchRecord>* dispatch_log_ = nullptr;
  Status init(const DeviceOptions& options);
  // The command pool, the timeline and the extension entry points, once device_ and queue_ are set.
  Status init_device_objects();

  struct Deferred {
    uint64_t serial;
    std::function<void()> destroy;
  };
  struct InFlight {
    uint64_t serial;
    VkCommandBuffer cmd;
  };

  std::unique_ptr<Instance> instance_;
  std::vector<PhysicalDeviceDescription> all_devices_;
  PhysicalDeviceDescription description_;
  std::string choice_reason_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  bool owns_device_ = true;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  uint64_t submitted_serial_ = 0;
  std::deque<InFlight> in_flight_;
  std::deque<Deferred> deferred_;
  mutable std::mutex mutex_;
  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  bool pipeline_statistics_ = false;
  bool independent_blend_ = false;
  std::atomic<uint64_t> allocated_bytes_{0};
  std::atomic<uint64_t> allocation_count_{0};
};

}  // namespace mote::gpu
