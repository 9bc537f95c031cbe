#include "render/particle_renderer.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "render/draw_records.hpp"
#include "shared/frame.h"

namespace mote::render {

namespace {

// vkCmdUpdateBuffer writes at most this many bytes a call.
constexpr VkDeviceSize kMaxUpdateBytes = 65536;

void update_buffer(VkCommandBuffer cmd, const gpu::Buffer& buffer, VkDeviceSize offset, const void* data,
                   VkDeviceSize bytes) {
  const auto* at = static_cast<const uint8_t*>(data);
  for (VkDeviceSize done = 0; done < bytes; done += kMaxUpdateBytes)
    vkCmdUpdateBuffer(cmd, buffer.handle(), offset + done, std::min(kMaxUpdateBytes, bytes - done), at + done);
}

// The stages that read the renderer's buffers in a frame (and the runtime's compute and transfer
// writes before it).
constexpr VkPipelineStageFlags2 kFrameStages = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT |
                                               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                               VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                               VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                               VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;

Status check_buffers(const ParticleBuffers& p, uint32_t capacity) {
  const char* where = "particle renderer: particles";
  if (!p.pool || !p.alive || !p.counters || !p.pool->valid() || !p.alive->valid() || !p.counters->valid())
    return make_error(ErrorCode::kInvalidArgument, "the particle buffers are missing", where);
  if (p.capacity == 0 || p.record_words == 0)
    return make_error(ErrorCode::kInvalidArgument, "an empty pool (capacity or record words 0)", where);
  if (p.capacity > capacity)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a pool of {} particles; the renderer was made for {}", p.capacity, capacity), where);
  if (p.pool->size() < VkDeviceSize(p.capacity) * p.record_words * 4 ||
      p.alive->size() < VkDeviceSize(p.capacity) * 4 || p.counters->size() < (VkDeviceSize(p.alive_count_word) + 1) * 4)
    return make_error(ErrorCode::kInvalidArgument, "a particle buffer is smaller than the pool it describes", where);
  if (p.emitter_bounds &&
      (!p.emitter_bounds->valid() ||
       p.emitter_bounds->size() < VkDeviceSize(p.emitter_bounds_rows) * sizeof(shader::FrameEmitterBounds)))
    return make_error(ErrorCode::kInvalidArgument, "the emitter bounds buffer is smaller than its rows", where);
  return ok_status();
}

}  // namespace

ParticleBuffers particle_buffers(const runtime::ParticleSystem& particles) {
  return {.pool = &particles.pool(),
          .record_words = particles.record_words(),
          .capacity = particles.capacity(),
          .alive = &particles.drawn_alive_list(),
          .counters = &particles.counters(),
          .alive_count_word = runtime::ParticleSystem::kAliveCountWord,
          .emitter_bounds = &particles.emitter_bounds(),
          .emitter_bounds_rows = particles.row_capacity()};
}

Result<ParticleRenderer> ParticleRenderer::create(gpu::Device& device, const ParticleRendererOptions& options) {
  if (options.width == 0 || options.height == 0 || options.capacity == 0 || options.max_emitters == 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a particle renderer needs a size, capacity and rows above 0 ({}x{}, {}, {})",
                                  options.width, options.height, options.capacity, options.max_emitters));
  ParticleRenderer r;
  r.device_ = &device;
  r.options_ = options;
  MOTE_TRY_ASSIGN(r.atlas_, ParticleAtlas::create(device));
  MOTE_TRY_ASSIGN(r.depth_sampler_,
                  gpu::Sampler::create(device, {.filter = VK_FILTER_NEAREST, .name = "mote.render.nearest"}));
  r.rows_.assign(options.max_emitters, Row{});
  r.records_.assign(options.max_emitters, shader::ParticleDrawRecord{});
  r.ribbon_records_.assign(options.max_emitters, shader::RibbonRecord{});
  r.light_records_.assign(options.max_emitters, shader::ParticleLightRecord{});
  if (options.max_particle_lights == 0 || options.max_particle_lights > shader::kParticleLightsMaxCapacity)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("max_particle_lights {} is outside 1..{}", options.max_particle_lights,
                                  shader::kParticleLightsMaxCapacity));
  r.dirty_end_ = options.max_emitters;  // the buffer starts undefined: every row goes up once

  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  constexpr VkBufferUsageFlags kUniform = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MOTE_TRY_ASSIGN(r.view_buffer_, gpu::Buffer::create(device, {.size = sizeof(shader::RenderView),
                                                               .usage = kUniform,
                                                               .name = "mote.render.view"}));
  MOTE_TRY_ASSIGN(r.lights_buffer_,
                  gpu::Buffer::create(device, {.size = sizeof(shader::PointLightGpu) * shader::kMaxPointLights,
                                               .usage = kStorage,
                                               .name = "mote.render.point_lights"}));
  MOTE_TRY_ASSIGN(r.records_buffer_,
                  gpu::Buffer::create(device, {.size = sizeof(shader::ParticleDrawRecord) * options.max_emitters,
                                               .usage = kStorage,
                                               .name = "mote.render.draw_records"}));
  MOTE_TRY_ASSIGN(r.ribbon_records_buffer_,
                  gpu::Buffer::create(device, {.size = sizeof(shader::RibbonRecord) * options.max_emitters,
                                               .usage = kStorage,
                                               .name = "mote.render.ribbon_records"}));
  MOTE_TRY_ASSIGN(r.light_records_buffer_,
                  gpu::Buffer::create(device, {.size = sizeof(shader::ParticleLightRecord) * options.max_emitters,
                                               .usage = kStorage,
                                               .name = "mote.render.light_records"}));
  if (options.particle_light_cluster_entries > shader::kParticleLightClusterMaxEntries)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("particle_light_cluster_entries {} is past {}",
                                  options.particle_light_cluster_entries, shader::kParticleLightClusterMaxEntries));
  // Zero: a list of no lights and a cluster header of no grid (both headers fit).
  static_assert(shader::kParticleLightClusterHeaderBytes <= 256 && shader::kParticleLightHeaderBytes <= 256);
  MOTE_TRY_ASSIGN(r.no_particle_lights_,
                  gpu::Buffer::create(device,
                                      {.size = 256, .usage = kStorage, .name = "mote.render.no_particle_lights"}));
  MOTE_TRY_ASSIGN(r.draw_args_, gpu::Buffer::create(device, {.size = shader::kDrawArgsWords * 4,
                                                             .usage = kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                                             .name = "mote.render.draw_args"}));
  MOTE_TRY_ASSIGN(r.draw_args_params_, gpu::Buffer::create(device, {.size = sizeof(shader::DrawArgsParams),
                                                                    .usage = kUniform,
                                                                    .name = "mote.render.draw_args_params"}));
  MOTE_TRY_ASSIGN(r.draw_args_pipeline_, gpu::ComputePipeline::create(device, "render/draw_args"));
  MOTE_TRY_ASSIGN(r.mesh_pass_, MeshParticlePass::create(device));
  const glm::uvec3 grid = options.lighting_grid.x && options.lighting_grid.y && options.lighting_grid.z
                              ? options.lighting_grid
                              : media::irradiance_grid_for(options.width, options.height);
  MOTE_TRY_ASSIGN(r.irradiance_, media::IrradianceVolume::create(device, {.grid = grid,
                                                                          .near_distance = options.lighting_near,
                                                                          .far_distance = options.lighting_far}));
  if (options.path == DrawPath::kCompute) {
    MOTE_TRY_ASSIGN(r.compute_, ParticleComputePath::create(device, {.max_particles = options.capacity,
                                                                     .width = options.width,
                                                                     .height = options.height}));
  } else {
    MOTE_TRY_ASSIGN(r.raster_, ParticleRasterPath::create(device, {.capacity = options.capacity,
                                                                   .width = options.width,
                                                                   .height = options.height,
                                                                   .avboit_grid = options.avboit_grid}));
  }
  return r;
}

