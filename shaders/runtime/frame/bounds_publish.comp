#version 460
// Bounds, step 2 of 2 (docs/design/runtime_frame.md, "Bounds"): one invocation per emitter row
// turns its accumulators into the row's FrameEmitterBounds — the box, the empty sentinel
// (+inf, -inf) when nothing of it is drawn, the unknown one (-inf, +inf) when the frame cannot
// measure its shape — and zeroes them for the next frame, so a row freed or reused starts clean.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingBoundsAccumulators) buffer Accumulators { uint accumulators[]; };
layout(std430, binding = kFrameBindingEmitterBounds) writeonly buffer Bounds { FrameEmitterBounds bounds[]; };

float from_key(uint key) { return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7FFFFFFFu : ~key); }

void main() {
  uint row = gl_GlobalInvocationID.x;
  if (row >= params.row_count) return;
  uint at = row * kFrameBoundsAccumulatorWords;
  uint alive = accumulators[at + 6u], boxed = accumulators[at + 7u];
  float inf = uintBitsToFloat(0x7F800000u);
  bool known = emitters[row].bounds_position_word != 0u && emitters[row].bounds_reach > 0.0f;
  FrameEmitterBounds b;
  b.alive = alive;
  b.generation = emitters[row].generation;
  b.pad0 = 0u;
  b.pad1 = 0u;
  if (alive != 0u && !known) {
    b.bounds_min = vec4(-inf);
    b.bounds_max = vec4(inf);
  } else if (boxed == 0u) {
    b.bounds_min = vec4(inf);
    b.bounds_max = vec4(-inf);
  } else {
    b.bounds_min = vec4(from_key(~accumulators[at]), from_key(~accumulators[at + 1u]), from_key(~accumulators[at + 2u]), 0.0f);
    b.bounds_max = vec4(from_key(accumulators[at + 3u]), from_key(accumulators[at + 4u]), from_key(accumulators[at + 5u]), 0.0f);
  }
  bounds[row] = b;
  for (uint w = 0u; w < kFrameBoundsAccumulatorWords; ++w) accumulators[at + w] = 0u;
}
