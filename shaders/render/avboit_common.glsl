// The AVBOIT volume as its readers see it (shaders/shared/avboit.h): the slice a view depth falls
// in and the optical depth in front of a point. The includer declares, before including:
//   buffer ... { AvboitSlices avboit; };         the occupancy pass's slices
//   buffer ... { float avboit_depth[]; };        the integrate pass's optical depth (draw only)
#ifndef MOTE_SHADERS_RENDER_AVBOIT_COMMON_GLSL
#define MOTE_SHADERS_RENDER_AVBOIT_COMMON_GLSL
#include "shared/avboit.h"

// The slice coordinate (0 .. slices) of view depth `depth`.
float avboit_slice_at(float depth) {
  float u = avboit_bin_coordinate(depth, avboit.depth_range.x, avboit.depth_range.y);
  if (u >= float(kAvboitBins)) return avboit.depth_range.z;
  uint b = min(uint(u), kAvboitBins - 1u);
  return avboit_slice_coordinate(u, avboit.bin_start[b], avboit.bin_start[b + 1u]);
}

#ifdef AVBOIT_READS_DEPTH
// The optical depth in front of slice coordinate `slice` at screen UV `uv`: the boundaries'
// values interpolated bilinearly between column centres and linearly between boundaries.
float avboit_optical_depth(vec2 uv, float slice) {
  const ivec3 g = ivec3(avboit.grid.xyz);
  const vec2 c = uv * vec2(g.xy) - 0.5;
  const vec2 c0f = floor(c);
  const vec2 w = c - c0f;
  const ivec2 lo = clamp(ivec2(c0f), ivec2(0), g.xy - 1);
  const ivec2 hi = clamp(ivec2(c0f) + 1, ivec2(0), g.xy - 1);
  const float s = clamp(slice, 0.0, float(g.z));
  const int k0 = min(int(s), g.z - 1);
  const float ws = s - float(k0);
  float at[2];
  for (int k = 0; k < 2; ++k) {
    const int plane = (k0 + k) * g.y;
    const float d00 = avboit_depth[(plane + lo.y) * g.x + lo.x];
    const float d10 = avboit_depth[(plane + lo.y) * g.x + hi.x];
    const float d01 = avboit_depth[(plane + hi.y) * g.x + lo.x];
    const float d11 = avboit_depth[(plane + hi.y) * g.x + hi.x];
    at[k] = mix(mix(d00, d10, w.x), mix(d01, d11, w.x), w.y);
  }
  return mix(at[0], at[1], ws);
}
#endif
#endif
