#version 460
// The manual and cpu drivers' record writes (docs/design/drivers.md): one invocation per
// ParticleWrite, which sets its slot's record to the header, then the standard particle's 20
// words (shared/particle.h) at record words 1..20, leaving the record's other words as they are.
// A write at a slot past the pool, or into a record too short to hold the particle, is skipped
// (the host checks both; the shader never writes outside the pool whatever it is given).
#include "shared/particle.h"

layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Pool { uint pool[]; };
layout(std430, binding = 1) readonly buffer Writes { ParticleWrite writes[]; };
layout(push_constant) uniform Push { ParticleWritePush push; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count) return;
  uint slot = writes[i].slot;
  if (slot >= push.capacity || push.record_words < kParticleFirstWord + kParticleWords) return;
  uint base = slot * push.record_words;
  Particle p = writes[i].particle;
  pool[base] = writes[i].header;
  uint w = base + kParticleFirstWord;
  for (uint c = 0u; c < 3u; ++c) pool[w + c] = floatBitsToUint(p.position[c]);
  for (uint c = 0u; c < 3u; ++c) pool[w + 3u + c] = floatBitsToUint(p.velocity[c]);
  pool[w + 6u] = floatBitsToUint(p.age);
  pool[w + 7u] = floatBitsToUint(p.lifetime);
  pool[w + 8u] = floatBitsToUint(p.size);
  pool[w + 9u] = floatBitsToUint(p.size_growth);
  pool[w + 10u] = floatBitsToUint(p.angle);
  pool[w + 11u] = floatBitsToUint(p.angular_velocity);
  for (uint c = 0u; c < 4u; ++c) pool[w + 12u + c] = floatBitsToUint(p.color[c]);
  for (uint c = 0u; c < 4u; ++c) pool[w + 16u + c] = floatBitsToUint(p.uv_rect[c]);
}
