#version 460
// bench/roofline --records: how fast records of kRecordVec4 vec4s can be read and written back,
// by access pattern — the question behind every pass that updates particle records in place.
// Each record is loaded whole, then stored whole (in place, or to binding 1's buffer).
//   kMode 0  per invocation: invocation r loads record r's vec4s itself, so one warp
//            instruction touches 16 bytes in each of 32 records' lines (what the VM kernels do);
//   kMode 1  per subgroup: a subgroup moves its 32 records as one contiguous run, consecutive
//            lanes on consecutive vec4s, so one warp instruction covers 512 contiguous bytes.
// Built for workgroups of RECORD_ACCESS_GROUP invocations (64, the VM's size, or 256).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#include "shared/gpu_selftest.h"

layout(local_size_x = RECORD_ACCESS_GROUP) in;
layout(constant_id = 0) const uint kRecordVec4 = 8u;
layout(constant_id = 1) const uint kMode = 0u;
layout(push_constant) uniform Push { RecordAccessParams params; };
layout(std430, binding = 0) buffer Src { uvec4 src[]; };
layout(std430, binding = 1) buffer Dst { uvec4 dst[]; };

void main() {
  uint end = params.record_count * kRecordVec4;
  uvec4 v[kRecordVec4];
  if (kMode == 0u) {
    uint base = gl_GlobalInvocationID.x * kRecordVec4;
    if (base >= end) return;
    [[unroll]] for (uint c = 0u; c < kRecordVec4; ++c) v[c] = src[base + c];
    [[unroll]] for (uint c = 0u; c < kRecordVec4; ++c) dst[base + c] = v[c] ^ params.salt;
  } else {
    uint subgroup = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
    uint base = subgroup * gl_SubgroupSize * kRecordVec4 + gl_SubgroupInvocationID;
    [[unroll]] for (uint k = 0u; k < kRecordVec4; ++k) {
      uint i = base + k * gl_SubgroupSize;
      if (i < end) v[k] = src[i];
    }
    [[unroll]] for (uint k = 0u; k < kRecordVec4; ++k) {
      uint i = base + k * gl_SubgroupSize;
      if (i < end) dst[i] = v[k] ^ params.salt;
    }
  }
}
