#version 460
// Particle quads expanded in the vertex stage from the pool and the draw list (empty vertex layout:
// no vertex buffer, docs/design/render.md, "Raster path"): 4 corners per instance from
// gl_VertexIndex, drawn with a 6-index buffer, the basis and colour from particle_fetch. Invisible
// particles (stale, mesh mode, unbound rows) collapse to a point outside the clip volume, which the
// rasterizer drops.
#include "particle_draw_common.glsl"
#include "shared/particle_lighting.h"

layout(location = 0) out vec2 v_uv;             // image UV (before flipbook, palette, atlas)
layout(location = 1) out float v_view_depth;    // metres along the view axis
layout(location = 2) flat out vec4 v_color;     // straight alpha (an albedo when the emitter is lit)
layout(location = 3) flat out vec4 v_uv_rect;
layout(location = 4) flat out vec4 v_atlas_rect;
layout(location = 5) flat out vec4 v_flipbook;  // frame, columns, rows, soft distance
layout(location = 6) flat out uint v_flags;
layout(location = 7) flat out vec3 v_face;   // lit: the plane's normal turned to the eye
layout(location = 8) flat out vec3 v_right;  // lit: the unit in-plane axes the normal bends along
layout(location = 9) flat out vec3 v_up;

const vec2 kCorners[4] = vec2[](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));

void main() {
  ParticleSprite s = particle_fetch(particle_slot(gl_InstanceIndex), push.record_words, push.record_count);
  uint mode = s.flags & kDrawProjectionMask;
  if (!s.visible || mode == kProjectionMesh) {
    gl_Position = vec4(0.0, 0.0, -2.0, 1.0);  // outside [0, w]: clipped
    v_uv = vec2(0.0);
    v_view_depth = 0.0;
    v_color = vec4(0.0);
    v_uv_rect = vec4(0.0);
    v_atlas_rect = vec4(0.0);
    v_flipbook = vec4(0.0);
    v_flags = 0u;
    v_face = vec3(0.0);
    v_right = vec3(0.0);
    v_up = vec3(0.0);
    return;
  }
  vec2 corner = kCorners[gl_VertexIndex & 3];
  vec3 world = s.center + corner.x * s.axis_x + corner.y * s.axis_y;
  gl_Position = view.view_projection * vec4(world, 1.0);
  v_uv = particle_corner_uv(corner);
  v_view_depth = dot(world - view.camera_position.xyz, view.camera_forward.xyz);
  v_color = s.color;
  // Lit sprites are lit per pixel in the fragment stage (docs/design/render.md, "Lighting").
  bool lit = (s.flags & kDrawFlagLit) != 0u;
  v_face = lit ? particle_lit_face(s.axis_x, s.axis_y, view.camera_position.xyz - s.center) : vec3(0.0);
  v_right = lit ? normalize(s.axis_x) : vec3(0.0);
  v_up = lit ? normalize(s.axis_y) : vec3(0.0);
  v_uv_rect = s.uv_rect;
  v_atlas_rect = s.atlas_rect;
  v_flipbook = vec4(s.frame, float(s.flipbook_columns), float(s.flipbook_rows), s.soft_distance);
  v_flags = s.flags;
}
