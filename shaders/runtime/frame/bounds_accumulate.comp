#version 460
// Bounds, step 1 of 2 (docs/design/runtime_frame.md, "Bounds"): after finish, one invocation per
// entry of the alive list this frame wrote (the indirect arguments finish just wrote for the next
// simulate, which walks the same list) reads the particle's drawn position, size and velocity —
// the words its emitter's record names — and folds the sphere its drawn shape can reach into its
// row's accumulators. A quad's corners are (+-0.5, +-0.5) size, the y side stretched by
// 1 + |v_plane| <= 1 + |v| (shared/particle_render.h), then turned by the orientation and the
// projection's frame, both rotations: the corners lie within 0.5 * size * sqrt(1 + stretch^2) of
// the position in every view. A mesh reaches its record's bounds_reach times its size.
// Min and max go through atomicMax on order-preserving uint keys (no compare-and-swap loop), one
// per subgroup and component for each distinct row among the subgroup's lanes.
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

void main() {
  uint n = min(counters.alive_out, params.capacity);
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  uint rw = params.record_words;
  for (uint t = gl_GlobalInvocationID.x; t < n; t += stride) {
    uint slot = alive_out[t];
    if (slot >= params.capacity) continue;
    uint base = slot * rw;
    uint row = pool[base] & kFrameHeaderRowMask;
    if (row >= params.row_count) continue;
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
    bool bounded = drawn && !any(isnan(p)) && !any(isinf(p)) && !isnan(radius) && !isinf(radius);
    vec3 lo = p - vec3(radius), hi = p + vec3(radius);
    bounded = bounded && !any(isinf(lo)) && !any(isinf(hi));
    for (;;) {
      if (subgroupBroadcastFirst(row) == row) {
        uint alive = subgroupBallotBitCount(subgroupBallot(true));
        uint boxed = subgroupBallotBitCount(subgroupBallot(bounded));
        uvec3 lo_key = bounded ? ~uvec3(order_key(lo.x), order_key(lo.y), order_key(lo.z)) : uvec3(0u);
        uvec3 hi_key = bounded ? uvec3(order_key(hi.x), order_key(hi.y), order_key(hi.z)) : uvec3(0u);
        lo_key = subgroupMax(lo_key);
        hi_key = subgroupMax(hi_key);
        if (subgroupElect()) {
          uint at = row * kFrameBoundsAccumulatorWords;
          atomicAdd(accumulators[at + 6u], alive);
          if (boxed != 0u) {
            atomicAdd(accumulators[at + 7u], boxed);
            for (uint c = 0u; c < 3u; ++c) {
              atomicMax(accumulators[at + c], lo_key[c]);
              atomicMax(accumulators[at + 3u + c], hi_key[c]);
            }
          }
        }
        break;
      }
    }
  }
}
