#version 460
// The coherence buckets, step 4 of 4 (docs/design/runtime_frame.md, "Two orderings"): one
// invocation per entry of last frame's alive list writes the entry's index into its program's
// bucket. The lanes of a subgroup take one distinct program at a time and reserve their places
// with one atomic on the bucket's cursor, ranked by their position in the subgroup, so a run of
// the list that falls in one subgroup stays a run in the bucket (simulate then walks the records
// in the order they lie in, and its survivor flags reduce per tile). Entries freed as orphans by
// the count are in no bucket.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEntryPrograms) readonly buffer EntryPrograms { uint entry_programs[]; };
layout(std430, binding = kFrameBindingBuckets) buffer Buckets { FrameBucket buckets[]; };
layout(std430, binding = kFrameBindingCoherence) writeonly buffer Coherence { uint coherence[]; };

layout(push_constant) uniform Push { FrameBucketPush push; };

void main() {
  uint n = min(counters.alive_in, params.capacity);
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint first = gl_WorkGroupID.x * kFrameWorkgroupSize; first < n; first += stride) {
    uint t = first + gl_LocalInvocationIndex;
    uint program = t < n ? entry_programs[t] : kFrameNoProgram;
    if (program >= push.program_count) continue;
    for (;;) {
      if (subgroupBroadcastFirst(program) == program) {
        uvec4 lanes = subgroupBallot(true);
        uint base = 0u;
        if (subgroupElect()) base = atomicAdd(buckets[program].cursor, subgroupBallotBitCount(lanes));
        base = subgroupBroadcastFirst(base);
        uint at = base + subgroupBallotExclusiveBitCount(lanes);
        // The count bounds the cursor; the clamp keeps a corrupt count inside the bucket.
        if (at < buckets[program].first + buckets[program].entries) coherence[at] = t;
        break;
      }
    }
  }
}
