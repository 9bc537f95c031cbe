#include "gpu/profiler.hpp"

#include <utility>

#include "core/check.hpp"
#include "gpu/vk_check.hpp"

namespace mote::gpu {

Result<GpuProfiler> GpuProfiler::create(Device& device, uint32_t max_passes) {
  GpuProfiler p;
  p.device_ = &device;
  p.capacity_ = max_passes;
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = max_passes * 2;
  MOTE_VK_TRY(vkCreateQueryPool(device.handle(), &info, nullptr, &p.pool_));
  device.set_name(VK_OBJECT_TYPE_QUERY_POOL, p.pool_, "mote.profiler");
  return p;
}

GpuProfiler& GpuProfiler::operator=(GpuProfiler&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
    capacity_ = other.capacity_;
    names_ = std::move(other.names_);
    open_ = other.open_;
  }
  return *this;
}

void GpuProfiler::release() {
  if (!device_) return;
  VkDevice dev = device_->handle();
  VkQueryPool pool = pool_;
  device_->defer_destroy([dev, pool] { vkDestroyQueryPool(dev, pool, nullptr); });
  device_ = nullptr;
}

void GpuProfiler::reset(VkCommandBuffer cmd) {
  vkCmdResetQueryPool(cmd, pool_, 0, capacity_ * 2);
  names_.clear();
  open_ = false;
}

void GpuProfiler::begin(VkCommandBuffer cmd, std::string name) {
  MOTE_CHECK(!open_, "GpuProfiler::begin inside an open pass");
  MOTE_CHECK(names_.size() < capacity_, "GpuProfiler: more passes than max_passes");
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, uint32_t(names_.size() * 2));
  names_.push_back(std::move(name));
  open_ = true;
}

void GpuProfiler::end(VkCommandBuffer cmd) {
  MOTE_CHECK(open_, "GpuProfiler::end without begin");
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, uint32_t(names_.size() * 2 - 1));
  open_ = false;
}

Result<std::vector<PassTime>> GpuProfiler::resolve() {
  if (open_) return make_error(ErrorCode::kInvalidArgument, "a profiled pass was never ended");
  std::vector<PassTime> out;
  if (names_.empty()) return out;
  std::vector<uint64_t> ticks(names_.size() * 2);
  MOTE_VK_TRY(vkGetQueryPoolResults(device_->handle(), pool_, 0, uint32_t(ticks.size()),
                                    ticks.size() * sizeof(uint64_t), ticks.data(), sizeof(uint64_t),
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const double period_ns = device_->limits().timestampPeriod;
  // Timestamps carry only the queue family's timestampValidBits; masking the difference keeps a
  // counter wrap inside a pass from turning into a huge time.
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count, families.data());
  const uint32_t valid_bits = families[device_->queue_family()].timestampValidBits;
  if (valid_bits == 0) return make_error(ErrorCode::kUnsupported, "the queue has no timestamps");
  const uint64_t mask = valid_bits >= 64 ? ~0ull : ((1ull << valid_bits) - 1);
  for (size_t i = 0; i < names_.size(); ++i) {
    const uint64_t delta = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
    out.push_back({names_[i], double(delta) * period_ns * 1e-6});
  }
  return out;
}

}  // namespace mote::gpu
