// The offscreen images a scene frame renders into: HDR colour (RGBA16F: the opaque pass's
// attachment, then the particle renderer's target — render/particle_targets.hpp), depth (D32,
// reversed-Z; sampled read-only by soft particles), the sun's shadow map, and the tonemapped RGBA8
// image that is read back. The raster path's OIT accumulators are the path's own.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/image.hpp"
#include "mote/result.hpp"
#include "render/particle_targets.hpp"

namespace mote::render {

inline constexpr VkFormat kLdrFormat = VK_FORMAT_R8G8B8A8_UNORM;

struct RenderTargets {
  uint32_t width = 0;
  uint32_t height = 0;
  gpu::Image hdr;
  gpu::Image depth;
  gpu::Image ldr;         // RGBA8 UNORM holding sRGB-encoded values
  gpu::Image shadow_map;  // D32, shadow_size²; 1x1 when the scene has no shadowed sun
  uint32_t shadow_size = 1;

  static Result<RenderTargets> create(gpu::Device& device, uint32_t width, uint32_t height, uint32_t shadow_size);
};

// Copies a colour or depth image in `layout`, last written in `stages`, into `buffer` and returns
// it to `layout` for those stages (the scene renderer's captures).
void copy_target(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout layout, VkPipelineStageFlags2 stages,
                 const gpu::Buffer& buffer);
// `texels` RGBA16F texels of a mapped readback buffer as floats.
std::vector<glm::vec4> unpack_rgba16f(const gpu::Buffer& buffer, size_t texels);

}  // namespace mote::render
