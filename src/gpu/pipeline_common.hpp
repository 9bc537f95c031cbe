// What compute and graphics pipelines build the same way: shader modules from embedded SPIR-V,
// the push-descriptor set layout and pipeline layout from reflected bindings, and the
// specialization data. Internal to src/gpu/.
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/embedded_shaders.hpp"
#include "gpu/shader_reflection.hpp"

namespace mote::gpu::detail {

struct LoadedShader {
  const EmbeddedShader* shader = nullptr;
  ShaderReflection reflection;
};
Result<LoadedShader> load_shader(std::string_view name);

// A module the caller destroys right after pipeline creation.
Result<VkShaderModule> create_module(Device& device, const EmbeddedShader& shader);

// Set 0 as a push-descriptor layout with each binding visible to `stages[i]`.
Result<VkDescriptorSetLayout> create_push_set_layout(Device& device, std::span<const ReflectedBinding> bindings,
                                                     std::span<const VkShaderStageFlags> stages,
                                                     const std::string& name);
Result<VkPipelineLayout> create_pipeline_layout(Device& device, VkDescriptorSetLayout set_layout,
                                                uint32_t push_constant_size, VkShaderStageFlags push_stages,
                                                const std::string& name);

// Destroys a pipeline, its layout and its set layout once the GPU is done with them (any may be
// VK_NULL_HANDLE).
void defer_destroy_pipeline(Device& device, VkPipeline pipeline, VkPipelineLayout layout,
                            VkDescriptorSetLayout set_layout);

// Keeps the map entries and values alive for VkSpecializationInfo.
struct Specialization {
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  VkSpecializationInfo info{};
  explicit Specialization(std::span<const SpecializationConstant> constants);
  const VkSpecializationInfo* get() const { return entries.empty() ? nullptr : &info; }
};

}  // namespace mote::gpu::detail
