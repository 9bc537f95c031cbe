#version 460
// Ribbon pieces expanded in the vertex stage from the ribbon build's points and piece list
// (src/render/ribbon_pass.cpp; shared/ribbon.h): instance i draws piece i, its 4 corners from
// gl_VertexIndex through the quad's 6 indices, each placed by ribbon_corner from the segment's
// two points and their neighbours. The fragment stage is the sprites' (particle_quad.frag built
// with RASTER_RIBBON: the colour interpolated along the strip, u repeating), so a ribbon keeps
// the sprites' premultiplied contract, texture, soft fade and fog. Ribbons are drawn unlit.
#include "particle_draw_common.glsl"
#include "shared/ribbon.h"

layout(std430, binding = 14) readonly buffer Points { RibbonPoint points[]; };
layout(std430, binding = 15) readonly buffer Pieces { uint pieces[]; };
layout(std430, binding = 16) readonly buffer RibbonRecords { RibbonRecord ribbons[]; };

layout(location = 0) out vec2 v_uv;
layout(location = 1) out float v_view_depth;
layout(location = 2) out vec4 v_color;  // interpolated along the strip (RASTER_RIBBON)
layout(location = 3) flat out vec4 v_uv_rect;
layout(location = 4) flat out vec4 v_atlas_rect;
layout(location = 5) flat out vec4 v_flipbook;
layout(location = 6) flat out uint v_flags;
layout(location = 7) flat out vec3 v_face;
layout(location = 8) flat out vec3 v_right;
layout(location = 9) flat out vec3 v_up;

// Draw order round the quad: shared/ribbon.h's corners 0 (start -), 1 (start +), 3 (end +), 2 (end -).
const uint kWalk[4] = uint[](0u, 1u, 3u, 2u);

void main() {
  uint last = push.capacity - 1u;
  uint entry = pieces[gl_InstanceIndex];
  uint i = min(entry >> kRibbonPieceShift, last);
  uint k = entry & ((1u << kRibbonPieceShift) - 1u);
  RibbonPoint a = points[i];
  RibbonPoint b = points[min(i + 1u, last)];
  vec3 p0 = (a.flags & kRibbonPointPrev) != 0u ? points[i > 0u ? i - 1u : 0u].position_width.xyz : a.position_width.xyz;
  vec3 p3 = (b.flags & kRibbonPointNext) != 0u ? points[min(i + 2u, last)].position_width.xyz : b.position_width.xyz;
  uint row = min(a.row, push.record_count - 1u);
  ParticleDrawRecord d = records[row];
  RibbonRecord r = ribbons[row];
  uint n = clamp(r.subdivisions, 1u, kRibbonMaxSubdivisions);
  uint c = kWalk[gl_VertexIndex & 3];
  float t = ribbon_corner_t(k, n, c);
  vec3 world = ribbon_corner(p0, a.position_width.xyz, b.position_width.xyz, p3, a.position_width.w,
                             b.position_width.w, a.normal_u.xyz, b.normal_u.xyz,
                             (r.flags & kRibbonFlagFacingNormal) != 0u, k, n, c, view.camera_position.xyz,
                             view.camera_right.xyz);
  gl_Position = view.view_projection * vec4(world, 1.0);
  float u = r.uv_mode == kRibbonUvSegment ? t : mix(a.normal_u.w, b.normal_u.w, t);
  v_uv = vec2(u, float(c & 1u));
  v_view_depth = dot(world - view.camera_position.xyz, view.camera_forward.xyz);
  v_color = mix(a.color, b.color, t);
  v_uv_rect = vec4(0.0, 0.0, 1.0, 1.0);
  v_atlas_rect = d.atlas_rect;
  v_flipbook = vec4(0.0, 1.0, 1.0, (d.flags & kDrawFlagSoft) != 0u ? d.soft_distance : 0.0);
  v_flags = d.flags & ~kDrawFlagLit;
  v_face = vec3(0.0);
  v_right = vec3(0.0);
  v_up = vec3(0.0);
}
