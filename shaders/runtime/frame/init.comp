#version 460
// Creation of a particle system: the free list is filled by a dispatch, not a host upload
// (docs/design/runtime_frame.md, the free list). The stack is filled so its first pops give slots 0, 1, 2, ...
// (pops take the top), as the reference simulation's; a young pool stays packed low.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std430, binding = kFrameBindingFreeList) writeonly buffer FreeList { uint free_list[]; };
layout(std430, binding = kFrameBindingCounters) writeonly buffer Counters { FrameCounters counters; };
layout(push_constant) uniform Push { uint capacity; } push;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {
    counters = FrameCounters(0u, 0u, push.capacity, 0u, 0u, 0u, 0u, 0u, 0u, 1u, 1u, 0u, 0u, 1u, 1u, 0u, 0u, 0u, 0u, 1u, 1u, 0u, 0u, 0u);
  }
  for (; i < push.capacity; i += gl_NumWorkGroups.x * 64u) free_list[i] = push.capacity - 1u - i;
}
