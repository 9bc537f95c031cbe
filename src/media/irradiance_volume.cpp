// The froxel irradiance volume's resources and its pass beside its shader
// (shaders/media/froxel_irradiance.comp).
#include "media/irradiance_volume.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpu/commands.hpp"

namespace mote::media {

namespace {

constexpr VkPipelineStageFlags2 kReaders = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr uint32_t kGroup = 8;  // the pass's workgroups are 8 x 8

uint32_t groups(uint32_t n) { return (n + kGroup - 1) / kGroup; }

Status check_desc(const IrradianceVolumeDesc& d) {
  const char* where = "IrradianceVolume::create";
  if (d.grid.x == 0 || d.grid.y == 0 || d.grid.z == 0)
    return make_error(ErrorCode::kInvalidArgument, "the irradiance volume needs a grid of at least one froxel", where);
  if (!(d.near_distance > 0.0f) || !(d.far_distance > d.near_distance) || !std::isfinite(d.far_distance))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the irradiance volume's depth range needs 0 < near ({}) < far ({})", d.near_distance,
                                  d.far_distance),
                      where);
  return ok_status();
}

Result<Image3D> grid_image(gpu::Device& device, glm::uvec3 grid, const char* name) {
  return Image3D::create(device, {.width = grid.x,
                                  .height = grid.y,
                                  .depth = grid.z,
                                  .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                  .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                           VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                  .name = name});
}

Result<gpu::Buffer> block(gpu::Device& device, VkDeviceSize size, VkBufferUsageFlags usage, const char* name) {
  return gpu::Buffer::create(device, {.size = size, .usage = usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .name = name});
}

// Both volumes into GENERAL, cleared to no light (a lit draw before the first record sees
// black), and the stand-in shadow map at far (1).
void initialise(VkCommandBuffer cmd, const Image3D& luma, const Image3D& chroma, const gpu::Image& far_shadow) {
  const VkClearColorValue clear{{0.0f, 0.0f, 0.0f, 0.0f}};
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  for (const Image3D* image : {&luma, &chroma}) {
    image3d_barrier(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE,
                    VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdClearColorImage(cmd, image->handle(), VK_IMAGE_LAYOUT_GENERAL, &clear, 1, &range);
  }
  gpu::image_barrier(cmd, far_shadow, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearDepthStencilValue far{1.0f, 0};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearDepthStencilImage(cmd, far_shadow.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &depth_range);
  gpu::image_barrier(cmd, far_shadow, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaders,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

}  // namespace

glm::uvec3 irradiance_grid_for(uint32_t width, uint32_t height) {
  return {std::max(1u, (width + 15) / 16), std::max(1u, (height + 15) / 16), 64u};
}

Result<IrradianceVolume> IrradianceVolume::create(gpu::Device& device, const IrradianceVolumeDesc& desc) {
  MOTE_TRY(check_desc(desc));
  IrradianceVolume v;
  v.device_ = &device;
  v.desc_ = desc;
  MOTE_TRY_ASSIGN(v.luma_, grid_image(device, desc.grid, "mote.media.irradiance_luma"));
  MOTE_TRY_ASSIGN(v.chroma_, grid_image(device, desc.grid, "mote.media.irradiance_chroma"));
  MOTE_TRY_ASSIGN(v.far_shadow_,
                  gpu::Image::create(device, {.width = 1,
                                              .height = 1,
                                              .format = VK_FORMAT_D32_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "mote.media.irradiance_far_shadow"}));
  MOTE_TRY_ASSIGN(v.frame_buffer_, block(device, sizeof(shader::MediaFrame), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                         "mote.media.irradiance_frame"));
  MOTE_TRY_ASSIGN(v.sampling_, block(device, sizeof(shader::MediaFogSampling), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                     "mote.media.irradiance_sampling"));
  MOTE_TRY_ASSIGN(v.lights_, block(device, shader::kMaxPointLights * sizeof(shader::PointLightGpu),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "mote.media.irradiance_lights"));
  MOTE_TRY_ASSIGN(v.linear_, gpu::Sampler::create(device, {.name = "mote.media.irradiance_linear"}));
  MOTE_TRY_ASSIGN(v.shadow_sampler_,
                  gpu::Sampler::create(device, {.compare = true, .name = "mote.media.irradiance_shadow"}));
  MOTE_TRY_ASSIGN(v.pass_, gpu::ComputePipeline::create(device, "media/froxel_irradiance"));
  MOTE_TRY_ASSIGN(v.no_particle_lights_,
                  block(device, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "mote.media.no_particle_lights"));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, v.no_particle_lights_.handle(), 0, VK_WHOLE_SIZE, 0);
    initialise(cmd, v.luma_, v.chroma_, v.far_shadow_);
  }));
  return v;
}

