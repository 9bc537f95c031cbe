#version 460
// The light selection's last pass (src/render/particle_light_pass.cpp): after the candidates are
// sorted (by slot, then stably by key: the brightest first, ties by slot), a thread per list entry
// writes the light of the i-th candidate; thread 0 writes the count and the overflow.
#include "render/particle_lights_common.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 6) readonly buffer Values { uint values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint candidates = min(header.candidates, push.capacity);
  uint count = min(candidates, push.light_capacity);
  if (i == 0u) {
    header.count = count;
    header.overflow = candidates - count;
  }
  if (i >= count) return;
  PointLightGpu light;
  slot_light(min(values[i], push.capacity - 1u), light);
  lights[i] = light;
}