Status ParticleRenderer::add_textures(std::span<const assets::AtlasRequest> requests) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()");
  MOTE_TRY_ASSIGN(bool rebuilt, atlas_.add(requests));
  if (!rebuilt) return ok_status();
  for (size_t row = 0; row < rows_.size(); ++row) {
    if (!rows_[row].set) continue;
    const assets::AtlasEntry* entry = atlas_.find(rows_[row].texture);
    if (!entry) return make_error(ErrorCode::kInternal, "the rebuilt atlas lost texture " + rows_[row].texture);
    records_[row].atlas_rect = entry->rect;
  }
  dirty_begin_ = 0;
  dirty_end_ = uint32_t(rows_.size());
  return ok_status();
}

Status ParticleRenderer::set_emitter(uint32_t row, const CompiledEffect& effect, uint32_t generation,
                                     const GpuMesh* mesh) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()");
  if (row >= rows_.size())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter row {} is past the renderer's {} rows", row, rows_.size()));
  const std::string& key = effect.render.texture;
  const assets::AtlasEntry* texture = atlas_.find(key);
  if (!texture)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("texture '{}' is not in the atlas (add_textures first)", key),
                      effect.name + "#/render/texture");
  MOTE_TRY_ASSIGN(shader::ParticleDrawRecord record, make_draw_record(effect, *texture, generation));
  MOTE_TRY_ASSIGN(shader::RibbonRecord ribbon, make_ribbon_record(effect));
  MOTE_TRY_ASSIGN(shader::ParticleLightRecord light, make_light_record(effect));
  if (light.flags != 0 && !light_pass_.valid()) {
    MOTE_TRY_ASSIGN(light_pass_,
                    ParticleLightPass::create(*device_, {.capacity = options_.capacity,
                                                         .max_lights = options_.max_particle_lights,
                                                         .cluster = options_.cluster_particle_lights,
                                                         .width = options_.width,
                                                         .height = options_.height,
                                                         .near = options_.lighting_near,
                                                         .far = options_.lighting_far,
                                                         .entries = options_.particle_light_cluster_entries}));
  }
  // The compute path draws ribbons with the raster path's ribbon pipeline after its tiles
  // (docs/design/ribbons.md): made with the first ribbon row.
  if (ribbon.flags != 0 && options_.path == DrawPath::kCompute && !ribbon_raster_) {
    MOTE_TRY_ASSIGN(raster_, ParticleRasterPath::create(*device_, {.capacity = options_.capacity,
                                                                   .width = options_.width,
                                                                   .height = options_.height,
                                                                   .avboit_grid = options_.avboit_grid}));
    ribbon_raster_ = true;
  }
  if (ribbon.flags != 0 && !ribbons_.capacity()) {
    MOTE_TRY_ASSIGN(ribbons_,
                    RibbonPass::create(*device_, {.capacity = options_.capacity, .max_rows = uint32_t(rows_.size())}));
  }
  const bool is_mesh = (record.flags & shader::kDrawProjectionMask) == shader::kProjectionMesh;
  if (is_mesh && !mesh)
    return make_error(ErrorCode::kInvalidArgument, "a mesh-particle emitter needs its mesh",
                      effect.name + "#/render/mesh");
  if (is_mesh && !rows_[row].mesh && mesh_draws_.size() >= shader::kMaxMeshParticleDraws)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("more than {} mesh-particle emitters", shader::kMaxMeshParticleDraws));
  rows_[row] = Row{true, key, is_mesh ? mesh : nullptr};
  records_[row] = record;
  ribbon_records_[row] = ribbon;
  light_records_[row] = light;
  dirty_begin_ = std::min(dirty_begin_, row);
  dirty_end_ = std::max(dirty_end_, row + 1);
  rebuild_mesh_draws();
  return ok_status();
}

