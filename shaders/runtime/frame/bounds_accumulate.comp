#version 460
// Bounds, step 1 of 2 (docs/design/runtime_frame.md, "Bounds"): after finish, over the alive list
// this frame wrote (finish sizes the dispatch from its count), each entry's particle — its drawn
// position, size and velocity, the words its emitter's record names — folds the sphere its drawn
// shape can reach into its row's accumulators. A quad's corners are (+-0.5, +-0.5) size, the y
// side stretched by 1 + |v_plane| <= 1 + |v| (shared/particle_render.h), then turned by the
// orientation and the projection's frame, both rotations: the corners lie within
// 0.5 * size * sqrt(1 + stretch^2) of the position in every view. A mesh reaches its record's
// bounds_reach times its size.
// A workgroup takes up to kFrameBoundsEntriesPerLane consecutive tiles of 64 entries (coalesced
// reads, lane i reads entry i of each tile); a lane keeps a running box in registers while its row stays
// the same and flushes it when the row changes and at the end. A flush reduces over the
// subgroup's lanes of one row at a time and goes out as atomicMax on order-preserving uint keys
// (no compare-and-swap loop): one emitter's 16M particles cost one atomic per subgroup and word,
// not 32 million.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/frame.h"
#include "shared/particle_render.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingAliveOut) readonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = kFrameBindingPool) readonly buffer Pool { uint pool[]; };
layout(std430, binding = kFrameBindingBoundsAccumulators) buffer Accumulators { uint accumulators[]; };

// Orders floats as uints: a < b (finite) exactly when key(a) < key(b).
uint order_key(float f) {
  uint b = floatBitsToUint(f);
  return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

float word_f32(uint base, uint word) { return uintBitsToFloat(pool[base + word]); }

const uint kNoRow = 0xFFFFFFFFu;

// The lanes of `row` (pending ones) add their boxes and counts to the row's accumulators, one
// subgroup-wide reduction and one lane's atomics per distinct row. Called in uniform control flow.
void flush(bool pending, uint row, uvec3 lo_key, uvec3 hi_key, uint alive, uint boxed) {
  for (;;) {
    // The smallest row still waiting, and its lowest lane as the one that writes.
    uint leader_row = subgroupMin(pending ? row : kNoRow);
    if (leader_row == kNoRow) break;
    bool mine = pending && row == leader_row;
    uint leader = subgroupBallotFindLSB(subgroupBallot(mine));
    uint sum_alive = subgroupAdd(mine ? alive : 0u);
    uint sum_boxed = subgroupAdd(mine ? boxed : 0u);
    uvec3 lo = subgroupMax(mine ? lo_key : uvec3(0u));
    uvec3 hi = subgroupMax(mine ? hi_key : uvec3(0u));
    if (gl_SubgroupInvocationID == leader) {
      uint at = leader_row * kFrameBoundsAccumulatorWords;
      atomicAdd(accumulators[at + 6u], sum_alive);
      if (sum_boxed != 0u) {
        atomicAdd(accumulators[at + 7u], sum_boxed);
        for (uint c = 0u; c < 3u; ++c) {
          atomicMax(accumulators[at + c], lo[c]);
          atomicMax(accumulators[at + 3u + c], hi[c]);
        }
      }
    }
    if (mine) pending = false;
  }
}

void main() {
  uint n = min(counters.alive_out, params.capacity);
  uint rw = params.record_words;
  // Entries a lane takes: finish launches at least kFrameBoundsMinGroups workgroups (a list too
  // short to fill the GPU at 32 a lane is spread thinner), each over one contiguous chunk.
  uint lanes = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  uint per_lane = clamp((n + lanes - 1u) / lanes, 1u, kFrameBoundsEntriesPerLane);
  uint chunk = kFrameWorkgroupSize * per_lane;
  // The running box of the row this lane holds (kNoRow: none).
  uint held = kNoRow, held_alive = 0u, held_boxed = 0u;
  uvec3 held_lo = uvec3(0u), held_hi = uvec3(0u);
  for (uint first = gl_WorkGroupID.x * chunk; first < n; first += gl_NumWorkGroups.x * chunk) {
    for (uint i = 0u; i < per_lane; ++i) {
      uint t = first + i * kFrameWorkgroupSize + gl_LocalInvocationID.x;
      uint row = kNoRow;
      bool bounded = false;
      vec3 lo = vec3(0.0f), hi = vec3(0.0f);
      uint slot = t < n ? alive_out[t] : params.capacity;
      if (slot < params.capacity) {
        uint base = slot * rw;
        uint r = pool[base] & kFrameHeaderRowMask;
        if (r < params.row_count) {
          row = r;
          uint position_word = emitters[row].bounds_position_word, size_word = emitters[row].bounds_size_word,
               velocity_word = emitters[row].bounds_velocity_word;
          float reach = emitters[row].bounds_reach;
          uint projection = (emitters[row].flags & kEmitterFlagProjectionMask) >> kEmitterFlagProjectionShift;
          bool drawn = position_word != 0u && position_word + 3u <= rw && reach > 0.0f;
          vec3 p = drawn ? vec3(word_f32(base, position_word), word_f32(base, position_word + 1u),
                                word_f32(base, position_word + 2u))
                         : vec3(0.0f);
          float size = size_word != 0u && size_word < rw ? word_f32(base, size_word) : 1.0f;
          float speed = 0.0f;
          if (projection == kProjectionStretched && velocity_word != 0u && velocity_word + 3u <= rw)
            speed = length(vec3(word_f32(base, velocity_word), word_f32(base, velocity_word + 1u),
                                word_f32(base, velocity_word + 2u)));
          float stretch = 1.0f + speed;
          float radius = abs(size) * reach * (projection == kProjectionMesh ? 1.0f : sqrt(1.0f + stretch * stretch));
          // A ten-thousandth more for the rounding of the corners' rotations.
          radius *= 1.0001f;
          // A particle at a non-finite place or size draws nothing and bounds nothing.
          bounded = drawn && !any(isnan(p)) && !any(isinf(p)) && !isnan(radius) && !isinf(radius);
          lo = p - vec3(radius);
          hi = p + vec3(radius);
          bounded = bounded && !any(isinf(lo)) && !any(isinf(hi));
        }
      }
      // A lane whose row changes hands its box on first.
      flush(held != kNoRow && row != kNoRow && row != held, held, held_lo, held_hi, held_alive, held_boxed);
      if (row != kNoRow && row != held) {
        held = row;
        held_alive = 0u;
        held_boxed = 0u;
        held_lo = uvec3(0u);
        held_hi = uvec3(0u);
      }
      if (row != kNoRow) {
        held_alive += 1u;
        if (bounded) {
          held_boxed += 1u;
          held_lo = max(held_lo, ~uvec3(order_key(lo.x), order_key(lo.y), order_key(lo.z)));
          held_hi = max(held_hi, uvec3(order_key(hi.x), order_key(hi.y), order_key(hi.z)));
        }
      }
    }
  }
  flush(held != kNoRow, held, held_lo, held_hi, held_alive, held_boxed);
}
