#version 460
// Turns the scan's last inclusive sum (the frame's newborn total) into the newborns' slots and
// places (step 4 of docs/design/runtime_frame.md "One frame": a prefix sum turned into commands):
// newborn g gets the g-th slot from the top of the free-list stack and alive_out[first + g], so
// the newborns come in the order the free list holds (simulate's deaths in list order,
// frame_compact.comp) and no pop or append needs an atomic. What the stack cannot hold (the
// budget already prevents it) is dropped. Invocation 0 does that; invocation p (one per program
// id) writes program p's FrameSpawnRange: its run of newborns — the sums over its rows' places in
// the spawn order, cut where the stack ran out — and its indirect emit dispatch.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingSpawnSums) readonly buffer SpawnSums { uint spawn_sums[]; };
layout(std430, binding = kFrameBindingSpawnRanges) buffer SpawnRanges { FrameSpawnRange ranges[]; };
layout(push_constant) uniform Push { FrameBucketPush push; };

void main() {
  uint total = params.row_count == 0u ? 0u : spawn_sums[params.row_count - 1u];
  uint stacked = min(counters.free_count, params.capacity);
  uint born = min(total, stacked);
  uint p = gl_GlobalInvocationID.x;
  if (p == 0u) {
    counters.dropped += total - born;
    counters.newborns = born;
    counters.spawned_total += total;
    counters.free_count = stacked - born;  // emit reads free_list[free_count + born - 1 - g]
    counters.alive_out += born;            // emit writes alive_out[alive_out - born + g]
    counters.emit_groups_x = min((born + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
    counters.emit_groups_y = 1u;
    counters.emit_groups_z = 1u;
  }
  if (p >= push.program_count || p >= uint(ranges.length())) return;
  uint end_place = min(ranges[p].end_place, params.row_count);
  uint first_place = min(ranges[p].first_place, end_place);
  uint begin = first_place == 0u ? 0u : spawn_sums[first_place - 1u];
  uint end = end_place == first_place ? begin : spawn_sums[end_place - 1u];
  begin = min(begin, born);
  end = max(min(end, born), begin);
  ranges[p].begin = begin;
  ranges[p].count = end - begin;
  ranges[p].groups_x = min((end - begin + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
  ranges[p].groups_y = 1u;
  ranges[p].groups_z = 1u;
}
