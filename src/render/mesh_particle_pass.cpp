#include "render/mesh_particle_pass.hpp"

#include <vector>

#include "assets/mesh.hpp"
#include "gpu/commands.hpp"
#include "shared/render_passes.h"

namespace mote::render {

namespace {

const std::vector<gpu::VertexAttribute> kMeshAttributes = {
    {0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(assets::MeshVertex, position)},
    {1, VK_FORMAT_R32G32B32_SFLOAT, offsetof(assets::MeshVertex, normal)},
    {2, VK_FORMAT_R32G32_SFLOAT, offsetof(assets::MeshVertex, uv)},
};

constexpr VkPipelineStageFlags2 kDepthTestStages = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkAccessFlags2 kDepthTestAccess = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;

shader::ParticleDrawPush particle_push(const ParticleInputs& in, uint32_t row) {
  return {in.record_words, in.record_count, in.capacity, in.alive_count_word, row, 0, 0, 0};
}

void draw_meshes(gpu::GraphicsRecorder& rec, std::span<const MeshParticleDraw> draws, const ParticleInputs& in,
                 const gpu::Buffer& draw_args) {
  for (const MeshParticleDraw& m : draws)
    rec.push(particle_push(in, m.row))
        .vertex_buffer(m.mesh->vertices)
        .index_buffer(m.mesh->indices)
        .draw_indexed_indirect(draw_args, shader::kDrawArgsMeshOffset + 20u * m.args_index);
}

}  // namespace

Result<MeshParticlePass> MeshParticlePass::create(gpu::Device& device) {
  MeshParticlePass p;
  p.device_ = &device;
  const uint32_t stride = sizeof(assets::MeshVertex);
  // The same states as the objects' pipelines (render/opaque_pass.cpp): depth bias in the shadow
  // map against acne (with the lookup's normal offset, opaque.frag), no culling.
  MOTE_TRY_ASSIGN(p.shadow_, gpu::GraphicsPipeline::create(device, {.name = "mote.render.shadow_mesh_particles",
                                                                    .vertex_shader = "render/mesh_particle_shadow.vert",
                                                                    .depth_format = kDepthFormat,
                                                                    .depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL,
                                                                    .depth_bias = true,
                                                                    .depth_bias_constant = 1.0f,
                                                                    .depth_bias_slope = 2.0f,
                                                                    .cull = VK_CULL_MODE_NONE,
                                                                    .vertex_stride = stride,
                                                                    .vertex_attributes = kMeshAttributes}));
  MOTE_TRY_ASSIGN(p.opaque_, gpu::GraphicsPipeline::create(device, {.name = "mote.render.mesh_particles",
                                                                    .vertex_shader = "render/mesh_particle.vert",
                                                                    .fragment_shader = "render/opaque.frag",
                                                                    .color_formats = {kHdrFormat},
                                                                    .depth_format = kDepthFormat,
                                                                    .cull = VK_CULL_MODE_NONE,
                                                                    .vertex_stride = stride,
                                                                    .vertex_attributes = kMeshAttributes}));
  MOTE_TRY_ASSIGN(p.shadow_sampler_,
                  gpu::Sampler::create(device, {.filter = VK_FILTER_LINEAR,
                                                .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                                .compare = true,
                                                .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL,
                                                .border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                                .name = "mote.render.mesh_particles.shadow_sampler"}));
  MOTE_TRY_ASSIGN(p.no_shadow_,
                  gpu::Image::create(device, {.width = 1,
                                              .height = 1,
                                              .format = kDepthFormat,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "mote.render.no_shadow"}));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    gpu::image_barrier(cmd, p.no_shadow_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearDepthStencilValue far{1.0f, 0};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, p.no_shadow_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &range);
    gpu::image_barrier(cmd, p.no_shadow_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  }));
  return p;
}

void MeshParticlePass::record_shadow(VkCommandBuffer cmd, const ShadowMapTarget& shadow_map,
                                     std::span<const MeshParticleDraw> draws, const ParticleInputs& in,
                                     const gpu::Buffer& draw_args) {
  const gpu::Image& image = *shadow_map.image;
  constexpr VkImageLayout kLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  acquire_target(cmd, image, shadow_map.layout, kLayout, kDepthTestStages, kDepthTestAccess);
  gpu::begin_rendering(cmd, {}, {.image = &image, .clear = false}, kLayout);
  gpu::GraphicsRecorder rec(*device_, cmd);
  rec.bind(shadow_, image.width(), image.height())
      .resources({{0, in.view}, {2, in.pool}, {3, in.records}, {4, in.alive}});
  draw_meshes(rec, draws, in, draw_args);
  vkCmdEndRendering(cmd);
  release_target(cmd, image, kLayout, shadow_map.layout, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
}

void MeshParticlePass::record_opaque(VkCommandBuffer cmd, const ParticleTargets& t, const ShadowMapTarget& shadow_map,
                                     std::span<const MeshParticleDraw> draws, const ParticleInputs& in,
                                     const gpu::Buffer& draw_args) {
  const gpu::Image& color = *t.color;
  const gpu::Image& depth = *t.depth;
  constexpr VkImageLayout kColorLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  constexpr VkImageLayout kDepthLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  const gpu::Image& shadow = shadow_map.image ? *shadow_map.image : no_shadow_;
  const VkImageLayout shadow_layout = shadow_map.image ? shadow_map.layout : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  acquire_target(cmd, shadow, shadow_layout, shadow_layout, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  acquire_target(cmd, color, t.color_layout, kColorLayout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  acquire_target(cmd, depth, t.depth_layout, kDepthLayout, kDepthTestStages, kDepthTestAccess);
  gpu::begin_rendering(cmd, {{.image = &color, .clear = false}}, {.image = &depth, .clear = false}, kDepthLayout);
  const gpu::ImageBinding shadow_binding{7, shadow.view(), shadow_sampler_.handle(), shadow_layout};
  gpu::GraphicsRecorder rec(*device_, cmd);
  rec.bind(opaque_, color.width(), color.height())
      .resources({{0, in.view},
                  {1, in.point_lights},
                  {2, in.pool},
                  {3, in.records},
                  {4, in.alive},
                  {8, in.particle_lights},
                  {9, in.particle_light_clusters}},
                 {shadow_binding});
  draw_meshes(rec, draws, in, draw_args);
  vkCmdEndRendering(cmd);
  release_target(cmd, color, kColorLayout, t.color_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  release_target(cmd, depth, kDepthLayout, t.depth_layout, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
}

}  // namespace mote::render