Status IrradianceVolume::record(VkCommandBuffer cmd, const shader::RenderView& view,
                                std::span<const shader::PointLightGpu> lights, const SunShadowMap& shadow_map,
                                const gpu::Buffer* particle_lights, const gpu::Buffer* particle_light_clusters) {
  const uint32_t light_count = std::min(view.point_light_count, shader::kMaxPointLights);
  if (light_count > lights.size())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the view counts {} point lights; {} given", light_count, lights.size()),
                      "IrradianceVolume::record");
  const glm::uvec3 g = desc_.grid;
  shader::MediaFrame f{};
  f.inverse_view_projection = view.inverse_view_projection;
  f.previous_view_projection = view.view_projection;  // no history
  f.sun_view_projection = view.sun_view_projection;
  f.camera_position = glm::vec4(glm::vec3(view.camera_position), 1.0f);
  f.camera_forward = glm::vec4(glm::vec3(view.camera_forward), 0.0f);
  f.depth_range = glm::vec4(desc_.near_distance, desc_.far_distance, float(g.z), 0.0f);
  f.grid_size = glm::vec4(float(g.x), float(g.y), float(g.z), 0.0f);
  f.sun_direction = view.sun_direction;
  f.sun_radiance = view.sun_radiance;
  f.counts = glm::uvec4(0u, light_count, frame_, 0u);
  const shader::MediaFogSampling sampling{glm::vec4(desc_.near_distance, desc_.far_distance, float(g.z), 1.0f)};
  const shader::IrradiancePush push{glm::vec4(glm::vec3(view.sky_ambient), 0.0f),
                                    glm::vec4(glm::vec3(view.ground_ambient), 0.0f)};

  if (profiler_) profiler_->begin(cmd, "irradiance");
  // The previous frame's readers of the blocks and the volumes are done before they are rewritten.
  gpu::memory_barrier(cmd, kReaders, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  vkCmdUpdateBuffer(cmd, frame_buffer_.handle(), 0, sizeof(f), &f);
  vkCmdUpdateBuffer(cmd, sampling_.handle(), 0, sizeof(sampling), &sampling);
  if (light_count > 0)
    vkCmdUpdateBuffer(cmd, lights_.handle(), 0, light_count * sizeof(shader::PointLightGpu), lights.data());
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kReaders,
                      VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  const VkImageView shadow = shadow_map.view ? shadow_map.view : far_shadow_.view();
  const VkImageLayout shadow_layout = shadow_map.view ? shadow_map.layout : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  gpu::ComputeRecorder(*device_, cmd)
      .bind(pass_)
      .bind_resources({{0, &frame_buffer_},
                       {1, &lights_},
                       {5, particle_lights ? particle_lights : &no_particle_lights_},
                       {6,
                        particle_lights && particle_light_clusters ? particle_light_clusters : &no_particle_lights_}},
                      {{2, shadow, shadow_sampler_.handle(), shadow_layout},
                       {3, luma_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                       {4, chroma_.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}})
      .push(push)
      .dispatch(groups(g.x), groups(g.y), g.z);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, kReaders,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  if (profiler_) profiler_->end(cmd);
  ++frame_;
  return ok_status();
}

}  // namespace mote::media