Status ParticleRenderer::clear_emitter(uint32_t row) {
  if (row >= rows_.size())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter row {} is past the renderer's {} rows", row, rows_.size()));
  rows_[row] = Row{};
  records_[row] = shader::ParticleDrawRecord{};
  ribbon_records_[row] = shader::RibbonRecord{};
  light_records_[row] = shader::ParticleLightRecord{};
  dirty_begin_ = std::min(dirty_begin_, row);
  dirty_end_ = std::max(dirty_end_, row + 1);
  rebuild_mesh_draws();
  return ok_status();
}

void ParticleRenderer::rebuild_mesh_draws() {
  mesh_draws_.clear();
  for (uint32_t row = 0; row < rows_.size(); ++row)
    if (rows_[row].mesh) mesh_draws_.push_back({rows_[row].mesh, row, uint32_t(mesh_draws_.size())});
}

ParticleInputs ParticleRenderer::inputs() const {
  ParticleInputs in;
  in.pool = frame_.pool;
  in.record_words = frame_.record_words;
  in.capacity = frame_.capacity;
  in.alive = frame_.alive;
  in.counters = frame_.counters;
  in.alive_count_word = frame_.alive_count_word;
  in.records = &records_buffer_;
  in.record_count = uint32_t(records_.size());
  in.view = &view_buffer_;
  in.point_lights = &lights_buffer_;
  in.atlas = atlas_.view();
  in.atlas_sampler = atlas_.sampler();
  in.fog = fog_;
  in.emitter_bounds = frame_.emitter_bounds;
  in.emitter_bounds_rows = frame_.emitter_bounds ? frame_.emitter_bounds_rows : 0;
  in.particle_lights = &particle_lights_buffer();
  in.particle_light_clusters = &particle_light_clusters_buffer();
  in.lighting = {irradiance_.luma_view(), irradiance_.chroma_view(), irradiance_.sampler(),
                 &irradiance_.sampling_buffer()};
  if (ribbons_built_)
    in.ribbons = {&ribbon_records_buffer_, &ribbons_.points(), &ribbons_.pieces(), &ribbons_.counts()};
  return in;
}

