// The froxel fog's resources and one frame's recording; the passes' dispatches are in
// froxel_passes.cpp beside their shaders (shaders/media/froxel_*.comp).
#include "media/froxel_fog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"

namespace mote::media {

namespace {

Status check_desc(const FroxelFogDesc& d) {
  if (d.width == 0 || d.height == 0 || d.grid.x == 0 || d.grid.y == 0 || d.grid.z == 0)
    return make_error(ErrorCode::kInvalidArgument, "the fog needs a target size and a grid of at least one froxel",
                      "FroxelFog::create");
  if (!(d.near_distance > 0.0f) || !(d.far_distance > d.near_distance) || !std::isfinite(d.far_distance))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the fog's depth range needs 0 < near ({}) < far ({})", d.near_distance,
                                  d.far_distance),
                      "FroxelFog::create");
  return ok_status();
}

Result<Image3D> grid_image(gpu::Device& device, const FroxelFogDesc& d, const char* name) {
  return Image3D::create(device, {.width = d.grid.x,
                                  .height = d.grid.y,
                                  .depth = d.grid.z,
                                  .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                  .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                           VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                  .name = name});
}

Result<gpu::Buffer> block(gpu::Device& device, VkDeviceSize size, VkBufferUsageFlags usage, const char* name) {
  return gpu::Buffer::create(device, {.size = size, .usage = usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .name = name});
}

// Every froxel volume into GENERAL, cleared (no light, full transmittance), and the stand-in
// shadow map at far (1).
void initialise(VkCommandBuffer cmd, std::span<const Image3D* const> volumes, const gpu::Image& far_shadow) {
  for (const Image3D* image : volumes)
    image3d_barrier(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE,
                    VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearColorValue clear{{0.0f, 0.0f, 0.0f, 1.0f}};
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  for (const Image3D* image : volumes)
    vkCmdClearColorImage(cmd, image->handle(), VK_IMAGE_LAYOUT_GENERAL, &clear, 1, &range);
  gpu::image_barrier(cmd, far_shadow, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearDepthStencilValue far{1.0f, 0};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearDepthStencilImage(cmd, far_shadow.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &depth_range);
  gpu::image_barrier(cmd, far_shadow, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

}  // namespace

Result<FroxelFog> FroxelFog::create(gpu::Device& device, const FroxelFogDesc& desc) {
  MOTE_TRY(check_desc(desc));
  FroxelFog fog;
  fog.device_ = &device;
  fog.desc_ = desc;
  MOTE_TRY_ASSIGN(fog.medium_, grid_image(device, desc, "mote.media.froxel_medium"));
  MOTE_TRY_ASSIGN(fog.lit_[0], grid_image(device, desc, "mote.media.froxel_lit0"));
  MOTE_TRY_ASSIGN(fog.lit_[1], grid_image(device, desc, "mote.media.froxel_lit1"));
  MOTE_TRY_ASSIGN(fog.integrated_, grid_image(device, desc, "mote.media.froxel_integrated"));
  MOTE_TRY_ASSIGN(fog.far_shadow_,
                  gpu::Image::create(device, {.width = 1,
                                              .height = 1,
                                              .format = VK_FORMAT_D32_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "mote.media.far_shadow"}));
  MOTE_TRY_ASSIGN(fog.frame_buffer_,
                  block(device, sizeof(shader::MediaFrame), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "mote.media.frame"));
  MOTE_TRY_ASSIGN(fog.sampling_, block(device, sizeof(shader::MediaFogSampling), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                       "mote.media.fog_sampling"));
  MOTE_TRY_ASSIGN(fog.volumes_,
                  block(device, VkDeviceSize(std::max(desc.max_volumes, 1u)) * sizeof(shader::MediaVolume),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "mote.media.volumes"));
  MOTE_TRY_ASSIGN(fog.lights_, block(device, shader::kMaxPointLights * sizeof(shader::PointLightGpu),
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "mote.media.point_lights"));
  MOTE_TRY_ASSIGN(fog.no_particle_lights_,
                  block(device, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "mote.media.no_particle_lights"));
  MOTE_TRY_ASSIGN(fog.taps_, block(device, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                   "mote.media.noise_taps"));
  MOTE_TRY_ASSIGN(fog.linear_, gpu::Sampler::create(device, {.name = "mote.media.linear"}));
  MOTE_TRY_ASSIGN(fog.nearest_,
                  gpu::Sampler::create(device, {.filter = VK_FILTER_NEAREST, .name = "mote.media.nearest"}));
  MOTE_TRY_ASSIGN(fog.shadow_sampler_, gpu::Sampler::create(device, {.compare = true, .name = "mote.media.shadow"}));
  MOTE_TRY_ASSIGN(fog.inject_,
                  gpu::ComputePipeline::create(device, desc.count_noise_taps ? "media/froxel_inject_counted"
                                                                             : "media/froxel_inject"));
  MOTE_TRY_ASSIGN(fog.light_, gpu::ComputePipeline::create(device, "media/froxel_light"));
  MOTE_TRY_ASSIGN(fog.integrate_, gpu::ComputePipeline::create(device, "media/froxel_integrate"));
  MOTE_TRY_ASSIGN(fog.composite_, gpu::ComputePipeline::create(device, "media/froxel_composite"));
  const Image3D* volumes[] = {&fog.medium_, &fog.lit_[0], &fog.lit_[1], &fog.integrated_};
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, fog.no_particle_lights_.handle(), 0, VK_WHOLE_SIZE, 0);
    initialise(cmd, volumes, fog.far_shadow_);
    vkCmdFillBuffer(cmd, fog.taps_.handle(), 0, VK_WHOLE_SIZE, 0);
  }));
  return fog;
}

