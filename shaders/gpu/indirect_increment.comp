#version 460
// Dispatched indirectly: adds its element index + 1 to each element below the count the
// previous pass wrote, and counts its invocations.
#include "shared/gpu_selftest.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Args { IndirectDispatch args; };
layout(std430, binding = 1) buffer Data { uint data[]; };
layout(std430, binding = 2) buffer Counter { uint invocations; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicAdd(invocations, 1u);
  if (i < args.element_count) data[i] += i + 1u;
}
