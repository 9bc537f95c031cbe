#version 460
// After simulate: places last frame's survivors in this frame's alive list, after the newborns
// emit appended, in the order of last frame's list. `sums` is the inclusive scan of simulate's
// keep flags over last frame's list (PrefixScan, in place), so entry t survives when its sum
// steps up, and goes to newborns + sums[t] - 1. An order-preserving compaction: atomics would
// order survivors by which subgroup got there first, and a list reshuffled every frame makes the
// next simulate visit records in scattered order (docs/PERFORMANCE.md). The other entries'
// slots — freed by simulate — go on top of the free list, the first freed on top, so the next
// frame's newborns (which take the stack from the top, frame_emit_args.comp) get them in the
// order they died in, and the order the list holds survives births and deaths. (An entry that
// held no slot of the pool is passed on as it is; emit never writes through one.) One
// invocation per entry, dispatched with simulate's indirect arguments; frame_finish adds the
// survivors and the freed to the counts.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = 0) uniform Params { FrameParams params; };
layout(std430, binding = 1) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = 2) readonly buffer Sums { uint sums[]; };
layout(std430, binding = 3) readonly buffer AliveIn { uint alive_in[]; };
layout(std430, binding = 4) writeonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = 5) writeonly buffer FreeList { uint free_list[]; };

void main() {
  uint n = min(counters.alive_in, params.capacity);
  uint base = counters.alive_out;  // emit's newborns; frame_finish adds the survivors after this pass
  uint stack = counters.free_count;  // after emit's pops; frame_finish adds the freed after this pass
  uint freed = n == 0u ? 0u : n - sums[n - 1u];
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint t = gl_GlobalInvocationID.x; t < n; t += stride) {
    uint before = t == 0u ? 0u : sums[t - 1u];
    if (sums[t] != before) {
      alive_out[min(base + before, params.capacity - 1u)] = alive_in[t];
    } else {
      uint freed_before = t - before;  // entries before t that were not kept
      free_list[min(stack + freed - 1u - freed_before, params.capacity - 1u)] = alive_in[t];
    }
  }
}
