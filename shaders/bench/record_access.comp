#version 460
// bench/roofline --records: how fast records of kRecordVec4 vec4s can be read and written back,
// by access pattern — the question behind every pass that updates particle records in place.
// Each record's window (its first kWindow vec4s) is loaded, then the
// window's vec4s in kWriteMask are stored (in place, or to binding 1's buffer).
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
layout(constant_id = 2) const uint kWindow = 8u;  // 1..kRecordVec4 (the host clamps it)
layout(constant_id = 3) const uint kWriteMask = 0xFFFFFFFFu;
layout(push_constant) uniform Push { RecordAccessParams params; };
layout(std430, binding = 0) buffer Src { uvec4 src[]; };
layout(std430, binding = 1) buffer Dst { uvec4 dst[]; };

void main() {
  uvec4 v[kRecordVec4];
  if (kMode == 0u) {
    uint record = gl_GlobalInvocationID.x;
    if (record >= params.record_count) return;
    uint base = record * kRecordVec4;
    [[unroll]] for (uint c = 0u; c < kWindow; ++c) v[c] = src[base + c];
    [[unroll]] for (uint c = 0u; c < kWindow; ++c)
      if ((kWriteMask & (1u << c)) != 0u) dst[base + c] = v[c] ^ params.salt;
  } else {
    // The subgroup's records' windows as one run of chunks: chunk j is chunk j % kWindow of the
    // subgroup's record j / kWindow.
    uint subgroup = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
    uint first_record = subgroup * gl_SubgroupSize;
    [[unroll]] for (uint k = 0u; k < kWindow; ++k) {
      uint j = k * gl_SubgroupSize + gl_SubgroupInvocationID;
      uint record = first_record + j / kWindow;
      if (record < params.record_count) v[k] = src[record * kRecordVec4 + j % kWindow];
    }
    [[unroll]] for (uint k = 0u; k < kWindow; ++k) {
      uint j = k * gl_SubgroupSize + gl_SubgroupInvocationID;
      uint record = first_record + j / kWindow;
      if (record < params.record_count && (kWriteMask & (1u << (j % kWindow))) != 0u)
        dst[record * kRecordVec4 + j % kWindow] = v[k] ^ params.salt;
    }
  }
}
