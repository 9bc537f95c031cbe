#version 460
// The opaque set: one draw per object, world matrix and material in push constants.
#include "opaque_common.glsl"

layout(push_constant) uniform Push { OpaquePush push; };

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = 0) out vec3 v_world;
layout(location = 1) out vec3 v_normal;
layout(location = 2) flat out vec4 v_base_color;  // rgb, roughness
layout(location = 3) flat out vec4 v_emissive;    // rgb, metallic

void main() {
  vec4 world = push.model * vec4(a_position, 1.0);
  // The normal matrix: the inverse transpose of the model's 3x3 (non-uniform scale).
  mat3 m = mat3(push.model);
  mat3 normal_matrix = transpose(inverse(m));
  v_world = world.xyz;
  v_normal = normalize(normal_matrix * a_normal);
  v_base_color = push.base_color;
  v_emissive = push.emissive;
  gl_Position = view.view_projection * world;
}
