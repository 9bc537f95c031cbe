#version 460
// The sun's shadow map: depth only, objects and mesh particles alike through their model matrix.
#include "shared/particle_render.h"
#include "shared/render_passes.h"
layout(std140, binding = 0) uniform View { RenderView view; };
layout(push_constant) uniform Push { OpaquePush push; };
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
void main() { gl_Position = view.sun_view_projection * (push.model * vec4(a_position, 1.0)); }
