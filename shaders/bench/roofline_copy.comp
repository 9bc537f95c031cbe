#version 460
// The memory roofline: a plain vec4 copy. Each invocation moves kVec4PerThread vec4s, strided
// by the workgroup so every load and store instruction of a warp is one coalesced run.
#include "shared/gpu_selftest.h"

layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kVec4PerThread = 4;
layout(push_constant) uniform Push { RooflineParams params; };
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };

void main() {
  uint base = params.first_vec4 + gl_WorkGroupID.x * (gl_WorkGroupSize.x * kVec4PerThread) + gl_LocalInvocationID.x;
  uint end = params.first_vec4 + params.count_vec4;
  for (uint k = 0u; k < kVec4PerThread; ++k) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < end) dst[i] = src[i];
  }
}
