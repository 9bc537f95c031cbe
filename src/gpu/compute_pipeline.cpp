#include "gpu/compute_pipeline.hpp"

#include <utility>
#include <vector>

#include "gpu/embedded_shaders.hpp"
#include "gpu/pipeline_common.hpp"
#include "gpu/vk_check.hpp"

namespace mote::gpu {

const EmbeddedShader* find_embedded_shader(std::string_view name) {
  for (const EmbeddedShader& s : embedded_shaders())
    if (name == s.name) return &s;
  return nullptr;
}

Result<ComputePipeline> ComputePipeline::create(Device& device, std::string_view shader_name,
                                                std::span<const SpecializationConstant> specialization) {
  const EmbeddedShader* shader = find_embedded_shader(shader_name);
  if (!shader) return make_error(ErrorCode::kNotFound, "no embedded shader named " + std::string(shader_name));
  return create_from_spirv(device, std::string(shader_name), std::span(shader->words, shader->word_count),
                           specialization);
}

Result<ComputePipeline> ComputePipeline::create_from_spirv(Device& device, std::string name,
                                                           std::span<const uint32_t> spirv,
                                                           std::span<const SpecializationConstant> specialization) {
  ComputePipeline p;
  p.device_ = &device;
  p.name_ = std::move(name);
  MOTE_TRY_ASSIGN(p.reflection_, reflect_spirv(spirv));
  if (p.reflection_.stage != VK_SHADER_STAGE_COMPUTE_BIT)
    return make_error(ErrorCode::kInvalidArgument, "not a compute shader", p.name_);

  std::vector<VkShaderStageFlags> stages(p.reflection_.bindings.size(), VK_SHADER_STAGE_COMPUTE_BIT);
  MOTE_TRY_ASSIGN(p.set_layout_, detail::create_push_set_layout(device, p.reflection_.bindings, stages, p.name_));
  MOTE_TRY_ASSIGN(p.layout_, detail::create_pipeline_layout(device, p.set_layout_, p.reflection_.push_constant_size,
                                                            VK_SHADER_STAGE_COMPUTE_BIT, p.name_));
  const EmbeddedShader module_words{p.name_.c_str(), spirv.data(), spirv.size()};
  MOTE_TRY_ASSIGN(VkShaderModule module, detail::create_module(device, module_words));
  detail::Specialization spec(specialization);

  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = spec.get();
  info.layout = p.layout_;
  if (device.pipeline_statistics_enabled()) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult r = vkCreateComputePipelines(device.handle(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_);
  vkDestroyShaderModule(device.handle(), module, nullptr);
  if (r != VK_SUCCESS) return vk_error(r, "vkCreateComputePipelines");
  device.set_name(VK_OBJECT_TYPE_PIPELINE, p.pipeline_, p.name_);
  return p;
}

Result<std::vector<PipelineStatistic>> ComputePipeline::statistics() const {
  std::vector<PipelineStatistic> out;
  if (!device_ || !device_->pipeline_statistics_enabled()) return out;
  auto get_properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device_->handle(), "vkGetPipelineExecutablePropertiesKHR"));
  auto get_statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device_->handle(), "vkGetPipelineExecutableStatisticsKHR"));
  if (!get_properties || !get_statistics) return out;
  VkPipelineInfoKHR pipeline_info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  pipeline_info.pipeline = pipeline_;
  uint32_t executables = 0;
  MOTE_VK_TRY(get_properties(device_->handle(), &pipeline_info, &executables, nullptr));
  std::vector<VkPipelineExecutablePropertiesKHR> props(executables,
                                                       {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  MOTE_VK_TRY(get_properties(device_->handle(), &pipeline_info, &executables, props.data()));
  for (uint32_t e = 0; e < executables; ++e) {
    VkPipelineExecutableInfoKHR exe{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    exe.pipeline = pipeline_;
    exe.executableIndex = e;
    uint32_t count = 0;
    MOTE_VK_TRY(get_statistics(device_->handle(), &exe, &count, nullptr));
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    MOTE_VK_TRY(get_statistics(device_->handle(), &exe, &count, stats.data()));
    for (const auto& st : stats) {
      std::string value;
      switch (st.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = st.value.b32 ? "true" : "false"; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(st.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(st.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = std::to_string(st.value.f64); break;
        default: value = "?"; break;
      }
      out.push_back({props[e].name, st.name, value});
    }
  }
  return out;
}

ComputePipeline& ComputePipeline::operator=(ComputePipeline&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    name_ = std::move(other.name_);
    reflection_ = std::move(other.reflection_);
    set_layout_ = std::exchange(other.set_layout_, VK_NULL_HANDLE);
    layout_ = std::exchange(other.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
  }
  return *this;
}

void ComputePipeline::release() {
  if (!device_) return;
  detail::defer_destroy_pipeline(*device_, pipeline_, layout_, set_layout_);
  device_ = nullptr;
}

}  // namespace mote::gpu
