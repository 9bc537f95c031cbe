#version 460
// Mesh particles into the sun's shadow map (mesh_particle.vert's placement, depth only).
#include "particle_draw_common.glsl"

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

void main() {
  uint slot = particle_slot(gl_InstanceIndex);
  uint row = pool[slot * push.record_words] & kFrameHeaderRowMask;
  ParticleSprite s = particle_fetch(slot, push.record_words, push.record_count);
  if (!s.visible || (s.flags & kDrawProjectionMask) != kProjectionMesh || row != push.mesh_row) {
    gl_Position = vec4(0.0, 0.0, -2.0, 1.0);
    return;
  }
  vec3 world = s.center + particle_quat_rotate(s.orientation, a_position * s.size);
  gl_Position = view.sun_view_projection * vec4(world, 1.0);
}
