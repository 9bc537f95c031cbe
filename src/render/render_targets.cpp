#include "render/render_targets.hpp"

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

}  // namespace mote::render
