#version 460
// The manual driver's records into the frame (docs/design/drivers.md, "The manual driver"): one
// invocation per record of the row's upload, after emit. The tick gave the row the upload's count
// as spawns (its FrameEmitterState::spawn_count, what the budget granted), the scan placed them at
// [sum - count, sum) of the frame's newborns (the row's place in the spawn order), and emit took
// their slots and wrote their headers and INIT; record i overwrites its newborn's words 1..20
// with the standard particle (shared/particle.h). Records past what the budget granted, or past
// the newborns the free list held, have no slot and are not written (the frame counted them in
// `dropped`).
#include "shared/frame.h"
#include "shared/particle.h"

layout(local_size_x = 64) in;

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingStates) readonly buffer State { FrameEmitterState states[]; };
layout(std430, binding = kFrameBindingSpawnSums) readonly buffer SpawnSums { uint spawn_sums[]; };
layout(std430, binding = kFrameBindingSpawnPlaces) readonly buffer SpawnPlaces { uint spawn_places[]; };
layout(std430, binding = kFrameBindingAliveOut) readonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
layout(std430, binding = kManualFillBindingRecords) readonly buffer Records { Particle records[]; };
layout(push_constant) uniform Push { ManualFillPush push; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count || push.row >= params.row_count) return;
  if (params.record_words < kParticleFirstWord + kParticleWords) return;
  uint taken = states[push.row].spawn_count;
  if (i >= taken) return;
  uint place = min(spawn_places[push.row], params.row_count - 1u);
  uint g = spawn_sums[place] - taken + i;  // the newborn's index among the frame's newborns
  uint born = counters.newborns;
  if (g >= born) return;  // the free list ran out before it
  uint slot = alive_out[counters.alive_out - born + g];
  if (slot >= params.capacity) return;
  uint w = slot * params.record_words + kParticleFirstWord;
  Particle p = records[i];
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
