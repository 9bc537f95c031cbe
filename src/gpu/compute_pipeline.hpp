// A compute pipeline built from an embedded SPIR-V module. The descriptor set layout (set 0,
// push descriptors), the push-constant range and the workgroup size all come from reflection,
// so a shader edit cannot leave a stale C++ restatement behind.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <string_view>

#include "gpu/device.hpp"
#include "gpu/shader_reflection.hpp"

namespace mote::gpu {

struct SpecializationConstant {
  uint32_t id;
  uint32_t value;  // 32-bit: uint, int, float bits or bool
};

class ComputePipeline {
 public:
  ComputePipeline() = default;
  // shader_name: an embedded shader (see shaders/CMakeLists.txt), e.g. "gpu/selftest_saxpy".
  static Result<ComputePipeline> create(Device& device, std::string_view shader_name,
                                        std::span<const SpecializationConstant> specialization = {});
  ~ComputePipeline() { release(); }
  ComputePipeline(ComputePipeline&& other) noexcept { *this = std::move(other); }
  ComputePipeline& operator=(ComputePipeline&& other) noexcept;
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  const ShaderReflection& reflection() const { return reflection_; }
  const std::string& name() const { return name_; }
  uint32_t local_size_x() const { return reflection_.local_size[0]; }
  bool valid() const { return pipeline_ != VK_NULL_HANDLE; }

 private:
  void release();
  Device* device_ = nullptr;
  std::string name_;
  ShaderReflection reflection_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace mote::gpu
