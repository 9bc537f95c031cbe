#version 460
// Turns the scan's last inclusive sum (the frame's newborn total) into emit's indirect
// dispatch (step 4 of docs/design/runtime_frame.md "One frame": a prefix sum turned into a command), and takes the newborns' slots
// off the free list and their places in the alive list in one step: newborn g gets the g-th
// slot from the top of the stack and alive_out[first + g], so the newborns come in the order the
// free list holds (simulate's deaths in list order, frame_compact.comp) and no pop or append
// needs an atomic. What the stack cannot hold (the budget already prevents it) is dropped.
// One thread.
#include "shared/frame.h"

layout(local_size_x = 1) in;

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingSpawnSums) readonly buffer SpawnSums { uint spawn_sums[]; };

void main() {
  uint total = params.row_count == 0u ? 0u : spawn_sums[params.row_count - 1u];
  uint stacked = min(counters.free_count, params.capacity);
  uint born = min(total, stacked);
  counters.dropped += total - born;
  counters.newborns = born;
  counters.spawned_total += total;
  counters.free_count = stacked - born;  // emit reads free_list[free_count + born - 1 - g]
  counters.alive_out += born;            // emit writes alive_out[alive_out - born + g]
  counters.emit_groups_x = min((born + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
  counters.emit_groups_y = 1u;
  counters.emit_groups_z = 1u;
}
