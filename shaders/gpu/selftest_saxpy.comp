#version 460
// y[i] = a * x[i] + b: the self-test and the first compute test.
#include "shared/gpu_selftest.h"

layout(local_size_x = 256) in;
layout(push_constant) uniform Push { SaxpyParams params; };
layout(std430, binding = 0) readonly buffer Input { float x[]; };
layout(std430, binding = 1) writeonly buffer Output { float y[]; };

// A grid-stride loop: a dispatch is at most maxComputeWorkGroupCount[0] groups wide (65535 on
// many devices, 16,776,960 invocations), and the count may be larger.
void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.count; i += stride) {
    precise float v = params.a * x[i] + params.b;
    y[i] = v;
  }
}
