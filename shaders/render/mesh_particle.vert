#version 460
// Mesh particles (docs/design/render.md, "Mesh particles"): one instanced indexed draw per mesh
// emitter row, instance i drawing draw_list[i] when that particle belongs to push.mesh_row (others
// collapse outside the clip volume — the cost is the mesh's vertices × the alive count per mesh
// emitter, fine for a few mesh emitters). The mesh is turned by the particle's orientation and
// scaled by its size, and shaded by opaque.frag like the scene's objects (depth-written, opaque).
#include "particle_draw_common.glsl"

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = 0) out vec3 v_world;
layout(location = 1) out vec3 v_normal;
layout(location = 2) flat out vec4 v_base_color;  // rgb, roughness
layout(location = 3) flat out vec4 v_emissive;    // rgb, metallic

void main() {
  uint slot = particle_slot(gl_InstanceIndex);
  uint row = pool[slot * push.record_words] & kFrameHeaderRowMask;
  ParticleSprite s = particle_fetch(slot, push.record_words, push.record_count);
  v_base_color = vec4(s.color.rgb, 0.6);
  v_emissive = vec4(0.0);
  if (!s.visible || (s.flags & kDrawProjectionMask) != kProjectionMesh || row != push.mesh_row) {
    gl_Position = vec4(0.0, 0.0, -2.0, 1.0);
    v_world = vec3(0.0);
    v_normal = vec3(0.0, 1.0, 0.0);
    return;
  }
  vec3 world = s.center + particle_quat_rotate(s.orientation, a_position * s.size);
  v_world = world;
  v_normal = particle_quat_rotate(s.orientation, a_normal);
  gl_Position = view.view_projection * vec4(world, 1.0);
}
