// The camera culling tests emitters against (docs/design/runtime_frame.md, "Culling"): the six
// planes of a view-projection's frustum, which the tick tests each culling emitter's published
// bounds against.
#pragma once

#include <array>

#include "shared/frame.h"

namespace mote::runtime {

// The frustum of `view_projection` (column-major, Vulkan clip space: -w <= x, y <= w and
// 0 <= z <= w, either depth direction) as planes pointing in: a point p is inside all six when
// dot(plane.xyz, p) + plane.w >= 0 for each (Gribb and Hartmann, "Fast Extraction of Viewing
// Frustum Planes from the World-View-Projection Matrix", 2001). The planes are not normalised:
// only their signs are tested.
std::array<shader::vec4, 6> frustum_planes(const std::array<float, 16>& view_projection);

// The tick's test (shaders/runtime/frame/tick.comp, box_in_view) on the CPU: the box [lo, hi]
// is outside when its corner farthest along some plane's normal is behind that plane.
bool box_in_frustum(const std::array<shader::vec4, 6>& planes, const shader::vec3& lo, const shader::vec3& hi);

}  // namespace mote::runtime
