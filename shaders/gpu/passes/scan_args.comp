#version 460
// A scan whose count is GPU-decided (kScanCountFromBuffer) is dispatched from the count, not the
// capacity: this one invocation reads the count and writes each level's dispatch — the blocks of
// that level's element count, split over y past maxComputeWorkGroupCount[0] as the host split
// does — so a scan of nothing records nothing but this invocation and empty dispatches. The
// args buffer holds 3 words per level; levels the count does not reach get zero workgroups.
#include "shared/scan.h"

layout(local_size_x = 1) in;
layout(push_constant) uniform Push { ScanParams params; };  // params.level: the levels below the top
layout(std430, binding = 3) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 4) writeonly buffer Args { uint args[]; };

void main() {
  uint n = min(counts[params.count_word], params.count);
  for (uint l = 0u; l < params.level; ++l) {
    uint blocks = (n + kScanBlockSize - 1u) / kScanBlockSize;  // the workgroups of the pass reading level l
    uint x = min(blocks, 65535u);
    args[3u * l] = x;
    args[3u * l + 1u] = x == 0u ? 1u : (blocks + 65534u) / 65535u;
    args[3u * l + 2u] = 1u;
    n = blocks;
  }
}
