// A collision depth drawn on the CPU for the executors' tests (docs/design/depth_collision.md):
// each texel's view ray, through the texel's centre, cast against a ground plane and a box, its
// nearest hit's reversed-Z depth stored (0 where the ray meets neither). The camera is Mote's
// renderer's (render_perspective, y flipped for Vulkan, a right-handed look-at).
#pragma once

#include <array>
#include <cstdint>

#include "mote/depth_image.hpp"

namespace mote {

struct DepthTestScene {
  uint32_t width = 64, height = 48;
  std::array<float, 3> eye{0.0f, 6.0f, 10.0f};
  std::array<float, 3> target{0.0f, 0.0f, 0.0f};
  float fov_y_degrees = 50.0f;
  float near_plane = 0.1f;
  float ground_y = 0.0f;                             // the plane y = ground_y, seen from above
  std::array<float, 3> box_min{-1.0f, 0.0f, -1.0f};  // an axis-aligned box on the ground
  std::array<float, 3> box_max{1.0f, 2.0f, 1.0f};
};

// The depth image of `scene`, with its view-projection and that matrix's inverse.
DepthImage draw_depth_test_scene(const DepthTestScene& scene);

// The default scene's image (64 x 48): what every generated run, the parity suite and RowCoverage
// give SAMPLE_DEPTH. Static: it outlives every run.
const DepthImage& test_depth_image();

}  // namespace mote
