#include "gpu/pipeline_common.hpp"

#include "gpu/vk_check.hpp"

namespace mote::gpu::detail {

Result<LoadedShader> load_shader(std::string_view name) {
  LoadedShader out;
  out.shader = find_embedded_shader(name);
  if (!out.shader) return make_error(ErrorCode::kNotFound, "no embedded shader named " + std::string(name));
  MOTE_TRY_ASSIGN(out.reflection, reflect_spirv(std::span(out.shader->words, out.shader->word_count)));
  return out;
}

Result<VkShaderModule> create_module(Device& device, const EmbeddedShader& shader) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = shader.word_count * sizeof(uint32_t);
  info.pCode = shader.words;
  VkShaderModule module = VK_NULL_HANDLE;
  MOTE_VK_TRY(vkCreateShaderModule(device.handle(), &info, nullptr, &module));
  return module;
}

Result<VkDescriptorSetLayout> create_push_set_layout(Device& device, std::span<const ReflectedBinding> bindings,
                                                     std::span<const VkShaderStageFlags> stages,
                                                     const std::string& name) {
  std::vector<VkDescriptorSetLayoutBinding> out;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const ReflectedBinding& b = bindings[i];
    if (b.set != 0) return make_error(ErrorCode::kUnsupported, "shaders bind set 0 only (push descriptors)", name);
    out.push_back({b.binding, b.type, b.count, stages[i], nullptr});
  }
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  info.bindingCount = uint32_t(out.size());
  info.pBindings = out.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  MOTE_VK_TRY(vkCreateDescriptorSetLayout(device.handle(), &info, nullptr, &layout));
  device.set_name(VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, layout, name);
  return layout;
}

Result<VkPipelineLayout> create_pipeline_layout(Device& device, VkDescriptorSetLayout set_layout,
                                                uint32_t push_constant_size, VkShaderStageFlags push_stages,
                                                const std::string& name) {
  VkPushConstantRange range{push_stages, 0, push_constant_size};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = push_constant_size ? 1 : 0;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  MOTE_VK_TRY(vkCreatePipelineLayout(device.handle(), &info, nullptr, &layout));
  device.set_name(VK_OBJECT_TYPE_PIPELINE_LAYOUT, layout, name);
  return layout;
}

void defer_destroy_pipeline(Device& device, VkPipeline pipeline, VkPipelineLayout layout,
                            VkDescriptorSetLayout set_layout) {
  VkDevice dev = device.handle();
  device.defer_destroy([dev, pipeline, layout, set_layout] {
    if (pipeline) vkDestroyPipeline(dev, pipeline, nullptr);
    if (layout) vkDestroyPipelineLayout(dev, layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(dev, set_layout, nullptr);
  });
}

Specialization::Specialization(std::span<const SpecializationConstant> constants) {
  for (const auto& s : constants) {
    entries.push_back({s.id, uint32_t(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
    values.push_back(s.value);
  }
  info = {uint32_t(entries.size()), entries.data(), values.size() * sizeof(uint32_t), values.data()};
}

}  // namespace mote::gpu::detail
