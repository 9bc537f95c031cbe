// Shared by the scan passes: the element count of this pass's level and the flat workgroup index
// (dispatches wider than maxComputeWorkGroupCount[0] = 65535 are split over y).
#include "shared/scan.h"

layout(local_size_x = kScanWorkgroupSize) in;
layout(push_constant) uniform Push { ScanParams params; };
layout(std430, binding = 3) readonly buffer Counts { uint counts[]; };

uint level_count() {
  uint n = params.count;
  if ((params.flags & kScanCountFromBuffer) != 0u) n = min(counts[params.count_word], params.count);
  for (uint l = 0u; l < params.level; ++l) n = (n + kScanBlockSize - 1u) / kScanBlockSize;
  return n;
}

uint block_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Subgroup totals of one workgroup (at most 256 / 4 subgroups: Vulkan's minimum subgroup size).
shared uint s_subgroup_totals[kScanWorkgroupSize / 4u];

// The sum of the totals of the subgroups before this one. Subgroup counts are small (8 on a
// 32-wide GPU), and every lane of a subgroup reads the same words: shared-memory broadcasts.
uint subgroups_before() {
  uint sum = 0u;
  for (uint s = 0u; s < gl_SubgroupID; ++s) sum += s_subgroup_totals[s];
  return sum;
}
