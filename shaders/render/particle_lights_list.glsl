// The particle-light list a shading pass reads beside the scene's lights (docs/design/
// particle_lights.md; written by shaders/render/particle_lights_select.comp): the includer
// defines PARTICLE_LIGHTS_BINDING, the storage binding it is bound at.
#ifndef MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_LIST_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_LIST_GLSL
#include "shared/particle_lights.h"

layout(std430, binding = PARTICLE_LIGHTS_BINDING) readonly buffer ParticleLights {
  ParticleLightHeader particle_light_header;
  PointLightGpu particle_lights[];
};

// The lights to loop over: never past the list's own capacity.
uint particle_light_count() { return min(particle_light_header.count, particle_light_header.capacity); }
#endif
