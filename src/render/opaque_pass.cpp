#include "render/opaque_pass.hpp"

#include "assets/mesh.hpp"
#include "gpu/commands.hpp"

namespace mote::render {

namespace {

const std::vector<gpu::VertexAttribute> kMeshAttributes = {
    {0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(assets::MeshVertex, position)},
    {1, VK_FORMAT_R32G32B32_SFLOAT, offsetof(assets::MeshVertex, normal)},
    {2, VK_FORMAT_R32G32_SFLOAT, offsetof(assets::MeshVertex, uv)},
};

}  // namespace

Result<OpaquePass> OpaquePass::create(gpu::Device& device) {
  OpaquePass p;
  p.device_ = &device;
  const uint32_t stride = sizeof(assets::MeshVertex);
  // Depth bias in the shadow map against acne (with the lookup's normal offset, opaque.frag).
  gpu::GraphicsPipelineDesc shadow{.name = "mote.render.shadow",
                                   .vertex_shader = "render/shadow.vert",
                                   .depth_format = kDepthFormat,
                                   .depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL,
                                   .depth_bias = true,
                                   .depth_bias_constant = 1.0f,
                                   .depth_bias_slope = 2.0f,
                                   .cull = VK_CULL_MODE_NONE,
                                   .vertex_stride = stride,
                                   .vertex_attributes = kMeshAttributes};
  MOTE_TRY_ASSIGN(p.shadow_, gpu::GraphicsPipeline::create(device, shadow));
  gpu::GraphicsPipelineDesc opaque{.name = "mote.render.opaque",
                                   .vertex_shader = "render/opaque.vert",
                                   .fragment_shader = "render/opaque.frag",
                                   .color_formats = {kHdrFormat},
                                   .depth_format = kDepthFormat,
                                   .cull = VK_CULL_MODE_NONE,  // planes are seen from both sides
                                   .vertex_stride = stride,
                                   .vertex_attributes = kMeshAttributes};
  MOTE_TRY_ASSIGN(p.opaque_, gpu::GraphicsPipeline::create(device, opaque));
  MOTE_TRY_ASSIGN(p.shadow_sampler_, gpu::Sampler::create(device, {.filter = VK_FILTER_LINEAR,
                                                                   .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                                                   .compare = true,
                                                                   .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL,
                                                                   .border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                                                   .name = "mote.render.shadow_sampler"}));
  return p;
}

void OpaquePass::record_shadow(VkCommandBuffer cmd, RenderTargets& t, bool shadows, std::span<const OpaqueDraw> draws,
                               const gpu::Buffer& view) {
  gpu::image_barrier(cmd, t.shadow_map, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE,
                     VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
  gpu::begin_rendering(cmd, {}, {.image = &t.shadow_map, .clear = true, .clear_depth = 1.0f});
  if (shadows) {
    gpu::GraphicsRecorder rec(*device_, cmd);
    rec.bind(shadow_, t.shadow_size, t.shadow_size).resources({{0, &view}});
    for (const OpaqueDraw& d : draws) {
      if (!d.casts_shadow) continue;
      rec.push(d.push).vertex_buffer(d.mesh->vertices).index_buffer(d.mesh->indices).draw_indexed(d.mesh->index_count);
    }
  }
  vkCmdEndRendering(cmd);
}

void OpaquePass::finish_shadow(VkCommandBuffer cmd, RenderTargets& t) {
  gpu::image_barrier(cmd, t.shadow_map, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

void OpaquePass::record_scene(VkCommandBuffer cmd, RenderTargets& t, const glm::vec3& background,
                              std::span<const OpaqueDraw> draws, const gpu::Buffer& view,
                              const gpu::Buffer& point_lights, const gpu::Buffer& particle_lights,
                              const gpu::Buffer& particle_light_clusters) {
  gpu::image_barrier(cmd, t.hdr, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE,
                     VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT);
  gpu::image_barrier(cmd, t.depth, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE,
                     VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
  VkClearColorValue clear{};
  clear.float32[0] = background.r;
  clear.float32[1] = background.g;
  clear.float32[2] = background.b;
  clear.float32[3] = 1.0f;
  gpu::begin_rendering(cmd, {{.image = &t.hdr, .clear = true, .clear_value = clear}},
                       {.image = &t.depth, .clear = true, .clear_depth = 0.0f});
  const gpu::ImageBinding shadow_map{7, t.shadow_map.view(), shadow_sampler_.handle(),
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  gpu::GraphicsRecorder rec(*device_, cmd);
  rec.bind(opaque_, t.width, t.height)
      .resources({{0, &view}, {1, &point_lights}, {8, &particle_lights}, {9, &particle_light_clusters}}, {shadow_map});
  for (const OpaqueDraw& d : draws)
    rec.push(d.push).vertex_buffer(d.mesh->vertices).index_buffer(d.mesh->indices).draw_indexed(d.mesh->index_count);
  vkCmdEndRendering(cmd);
}

}  // namespace mote::render
