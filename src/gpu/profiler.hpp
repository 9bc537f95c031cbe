// GPU timestamps per named pass. Record begin(name)/end() pairs inside a command buffer, submit,
// wait, then resolve() gives milliseconds per pass (timestampPeriod and valid bits applied).
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "gpu/device.hpp"

namespace mote::gpu {

struct PassTime {
  std::string name;
  double ms = 0.0;
};

class GpuProfiler {
 public:
  // max_passes: how many begin/end pairs one recording may hold.
  static Result<GpuProfiler> create(Device& device, uint32_t max_passes = 64);
  GpuProfiler() = default;
  ~GpuProfiler() { release(); }
  GpuProfiler(GpuProfiler&& other) noexcept { *this = std::move(other); }
  GpuProfiler& operator=(GpuProfiler&& other) noexcept;
  GpuProfiler(const GpuProfiler&) = delete;
  GpuProfiler& operator=(const GpuProfiler&) = delete;

  bool valid() const { return pool_ != VK_NULL_HANDLE; }
  // Resets the query pool for a new recording (must be recorded before any begin()).
  void reset(VkCommandBuffer cmd);
  void begin(VkCommandBuffer cmd, std::string name);
  void end(VkCommandBuffer cmd);
  // After the command buffer completed: the passes in recording order.
  Result<std::vector<PassTime>> resolve();

 private:
  void release();
  Device* device_ = nullptr;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t capacity_ = 0;
  std::vector<std::string> names_;
  bool open_ = false;
};

}  // namespace mote::gpu
