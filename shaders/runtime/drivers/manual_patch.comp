#version 460
// The manual driver's patch (docs/design/drivers.md, "Uploads: what changed"): an upload that
// keeps the row's particles where they are rewrites only the records written since the last one,
// [first, first + count), at the slots the row's slot map holds for them (manual_fill.comp wrote
// the map when it placed them). A slot that no longer holds one of the row's particles — dropped
// when placed (the capacity), or freed and taken by another emitter since — is not written.
#include "shared/frame.h"
#include "shared/particle.h"

layout(local_size_x = 64) in;

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
layout(std430, binding = kManualFillBindingRecords) readonly buffer Records { Particle records[]; };
layout(std430, binding = kManualFillBindingSlots) readonly buffer Slots { uint slots[]; };
layout(push_constant) uniform Push { ManualFillPush push; };

#include "runtime/drivers/manual_record.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint index = push.first + i;
  if (i >= push.count || index >= uint(slots.length()) || index >= uint(records.length())) return;
  if (params.record_words < kParticleFirstWord + kParticleWords) return;
  uint slot = slots[index];
  if (slot >= params.capacity || pool[slot * params.record_words] != push.header) return;
  manual_write_particle(slot, records[index]);
}
