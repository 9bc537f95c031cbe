#include "runtime/frame/cull_view.hpp"

namespace mote::runtime {

std::array<shader::vec4, 6> frustum_planes(const std::array<float, 16>& m) {
  // Row r of the matrix: m[r], m[4 + r], m[8 + r], m[12 + r] (column-major).
  auto row = [&](int r) { return shader::vec4(m[r], m[4 + r], m[8 + r], m[12 + r]); };
  const shader::vec4 x = row(0), y = row(1), z = row(2), w = row(3);
  return {w + x, w - x, w + y, w - y, z, w - z};
}

bool box_in_frustum(const std::array<shader::vec4, 6>& planes, const shader::vec3& lo, const shader::vec3& hi) {
  for (const shader::vec4& plane : planes) {
    const shader::vec3 far_corner(plane.x >= 0.0f ? hi.x : lo.x, plane.y >= 0.0f ? hi.y : lo.y,
                                  plane.z >= 0.0f ? hi.z : lo.z);
    if (plane.x * far_corner.x + plane.y * far_corner.y + plane.z * far_corner.z + plane.w < 0.0f) return false;
  }
  return true;
}

}  // namespace mote::runtime
