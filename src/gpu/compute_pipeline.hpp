// A compute pipeline built from an embedded SPIR-V module. The descriptor set layout (set 0,
// push descriptors), the push-constant range and the workgroup size all come from reflection,
// so a shader edit cannot leave a stale C++ restatement behind.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <string_view>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/shader_reflection.hpp"

namespace mote::gpu {

struct SpecializationConstant {
  uint32_t id;
  uint32_t value;  // 32-bit: uint, int, float bits or bool
};

// One statistic the driver reports for a compiled pipeline (VK_KHR_pipeline_executable_properties):
// e.g. NVIDIA's register count, lavapipe's instruction count.
struct PipelineStatistic {
  std::string executable;  // the executable's name (a pipeline may have several)
  std::string name;
  std::string value;  // formatted
};

class ComputePipeline {
 public:
  ComputePipeline() = default;
  // shader_name: an embedded shader (see shaders/CMakeLists.txt), e.g. "gpu/selftest_saxpy".
  static Result<ComputePipeline> create(Device& device, std::string_view shader_name,
                                        std::span<const SpecializationConstant> specialization = {});
  // From SPIR-V made at run time (the VM's per-program kernels, src/vm_gpu/kernels/): the same reflected
  // layout as an embedded shader. `spirv` is only read during the call; `name` names the
  // pipeline for debuggers and errors.
  static Result<ComputePipeline> create_from_spirv(Device& device, std::string name, std::span<const uint32_t> spirv,
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
  // The driver's statistics when the device enabled them (Device::pipeline_statistics_enabled),
  // empty otherwise.
  Result<std::vector<PipelineStatistic>> statistics() const;

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