Status ParticleRenderer::check_prepared(VkCommandBuffer cmd, const char* who) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()", who);
  if (cmd == VK_NULL_HANDLE || cmd != prepared_cmd_)
    return make_error(ErrorCode::kInvalidArgument, "record_prepare was not recorded into this command buffer", who);
  return ok_status();
}

void ParticleRenderer::record_uploads(VkCommandBuffer cmd, const shader::RenderView& view,
                                      std::span<const shader::PointLightGpu> lights) {
  vkCmdUpdateBuffer(cmd, view_buffer_.handle(), 0, sizeof(view), &view);
  shader::PointLightGpu block[shader::kMaxPointLights] = {};
  std::copy_n(lights.begin(), std::min<size_t>(lights.size(), shader::kMaxPointLights), block);
  vkCmdUpdateBuffer(cmd, lights_buffer_.handle(), 0, sizeof(block), block);
  vkCmdFillBuffer(cmd, no_particle_lights_.handle(), 0, VK_WHOLE_SIZE, 0);
  if (dirty_begin_ < dirty_end_) {
    constexpr VkDeviceSize kRecord = sizeof(shader::ParticleDrawRecord);
    update_buffer(cmd, records_buffer_, dirty_begin_ * kRecord, &records_[dirty_begin_],
                  (dirty_end_ - dirty_begin_) * kRecord);
    constexpr VkDeviceSize kRibbon = sizeof(shader::RibbonRecord);
    update_buffer(cmd, ribbon_records_buffer_, dirty_begin_ * kRibbon, &ribbon_records_[dirty_begin_],
                  (dirty_end_ - dirty_begin_) * kRibbon);
    constexpr VkDeviceSize kLight = sizeof(shader::ParticleLightRecord);
    update_buffer(cmd, light_records_buffer_, dirty_begin_ * kLight, &light_records_[dirty_begin_],
                  (dirty_end_ - dirty_begin_) * kLight);
    dirty_begin_ = uint32_t(rows_.size());
    dirty_end_ = 0;
  }
  shader::DrawArgsParams params{};
  params.alive_count_word = frame_.alive_count_word;
  params.capacity = frame_.capacity;
  params.mesh_draws = uint32_t(mesh_draws_.size());
  for (size_t i = 0; i < mesh_draws_.size(); ++i)
    params.mesh_index_counts[i / 4][i % 4] = mesh_draws_[i].mesh->index_count;
  if (!params_valid_ || std::memcmp(&params, &params_written_, sizeof(params)) != 0) {
    vkCmdUpdateBuffer(cmd, draw_args_params_.handle(), 0, sizeof(params), &params);
    params_written_ = params;
    params_valid_ = true;
  }
}

