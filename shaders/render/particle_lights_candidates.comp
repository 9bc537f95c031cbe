#version 460
// The light selection's first pass (src/render/particle_light_pass.cpp): a thread per alive-list
// place appends each particle that is a light of weight above 0 — its sort key (the brightest
// first) and its pool slot — at a place taken from the list header's candidate count. At most one
// entry a place, so the entries never pass the pool's capacity.
#include "render/particle_lights_common.glsl"

layout(local_size_x = 256) in;
layout(std430, binding = 4) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 5) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 6) writeonly buffer Values { uint values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= min(counters[push.alive_count_word], push.capacity)) return;
  uint slot = min(alive[i], push.capacity - 1u);
  PointLightGpu light;
  if (!slot_light(slot, light)) return;
  float weight = particle_light_weight(light);
  if (!(weight > 0.0)) return;
  uint at = atomicAdd(header.candidates, 1u);
  if (at >= push.capacity) return;
  keys[at] = particle_light_key(weight);
  values[at] = slot;
}
