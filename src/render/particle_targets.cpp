#include "render/particle_targets.hpp"

#include <fmt/format.h>

#include "gpu/commands.hpp"

namespace mote::render {

namespace {

bool color_layout_ok(VkImageLayout layout) {
  return layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL || layout == VK_IMAGE_LAYOUT_GENERAL;
}

bool depth_layout_ok(VkImageLayout layout) {
  return layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL ||
         layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL ||
         layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
}

}  // namespace

Status check_targets(const ParticleTargets& t, uint32_t width, uint32_t height, const char* who) {
  if (!t.color || !t.color->valid() || !t.depth || !t.depth->valid())
    return make_error(ErrorCode::kInvalidArgument, "the colour or depth target is missing", who);
  for (const gpu::Image* image : {t.color, t.depth})
    if (image->width() != width || image->height() != height)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("a target is {}x{}; the renderer was made for {}x{}", image->width(),
                                    image->height(), width, height),
                        who);
  if (t.color->format() != kHdrFormat)
    return make_error(ErrorCode::kInvalidArgument, "the colour target must be R16G16B16A16_SFLOAT", who);
  if (t.depth->format() != kDepthFormat || !(t.depth->aspect() & VK_IMAGE_ASPECT_DEPTH_BIT))
    return make_error(ErrorCode::kInvalidArgument, "the depth target must be D32_SFLOAT with the depth aspect", who);
  if (!color_layout_ok(t.color_layout))
    return make_error(ErrorCode::kInvalidArgument,
                      "the colour target must be in COLOR_ATTACHMENT_OPTIMAL or GENERAL layout", who);
  if (!depth_layout_ok(t.depth_layout))
    return make_error(ErrorCode::kInvalidArgument,
                      "the depth target must be in DEPTH_STENCIL_READ_ONLY_OPTIMAL, DEPTH_STENCIL_ATTACHMENT_OPTIMAL "
                      "or SHADER_READ_ONLY_OPTIMAL layout",
                      who);
  return ok_status();
}

VkImageLayout sampled_depth_layout(VkImageLayout given) {
  if (given == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL || given == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL ||
      given == VK_IMAGE_LAYOUT_GENERAL)
    return given;
  return VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
}

void acquire_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout given, VkImageLayout needed,
                    VkPipelineStageFlags2 stage, VkAccessFlags2 access) {
  gpu::image_barrier(cmd, image, given, needed, kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT, stage, access);
}

void release_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout needed, VkImageLayout given,
                    VkPipelineStageFlags2 stage, VkAccessFlags2 access) {
  if (needed == given) return;
  gpu::image_barrier(cmd, image, needed, given, stage, access, kTargetStages,
                     VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

}  // namespace mote::render
