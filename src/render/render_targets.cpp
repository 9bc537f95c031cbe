#include "render/render_targets.hpp"

#include <glm/gtc/packing.hpp>

#include "gpu/commands.hpp"

namespace mote::render {

Result<RenderTargets> RenderTargets::create(gpu::Device& device, uint32_t width, uint32_t height,
                                            uint32_t shadow_size) {
  RenderTargets t;
  t.width = width;
  t.height = height;
  t.shadow_size = shadow_size;
  constexpr VkImageUsageFlags kColor = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  MOTE_TRY_ASSIGN(t.hdr, gpu::Image::create(device,
                                            {.width = width,
                                             .height = height,
                                             .format = kHdrFormat,
                                             .usage = kColor | VK_IMAGE_USAGE_STORAGE_BIT |
                                                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                             .name = "mote.render.hdr"}));
  MOTE_TRY_ASSIGN(t.depth,
                  gpu::Image::create(device, {.width = width,
                                              .height = height,
                                              .format = kDepthFormat,
                                              .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                                       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "mote.render.depth"}));
  MOTE_TRY_ASSIGN(t.ldr,
                  gpu::Image::create(device, {.width = width,
                                              .height = height,
                                              .format = kLdrFormat,
                                              .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                              .name = "mote.render.ldr"}));
  MOTE_TRY_ASSIGN(t.shadow_map, gpu::Image::create(device, {.width = shadow_size,
                                                            .height = shadow_size,
                                                            .format = kDepthFormat,
                                                            .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                                                     VK_IMAGE_USAGE_SAMPLED_BIT,
                                                            .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                                            .name = "mote.render.shadow_map"}));
  return t;
}

// Copies a colour or depth image in `layout`, last written in `stages`, into `buffer` and returns
// it to `layout` for those stages.
void copy_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout layout, VkPipelineStageFlags2 stages,
                 const gpu::Buffer& buffer) {
  gpu::image_barrier(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stages, VK_ACCESS_2_MEMORY_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {image.aspect(), 0, 0, 1};
  region.imageExtent = {image.width(), image.height(), 1};
  vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.handle(), 1, &region);
  gpu::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_NONE, stages, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

std::vector<glm::vec4> unpack_rgba16f(const gpu::Buffer& buffer, size_t texels) {
  std::vector<glm::vec4> out(texels);
  const uint16_t* halves = static_cast<const uint16_t*>(buffer.mapped());
  for (size_t i = 0; i < texels; ++i)
    for (int c = 0; c < 4; ++c) out[i][c] = glm::unpackHalf1x16(halves[i * 4 + c]);
  return out;
}

}  // namespace mote::render
