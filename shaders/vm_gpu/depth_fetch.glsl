// The collision depth on the device (docs/design/depth_collision.md; src/vm/depth_sampling.hpp
// lays it out): the includer declares
//   buffer ... { VmDepthView depth_view; float depth_values[]; }  -- the view, then the depths
// and samples it with vm_sample_depth: the projection, texel choice and collision of
// shared/vm_depth.h (what the host's sample_depth_values computes), the five texels fetched here,
// every index checked against the image and the buffer (a texel outside either reads 0: no surface).
#include "shared/vm_depth.h"

float vm_depth_fetch(uint x, uint y) {
  if (x >= depth_view.size.x || y >= depth_view.size.y) return 0.0f;
  uint at = y * depth_view.size.x + x;
  return at < uint(depth_values.length()) ? depth_values[at] : 0.0f;
}

vec4 vm_sample_depth(vec3 p, float thickness) {
  VmDepthView v = depth_view;
  if (v.size.z == 0u || v.size.x == 0u || v.size.y == 0u) return vec4(0.0f);
  vec4 ndc = vm_depth_project(v, p);
  uint tx = vm_depth_texel(ndc.x, v.texel.x, v.size.x);
  uint ty = vm_depth_texel(ndc.y, v.texel.y, v.size.y);
  if (ndc.w == 0.0f || tx >= v.size.x || ty >= v.size.y) return vec4(0.0f);
  return vm_depth_collide(v, p, thickness, ndc, tx, ty, vm_depth_fetch(tx, ty), vm_depth_fetch(tx - 1u, ty),
                          vm_depth_fetch(tx + 1u, ty), vm_depth_fetch(tx, ty - 1u), vm_depth_fetch(tx, ty + 1u));
}
