#version 460
// Last pass of a frame: this frame's alive count (emit's newborns plus the survivors
// frame_compact placed) and the free list's height (plus the slots it pushed); next frame's simulate walks this frame's alive list, so its indirect
// dispatch is written here from the GPU's own count (sizing it from a readback would orphan or
// double-free slots: docs/design/runtime_frame.md, the free list).
#include "shared/frame.h"

layout(local_size_x = 1) in;

layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
// Simulate's keep buffer: [0, T) the tiles' survivor counts, the walked ones scanned (shared/frame.h).
layout(std430, binding = kFrameBindingKeep) readonly buffer Keep { uint keep_words[]; };

void main() {
  // The survivors frame_compact placed after the newborns: the last tile's sum.
  uint walked = min(counters.alive_in, params.capacity);
  uint tiles = (params.capacity + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  uint kept = walked == 0u ? 0u : min(keep_words[min(counters.walk_tiles, tiles) - 1u], walked);
  // The slots frame_compact pushed: every entry of last frame's list that was not kept.
  counters.free_count = min(counters.free_count + (walked - kept), params.capacity);
  uint newborns = min(counters.alive_out, params.capacity);
  uint n = min(counters.alive_out + kept, params.capacity);
  counters.alive_out = n;
  // What the bounds pass folds: the newborns, when simulate folded the survivors; else all.
  uint bounds_entries = params.bounds_in_simulate != 0u ? newborns : n;
  counters.bounds_entries = bounds_entries;
  // A frame whose simulate folds the bounds strides over a capped grid (kFrameSimulateMaxGroups).
  uint simulate_cap = params.bounds_in_simulate != 0u ? kFrameSimulateMaxGroups : kFrameMaxGroups;
  counters.simulate_groups_x = min((n + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, simulate_cap);
  counters.simulate_groups_y = 1u;
  counters.simulate_groups_z = 1u;
  // The bounds pass: kFrameBoundsEntriesPerLane entries a lane, but never fewer workgroups than
  // kFrameBoundsMinGroups while its entries have a tile for each (a short run would leave the GPU
  // mostly idle waiting on a few lanes' memory).
  uint bounds_chunk = kFrameWorkgroupSize * kFrameBoundsEntriesPerLane;
  uint bounds_tiles = (bounds_entries + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  uint bounds_groups = max((bounds_entries + bounds_chunk - 1u) / bounds_chunk, min(bounds_tiles, kFrameBoundsMinGroups));
  counters.bounds_groups_x = min(bounds_groups, kFrameMaxGroups);
  counters.bounds_groups_y = 1u;
  counters.bounds_groups_z = 1u;
}
