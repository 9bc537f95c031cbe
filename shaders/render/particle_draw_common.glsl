// Bindings of the raster particle draws (particle_quad.vert/.frag, mesh_particle.vert).
#ifndef MOTE_SHADERS_RENDER_PARTICLE_DRAW_COMMON_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_DRAW_COMMON_GLSL
#include "shared/particle_render.h"
#include "shared/render_passes.h"

layout(std140, binding = 0) uniform View { RenderView view; };
layout(std430, binding = 1) readonly buffer PointLights { PointLightGpu point_lights[]; };
layout(std430, binding = 2) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 3) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 4) readonly buffer DrawList { uint draw_list[]; };  // slots, in draw order
layout(push_constant) uniform Push { ParticleDrawPush push; };

#include "particle_common.glsl"

// The slot drawn by instance `i` (the draw's instance count comes from the alive count, so i is
// in range; the slot is clamped anyway: a corrupt list cannot index outside the pool).
uint particle_slot(uint i) { return min(draw_list[i], push.capacity - 1u); }
#endif
