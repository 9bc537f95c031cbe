#version 460
// The coherence buckets, step 1 of 4 (docs/design/runtime_frame.md, "Two orderings"): one
// invocation per entry of last frame's alive list (simulate's indirect arguments) reads its
// record's header and its row, frees it when it is an orphan (its emitter removed or restarted:
// the record zeroed, its keep flag left 0 so frame_compact.comp pushes its slot), and otherwise
// counts it into its program's bucket. The program is remembered per entry for the scatter, so
// the scatter reads 4 coalesced bytes instead of the record's header again. The lanes of a
// subgroup add per distinct program among them: one atomic per (subgroup, program).
// Bucketing uses this frame's emitter records, so a program swap, an added or a removed emitter
// is bucketed by the program it runs now with no repair pass.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingAliveIn) readonly buffer AliveIn { uint alive_in[]; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
layout(std430, binding = kFrameBindingBucketSizes) buffer BucketSizes { uint bucket_sizes[]; };
layout(std430, binding = kFrameBindingEntryPrograms) writeonly buffer EntryPrograms { uint entry_programs[]; };

layout(push_constant) uniform Push { FrameBucketPush push; };

void main() {
  uint n = min(counters.alive_in, params.capacity);
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint first = gl_WorkGroupID.x * kFrameWorkgroupSize; first < n; first += stride) {
    uint t = first + gl_LocalInvocationIndex;
    uint slot = t < n ? alive_in[t] : ~0u;
    bool listed = slot < params.capacity;
    uint header = listed ? pool[slot * params.record_words] : 0u;
    uint row = header & kFrameHeaderRowMask;
    uint at = listed && row < params.row_count ? row : 0u;
    uint live = emitters[at].generation, program = emitters[at].program_id, flags = emitters[at].flags;
    // A particle of an inactive emitter, or one a manual upload replaces, is freed as an orphan is.
    bool orphan = listed && (row >= params.row_count || live == 0u ||
                             (live & kFrameHeaderGenerationMask) != (header >> kFrameHeaderRowBits) ||
                             program >= push.program_count ||
                             (flags & (kEmitterFlagInactive | kEmitterFlagReplace)) != 0u);
    if (orphan) {
      for (uint w = 0u; w < params.record_words; ++w) pool[slot * params.record_words + w] = 0u;
    }
    uint orphans = subgroupBallotBitCount(subgroupBallot(orphan));
    if (subgroupElect() && orphans != 0u) atomicAdd(counters.orphaned, orphans);
    bool counted = listed && !orphan;
    if (t < n) entry_programs[t] = counted ? program : kFrameNoProgram;
    // One distinct program at a time (the first remaining lane's, broadcast): a subgroup whose
    // lanes share a program — the common case, since the list holds an emitter's particles in
    // runs — issues one atomic.
    if (counted) {
      for (;;) {
        if (subgroupBroadcastFirst(program) == program) {
          uint lanes = subgroupBallotBitCount(subgroupBallot(true));
          if (subgroupElect()) atomicAdd(bucket_sizes[program], lanes);
          break;
        }
      }
    }
  }
}
