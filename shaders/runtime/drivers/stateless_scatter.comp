#version 460
// The stateless driver's scatter (docs/design/drivers.md, "The stateless driver"): after the GPU
// interpreter ran the row's EVAL for particles [0, count) into the row's own evaluation buffer
// (record i at word i * eval_words, the program's record), record i's words 1 .. eval_words - 1
// go to the pool slot the row's slot map holds for particle i (the manual driver's map, written
// when manual_fill.comp placed the row's records). A slot that no longer holds one of the row's
// particles (dropped when placed: the capacity; or freed and taken by another emitter) is not
// written, as manual_patch.comp skips it.
#include "shared/frame.h"
#include "shared/particle.h"

layout(local_size_x = 64) in;

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
layout(std430, binding = kStatelessBindingEvaluated) readonly buffer Evaluated { uint evaluated[]; };
layout(std430, binding = kManualFillBindingSlots) readonly buffer Slots { uint slots[]; };
layout(push_constant) uniform Push { StatelessScatterPush push; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count || i >= uint(slots.length())) return;
  // The program's record fits the pool's stride (the host checks it); a corrupt push writes nothing.
  if (push.eval_words > params.record_words || push.eval_words == 0u) return;
  if (i >= uint(evaluated.length()) / push.eval_words) return;
  uint slot = slots[i];
  if (slot >= params.capacity || pool[slot * params.record_words] != push.header) return;
  uint from = i * push.eval_words, to = slot * params.record_words;
  for (uint w = 1u; w < push.eval_words; ++w) pool[to + w] = evaluated[from + w];
}
