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

Result<GraphicsPipeline> GraphicsPipeline::create(Device& device, const GraphicsPipelineDesc& desc) {
  GraphicsPipeline p;
  p.device_ = &device;
  p.name_ = desc.name;

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
  if (!desc.blend.empty() && desc.blend.size() != desc.color_formats.size())
    return make_error(ErrorCode::kInvalidArgument, "one blend state per colour attachment", desc.name);

  // Merge the stages' bindings: the same (set, binding) must agree on type; stage flags union.
  std::vector<VkShaderStageFlags> stages;
  for (const detail::LoadedShader& s : shaders) {
    for (const ReflectedBinding& b : s.reflection.bindings) {
      auto it = std::find_if(p.reflection_.bindings.begin(), p.reflection_.bindings.end(),
                             [&](const ReflectedBinding& x) { return x.set == b.set && x.binding == b.binding; });
      if (it == p.reflection_.bindings.end()) {
        p.reflection_.bindings.push_back(b);
        stages.push_back(s.reflection.stage);
      } else {
        if (it->type != b.type || it->count != b.count)
          return make_error(ErrorCode::kInvalidArgument,
                            "binding " + std::to_string(b.binding) + " differs between stages", desc.name);
        it->read_only = it->read_only && b.read_only;
        stages[size_t(it - p.reflection_.bindings.begin())] |= s.reflection.stage;
      }
    }
    if (s.reflection.push_constant_size) {
      p.reflection_.push_constant_size = std::max(p.reflection_.push_constant_size, s.reflection.push_constant_size);
      p.push_stages_ |= s.reflection.stage;
    }
    for (const auto& [name, members] : s.reflection.structs) p.reflection_.structs[name] = members;
  }
  p.reflection_.stage = VK_SHADER_STAGE_VERTEX_BIT;
  // Keep (set, binding) order, carrying each binding's stages along.
  std::vector<size_t> order(p.reflection_.bindings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto& x = p.reflection_.bindings[a];
    const auto& y = p.reflection_.bindings[b];
    return std::tie(x.set, x.binding) < std::tie(y.set, y.binding);
  });
  std::vector<ReflectedBinding> sorted_bindings;
  std::vector<VkShaderStageFlags> sorted_stages;
  for (size_t i : order) {
    sorted_bindings.push_back(p.reflection_.bindings[i]);
    sorted_stages.push_back(stages[i]);
  }
  p.reflection_.bindings = std::move(sorted_bindings);

  MOTE_TRY_ASSIGN(p.set_layout_,
                  detail::create_push_set_layout(device, p.reflection_.bindings, sorted_stages, p.name_));
  MOTE_TRY_ASSIGN(p.layout_, detail::create_pipeline_layout(device, p.set_layout_, p.reflection_.push_constant_size,
                                                            p.push_stages_, p.name_));

  detail::Specialization spec(desc.specialization);
  std::vector<VkPipelineShaderStageCreateInfo> stage_infos;
  std::vector<VkShaderModule> modules;
  for (const detail::LoadedShader& s : shaders) {
    auto module = detail::create_module(device, *s.shader);
    if (!module.ok()) {
      for (VkShaderModule m : modules) vkDestroyShaderModule(device.handle(), m, nullptr);
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

  VkVertexInputBindingDescription vertex_binding{0, desc.vertex_stride, VK_VERTEX_INPUT_RATE_VERTEX};
  std::vector<VkVertexInputAttributeDescription> attributes;
  for (const VertexAttribute& a : desc.vertex_attributes) attributes.push_back({a.location, 0, a.format, a.offset});
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (desc.vertex_stride) {
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &vertex_binding;
    vertex_input.vertexAttributeDescriptionCount = uint32_t(attributes.size());
    vertex_input.pVertexAttributeDescriptions = attributes.data();
  }
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = desc.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = desc.cull;
  raster.frontFace = desc.front_face;
  raster.depthBiasEnable = desc.depth_bias ? VK_TRUE : VK_FALSE;
  raster.depthBiasConstantFactor = desc.depth_bias_constant;
  raster.depthBiasSlopeFactor = desc.depth_bias_slope;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  const bool has_depth = desc.depth_format != VK_FORMAT_UNDEFINED;
  depth.depthTestEnable = has_depth && desc.depth_test ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = has_depth && desc.depth_write ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = desc.depth_compare;
  std::vector<VkPipelineColorBlendAttachmentState> blend = desc.blend;
  if (blend.empty()) blend.assign(desc.color_formats.size(), blend_opaque());
  VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend_state.attachmentCount = uint32_t(blend.size());
  blend_state.pAttachments = blend.data();
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = uint32_t(desc.color_formats.size());
  rendering.pColorAttachmentFormats = desc.color_formats.data();
  rendering.depthAttachmentFormat = desc.depth_format;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = uint32_t(stage_infos.size());
  info.pStages = stage_infos.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend_state;
  info.pDynamicState = &dynamic;
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
