#version 460
// The piece list and u. Each point finds its strip's first and last places by binary search over
// the sorted (row, id) (a strip is one run of the order), reads the distance scan there, and
// stores its u (stretched: the distance to the newest point over the strip's length; tiled: that
// distance over the tile length; segment: unused). A segment's point writes its pieces at its
// place in the piece-count scan. The last place writes the totals and the draw's instance count.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "render/ribbon_common.glsl"

layout(local_size_x = 256) in;
layout(std430, binding = 4) buffer Points { RibbonPoint points[]; };
layout(std430, binding = 5) readonly buffer Distances { uint distances[]; };  // exclusive scan of the lengths
layout(std430, binding = 6) readonly buffer PieceCounts { uint piece_counts[]; };
layout(std430, binding = 7) readonly buffer Places { uint places[]; };  // exclusive scan of the piece counts
layout(std430, binding = 8) writeonly buffer Pieces { uint pieces[]; };
layout(std430, binding = 9) buffer Counts { uint counts[]; };

// Whether place j sorts before the strip (row, id): the order the three sorts made.
bool before(uint j, uint row, uint id) {
  uint r = points[j].row;
  return r < row || (r == row && points[j].id < id);
}

bool not_after(uint j, uint row, uint id) {
  uint r = points[j].row;
  return r < row || (r == row && points[j].id <= id);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = ribbon_count();
  bool in_range = i < n;
  uint segment = 0u;
  if (in_range && points[i].row != 0xFFFFFFFFu) {
    uint row = points[i].row;
    uint id = points[i].id;
    uint lo = 0u, hi = i;  // first place of the strip: the lower bound of (row, id)
    while (lo < hi) {
      uint mid = (lo + hi) >> 1u;
      if (before(mid, row, id)) lo = mid + 1u; else hi = mid;
    }
    uint first = lo;
    lo = i;
    hi = n;  // one past its last place: the upper bound
    while (lo < hi) {
      uint mid = (lo + hi) >> 1u;
      if (not_after(mid, row, id)) lo = mid + 1u; else hi = mid;
    }
    uint last = lo - 1u;
    RibbonRecord r = ribbons[row];
    uint to_newest = distances[last] - distances[i];  // wrapping u32 sums: the difference is exact
    uint total = distances[last] - distances[first];
    float u = 0.0;
    if (r.uv_mode == kRibbonUvStretched) u = total > 0u ? float(to_newest) / float(total) : 0.0;
    else if (r.uv_mode == kRibbonUvTiled) u = float(to_newest) / (kRibbonLengthUnits * max(r.tile_length, 1e-6));
    points[i].normal_u.w = u;
    uint count = piece_counts[i];
    for (uint k = 0u; k < count; ++k) pieces[places[i] + k] = (i << kRibbonPieceShift) | k;
    segment = count > 0u ? 1u : 0u;
  }
  uint segments = subgroupAdd(segment);
  if (subgroupElect() && segments > 0u) atomicAdd(counts[kRibbonCountSegments], segments);
  if (in_range && i + 1u == n) {
    uint total_pieces = places[i] + piece_counts[i];
    counts[kRibbonCountPieces] = total_pieces;
    counts[kRibbonCountPoints] = n;
    counts[kRibbonCountDrawOffset / 4u + 1u] = total_pieces;  // instanceCount
  }
}
