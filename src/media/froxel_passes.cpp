// The froxel fog's passes, each beside its shader: froxel_inject.comp, froxel_light.comp,
// froxel_integrate.comp, froxel_composite.comp (docs/design/media.md, "The froxel passes"). The
// froxel volumes stay in GENERAL; global memory barriers order the passes.
#include <algorithm>
#include <optional>

#include "gpu/commands.hpp"
#include "media/froxel_fog.hpp"

namespace mote::media {

namespace {

constexpr VkPipelineStageFlags2 kReaders = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr uint32_t kGroup = 8;  // the passes' workgroups are 8 x 8

uint32_t groups(uint32_t n) { return (n + kGroup - 1) / kGroup; }

// vkCmdUpdateBuffer takes at most 65,536 bytes a call.
void update(VkCommandBuffer cmd, const gpu::Buffer& buffer, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t offset = 0; offset < bytes; offset += 65536)
    vkCmdUpdateBuffer(cmd, buffer.handle(), offset, std::min<size_t>(65536, bytes - offset), p + offset);
}

void compute_to_compute_reads(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

// begin/end around a pass when a profiler is set.
struct PassScope {
  PassScope(gpu::GpuProfiler* profiler, VkCommandBuffer cmd, const char* name) : profiler_(profiler), cmd_(cmd) {
    if (profiler_) profiler_->begin(cmd_, name);
  }
  ~PassScope() {
    if (profiler_) profiler_->end(cmd_);
  }
  PassScope(const PassScope&) = delete;
  PassScope& operator=(const PassScope&) = delete;
  gpu::GpuProfiler* profiler_;
  VkCommandBuffer cmd_;
};

}  // namespace

void FroxelFog::record_uploads(VkCommandBuffer cmd, const shader::MediaFrame& frame,
                               std::span<const shader::PointLightGpu> lights,
                               std::span<const shader::MediaVolume> rows) {
  const PassScope scope(profiler_, cmd, "fog_upload");
  // The previous frame's readers of these blocks (and of the froxel volumes the passes rewrite)
  // are done before anything is written.
  gpu::memory_barrier(cmd, kReaders, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  update(cmd, frame_buffer_, &frame, sizeof(frame));
  const shader::MediaFogSampling sampling{
      glm::vec4(frame.depth_range.x, frame.depth_range.y, frame.depth_range.z, 1.0f)};
  update(cmd, sampling_, &sampling, sizeof(sampling));
  empty_written_ = false;
  if (!rows.empty()) update(cmd, volumes_, rows.data(), rows.size_bytes());
  if (!lights.empty()) update(cmd, lights_, lights.data(), lights.size_bytes());
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaders,
                      VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

void FroxelFog::record_grid_passes(VkCommandBuffer cmd, const TileAtlas3D& atlas, const FogShadowMap& shadow_map,
                                   const gpu::Buffer& particle_lights, const gpu::Buffer& particle_light_clusters) {
  const glm::uvec3 g = desc_.grid;
  const uint32_t out = 1 - current_;  // this frame's lit volume; lit_[current_] is the history
  gpu::ComputeRecorder rec(*device_, cmd);
  // inject: the medium at each froxel's jittered point.
  std::optional<PassScope> scope(std::in_place, profiler_, cmd, "fog_inject");
  rec.bind(inject_);
  if (desc_.count_noise_taps) {
    rec.bind_resources({{0, &frame_buffer_}, {1, &volumes_}, {4, &taps_}},
                       {{2, atlas.view(), linear_.handle(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                        {3, medium_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}});
  } else {
    rec.bind_resources({{0, &frame_buffer_}, {1, &volumes_}},
                       {{2, atlas.view(), linear_.handle(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                        {3, medium_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}});
  }
  rec.dispatch(groups(g.x), groups(g.y), g.z);
  compute_to_compute_reads(cmd);
  scope.reset();
  scope.emplace(profiler_, cmd, "fog_light");
  // light: in-scattering at the light pass's jittered point, blended with the reprojected history.
  const VkImageView shadow = shadow_map.view ? shadow_map.view : far_shadow_.view();
  const VkImageLayout shadow_layout = shadow_map.view ? shadow_map.layout : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  rec.bind(light_).bind_resources(
      {{0, &frame_buffer_}, {1, &lights_}, {6, &particle_lights}, {7, &particle_light_clusters}},
      {{2, medium_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
       {3, lit_[current_].view(), linear_.handle(), VK_IMAGE_LAYOUT_GENERAL},
       {4, lit_[out].view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
       {5, shadow, shadow_sampler_.handle(), shadow_layout}});
  rec.dispatch(groups(g.x), groups(g.y), g.z);
  compute_to_compute_reads(cmd);
  scope.reset();
  scope.emplace(profiler_, cmd, "fog_integrate");
  // integrate: front to back along every column.
  rec.bind(integrate_)
      .bind_resources({{0, &frame_buffer_}}, {{1, lit_[out].view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                                              {2, integrated_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}});
  rec.dispatch(groups(g.x), groups(g.y), 1);
  // The integrated volume for the composite and for the particles' draws after it.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, kReaders,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  scope.reset();
  current_ = out;
}

void FroxelFog::record_composite(VkCommandBuffer cmd, const render::ParticleTargets& targets) {
  const PassScope scope(profiler_, cmd, "fog_composite");
  const VkImageLayout depth_layout = render::sampled_depth_layout(targets.depth_layout);
  const VkAccessFlags2 color_access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  render::acquire_target(cmd, *targets.color, targets.color_layout, VK_IMAGE_LAYOUT_GENERAL,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, color_access);
  render::acquire_target(cmd, *targets.depth, targets.depth_layout, depth_layout,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  gpu::ComputeRecorder(*device_, cmd)
      .bind(composite_)
      .bind_resources({{0, &frame_buffer_}, {1, &sampling_}},
                      {{2, integrated_.view(), linear_.handle(), VK_IMAGE_LAYOUT_GENERAL},
                       {3, targets.depth->view(), nearest_.handle(), depth_layout},
                       {4, targets.color->view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}})
      .dispatch(groups(desc_.width), groups(desc_.height));
  render::release_target(cmd, *targets.color, VK_IMAGE_LAYOUT_GENERAL, targets.color_layout,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, color_access);
  render::release_target(cmd, *targets.depth, depth_layout, targets.depth_layout,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

}  // namespace mote::media
