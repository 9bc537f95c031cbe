// A graphics pipeline for dynamic rendering (Vulkan 1.3, no render pass objects) built from
// embedded vertex and fragment SPIR-V. As with ComputePipeline, the descriptor set layout (set 0,
// push descriptors), the push-constant range and the stages that use each binding come from
// reflection of both modules, merged; viewport and scissor are dynamic state.
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/shader_reflection.hpp"

namespace mote::gpu {

// Blend states Mote draws with.
VkPipelineColorBlendAttachmentState blend_opaque();
// Premultiplied "over": dst = src + (1 - src.a) * dst (additive particles write alpha 0).
VkPipelineColorBlendAttachmentState blend_premultiplied_over();
// dst = src + dst on every channel.
VkPipelineColorBlendAttachmentState blend_additive();
// Weighted blended OIT's revealage: dst.r = (1 - src.r) * dst.r (McGuire & Bavoil 2013).
VkPipelineColorBlendAttachmentState blend_revealage();

struct VertexAttribute {
  uint32_t location = 0;
  VkFormat format = VK_FORMAT_R32G32B32_SFLOAT;
  uint32_t offset = 0;
};

struct GraphicsPipelineDesc {
  std::string name = "mote.graphics";
  std::string vertex_shader;    // embedded shader name, e.g. "render/opaque.vert"
  std::string fragment_shader;  // "" = depth only
  std::vector<VkFormat> color_formats;
  std::vector<VkPipelineColorBlendAttachmentState> blend;  // one per colour format; empty = opaque
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  bool depth_test = true;
  bool depth_write = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reversed-Z
  bool depth_bias = false;
  float depth_bias_constant = 0.0f;
  float depth_bias_slope = 0.0f;
  VkCullModeFlags cull = VK_CULL_MODE_BACK_BIT;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint32_t vertex_stride = 0;  // 0 = no vertex buffer (vertices built from storage)
  std::vector<VertexAttribute> vertex_attributes;
  std::vector<SpecializationConstant> specialization;  // applied to both stages
};

class GraphicsPipeline {
 public:
  GraphicsPipeline() = default;
  static Result<GraphicsPipeline> create(Device& device, const GraphicsPipelineDesc& desc);
  ~GraphicsPipeline() { release(); }
  GraphicsPipeline(GraphicsPipeline&& other) noexcept { *this = std::move(other); }
  GraphicsPipeline& operator=(GraphicsPipeline&& other) noexcept;
  GraphicsPipeline(const GraphicsPipeline&) = delete;
  GraphicsPipeline& operator=(const GraphicsPipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  // Bindings of both stages (set 0), push constants sized to the larger block.
  const ShaderReflection& reflection() const { return reflection_; }
  VkShaderStageFlags push_constant_stages() const { return push_stages_; }
  const std::string& name() const { return name_; }
  bool valid() const { return pipeline_ != VK_NULL_HANDLE; }

 private:
  void release();
  Device* device_ = nullptr;
  std::string name_;
  ShaderReflection reflection_;
  VkShaderStageFlags push_stages_ = 0;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace mote::gpu
