// Bindings of the opaque pass (opaque.vert, opaque.frag; mesh_particle.vert declares the same
// two through particle_draw_common.glsl). The shadow map is binding 7, clear of the particle
// draws' bindings, because opaque.frag also shades the mesh particles.
#ifndef MOTE_SHADERS_RENDER_OPAQUE_COMMON_GLSL
#define MOTE_SHADERS_RENDER_OPAQUE_COMMON_GLSL
#include "shared/particle_render.h"
#include "shared/render_passes.h"

layout(std140, binding = 0) uniform View { RenderView view; };
layout(std430, binding = 1) readonly buffer PointLights { PointLightGpu point_lights[]; };
#endif
