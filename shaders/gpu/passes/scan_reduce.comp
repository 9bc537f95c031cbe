#version 460
// Reduce-then-scan, pass 1 at one level: each workgroup sums its block of kScanBlockSize elements
// into sums[block] (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016, section 3: the reduce-then-scan baseline). Loads are strided by the
// workgroup so each load instruction of a subgroup is one coalesced run; order does not matter
// for a sum.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "gpu/passes/scan_common.glsl"

layout(std430, binding = 0) readonly buffer Input { uint input_values[]; };
layout(std430, binding = 1) writeonly buffer Sums { uint sums[]; };

void main() {
  const uint n = level_count();
  const uint block = block_index();
  const uint base = block * kScanBlockSize;
  if (base >= n) return;  // uniform over the workgroup: past the (GPU-decided) count
  uint sum = 0u;
  for (uint k = 0u; k < kScanItemsPerThread; ++k) {
    const uint i = base + k * kScanWorkgroupSize + gl_LocalInvocationID.x;
    if (i < n) sum += input_values[i];
  }
  sum = subgroupAdd(sum);
  if (subgroupElect()) s_subgroup_totals[gl_SubgroupID] = sum;
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    uint total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) total += s_subgroup_totals[s];
    sums[block] = total;
  }
}
