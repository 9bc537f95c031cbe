#version 460
// The pre-warm's last step (docs/design/runtime_frame.md, "Pre-warm"): the warm-up population's
// survivors move into the main pool, after the main reset and before the tick. Each takes the
// main free list's next slot from the top — a pop per particle and never a push, the one point of
// contact between the two pools — gets its record copied there, and joins the list this frame's
// simulate walks, after last frame's particles (so it is advanced by this frame's dt, measured by
// its bounds and drawn this frame). Built twice: one invocation per survivor, and MIGRATE_COUNTS
// (one invocation, after it) moving the counters: the list's length and the simulate dispatch
// that walks it, the free list's height, the budget the tick debits, the prewarmed count. What
// the main pool has no room for is dropped and counted.
#include "shared/frame.h"

#ifdef MIGRATE_COUNTS
layout(local_size_x = 1) in;
#else
layout(local_size_x = 64) in;  // kFrameWorkgroupSize
#endif

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingWarmupCounters) readonly buffer WarmCounters { FrameCounters warm; };
layout(push_constant) uniform Push { FrameWarmupPush push; };

// How many survivors move: the warm-up's alive count, as far as the main pool has free slots
// and the walked list has room.
uint migrating() {
  uint base = min(counters.alive_in, params.capacity);
  uint room = min(counters.free_count, params.capacity - base);
  return min(min(warm.alive_out, push.warm_capacity), room);
}

#ifndef MIGRATE_COUNTS
layout(std430, binding = kFrameBindingFreeList) readonly buffer FreeList { uint free_list[]; };
layout(std430, binding = kFrameBindingAliveIn) writeonly buffer AliveIn { uint alive_in[]; };
layout(std430, binding = kFrameBindingPool) writeonly buffer Pool { uint pool[]; };
layout(std430, binding = kFrameBindingWarmupPool) readonly buffer WarmPool { uint warm_pool[]; };
layout(std430, binding = kFrameBindingWarmupAlive) readonly buffer WarmAlive { uint warm_alive[]; };

void main() {
  uint m = migrating();
  uint base = min(counters.alive_in, params.capacity);
  uint top = min(counters.free_count, params.capacity);
  uint rw = params.record_words;
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint t = gl_GlobalInvocationID.x; t < m; t += stride) {
    uint from = warm_alive[t];
    uint to = free_list[top - 1u - t];
    if (from >= push.warm_capacity || to >= params.capacity) continue;  // only a corrupt list holds one
    for (uint w = 0u; w < rw; ++w) pool[to * rw + w] = warm_pool[from * rw + w];
    alive_in[base + t] = to;
  }
}
#else
void main() {
  uint m = migrating();
  uint n = min(counters.alive_in, params.capacity) + m;
  counters.alive_in = n;
  counters.free_count -= m;
  counters.budget = min(counters.budget, counters.free_count);
  counters.prewarmed = m;
  uint survivors = min(warm.alive_out, push.warm_capacity);
  counters.dropped += survivors - m;
  counters.walk_tiles = (n + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  // A frame whose simulate folds the bounds strides over a capped grid (kFrameSimulateMaxGroups).
  uint simulate_cap = params.bounds_in_simulate != 0u ? kFrameSimulateMaxGroups : kFrameMaxGroups;
  counters.simulate_groups_x = min((n + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, simulate_cap);
}
#endif
