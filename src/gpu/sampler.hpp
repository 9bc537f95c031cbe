// RAII samplers (destruction deferred like buffers).
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::gpu {

struct SamplerCreateInfo {
  VkFilter filter = VK_FILTER_LINEAR;
  VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  bool compare = false;  // a depth-compare sampler (shadow maps)
  VkCompareOp compare_op = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkBorderColor border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  std::string name = "mote.sampler";
};

class Sampler {
 public:
  Sampler() = default;
  static Result<Sampler> create(Device& device, const SamplerCreateInfo& info = {});
  ~Sampler() { release(); }
  Sampler(Sampler&& other) noexcept { *this = std::move(other); }
  Sampler& operator=(Sampler&& other) noexcept;
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;
  VkSampler handle() const { return sampler_; }
  bool valid() const { return sampler_ != VK_NULL_HANDLE; }

 private:
  void release();
  Device* device_ = nullptr;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

}  // namespace mote::gpu
