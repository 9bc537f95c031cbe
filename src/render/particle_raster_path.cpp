#include "render/particle_raster_path.hpp"

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "shared/render_passes.h"
#include "shared/ribbon.h"

namespace mote::render {

namespace {

// The depth's accesses while the quads draw: tested read-only, sampled by soft particles.
constexpr VkPipelineStageFlags2 kDepthReadStages = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr VkAccessFlags2 kDepthReadAccess = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;

}  // namespace

Result<ParticleRasterPath> ParticleRasterPath::create(gpu::Device& device, const RasterPathOptions& options) {
  if (!device.independent_blend_enabled())
    return make_error(ErrorCode::kUnsupported, "the raster path's weighted OIT needs the independentBlend feature");
  if (options.capacity == 0 || options.width == 0 || options.height == 0)
    return make_error(ErrorCode::kInvalidArgument, "the raster path needs a capacity, width and height above 0");
  const uint32_t capacity = options.capacity;
  ParticleRasterPath p;
  p.device_ = &device;
  p.options_ = options;
  const VkPipelineColorBlendAttachmentState additive = gpu::blend_additive();
  MOTE_TRY_ASSIGN(p.oit_,
                  gpu::GraphicsPipeline::create(device, {.name = "mote.render.particles_oit",
                                                         .vertex_shader = "render/particle_quad.vert",
                                                         .fragment_shader = "render/particle_quad_wboit.frag",
                                                         .color_formats = {kHdrFormat, kRevealageFormat, kHdrFormat},
                                                         .blend = {additive, gpu::blend_revealage(), additive},
                                                         .depth_format = kDepthFormat,
                                                         .depth_write = false,
                                                         .cull = VK_CULL_MODE_NONE}));
  MOTE_TRY_ASSIGN(p.sorted_,
                  gpu::GraphicsPipeline::create(device, {.name = "mote.render.particles_sorted",
                                                         .vertex_shader = "render/particle_quad.vert",
                                                         .fragment_shader = "render/particle_quad_sorted.frag",
                                                         .color_formats = {kHdrFormat},
                                                         .blend = {gpu::blend_premultiplied_over()},
                                                         .depth_format = kDepthFormat,
                                                         .depth_write = false,
                                                         .cull = VK_CULL_MODE_NONE}));
  MOTE_TRY_ASSIGN(p.avboit_,
                  gpu::GraphicsPipeline::create(device, {.name = "mote.render.particles_avboit",
                                                         .vertex_shader = "render/particle_quad.vert",
                                                         .fragment_shader = "render/particle_quad_avboit.frag",
                                                         .color_formats = {kHdrFormat, kRevealageFormat, kHdrFormat},
                                                         .blend = {additive, gpu::blend_revealage(), additive},
                                                         .depth_format = kDepthFormat,
                                                         .depth_write = false,
                                                         .cull = VK_CULL_MODE_NONE}));
  const struct {
    gpu::GraphicsPipeline* out;
    const char* name;
    const char* fragment;
    bool sorted;
  } ribbons[] = {{&p.ribbon_oit_, "mote.render.ribbons_oit", "render/ribbon_wboit.frag", false},
                 {&p.ribbon_sorted_, "mote.render.ribbons_sorted", "render/ribbon_sorted.frag", true},
                 {&p.ribbon_avboit_, "mote.render.ribbons_avboit", "render/ribbon_avboit.frag", false}};
  for (const auto& r : ribbons) {
    std::vector<VkFormat> formats = {kHdrFormat};
    std::vector<VkPipelineColorBlendAttachmentState> blend = {gpu::blend_premultiplied_over()};
    if (!r.sorted) {
      formats = {kHdrFormat, kRevealageFormat, kHdrFormat};
      blend = {additive, gpu::blend_revealage(), additive};
    }
    MOTE_TRY_ASSIGN(*r.out, gpu::GraphicsPipeline::create(device, {.name = r.name,
                                                                   .vertex_shader = "render/ribbon.vert",
                                                                   .fragment_shader = r.fragment,
                                                                   .color_formats = formats,
                                                                   .blend = blend,
                                                                   .depth_format = kDepthFormat,
                                                                   .depth_write = false,
                                                                   .cull = VK_CULL_MODE_NONE}));
  }
  MOTE_TRY_ASSIGN(p.avboit_volume_, AvboitVolume::create(device, {.grid = options.avboit_grid,
                                                                  .width = options.width,
                                                                  .height = options.height}));
  MOTE_TRY_ASSIGN(p.resolve_, gpu::ComputePipeline::create(device, "render/wboit_resolve"));
  MOTE_TRY_ASSIGN(p.no_fog_, NoFog::create(device));
  MOTE_TRY_ASSIGN(p.sort_keys_, gpu::ComputePipeline::create(device, "render/sort_keys"));
  MOTE_TRY_ASSIGN(p.sort_, gpu::RadixSort::create(device, capacity));
  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MOTE_TRY_ASSIGN(p.sort_keys_buffer_, gpu::Buffer::create(device, {.size = uint64_t(capacity) * 4,
                                                                    .usage = kStorage,
                                                                    .name = "mote.render.sort_keys"}));
  MOTE_TRY_ASSIGN(p.sort_values_, gpu::Buffer::create(device, {.size = uint64_t(capacity) * 4,
                                                               .usage = kStorage,
                                                               .name = "mote.render.sort_values"}));
  MOTE_TRY_ASSIGN(p.quad_indices_, gpu::Buffer::create(device, {.size = 6 * sizeof(uint32_t),
                                                                .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                                .name = "mote.render.quad_indices"}));
  const uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
  MOTE_TRY(gpu::upload_span(device, p.quad_indices_, std::span<const uint32_t>(indices)));
  constexpr VkImageUsageFlags kAccumulator = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  auto accumulator = [&](VkFormat format, const char* name) {
    return gpu::Image::create(
        device,
        {.width = options.width, .height = options.height, .format = format, .usage = kAccumulator, .name = name});
  };
  MOTE_TRY_ASSIGN(p.oit_accum_, accumulator(kHdrFormat, "mote.render.oit_accum"));
  MOTE_TRY_ASSIGN(p.oit_revealage_, accumulator(kRevealageFormat, "mote.render.oit_revealage"));
  MOTE_TRY_ASSIGN(p.oit_emission_, accumulator(kHdrFormat, "mote.render.oit_emission"));
  return p;
}

Status ParticleRasterPath::record(VkCommandBuffer cmd, const ParticleInputs& in, const ParticleTargets& t,
                                  Transparency mode, const gpu::Buffer& draw_args, VkSampler depth_sampler) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "raster path used before create()");
  MOTE_TRY(check_targets(t, options_.width, options_.height, "raster path targets"));
  if (in.capacity > options_.capacity)
    return make_error(ErrorCode::kInvalidArgument, "the pool holds more particles than the raster path was made for",
                      "raster path inputs");
  if (!in.lighting.luma || !in.lighting.chroma || !in.lighting.sampler || !in.lighting.sampling)
    return make_error(ErrorCode::kInvalidArgument, "the raster path needs an irradiance volume to bind",
                      "raster path inputs");
  gpu::Device& device = *device_;
  const gpu::Image& color = *t.color;
  const gpu::Image& depth = *t.depth;
  const uint32_t width = options_.width, height = options_.height;
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

  constexpr VkImageLayout kDepthLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
  acquire_target(cmd, depth, t.depth_layout, kDepthLayout, kDepthReadStages | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 kDepthReadAccess);
  const gpu::ImageBinding atlas{5, in.atlas, in.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const gpu::ImageBinding depth_binding{6, depth.view(), depth_sampler, kDepthLayout};
  const FogInput fog = no_fog_.or_none(in.fog);
  const gpu::ImageBinding fog_binding{7, fog.integrated, fog.sampler, VK_IMAGE_LAYOUT_GENERAL};
  const LightingInput& lighting = in.lighting;
  const gpu::ImageBinding luma_binding{9, lighting.luma, lighting.sampler, VK_IMAGE_LAYOUT_GENERAL};
  const gpu::ImageBinding chroma_binding{10, lighting.chroma, lighting.sampler, VK_IMAGE_LAYOUT_GENERAL};
  auto draw = [&](const gpu::GraphicsPipeline& pipeline) {
    gpu::GraphicsRecorder recorder(device, cmd);
    recorder.bind(pipeline, width, height);
    const std::initializer_list<gpu::ImageBinding> images = {atlas, depth_binding, fog_binding, luma_binding,
                                                             chroma_binding};
    if (mode == Transparency::kAvboit) {
      recorder.resources({{0, in.view},
                          {1, in.point_lights},
                          {2, in.pool},
                          {3, in.records},
                          {4, draw_list},
                          {8, fog.sampling},
                          {11, lighting.sampling},
                          {12, &avboit_volume_.slices()},
                          {13, &avboit_volume_.optical_depth()}},
                         images);
    } else {
      recorder.resources({{0, in.view},
                          {1, in.point_lights},
                          {2, in.pool},
                          {3, in.records},
                          {4, draw_list},
                          {8, fog.sampling},
                          {11, lighting.sampling}},
                         images);
    }
    recorder.push(push).index_buffer(quad_indices_).draw_indexed_indirect(draw_args, shader::kDrawArgsQuadOffset);
    if (!in.ribbons.valid()) return;
    const gpu::GraphicsPipeline& ribbons = &pipeline == &sorted_   ? ribbon_sorted_
                                           : &pipeline == &avboit_ ? ribbon_avboit_
                                                                   : ribbon_oit_;
    draw_ribbons(cmd, in, ribbons, mode == Transparency::kAvboit, images, fog, push);
  };
  // Read-only: the host's depth is left as it is (store op NONE).
  const gpu::DepthTarget depth_target{.image = &depth, .clear = false, .store = false};
  if (mode == Transparency::kSorted) {
    constexpr VkImageLayout kColorLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    acquire_target(cmd, color, t.color_layout, kColorLayout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    gpu::begin_rendering(cmd, {{.image = &color, .clear = false}}, depth_target, kDepthLayout);
    draw(sorted_);
    vkCmdEndRendering(cmd);
    release_target(cmd, color, kColorLayout, t.color_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    release_target(cmd, depth, kDepthLayout, t.depth_layout, kDepthReadStages, VK_ACCESS_2_NONE);
    return ok_status();
  }

  if (mode == Transparency::kAvboit) avboit_volume_.record(cmd, in, depth.view(), kDepthLayout, depth_sampler);
  const gpu::Image* accumulators[3] = {&oit_accum_, &oit_revealage_, &oit_emission_};
  for (const gpu::Image* image : accumulators)
    gpu::image_barrier(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT);
  gpu::begin_rendering(cmd,
                       {{.image = &oit_accum_, .clear = true, .clear_value = {{0, 0, 0, 0}}},
                        {.image = &oit_revealage_, .clear = true, .clear_value = {{1, 0, 0, 0}}},
                        {.image = &oit_emission_, .clear = true, .clear_value = {{0, 0, 0, 0}}}},
                       depth_target, kDepthLayout);
  draw(mode == Transparency::kAvboit ? avboit_ : oit_);
  vkCmdEndRendering(cmd);
  release_target(cmd, depth, kDepthLayout, t.depth_layout, kDepthReadStages | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_NONE);
  for (const gpu::Image* image : accumulators)
    gpu::image_barrier(cmd, *image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  record_resolve(cmd, t, depth_sampler);
  return ok_status();
}

Status ParticleRasterPath::record_ribbons(VkCommandBuffer cmd, const ParticleInputs& in, const ParticleTargets& t,
                                          VkSampler depth_sampler) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "raster path used before create()");
  MOTE_TRY(check_targets(t, options_.width, options_.height, "raster path targets"));
  if (!in.ribbons.valid()) return ok_status();
  if (!in.lighting.luma || !in.lighting.chroma || !in.lighting.sampler || !in.lighting.sampling)
    return make_error(ErrorCode::kInvalidArgument, "the raster path needs an irradiance volume to bind",
                      "raster path inputs");
  const gpu::Image& color = *t.color;
  const gpu::Image& depth = *t.depth;
  constexpr VkImageLayout kDepthLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
  constexpr VkImageLayout kColorLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  acquire_target(cmd, depth, t.depth_layout, kDepthLayout, kDepthReadStages, kDepthReadAccess);
  acquire_target(cmd, color, t.color_layout, kColorLayout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  const FogInput fog = no_fog_.or_none(in.fog);
  const shader::ParticleDrawPush push{in.record_words, in.record_count, in.capacity, in.alive_count_word, 0, 0, 0, 0};
  gpu::begin_rendering(cmd, {{.image = &color, .clear = false}},
                       gpu::DepthTarget{.image = &depth, .clear = false, .store = false}, kDepthLayout);
  draw_ribbons(cmd, in, ribbon_sorted_, false,
               {{5, in.atlas, in.atlas_sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                {6, depth.view(), depth_sampler, kDepthLayout},
                {7, fog.integrated, fog.sampler, VK_IMAGE_LAYOUT_GENERAL},
                {9, in.lighting.luma, in.lighting.sampler, VK_IMAGE_LAYOUT_GENERAL},
                {10, in.lighting.chroma, in.lighting.sampler, VK_IMAGE_LAYOUT_GENERAL}},
               fog, push);
  vkCmdEndRendering(cmd);
  release_target(cmd, color, kColorLayout, t.color_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  release_target(cmd, depth, kDepthLayout, t.depth_layout, kDepthReadStages, VK_ACCESS_2_NONE);
  return ok_status();
}

void ParticleRasterPath::draw_ribbons(VkCommandBuffer cmd, const ParticleInputs& in,
                                      const gpu::GraphicsPipeline& pipeline, bool avboit,
                                      std::initializer_list<gpu::ImageBinding> images, const FogInput& fog,
                                      const shader::ParticleDrawPush& push) {
  gpu::GraphicsRecorder recorder(*device_, cmd);
  recorder.bind(pipeline, options_.width, options_.height);
  const RibbonInputs& r = in.ribbons;
  if (avboit) {
    recorder.resources({{0, in.view},
                        {1, in.point_lights},
                        {2, in.pool},
                        {3, in.records},
                        {4, in.alive},
                        {8, fog.sampling},
                        {11, in.lighting.sampling},
                        {12, &avboit_volume_.slices()},
                        {13, &avboit_volume_.optical_depth()},
                        {14, r.points},
                        {15, r.pieces},
                        {16, r.records}},
                       images);
  } else {
    recorder.resources({{0, in.view},
                        {1, in.point_lights},
                        {2, in.pool},
                        {3, in.records},
                        {4, in.alive},
                        {8, fog.sampling},
                        {11, in.lighting.sampling},
                        {14, r.points},
                        {15, r.pieces},
                        {16, r.records}},
                       images);
  }
  recorder.push(push).index_buffer(quad_indices_).draw_indexed_indirect(*r.counts, shader::kRibbonCountDrawOffset);
}

void ParticleRasterPath::record_resolve(VkCommandBuffer cmd, const ParticleTargets& t, VkSampler sampler) {
  const gpu::Image& color = *t.color;
  const uint32_t width = options_.width, height = options_.height;
  acquire_target(cmd, color, t.color_layout, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  const shader::TonemapPush size{width, height, 0, 1.0f};
  gpu::ComputeRecorder(*device_, cmd)
      .bind(resolve_)
      .bind_resources({}, {{0, oit_accum_.view(), sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                           {1, oit_revealage_.view(), sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                           {2, oit_emission_.view(), sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                           {3, color.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}})
      .push(size)
      .dispatch((width + 7) / 8, (height + 7) / 8);
  release_target(cmd, color, VK_IMAGE_LAYOUT_GENERAL, t.color_layout, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace mote::render
