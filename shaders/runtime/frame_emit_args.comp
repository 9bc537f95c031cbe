#version 460
// Turns the scan's last inclusive sum (the frame's newborn total) into emit's indirect
// dispatch (meep step 4, the rasteriser's prefix-sum-to-command). One thread.
#include "shared/frame.h"

layout(local_size_x = 1) in;

layout(std140, binding = 0) uniform Params { FrameParams params; };
layout(std430, binding = 1) buffer Counters { FrameCounters counters; };
layout(std430, binding = 2) readonly buffer SpawnSums { uint spawn_sums[]; };

void main() {
  uint total = params.row_count == 0u ? 0u : spawn_sums[params.row_count - 1u];
  counters.newborns = total;
  counters.spawned_total += total;
  counters.emit_groups_x = min((total + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
  counters.emit_groups_y = 1u;
  counters.emit_groups_z = 1u;
}
