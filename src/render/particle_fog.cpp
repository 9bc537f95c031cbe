#include "render/particle_fog.hpp"

#include "gpu/commands.hpp"

namespace mote::render {

Result<NoFog> NoFog::create(gpu::Device& device) {
  NoFog none;
  MOTE_TRY_ASSIGN(none.volume_,
                  media::Image3D::create(device, {.format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                  .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                  .name = "mote.render.no_fog"}));
  MOTE_TRY_ASSIGN(none.sampler_, gpu::Sampler::create(device, {.name = "mote.render.no_fog"}));
  MOTE_TRY_ASSIGN(none.sampling_, gpu::Buffer::create(device, {.size = 16,
                                                               .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                               .name = "mote.render.no_fog_sampling"}));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    media::image3d_barrier(cmd, none.volume_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                           VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearColorValue clear{{0.0f, 0.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, none.volume_.handle(), VK_IMAGE_LAYOUT_GENERAL, &clear, 1, &range);
    vkCmdFillBuffer(cmd, none.sampling_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT);
  }));
  return none;
}

}  // namespace mote::render
