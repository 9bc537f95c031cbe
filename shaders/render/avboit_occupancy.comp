#version 460
// AVBOIT's occupancy (shaders/shared/avboit.h): one workgroup; a thread per emitter row marks the
// bins its measured box covers as a view-depth interval — the box's centre depth plus or minus
// its extent along the view axis (a support projection, not eight transformed corners), dilated
// by a bin each way — then one thread shares the slices out among the occupied bins. Additive
// rows mark nothing (they write no extinction), nor do mesh rows (drawn opaque), dead rows or an
// empty box. A row without a box of its own generation (none bound, a stale row) or with an
// unmeasurable one (infinite) marks every bin.
#include "shared/avboit.h"
#include "shared/frame.h"
#include "shared/particle_render.h"

layout(local_size_x = 64) in;  // kAvboitWorkgroupSize
layout(std140, binding = 0) uniform View { RenderView view; };
layout(std430, binding = 1) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 2) readonly buffer Bounds { FrameEmitterBounds bounds[]; };
layout(std430, binding = 3) buffer Slices { AvboitSlices avboit; };
layout(push_constant) uniform Push { AvboitPush push; };

shared uint s_bits[2];

void mark_bins(uint first, uint last) {
  for (uint b = first; b <= last && b < kAvboitBins; ++b) atomicOr(s_bits[b >> 5], 1u << (b & 31u));
}

void mark_row(uint row) {
  ParticleDrawRecord r = records[row];
  if ((r.flags & kDrawFlagLive) == 0u || (r.flags & kDrawFlagAdditive) != 0u ||
      (r.flags & kDrawProjectionMask) == kProjectionMesh)
    return;
  if (row >= push.bounds_rows ||
      (bounds[row].generation & kFrameHeaderGenerationMask) != (r.generation & kFrameHeaderGenerationMask)) {
    mark_bins(0u, kAvboitBins - 1u);
    return;
  }
  vec3 lo = bounds[row].bounds_min.xyz, hi = bounds[row].bounds_max.xyz;
  if (lo.x > hi.x || lo.y > hi.y || lo.z > hi.z) return;  // nothing alive
  if (any(isinf(lo)) || any(isinf(hi)) || any(isnan(lo)) || any(isnan(hi))) {
    mark_bins(0u, kAvboitBins - 1u);
    return;
  }
  vec3 forward = view.camera_forward.xyz;
  float centre = dot((lo + hi) * 0.5 - view.camera_position.xyz, forward);
  float extent = dot((hi - lo) * 0.5, abs(forward));
  float near_depth = avboit.depth_range.x, far_depth = avboit.depth_range.y;
  if (centre + extent < near_depth) return;  // wholly in front of the near plane (or behind the eye)
  float u0 = avboit_bin_coordinate(centre - extent, near_depth, far_depth);
  float u1 = avboit_bin_coordinate(centre + extent, near_depth, far_depth);
  uint first = uint(max(u0 - 1.0, 0.0));
  uint last = min(uint(u1) + 1u, kAvboitBins - 1u);
  mark_bins(first, last);
}

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t < 2u) s_bits[t] = 0u;
  barrier();
  for (uint row = t; row < push.record_count; row += kAvboitWorkgroupSize) mark_row(row);
  barrier();
  if (t != 0u) return;
  uint bits0 = s_bits[0], bits1 = s_bits[1];
  uint occupied = uint(bitCount(bits0) + bitCount(bits1));
  float slices = avboit.depth_range.z;
  uint rank = 0u;
  for (uint b = 0u; b < kAvboitBins; ++b) {
    avboit.bin_start[b] = occupied == 0u ? 0.0 : float(rank) * slices / float(occupied);
    uint bits = b < 32u ? bits0 : bits1;
    rank += (bits >> (b & 31u)) & 1u;
  }
  avboit.bin_start[kAvboitBins] = slices;
  avboit.occupancy = uvec4(bits0, bits1, 0u, 0u);
  avboit.grid.w = occupied;
}
