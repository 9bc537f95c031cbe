// Shared by the light-selection passes (shaders/render/particle_lights_*.comp;
// src/render/particle_light_pass.cpp): the bindings both declare and a pool slot's light.
#ifndef MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_COMMON_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_COMMON_GLSL

#include "shared/frame.h"
#include "shared/particle_lights.h"

layout(std430, binding = 0) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 1) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 2) readonly buffer LightRecords { ParticleLightRecord light_records[]; };
layout(std430, binding = 3) readonly buffer Counters { uint counters[]; };
layout(std430, binding = 7) buffer List {
  ParticleLightHeader header;
  PointLightGpu lights[];
};
layout(push_constant) uniform Push { ParticleLightPush push; };

float light_word_float(uint slot, uint word, float fallback) {
  return (word == kDrawUnbound || word >= push.record_words) ? fallback
                                                             : uintBitsToFloat(pool[slot * push.record_words + word]);
}

vec3 light_word_vec3(uint slot, uint word, vec3 fallback) {
  if (word == kDrawUnbound || word + 3u > push.record_words) return fallback;
  return vec3(light_word_float(slot, word, 0.0), light_word_float(slot, word + 1u, 0.0),
              light_word_float(slot, word + 2u, 0.0));
}

vec4 light_word_vec4(uint slot, uint word, vec4 fallback) {
  if (word == kDrawUnbound || word + 4u > push.record_words) return fallback;
  return vec4(light_word_float(slot, word, 0.0), light_word_float(slot, word + 1u, 0.0),
              light_word_float(slot, word + 2u, 0.0), light_word_float(slot, word + 3u, 0.0));
}

// The light of the particle at pool slot `slot` (< capacity); false when it is none: a row past
// the records, not live, of another generation, or a row whose particles light nothing.
bool slot_light(uint slot, out PointLightGpu light) {
  light.position_range = vec4(0.0);
  light.radiance = vec4(0.0);
  light.spot = vec4(0.0);
  uint word0 = pool[slot * push.record_words];
  uint row = word0 & kFrameHeaderRowMask;
  if (row >= push.record_count) return false;
  ParticleDrawRecord d = records[row];
  ParticleLightRecord r = light_records[row];
  bool live = (d.flags & kDrawFlagLive) != 0u &&
              (d.generation & kFrameHeaderGenerationMask) == (word0 >> kFrameHeaderRowBits) &&
              (r.flags & kParticleLightFlagLive) != 0u;
  if (!live) return false;
  vec3 position = light_word_vec3(slot, d.position_word, vec3(0.0));
  float size = light_word_float(slot, d.size_word, 1.0) * d.size_scale;
  vec4 color = light_word_vec4(slot, d.color_word, vec4(1.0)) * d.tint;
  light = particle_light(r, position, size, color);
  return true;
}

#endif