Status ParticleRenderer::record_prepare(VkCommandBuffer cmd, const ParticleBuffers& particles,
                                        const shader::RenderView& view, std::span<const shader::PointLightGpu> lights) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()");
  MOTE_TRY(check_buffers(particles, options_.capacity));
  frame_ = particles;
  prepared_cmd_ = cmd;
  atlas_.frame_recorded(options_.frames_in_flight);
  // The runtime frame's writes → this frame's readers; the previous frame's readers of the
  // renderer's buffers → the updates below (a host may have that frame still in flight).
  gpu::memory_barrier(cmd, kFrameStages, VK_ACCESS_2_MEMORY_WRITE_BIT, kFrameStages,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  record_uploads(cmd, view, lights);
  view_ = view;
  lights_.assign(lights.begin(), lights.begin() + std::min<size_t>(lights.size(), shader::kMaxPointLights));
  view_.point_light_count = std::min(view.point_light_count, uint32_t(lights_.size()));
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  gpu::ComputeRecorder(*device_, cmd)
      .bind(draw_args_pipeline_)
      .buffers({{0, frame_.counters}, {1, &draw_args_}, {2, &draw_args_params_}})
      .dispatch(1);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  // The ribbons, built again every frame from this frame's alive list (docs/design/ribbons.md).
  const auto live_ribbon = [&](uint32_t flag) {
    for (size_t row = 0; row < records_.size(); ++row)
      if ((records_[row].flags & shader::kDrawFlagLive) && (ribbon_records_[row].flags & flag)) return true;
    return false;
  };
  ribbons_built_ = ribbons_.capacity() != 0 && live_ribbon(shader::kRibbonFlagLive);
  if (ribbons_built_)
    MOTE_TRY(ribbons_.record(cmd, inputs(), ribbon_records_buffer_, live_ribbon(shader::kRibbonFlagIdField)));
  // The particle lights, selected again every frame (docs/design/particle_lights.md).
  if (light_pass_.valid()) {
    if (has_light_rows()) MOTE_TRY(light_pass_.record(cmd, inputs(), light_records_buffer_, view));
    else light_pass_.record_empty(cmd);
  }
  return ok_status();
}

