#version 460
// Keys for the raster path's sorted mode: per alive particle, its view distance made into a
// u32 that orders back to front (far first): positive floats order as their bits, so the key
// is ~bits(distance). Invisible particles and those behind the eye sort last (key 0xFFFFFFFF).
// Values are the pool slots; RadixSort (stable) orders them, the quads draw in that order.
#include "shared/particle_render.h"
#include "shared/render_passes.h"

layout(local_size_x = 256) in;
layout(std140, binding = 0) uniform View { RenderView view; };
layout(std430, binding = 1) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 2) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 3) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 4) readonly buffer Counters { uint counters[]; };
layout(std430, binding = 5) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 6) writeonly buffer Values { uint values[]; };
layout(push_constant) uniform Push { ParticleDrawPush push; };

#include "particle_common.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = min(counters[push.alive_count_word], push.capacity);
  if (i >= n) return;
  uint slot = min(alive[i], push.capacity - 1u);
  uint base = slot * push.record_words;
  uint row = pool[base] & kFrameHeaderRowMask;
  uint key = 0xFFFFFFFFu;
  if (row < push.record_count) {
    vec3 p = particle_vec3(base, records[row].position_word, push.record_words, vec3(0.0));
    float d = dot(p - view.camera_position.xyz, view.camera_forward.xyz);
    if (d > 0.0) key = ~floatBitsToUint(d);
  }
  keys[i] = key;
  values[i] = slot;
}
