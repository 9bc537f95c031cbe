// The images a particle pass draws into, which it does not own: the host's HDR colour (RGBA16F)
// and depth (D32, reversed-Z: 0 = far), each in the layout the host has it in. The contract every
// particle pass keeps (docs/design/render.md, "Recording contract"):
//   * Before: the host need not barrier. A pass opens with a barrier on each image from the
//     host's writes in kTargetStages (colour-attachment output, fragment tests, fragment and
//     compute shaders, transfers), moving it to the layout the pass needs.
//   * After: each image is back in the layout it came in, and the pass's last accesses to it are
//     in kTargetStages: the host's next barrier on it takes kTargetStages and their writes as its
//     source scope.
// Accepted layouts: colour COLOR_ATTACHMENT_OPTIMAL or GENERAL; depth
// DEPTH_STENCIL_READ_ONLY_OPTIMAL, DEPTH_STENCIL_ATTACHMENT_OPTIMAL or SHADER_READ_ONLY_OPTIMAL.
// Usage the images need: colour COLOR_ATTACHMENT (raster path, mesh particles) and STORAGE
// (compute path, the OIT resolve); depth DEPTH_STENCIL_ATTACHMENT and SAMPLED.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/image.hpp"
#include "mote/result.hpp"

namespace mote::render {

inline constexpr VkFormat kHdrFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// Where the particle passes (and the host around them) touch the target images.
inline constexpr VkPipelineStageFlags2 kTargetStages = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                       VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                                                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                                       VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;

struct ParticleTargets {
  const gpu::Image* color = nullptr;  // RGBA16F
  VkImageLayout color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  const gpu::Image* depth = nullptr;  // D32, reversed-Z
  VkImageLayout depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
};

// kInvalidArgument (where: `who`) unless both images are there, `width` x `height`, of the formats
// and in layouts the contract above accepts.
Status check_targets(const ParticleTargets& targets, uint32_t width, uint32_t height, const char* who);

// The layout a pass that only samples the depth can read it in: the one it was given when that
// can be sampled, else DEPTH_STENCIL_READ_ONLY_OPTIMAL.
VkImageLayout sampled_depth_layout(VkImageLayout given);

// Opens a pass on `image`: after the host's writes in kTargetStages, from `given` to `needed`,
// visible to `stage` / `access`. Recorded even when the layouts agree (it orders the writes).
void acquire_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout given, VkImageLayout needed,
                    VkPipelineStageFlags2 stage, VkAccessFlags2 access);
// Closes it: after the pass's accesses in `stage` / `access`, from `needed` back to `given`,
// visible to kTargetStages. Nothing when the layouts agree (the host's barrier from kTargetStages
// then orders what follows).
void release_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout needed, VkImageLayout given,
                    VkPipelineStageFlags2 stage, VkAccessFlags2 access);

}  // namespace mote::render
