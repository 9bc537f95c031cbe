#include "support/depth_test_image.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace mote {
namespace {

glm::vec3 v3(const std::array<float, 3>& a) { return {a[0], a[1], a[2]}; }

std::array<float, 16> flat(const glm::mat4& m) {
  std::array<float, 16> r{};
  std::memcpy(r.data(), &m[0][0], sizeof(r));
  return r;
}

// The nearest t > 0 at which origin + t dir meets the ground or the box (infinity for neither).
float cast(const DepthTestScene& s, glm::vec3 origin, glm::vec3 dir) {
  float best = std::numeric_limits<float>::infinity();
  if (dir.y < 0.0f) {
    const float t = (s.ground_y - origin.y) / dir.y;
    if (t > 0.0f) best = t;
  }
  float t0 = 0.0f, t1 = std::numeric_limits<float>::infinity();
  for (int a = 0; a < 3; ++a) {
    const float lo = s.box_min[size_t(a)], hi = s.box_max[size_t(a)];
    if (dir[a] == 0.0f) {
      if (origin[a] < lo || origin[a] > hi) t1 = -1.0f;
      continue;
    }
    float ta = (lo - origin[a]) / dir[a], tb = (hi - origin[a]) / dir[a];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  if (t0 <= t1 && t0 > 0.0f) best = std::min(best, t0);
  return best;
}

}  // namespace

DepthImage draw_depth_test_scene(const DepthTestScene& s) {
  const float aspect = float(s.width) / float(s.height);
  const float f = 1.0f / std::tan(0.5f * glm::radians(s.fov_y_degrees));
  // render_perspective (shaders/shared/particle_render.h) with Vulkan's y flip: reversed-Z, far at infinity.
  const glm::mat4 projection(glm::vec4(f / aspect, 0.0f, 0.0f, 0.0f), glm::vec4(0.0f, -f, 0.0f, 0.0f),
                             glm::vec4(0.0f, 0.0f, 0.0f, -1.0f), glm::vec4(0.0f, 0.0f, s.near_plane, 0.0f));
  const glm::mat4 view = glm::lookAt(v3(s.eye), v3(s.target), glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::mat4 vp = projection * view;
  const glm::mat4 inv = glm::inverse(vp);
  DepthImage image{.width = s.width,
                   .height = s.height,
                   .depths = {},
                   .view_proj = flat(vp),
                   .inv_view_proj = flat(inv)};
  image.depths.assign(size_t(s.width) * s.height, 0.0f);
  const glm::vec3 eye = v3(s.eye);
  for (uint32_t y = 0; y < s.height; ++y) {
    for (uint32_t x = 0; x < s.width; ++x) {
      const float nx = (float(x) + 0.5f) * 2.0f / float(s.width) - 1.0f;
      const float ny = (float(y) + 0.5f) * 2.0f / float(s.height) - 1.0f;
      const glm::vec4 far_point = inv * glm::vec4(nx, ny, 0.5f, 1.0f);
      const glm::vec3 dir = glm::normalize(glm::vec3(far_point) / far_point.w - eye);
      const float t = cast(s, eye, dir);
      if (!std::isfinite(t)) continue;
      const glm::vec4 clip = vp * glm::vec4(eye + t * dir, 1.0f);
      image.depths[size_t(y) * s.width + x] = std::clamp(clip.z / clip.w, 0.0f, 1.0f);
    }
  }
  return image;
}

const DepthImage& test_depth_image() {
  static const DepthImage image = draw_depth_test_scene({});
  return image;
}

}  // namespace mote
