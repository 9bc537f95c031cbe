#version 460
// Bounds, step 1 of 2 (docs/design/runtime_frame.md, "Bounds"): after finish, over the entries
// at the head of the alive list this frame wrote that finish names (counters.bounds_entries; it
// sizes the dispatch from them), each particle — its drawn position, size and velocity, the words
// its emitter's record names — folds its drawn shape into its row's accumulators
// (runtime/frame/bounds_fold.glsl). With params.bounds_in_simulate those are the newborns alone:
// simulate.comp folded the survivors as UPDATE left them, so every particle is counted once and
// the pass re-reads the pool only for the frame's births. Otherwise the whole list.
// A workgroup takes up to kFrameBoundsEntriesPerLane consecutive tiles of 64 entries (coalesced
// reads, lane i reads entry i of each tile).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingAliveOut) readonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = kFrameBindingPool) readonly buffer Pool { uint pool[]; };
layout(std430, binding = kFrameBindingBoundsAccumulators) buffer Accumulators { uint accumulators[]; };

#define BOUNDS_READ_BEFORE_MAX 0
#include "runtime/frame/bounds_fold.glsl"

float word_f32(uint base, uint word) { return uintBitsToFloat(pool[base + word]); }

void main() {
  uint n = min(min(counters.bounds_entries, counters.alive_out), params.capacity);
  uint rw = params.record_words;
  // Entries a lane takes: finish launches at least kFrameBoundsMinGroups workgroups (a list too
  // short to fill the GPU at 32 a lane is spread thinner), each over one contiguous chunk.
  uint lanes = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  uint per_lane = clamp((n + lanes - 1u) / lanes, 1u, kFrameBoundsEntriesPerLane);
  uint chunk = kFrameWorkgroupSize * per_lane;
  for (uint first = gl_WorkGroupID.x * chunk; first < n; first += gl_NumWorkGroups.x * chunk) {
    for (uint i = 0u; i < per_lane; ++i) {
      uint t = first + i * kFrameWorkgroupSize + gl_LocalInvocationID.x;
      uint row = kBoundsNoRow;
      bool bounded = false;
      vec3 lo = vec3(0.0f), hi = vec3(0.0f);
      uint slot = t < n ? alive_out[t] : params.capacity;
      if (slot < params.capacity) {
        uint base = slot * rw;
        uint r = pool[base] & kFrameHeaderRowMask;
        if (r < params.row_count) {
          row = r;
          BoundsFields f = bounds_fields(row, rw);
          uint pw = f.position_word;
          vec3 p = pw != 0u ? vec3(word_f32(base, pw), word_f32(base, pw + 1u), word_f32(base, pw + 2u)) : vec3(0.0f);
          float size = f.size_word != 0u ? word_f32(base, f.size_word) : 1.0f;
          vec3 v = f.stretched ? vec3(word_f32(base, f.velocity_word), word_f32(base, f.velocity_word + 1u),
                                      word_f32(base, f.velocity_word + 2u))
                               : vec3(0.0f);
          bounded = bounds_box(f, p, size, v, lo, hi);
        }
      }
      bounds_add(row, bounded, lo, hi);
    }
  }
  bounds_finish();
}
