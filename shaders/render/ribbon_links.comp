#version 460
// Links each point to its neighbours in the sorted order: point i + 1 continues point i's ribbon
// when both are ribbon points of one row and id. A link is a segment: its length in fixed point
// (kRibbonLengthUnits) for the distance scan, and its row's subdivisions as its piece count for
// the piece list's scan. A particle that died since the last frame is simply not in the order, so
// its neighbours link to each other: the strip shortens, it never jumps or crosses itself.
#include "render/ribbon_common.glsl"

layout(local_size_x = 256) in;
layout(std430, binding = 4) buffer Points { RibbonPoint points[]; };
layout(std430, binding = 5) writeonly buffer Lengths { uint lengths[]; };
layout(std430, binding = 6) writeonly buffer PieceCounts { uint piece_counts[]; };

bool same_ribbon(uint a, uint b) {
  return points[a].row != 0xFFFFFFFFu && points[a].row == points[b].row && points[a].id == points[b].id;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = ribbon_count();
  if (i >= n) return;
  bool has_next = i + 1u < n && same_ribbon(i, i + 1u);
  bool has_prev = i > 0u && same_ribbon(i, i - 1u);
  uint length_units = 0u;
  uint pieces = 0u;
  if (has_next) {
    float d = distance(points[i].position_width.xyz, points[i + 1u].position_width.xyz);
    length_units = uint(clamp(d * kRibbonLengthUnits, 0.0, 2147483648.0));
    pieces = clamp(ribbons[points[i].row].subdivisions, 1u, kRibbonMaxSubdivisions);
  }
  lengths[i] = length_units;
  piece_counts[i] = pieces;
  uint valid = points[i].row != 0xFFFFFFFFu ? kRibbonPointValid : 0u;
  points[i].flags = valid | (has_next ? kRibbonPointNext : 0u) | (has_prev ? kRibbonPointPrev : 0u);
}
