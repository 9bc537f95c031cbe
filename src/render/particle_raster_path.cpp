#include "render/particle_raster_path.hpp"

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "shared/render_passes.h"

namespace mote::render {

Result<ParticleRasterPath> ParticleRasterPath::create(gpu::Device& device, uint32_t capacity) {
  if (!device.independent_blend_enabled())
    return make_error(ErrorCode::kUnsupported, "the raster path's weighted OIT needs the independentBlend feature");
  ParticleRasterPath p;
  p.device_ = &device;
  p.capacity_ = capacity;
  const VkPipelineColorBlendAttachmentState additive = gpu::blend_additive();
  MOTE_TRY_ASSIGN(p.oit_, gpu::GraphicsPipeline::create(
                              device, {.name = "mote.render.particles_oit",
                                       .vertex_shader = "render/particle_quad.vert",
                                       .fragment_shader = "render/particle_quad_wboit.frag",
                                       .color_formats = {kHdrFormat, kRevealageFormat, kHdrFormat},
                                       .blend = {additive, gpu::blend_revealage(), additive},
                                       .depth_format = kDepthFormat,
                                       .depth_write = false,
                                       .cull = VK_CULL_MODE_NONE}));
  MOTE_TRY_ASSIGN(p.sorted_, gpu::GraphicsPipeline::create(
                                 device, {.name = "mote.render.particles_sorted",
                                          .vertex_shader = "render/particle_quad.vert",
                                          .fragment_shader = "render/particle_quad_sorted.frag",
                                          .color_formats = {kHdrFormat},
                                          .blend = {gpu::blend_premultiplied_over()},
                                          .depth_format = kDepthFormat,
                                          .depth_write = false,
                                          .cull = VK_CULL_MODE_NONE}));
  MOTE_TRY_ASSIGN(p.resolve_, gpu::ComputePipeline::create(device, "render/wboit_resolve"));
  MOTE_TRY_ASSIGN(p.sort_keys_, gpu::ComputePipeline::create(device, "render/sort_keys"));
  MOTE_TRY_ASSIGN(p.sort_, gpu::RadixSort::create(device, capacity));
  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MOTE_TRY_ASSIGN(p.sort_keys_buffer_, gpu::Buffer::create(device, {.size = uint64_t(capacity) * 4, .usage = kStorage,
                                                                    .name = "mote.render.sort_keys"}));
  MOTE_TRY_ASSIGN(p.sort_values_, gpu::Buffer::create(device, {.size = uint64_t(capacity) * 4, .usage = kStorage,
                                                               .name = "mote.render.sort_values"}));
  MOTE_TRY_ASSIGN(p.quad_indices_, gpu::Buffer::create(device, {.size = 6 * sizeof(uint32_t),
                                                                .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                                .name = "mote.render.quad_indices"}));
  const uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
  MOTE_TRY(gpu::upload_span(device, p.quad_indices_, std::span<const uint32_t>(indices)));
  return p;
}

Status ParticleRasterPath::record(VkCommandBuffer cmd, const ParticleInputs& in, RenderTargets& t, Transparency mode,
                                  const gpu::Buffer& draw_args, VkSampler depth_sampler) {
  gpu::Device& device = *device_;
  const shader::ParticleDrawPush push{in.record_words, in.record_count, in.capacity, in.alive_count_word, 0, 0, 0, 0};
  const gpu::Buffer* draw_list = in.alive;
  if (mode == Transparency::kSorted) {
    // Keys back to front, sorted with the slots; the quads then draw the sorted slots in order.
    gpu::ComputeRecorder(device, cmd)
        .bind(sort_keys_)
        .buffers({{0, in.view},
                  {1, in.pool},
                  {2, in.records},
                  {3, in.alive},
                  {4, in.counters},
                  {5, &sort_keys_buffer_},
                  {6, &sort_values_}})
        .push(push)
        .dispatch_threads(in.capacity);
    MOTE_TRY(sort_.record(cmd, sort_keys_buffer_, sort_values_,
                          gpu::ScanCount::from_buffer(draw_args, shader::kDrawArgsSortCountWord)));
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    draw_list = &sort_values_;
  }

  const gpu::ImageBinding atlas{5, in.atlas, in.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const gpu::ImageBinding depth{6, t.depth.view(), depth_sampler, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  auto draw = [&](const gpu::GraphicsPipeline& pipeline) {
    gpu::GraphicsRecorder(device, cmd)
        .bind(pipeline, t.width, t.height)
        .resources({{0, in.view}, {1, in.point_lights}, {2, in.pool}, {3, in.records}, {4, draw_list}}, {atlas, depth})
        .push(push)
        .index_buffer(quad_indices_)
        .draw_indexed_indirect(draw_args, shader::kDrawArgsQuadOffset);
  };
  const gpu::DepthTarget depth_target{.image = &t.depth, .clear = false, .store = false};
  if (mode == Transparency::kSorted) {
    gpu::begin_rendering(cmd, {{.image = &t.hdr, .clear = false}}, depth_target,
                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    draw(sorted_);
    vkCmdEndRendering(cmd);
    gpu::image_barrier(cmd, t.hdr, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                       VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    return ok_status();
  }

  for (const gpu::Image* image : {&t.oit_accum, &t.oit_revealage, &t.oit_emission})
    gpu::image_barrier(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT);
  gpu::begin_rendering(cmd,
                       {{.image = &t.oit_accum, .clear = true, .clear_value = {{0, 0, 0, 0}}},
                        {.image = &t.oit_revealage, .clear = true, .clear_value = {{1, 0, 0, 0}}},
                        {.image = &t.oit_emission, .clear = true, .clear_value = {{0, 0, 0, 0}}}},
                       depth_target, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
  draw(oit_);
  vkCmdEndRendering(cmd);
  for (const gpu::Image* image : {&t.oit_accum, &t.oit_revealage, &t.oit_emission})
    gpu::image_barrier(cmd, *image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  gpu::image_barrier(cmd, t.hdr, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                     VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  const shader::TonemapPush size{t.width, t.height, 0, 1.0f};
  gpu::ComputeRecorder(device, cmd)
      .bind(resolve_)
      .bind_resources({},
                      {{0, t.oit_accum.view(), depth_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       {1, t.oit_revealage.view(), depth_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       {2, t.oit_emission.view(), depth_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                       {3, t.hdr.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}})
      .push(size)
      .dispatch((t.width + 7) / 8, (t.height + 7) / 8);
  return ok_status();
}

}  // namespace mote::render
