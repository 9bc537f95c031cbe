// A depth image and the camera it was drawn with: what depth-buffer collision (SAMPLE_DEPTH, the
// `collide_depth` node; docs/design/depth_collision.md) tests particles against. The depth is
// reversed-Z, as Mote's renderer writes it (0: the far plane, nothing drawn; larger: nearer; NDC
// depth = clip.z / clip.w), rows top to bottom (NDC y = -1 is row 0, Vulkan's convention).
// The scene renderer hands the particle system its previous frame's opaque depth and camera; a
// host application may build one from its own depth buffer.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mote/result.hpp"

namespace mote {

// The largest depth image side a system or a run accepts (8K).
inline constexpr uint32_t kMaxDepthImageSize = 8192;

struct DepthImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<float> depths;              // width * height, row-major, row 0 at NDC y = -1
  std::array<float, 16> view_proj{};      // world -> clip, column-major (glm's layout)
  std::array<float, 16> inv_view_proj{};  // clip -> world: view_proj's inverse
};

// kInvalidArgument with `where` = "width", "height", "depths" (a count other than width * height),
// "depths[i]" (a value not finite or outside [0, 1]), "view_proj[i]" / "inv_view_proj[i]" (not finite).
Status check_depth_image(const DepthImage& image);

}  // namespace mote
