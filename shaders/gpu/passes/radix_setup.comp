#version 460
// The radix sort's first pass, one invocation: the element count of this sort (the host's, or a
// word of a GPU buffer clamped to the capacity) and what the later passes derive from it, written
// once to the sort's state so that every pass and the histogram scan read the same numbers.
#include "gpu/passes/radix_common.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 1) writeonly buffer State { RadixSortState state; };

void main() {
  uint n = params.count;
  if ((params.flags & kRadixCountFromBuffer) != 0u) {
    n = params.count_word < uint(counts.length()) ? min(counts[params.count_word], params.count) : 0u;
  }
  const uint tiles = (n + kRadixTileSize - 1u) / kRadixTileSize;  // n <= 2^31: no overflow
  state.count = n;
  state.tiles = tiles;
  state.scan_count = tiles * kRadixDigits;
  state.pad0 = 0u;
}
