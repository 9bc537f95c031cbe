#version 460
// Reduce-then-scan, pass 2 at one level: each workgroup scans its block and adds the scanned
// sum of the blocks before it (offsets[block], when kScanAddOffsets). Also the whole scan of a
// level that fits one block. Global loads and stores are strided by the workgroup (coalesced)
// and staged through shared memory, where each invocation scans kScanItemsPerThread consecutive
// elements serially; a subgroup scan and the subgroup totals join the invocations. input and
// output may be the same buffer: every element is read before the barrier that precedes the
// first write.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "gpu/passes/scan_common.glsl"

layout(std430, binding = 0) readonly buffer Input { uint input_values[]; };
layout(std430, binding = 1) writeonly buffer Output { uint output_values[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint offsets[]; };

// One padding word per 32 (the bank count) so the consecutive reads of invocation t
// (t * 8 + k) do not all land in the same 4 banks.
const uint kPaddedBlock = kScanBlockSize + kScanBlockSize / 32u;
shared uint s_block[kPaddedBlock];
uint padded(uint i) { return i + (i >> 5u); }

void main() {
  const uint n = level_count();
  const uint block = block_index();
  const uint base = block * kScanBlockSize;
  if (base >= n) return;  // uniform over the workgroup
  const uint tid = gl_LocalInvocationID.x;

  for (uint k = 0u; k < kScanItemsPerThread; ++k) {
    const uint j = k * kScanWorkgroupSize + tid;
    s_block[padded(j)] = base + j < n ? input_values[base + j] : 0u;
  }
  barrier();

  uint items[kScanItemsPerThread];
  uint running = 0u;
  for (uint k = 0u; k < kScanItemsPerThread; ++k) {
    items[k] = s_block[padded(tid * kScanItemsPerThread + k)];
    running += items[k];
  }
  const uint thread_total = running;
  const uint before_in_subgroup = subgroupExclusiveAdd(thread_total);
  const uint subgroup_total = subgroupAdd(thread_total);
  if (subgroupElect()) s_subgroup_totals[gl_SubgroupID] = subgroup_total;
  barrier();

  uint prefix = before_in_subgroup + subgroups_before();
  if ((params.flags & kScanAddOffsets) != 0u) prefix += offsets[block];
  const bool exclusive = (params.flags & kScanExclusive) != 0u;
  for (uint k = 0u; k < kScanItemsPerThread; ++k) {
    const uint inclusive = prefix + items[k];
    s_block[padded(tid * kScanItemsPerThread + k)] = exclusive ? prefix : inclusive;
    prefix = inclusive;
  }
  barrier();

  for (uint k = 0u; k < kScanItemsPerThread; ++k) {
    const uint j = k * kScanWorkgroupSize + tid;
    if (base + j < n) output_values[base + j] = s_block[padded(j)];
  }
}
