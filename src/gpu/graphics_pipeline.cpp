#include "gpu/graphics_pipeline.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "gpu/pipeline_common.hpp"
#include "gpu/vk_check.hpp"

namespace mote::gpu {

namespace {
constexpr VkColorComponentFlags kAllChannels = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                               VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
}  // namespace

VkPipelineColorBlendAttachmentState blend_opaque() {
  VkPipelineColorBlendAttachmentState b{};
  b.colorWriteMask = kAllChannels;
  return b;
}

VkPipelineColorBlendAttachmentState blend_premultiplied_over() {
  VkPipelineColorBlendAttachmentState b = blend_opaque();
  b.blendEnable = VK_TRUE;
  b.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
  b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  b.colorBlendOp = VK_BLEND_OP_ADD;
  b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  b.alphaBlendOp = VK_BLEND_OP_ADD;
  return b;
}

VkPipelineColorBlendAttachmentState blend_additive() {
  VkPipelineColorBlendAttachmentState b = blend_opaque();
  b.blendEnable = VK_TRUE;
  b.srcColorBlendFactor = b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
  b.srcAlphaBlendFactor = b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  return b;
}

VkPipelineColorBlendAttachmentState blend_revealage() {
  VkPipelineColorBlendAttachmentState b = blend_opaque();
  b.blendEnable = VK_TRUE;
  b.srcColorBlendFactor = VK_BLEND_FACTOR_ZERO;
  b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
  b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  return b;
}

namespace {

// The vertex shader and, unless the pipeline is depth only, the fragment shader.
Result<std::vector<detail::LoadedShader>> load_stages(const GraphicsPipelineDesc& desc) {
  std::vector<detail::LoadedShader> shaders;
  MOTE_TRY_ASSIGN(detail::LoadedShader vs, detail::load_shader(desc.vertex_shader));
  if (vs.reflection.stage != VK_SHADER_STAGE_VERTEX_BIT)
    return make_error(ErrorCode::kInvalidArgument, "not a vertex shader", desc.vertex_shader);
  shaders.push_back(std::move(vs));
  if (!desc.fragment_shader.empty()) {
    MOTE_TRY_ASSIGN(detail::LoadedShader fs, detail::load_shader(desc.fragment_shader));
    if (fs.reflection.stage != VK_SHADER_STAGE_FRAGMENT_BIT)
      return make_error(ErrorCode::kInvalidArgument, "not a fragment shader", desc.fragment_shader);
    shaders.push_back(std::move(fs));
  }
  return shaders;
}

// The stages' reflection as one: bindings in (set, binding) order, each with the stages that use
// it, and the push-constant block sized to the larger stage's.
struct MergedReflection {
  ShaderReflection reflection;
  std::vector<VkShaderStageFlags> binding_stages;  // one per reflection.bindings entry
  VkShaderStageFlags push_stages = 0;
};

// The same (set, binding) must agree on type and count in every stage; its stage flags union.
Result<MergedReflection> merge_reflection(const std::vector<detail::LoadedShader>& shaders, const std::string& name) {
  MergedReflection merged;
  std::vector<ReflectedBinding>& bindings = merged.reflection.bindings;
  std::vector<VkShaderStageFlags> stages;
  for (const detail::LoadedShader& s : shaders) {
    for (const ReflectedBinding& b : s.reflection.bindings) {
      auto it = std::find_if(bindings.begin(), bindings.end(),
                             [&](const ReflectedBinding& x) { return x.set == b.set && x.binding == b.binding; });
      if (it == bindings.end()) {
        bindings.push_back(b);
        stages.push_back(s.reflection.stage);
      } else {
        if (it->type != b.type || it->count != b.count)
          return make_error(ErrorCode::kInvalidArgument,
                            "binding " + std::to_string(b.binding) + " differs between stages", name);
        it->read_only = it->read_only && b.read_only;
        stages[size_t(it - bindings.begin())] |= s.reflection.stage;
      }
    }
    if (s.reflection.push_constant_size) {
      merged.reflection.push_constant_size = std::max(merged.reflection.push_constant_size,
                                                      s.reflection.push_constant_size);
      merged.push_stages |= s.reflection.stage;
    }
    for (const auto& [struct_name, members] : s.reflection.structs) merged.reflection.structs[struct_name] = members;
  }
  merged.reflection.stage = VK_SHADER_STAGE_VERTEX_BIT;
  // Keep (set, binding) order, carrying each binding's stages along.
  std::vector<size_t> order(bindings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(bindings[a].set, bindings[a].binding) < std::tie(bindings[b].set, bindings[b].binding);
  });
  std::vector<ReflectedBinding> sorted_bindings;
  for (size_t i : order) {
    sorted_bindings.push_back(bindings[i]);
    merged.binding_stages.push_back(stages[i]);
  }
  bindings = std::move(sorted_bindings);
  return merged;
}

// One module and stage info per shader into `modules` and `stage_infos`; the caller destroys the
// modules once the pipeline is created. On failure the modules made so far are destroyed.
Status create_stage_modules(Device& device, const std::vector<detail::LoadedShader>& shaders,
                            const detail::Specialization& spec, std::vector<VkShaderModule>& modules,
                            std::vector<VkPipelineShaderStageCreateInfo>& stage_infos) {
  for (const detail::LoadedShader& s : shaders) {
    auto module = detail::create_module(device, *s.shader);
    if (!module.ok()) {
      for (VkShaderModule m : modules) vkDestroyShaderModule(device.handle(), m, nullptr);
      modules.clear();
      return module.error();
    }
    modules.push_back(module.value());
    VkPipelineShaderStageCreateInfo si{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    si.stage = s.reflection.stage;
    si.module = module.value();
    si.pName = "main";
    si.pSpecializationInfo = spec.get();
    stage_infos.push_back(si);
  }
  return {};
}

// The fixed-function state a GraphicsPipelineDesc asks for. The create infos point into the
// object itself (and into the desc's colour formats), so it is built in place and never moved.
struct FixedFunctionState {
  explicit FixedFunctionState(const GraphicsPipelineDesc& desc);
  FixedFunctionState(const FixedFunctionState&) = delete;
  FixedFunctionState& operator=(const FixedFunctionState&) = delete;

  // Points `info`'s state members, and its pNext, at this state.
  void apply(VkGraphicsPipelineCreateInfo& info) const;

  VkVertexInputBindingDescription vertex_binding{};
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  std::vector<VkPipelineColorBlendAttachmentState> blend;
  VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
};

FixedFunctionState::FixedFunctionState(const GraphicsPipelineDesc& desc) {
  vertex_binding = {0, desc.vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX};
  for (const VertexAttribute& a : desc.vertex_attributes) attributes.push_back({a.location, 0, a.format, a.offset});
  if (desc.vertex_stride) {
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &vertex_binding;
    vertex_input.vertexAttributeDescriptionCount = uint32_t(attributes.size());
    vertex_input.pVertexAttributeDescriptions = attributes.data();
  }
  assembly.topology = desc.topology;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = desc.cull;
  raster.frontFace = desc.front_face;
  raster.depthBiasEnable = desc.depth_bias ? VK_TRUE : VK_FALSE;
  raster.depthBiasConstantFactor = desc.depth_bias_constant;
  raster.depthBiasSlopeFactor = desc.depth_bias_slope;
  raster.lineWidth = 1.0f;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  const bool has_depth = desc.depth_format != VK_FORMAT_UNDEFINED;
  depth.depthTestEnable = has_depth && desc.depth_test ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = has_depth && desc.depth_write ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = desc.depth_compare;
  blend = desc.blend;
  if (blend.empty()) blend.assign(desc.color_formats.size(), blend_opaque());
  blend_state.attachmentCount = uint32_t(blend.size());
  blend_state.pAttachments = blend.data();
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  rendering.colorAttachmentCount = uint32_t(desc.color_formats.size());
  rendering.pColorAttachmentFormats = desc.color_formats.data();
  rendering.depthAttachmentFormat = desc.depth_format;
}

void FixedFunctionState::apply(VkGraphicsPipelineCreateInfo& info) const {
  info.pNext = &rendering;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend_state;
  info.pDynamicState = &dynamic;
}

}  // namespace

Result<GraphicsPipeline> GraphicsPipeline::create(Device& device, const GraphicsPipelineDesc& desc) {
  GraphicsPipeline p;
  p.device_ = &device;
  p.name_ = desc.name;

  MOTE_TRY_ASSIGN(const std::vector<detail::LoadedShader> shaders, load_stages(desc));
  if (!desc.blend.empty() && desc.blend.size() != desc.color_formats.size())
    return make_error(ErrorCode::kInvalidArgument, "one blend state per colour attachment", desc.name);
  MOTE_TRY_ASSIGN(MergedReflection merged, merge_reflection(shaders, desc.name));
  p.reflection_ = std::move(merged.reflection);
  p.push_stages_ = merged.push_stages;

  MOTE_TRY_ASSIGN(p.set_layout_,
                  detail::create_push_set_layout(device, p.reflection_.bindings, merged.binding_stages, p.name_));
  MOTE_TRY_ASSIGN(p.layout_, detail::create_pipeline_layout(device, p.set_layout_, p.reflection_.push_constant_size,
                                                            p.push_stages_, p.name_));

  const detail::Specialization spec(desc.specialization);
  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stage_infos;
  MOTE_TRY(create_stage_modules(device, shaders, spec, modules, stage_infos));
  const FixedFunctionState state(desc);

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  state.apply(info);
  info.stageCount = uint32_t(stage_infos.size());
  info.pStages = stage_infos.data();
  info.layout = p.layout_;
  VkResult r = vkCreateGraphicsPipelines(device.handle(), VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_);
  for (VkShaderModule m : modules) vkDestroyShaderModule(device.handle(), m, nullptr);
  if (r != VK_SUCCESS) return vk_error(r, "vkCreateGraphicsPipelines");
  device.set_name(VK_OBJECT_TYPE_PIPELINE, p.pipeline_, p.name_);
  return p;
}

GraphicsPipeline& GraphicsPipeline::operator=(GraphicsPipeline&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    name_ = std::move(other.name_);
    reflection_ = std::move(other.reflection_);
    push_stages_ = other.push_stages_;
    set_layout_ = std::exchange(other.set_layout_, VK_NULL_HANDLE);
    layout_ = std::exchange(other.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
  }
  return *this;
}

void GraphicsPipeline::release() {
  if (!device_) return;
  detail::defer_destroy_pipeline(*device_, pipeline_, layout_, set_layout_);
  device_ = nullptr;
}

}  // namespace mote::gpu