Status ParticleRenderer::record_shadow_casters(VkCommandBuffer cmd, const ShadowMapTarget& shadow_map) {
  MOTE_TRY(check_prepared(cmd, "record_shadow_casters"));
  const gpu::Image* image = shadow_map.image;
  if (!image || !image->valid() || image->format() != kDepthFormat || !(image->aspect() & VK_IMAGE_ASPECT_DEPTH_BIT))
    return make_error(ErrorCode::kInvalidArgument, "the shadow map must be a D32_SFLOAT depth image",
                      "record_shadow_casters");
  if (shadow_map.layout != VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL &&
      shadow_map.layout != VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL &&
      shadow_map.layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
    return make_error(ErrorCode::kInvalidArgument, "the shadow map is in a layout the renderer does not take",
                      "record_shadow_casters");
  if (mesh_draws_.empty()) return ok_status();
  mesh_pass_.record_shadow(cmd, shadow_map, mesh_draws_, inputs(), draw_args_);
  return ok_status();
}

namespace {

// A shadow map the passes can sample, or none (`where`: the call that was given it).
Status check_shadow_map(const ShadowMapTarget& shadow_map, const char* where) {
  if (shadow_map.image && (!shadow_map.image->valid() || shadow_map.image->format() != kDepthFormat ||
                           (shadow_map.layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL &&
                            shadow_map.layout != VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL)))
    return make_error(ErrorCode::kInvalidArgument,
                      "the shadow map must be D32_SFLOAT in SHADER_READ_ONLY_OPTIMAL or "
                      "DEPTH_STENCIL_READ_ONLY_OPTIMAL",
                      where);
  return ok_status();
}

}  // namespace

Status ParticleRenderer::record_opaque(VkCommandBuffer cmd, const ParticleTargets& targets,
                                       const ShadowMapTarget& shadow_map) {
  MOTE_TRY(check_prepared(cmd, "record_opaque"));
  MOTE_TRY(check_targets(targets, options_.width, options_.height, "record_opaque"));
  MOTE_TRY(check_shadow_map(shadow_map, "record_opaque"));
  if (mesh_draws_.empty()) return ok_status();
  mesh_pass_.record_opaque(cmd, targets, shadow_map, mesh_draws_, inputs(), draw_args_);
  return ok_status();
}

Result<shader::ParticleLightHeader> ParticleRenderer::read_light_header() const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()");
  if (!light_pass_.valid()) return shader::ParticleLightHeader{0, 0, 0, options_.max_particle_lights};
  MOTE_TRY_ASSIGN(const auto header, gpu::readback_as<shader::ParticleLightHeader>(*device_, light_pass_.list(), 1));
  return header[0];
}

Result<shader::ParticleLightClusterHeader> ParticleRenderer::read_light_cluster_header() const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle renderer used before create()");
  if (!light_pass_.valid()) return shader::ParticleLightClusterHeader{};
  MOTE_TRY_ASSIGN(const auto header,
                  gpu::readback_as<shader::ParticleLightClusterHeader>(*device_, light_pass_.clusters(), 1));
  return header[0];
}

bool ParticleRenderer::has_light_rows() const {
  for (size_t row = 0; row < records_.size(); ++row)
    if ((records_[row].flags & shader::kDrawFlagLive) && (light_records_[row].flags & shader::kParticleLightFlagLive))
      return true;
  return false;
}

bool ParticleRenderer::has_lit_rows() const {
  return std::any_of(records_.begin(), records_.end(), [](const shader::ParticleDrawRecord& r) {
    return (r.flags & shader::kDrawFlagLive) && (r.flags & shader::kDrawFlagLit);
  });
}

Status ParticleRenderer::record_transparent(VkCommandBuffer cmd, const ParticleTargets& targets,
                                            const ShadowMapTarget& shadow_map) {
  MOTE_TRY(check_prepared(cmd, "record_transparent"));
  MOTE_TRY(check_targets(targets, options_.width, options_.height, "record_transparent"));
  MOTE_TRY(check_shadow_map(shadow_map, "record_transparent"));
  if (has_lit_rows()) {
    const media::SunShadowMap sun{shadow_map.image ? shadow_map.image->view() : VK_NULL_HANDLE, shadow_map.layout};
    MOTE_TRY(irradiance_.record(cmd, view_, lights_, sun, &particle_lights_buffer(),
                                &particle_light_clusters_buffer()));
  }
  if (options_.path == DrawPath::kCompute) {
    compute_.record(cmd, inputs(), targets, depth_sampler_.handle());
    if (ribbons_built_ && ribbon_raster_)
      return raster_.record_ribbons(cmd, inputs(), targets, depth_sampler_.handle());
    return ok_status();
  }
  return raster_.record(cmd, inputs(), targets, options_.transparency, draw_args_, depth_sampler_.handle());
}

}  // namespace mote::render
