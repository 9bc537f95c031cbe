#version 460
// Before simulate: clears the keep flags (shared/frame.h, kFrameKeepWordsPerTile) of the tiles
// this frame walks, and only those: the scan, compact and finish read no tile past
// counters.walk_tiles, so a frame with nothing alive clears nothing, and the cost follows the
// list, not the capacity (docs/design/runtime_frame.md, "Nothing paid when idle"). One invocation
// per tile, dispatched with simulate's indirect arguments (a workgroup per 64 entries, so at
// least one invocation per tile), grid-strided past kFrameMaxGroups.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingKeep) writeonly buffer Keep { uint keep_words[]; };

void main() {
  uint tiles = (params.capacity + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  uint walked = min(counters.walk_tiles, tiles);
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint tile = gl_GlobalInvocationID.x; tile < walked; tile += stride) {
    keep_words[tile] = 0u;
    keep_words[tiles + 2u * tile] = 0u;
    keep_words[tiles + 2u * tile + 1u] = 0u;
  }
}
