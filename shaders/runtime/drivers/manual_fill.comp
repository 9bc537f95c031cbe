#version 460
// The manual driver's records into the frame (docs/design/drivers.md, "The manual driver"): one
// invocation per record placed this frame, after emit. The tick gave the row the placed count as
// spawns (its FrameEmitterState::spawn_count, what the budget granted), the scan placed them at
// [sum - count, sum) of the frame's newborns (the row's place in the spawn order), and emit took
// their slots and wrote their headers and INIT; record first + i overwrites its newborn's words
// 1..20 with the standard particle (shared/particle.h) and its slot goes into the row's slot map,
// where later patches (manual_patch.comp) find it. Records past what the budget granted, or past
// the newborns the free list held, have no slot: they are not written, their map entry says
// none (the capacity), and the frame counted them in `dropped`.
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
layout(std430, binding = kManualFillBindingSlots) writeonly buffer Slots { uint slots[]; };
layout(push_constant) uniform Push { ManualFillPush push; };

#include "runtime/drivers/manual_record.glsl"

// The pool slot of the row's i-th newborn this frame; the capacity when it has none.
uint newborn_slot(uint i) {
  if (push.row >= params.row_count || params.record_words < kParticleFirstWord + kParticleWords)
    return params.capacity;
  uint taken = states[push.row].spawn_count;
  if (i >= taken) return params.capacity;
  uint place = min(spawn_places[push.row], params.row_count - 1u);
  uint g = spawn_sums[place] - taken + i;  // the newborn's index among the frame's newborns
  uint born = counters.newborns;
  if (g >= born) return params.capacity;  // the free list ran out before it
  return alive_out[counters.alive_out - born + g];
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint index = push.first + i;
  if (i >= push.count || index >= uint(slots.length()) || index >= uint(records.length())) return;
  uint slot = min(newborn_slot(i), params.capacity);
  slots[index] = slot;
  if (slot >= params.capacity) return;
  manual_write_particle(slot, records[index]);
}
