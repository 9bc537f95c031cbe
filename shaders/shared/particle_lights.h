// Particle lights (docs/design/particle_lights.md), written once for the light-selection pass
// (shaders/render/particle_lights_*.comp, src/render/particle_light_pass.cpp), the passes that
// read the list it builds (opaque.frag, froxel_irradiance.comp, froxel_light.comp) and the CPU
// reference (src/render/reference_particle_lights.cpp): the per-row light record, the list's
// layout, and the pure functions that turn a particle into a light and a light into its sort key.
//
// Every alive particle of a row whose light record is live is a candidate point light; the pass
// keeps the `capacity` brightest (by particle_light_weight, ties in alive-list order after a
// stable sort of the candidates as they were appended) and counts the rest as overflow. The list
// is a ParticleLightHeader followed by `capacity` PointLightGpu (shared/particle_render.h); its
// readers loop over min(header.count, header.capacity) entries.
#ifndef MOTE_SHADERS_SHARED_PARTICLE_LIGHTS_H
#define MOTE_SHADERS_SHARED_PARTICLE_LIGHTS_H
#include "shared/particle_render.h"

#ifdef __cplusplus
#include <bit>
#endif

MOTE_SHARED_BEGIN

// ParticleLightRecord::flags
MOTE_CONSTANT(uint, kParticleLightFlagLive, 1u);            // the row's particles are lights
MOTE_CONSTANT(uint, kParticleLightFlagParticleColor, 2u);   // × the particle's colour rgb × alpha
MOTE_CONSTANT(uint, kParticleLightFlagRadiusFromSize, 4u);  // range = drawn size × radius_from_size
// The list's capacity: the renderer's option (mote::ParticleRendererDesc::max_particle_lights).
MOTE_CONSTANT(uint, kParticleLightsDefaultCapacity, 256u);
MOTE_CONSTANT(uint, kParticleLightsMaxCapacity, 4096u);
MOTE_CONSTANT(uint, kParticleLightHeaderBytes, 16u);

// One per emitter row, beside its ParticleDrawRecord (position, size, colour, generation, live).
struct ParticleLightRecord {
  vec4 color_intensity;  // rgb: linear colour; w: intensity
  float radius;          // metres (without kParticleLightFlagRadiusFromSize)
  float radius_from_size;
  uint flags;  // kParticleLightFlag*; 0: the row lights nothing
  uint pad0;
};
MOTE_ASSERT_SIZE(ParticleLightRecord, 32);
MOTE_ASSERT_OFFSET(ParticleLightRecord, color_intensity, 0);
MOTE_ASSERT_OFFSET(ParticleLightRecord, radius, 16);
MOTE_ASSERT_OFFSET(ParticleLightRecord, radius_from_size, 20);
MOTE_ASSERT_OFFSET(ParticleLightRecord, flags, 24);
MOTE_ASSERT_OFFSET(ParticleLightRecord, pad0, 28);

// The first 16 bytes of the list buffer.
struct ParticleLightHeader {
  uint count;       // lights in the list (min(candidates, capacity))
  uint candidates;  // particles that were lights this frame
  uint overflow;    // candidates - count: the dimmest, left out
  uint capacity;    // PointLightGpu entries after the header
};
MOTE_ASSERT_SIZE(ParticleLightHeader, 16);
MOTE_ASSERT_OFFSET(ParticleLightHeader, count, 0);
MOTE_ASSERT_OFFSET(ParticleLightHeader, candidates, 4);
MOTE_ASSERT_OFFSET(ParticleLightHeader, overflow, 8);
MOTE_ASSERT_OFFSET(ParticleLightHeader, capacity, 12);

struct ParticleLightPush {
  uint record_words;
  uint record_count;
  uint capacity;  // the pool's particles
  uint alive_count_word;
  uint light_capacity;  // the list's entries
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(ParticleLightPush, 32);

// ---- Pure functions (C++ and GLSL) ----

// The light of a particle at `position` whose drawn size is `size` (the size field × the draw
// record's size scale) and tinted straight-alpha colour `color`. A light of zero radiance or
// range is no candidate (particle_light_weight 0).
RENDER_INLINE PointLightGpu particle_light(ParticleLightRecord r, vec3 position, float size, vec4 color) {
  vec3 radiance = vec3(r.color_intensity.x, r.color_intensity.y, r.color_intensity.z) * r.color_intensity.w;
  if ((r.flags & kParticleLightFlagParticleColor) != 0u)
    radiance = radiance * vec3(color.x, color.y, color.z) * clamp(color.w, 0.0f, 1.0f);
  float range = (r.flags & kParticleLightFlagRadiusFromSize) != 0u ? size * r.radius_from_size : r.radius;
  PointLightGpu light;
  light.position_range = vec4(position, max(range, 0.0f));
  light.radiance = vec4(max(radiance, vec3(0.0f)), 0.0f);
  light.spot = vec4(0.0f);
  return light;
}

// How much of the scene a light lights: its brightest channel × its range squared (the area its
// window reaches). 0 (or NaN, read as 0) for no light.
RENDER_INLINE float particle_light_weight(PointLightGpu light) {
  float peak = max(max(light.radiance.x, light.radiance.y), light.radiance.z);
  float w = peak * light.position_range.w * light.position_range.w;
  return w > 0.0f && w <= 3.0e38f ? w : 0.0f;
}

// The ascending sort key of a weight above 0: the brightest first (positive float bits order as
// the values do, their complement the other way).
RENDER_INLINE uint particle_light_key(float weight) {
#ifdef __cplusplus
  return ~std::bit_cast<uint>(weight);
#else
  return ~floatBitsToUint(weight);
#endif
}

MOTE_SHARED_END

#endif