shader::MediaFrame FroxelFog::frame_block(const shader::RenderView& view, uint32_t volumes, uint32_t lights) const {
  shader::MediaFrame f{};
  f.inverse_view_projection = view.inverse_view_projection;
  f.previous_view_projection = history_valid_ ? previous_view_projection_ : view.view_projection;
  f.sun_view_projection = view.sun_view_projection;
  f.camera_position = glm::vec4(glm::vec3(view.camera_position), 1.0f);
  f.camera_forward = glm::vec4(glm::vec3(view.camera_forward), 0.0f);
  // The history's share: a running mean while fewer frames than the window are in it (n frames
  // of history weigh n / (n + 1)), so a fresh history converges as fast as it can, then
  // history_weight's exponential window.
  const float n = float(history_valid_ ? accumulated_ : 0u);
  const float weight = std::min(desc_.history_weight, n / (n + 1.0f));
  f.depth_range = glm::vec4(desc_.near_distance, desc_.far_distance, float(desc_.grid.z), weight);
  f.grid_size = glm::vec4(float(desc_.grid.x), float(desc_.grid.y), float(desc_.grid.z), desc_.anisotropy);
  f.sun_direction = view.sun_direction;
  f.sun_radiance = view.sun_radiance;
  // The hemisphere ambient seen from every direction: the mean of sky and ground.
  f.ambient = glm::vec4(0.5f * (glm::vec3(view.sky_ambient) + glm::vec3(view.ground_ambient)), 0.0f);
  f.counts = glm::uvec4(volumes, lights, frame_, history_valid_ ? 1u : 0u);
  return f;
}

Status FroxelFog::record(VkCommandBuffer cmd, const shader::RenderView& view,
                         std::span<const shader::PointLightGpu> lights, std::span<const shader::MediaVolume> rows,
                         const TileAtlas3D& atlas, const render::ParticleTargets& targets,
                         const FogShadowMap& shadow_map, const gpu::Buffer* particle_lights,
                         const gpu::Buffer* particle_light_clusters) {
  MOTE_TRY(render::check_targets(targets, desc_.width, desc_.height, "FroxelFog::record"));
  if (rows.size() > desc_.max_volumes)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} volumes; the fog was made for {}", rows.size(), desc_.max_volumes),
                      "FroxelFog::record");
  const uint32_t light_count = std::min(view.point_light_count, shader::kMaxPointLights);
  if (light_count > lights.size())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the view counts {} point lights; {} given", light_count, lights.size()),
                      "FroxelFog::record");
  if (rows.empty()) return record_empty(cmd);
  const shader::MediaFrame frame = frame_block(view, uint32_t(rows.size()), light_count);
  record_uploads(cmd, frame, lights.first(light_count), rows);
  // A list without its grid is read whole (the zero block's grid has no tiles).
  record_grid_passes(cmd, atlas, shadow_map, particle_lights ? *particle_lights : no_particle_lights_,
                     particle_lights && particle_light_clusters ? *particle_light_clusters : no_particle_lights_);
  record_composite(cmd, targets);
  previous_view_projection_ = view.view_projection;
  accumulated_ = history_valid_ ? accumulated_ + 1 : 1;
  history_valid_ = true;
  ++frame_;
  return ok_status();
}

Status FroxelFog::record_empty(VkCommandBuffer cmd) {
  // No volume: no pass runs and the colour is left alone. The sampling block says "no fog" to the
  // particles (their read is skipped), and the history starts over with the next volume.
  history_valid_ = false;
  accumulated_ = 0;
  ++frame_;
  if (empty_written_) return ok_status();
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_UNIFORM_READ_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const shader::MediaFogSampling none{glm::vec4(0.0f)};
  vkCmdUpdateBuffer(cmd, sampling_.handle(), 0, sizeof(none), &none);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_UNIFORM_READ_BIT);
  empty_written_ = true;
  return ok_status();
}

Result<uint64_t> FroxelFog::read_noise_taps() {
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> taps, gpu::readback_as<uint32_t>(*device_, taps_, 1));
  MOTE_TRY(device_->submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, taps_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::transfer_to_compute(cmd);
  }));
  return uint64_t(taps[0]);
}

}  // namespace mote::media
