#version 460
// y[i] = a * x[i] + b: the self-test and the first compute test.
#include "shared/gpu_selftest.h"

layout(local_size_x = 256) in;
layout(push_constant) uniform Push { SaxpyParams params; };
layout(std430, binding = 0) readonly buffer Input { float x[]; };
layout(std430, binding = 1) writeonly buffer Output { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.count) return;
  precise float v = params.a * x[i] + params.b;
  y[i] = v;
}
