// How a particle becomes a picture, written once for the raster path (shaders/render/particle_*),
// the compute path (shaders/render/tile_*) and the CPU reference renderer (src/render/): the
// per-emitter draw record the renderer writes, the view block, and the pure functions that turn a
// pool record into a quad — the projection mode's frame F, the record's orientation Q, the stretch,
// the corner offset F·Q·(x·size, y·size·stretch, 0), the UV chain and the premultiplied colour
// (docs/design/render.md, "Particles: one contract, three renderers"). Same rules as
// vm_semantics.h: plain functions of values, builtins glm also has, `f` and `u` literal suffixes.
//
// Conventions
//   * size is the sprite's full width in metres: corners at (±0.5, ±0.5) · size.
//   * A 1-word rotation field is a roll angle (radians) about the sprite's +Z; a 4-word one a
//     quaternion (x, y, z, w), normalised here; the zero quaternion is no turn (no branch).
//   * F's columns are the sprite's right, up and the side it shows; x = y × z (a proper rotation).
//   * UV (0,0) is the image's top-left. A quad corner c in [-0.5, 0.5]^2 maps to
//     (c.x + 0.5, 0.5 - c.y), then into the flipbook cell, then into the particle's uv_rect
//     (a per-particle rect, e.g. one entry of a palette drawn by random_pick), then into its
//     texture's rect in the atlas.
//   * Colours are linear; the colour field holds straight alpha. The output is premultiplied with
//     alpha 0 for additive emitters (so one blend state serves both).
//   * Depth is reversed-Z (near → 1, far → 0), the view is right-handed looking down -Z.
#ifndef MOTE_SHADERS_SHARED_PARTICLE_RENDER_H
#define MOTE_SHADERS_SHARED_PARTICLE_RENDER_H
#include "shared/interop.h"

#ifdef __cplusplus
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
namespace mote::shader {
using glm::clamp;
using glm::cos;
using glm::sin;
using glm::tan;
using glm::cross;
using glm::dot;
using glm::floor;
using glm::fract;
using glm::length;
using glm::max;
using glm::min;
using glm::mix;
using glm::normalize;
using glm::sqrt;
using mat3 = glm::mat3;
}  // namespace mote::shader
// Header-defined functions: inline in C++ so every translation unit may include this file.
#define RENDER_INLINE inline
#else
#define RENDER_INLINE
#endif

MOTE_SHARED_BEGIN

// Projection modes (the record's flags, bits 0..3).
MOTE_CONSTANT(uint, kProjectionBillboard, 0u);
MOTE_CONSTANT(uint, kProjectionStretched, 1u);
MOTE_CONSTANT(uint, kProjectionVertical, 2u);
MOTE_CONSTANT(uint, kProjectionHorizontal, 3u);
MOTE_CONSTANT(uint, kProjectionFacingWorld, 4u);
MOTE_CONSTANT(uint, kProjectionMesh, 5u);    // drawn by the mesh-particle pipeline, not as a quad
MOTE_CONSTANT(uint, kProjectionRibbon, 6u);  // joined into strips by the ribbon pass (shared/ribbon.h), not a quad
MOTE_CONSTANT(uint, kDrawProjectionMask, 15u);
MOTE_CONSTANT(uint, kDrawFlagLive, 16u);            // the row is drawn (0: a free row or a hidden emitter)
MOTE_CONSTANT(uint, kDrawFlagAdditive, 32u);        // alpha 0 out (emissive, order-free)
MOTE_CONSTANT(uint, kDrawFlagSoft, 64u);            // soft-depth fade against the scene
MOTE_CONSTANT(uint, kDrawFlagLit, 128u);            // colour is an albedo lit by the scene's lights
MOTE_CONSTANT(uint, kDrawFlagFlipbookBlend, 256u);  // blend a flipbook's two nearest frames

// A record word index of 0 means "unbound": word 0 of a record is always the header.
MOTE_CONSTANT(uint, kDrawUnbound, 0u);
// The pool header: emitter row in the low bits, generation above (shared/frame.h).

// One per emitter row, written by the renderer from the effect's render settings and the
// program's particle layout (the record words of the fields the render settings name).
struct ParticleDrawRecord {
  uint position_word;   // vec3
  uint size_word;       // float; unbound → size_scale alone
  uint color_word;      // vec4 straight alpha; unbound → white
  uint velocity_word;   // vec3; unbound → 0 (STRETCHED falls back to BILLBOARD)
  uint rotation_word;   // float roll or vec4 quaternion; unbound → no turn
  uint rotation_width;  // 1 or 4 (0 when unbound)
  uint uv_rect_word;    // vec4 (ox, oy, sx, sy) inside the texture; unbound → (0, 0, 1, 1)
  uint frame_word;      // float flipbook frame; unbound → from age / lifetime
  uint age_word;        // float
  uint lifetime_word;   // float
  uint flags;           // projection | kDrawFlag*
  uint generation;      // the row's live generation: stale records draw nothing
  uint flipbook_columns;
  uint flipbook_rows;
  float soft_distance;  // metres over which a soft particle fades into the scene
  float size_scale;     // multiplies the size field (or is the size when unbound)
  vec4 atlas_rect;      // the effect texture's rect in the atlas (ox, oy, sx, sy)
  vec4 tint;            // linear RGB multiplier and alpha multiplier
};
MOTE_ASSERT_SIZE(ParticleDrawRecord, 96);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, position_word, 0);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, size_word, 4);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, color_word, 8);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, velocity_word, 12);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, rotation_word, 16);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, rotation_width, 20);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, uv_rect_word, 24);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, frame_word, 28);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, age_word, 32);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, lifetime_word, 36);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, flags, 40);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, generation, 44);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, flipbook_columns, 48);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, flipbook_rows, 52);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, soft_distance, 56);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, size_scale, 60);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, atlas_rect, 64);
MOTE_ASSERT_OFFSET(ParticleDrawRecord, tint, 80);

// The camera and the frame's lighting, one uniform block shared by every render pass.
struct RenderView {
  mat4 view;        // world → view (right-handed, -Z forward)
  mat4 projection;  // view → clip, reversed-Z
  mat4 view_projection;
  mat4 inverse_view_projection;
  mat4 sun_view_projection;  // world → the sun's shadow clip space ([0,1] depth, not reversed)
  vec4 camera_position;      // xyz
  vec4 camera_right;         // xyz: the view's +X in world space
  vec4 camera_up;            // xyz: +Y
  vec4 camera_forward;       // xyz: -Z (where the camera looks)
  vec4 viewport;             // width, height, 1/width, 1/height
  vec4 clip;                 // near, far (shadows and fog only: depth is infinite), exposure, time
  vec4 sun_direction;        // xyz: the way the light travels (unit); w: 1 when there is a sun
  vec4 sun_radiance;         // rgb: colour × intensity; w: shadow map texel size (1/size), 0 = no shadows
  vec4 sky_ambient;          // rgb: sky colour × ambient intensity
  vec4 ground_ambient;       // rgb: ground colour × ambient intensity
  vec4 background;           // rgb
  uint point_light_count;
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(RenderView, 512);
MOTE_ASSERT_OFFSET(RenderView, view, 0);
MOTE_ASSERT_OFFSET(RenderView, projection, 64);
MOTE_ASSERT_OFFSET(RenderView, view_projection, 128);
MOTE_ASSERT_OFFSET(RenderView, inverse_view_projection, 192);
MOTE_ASSERT_OFFSET(RenderView, sun_view_projection, 256);
MOTE_ASSERT_OFFSET(RenderView, camera_position, 320);
MOTE_ASSERT_OFFSET(RenderView, camera_right, 336);
MOTE_ASSERT_OFFSET(RenderView, camera_up, 352);
MOTE_ASSERT_OFFSET(RenderView, camera_forward, 368);
MOTE_ASSERT_OFFSET(RenderView, viewport, 384);
MOTE_ASSERT_OFFSET(RenderView, clip, 400);
MOTE_ASSERT_OFFSET(RenderView, sun_direction, 416);
MOTE_ASSERT_OFFSET(RenderView, sun_radiance, 432);
MOTE_ASSERT_OFFSET(RenderView, sky_ambient, 448);
MOTE_ASSERT_OFFSET(RenderView, ground_ambient, 464);
MOTE_ASSERT_OFFSET(RenderView, background, 480);
MOTE_ASSERT_OFFSET(RenderView, point_light_count, 496);
MOTE_ASSERT_OFFSET(RenderView, pad0, 500);
MOTE_ASSERT_OFFSET(RenderView, pad1, 504);
MOTE_ASSERT_OFFSET(RenderView, pad2, 508);

// Point and spot lights share one list: a spot light is a point light with a cone
// (light_cone_factor below); a zero `spot` (the list zero-filled) is a point light.
MOTE_CONSTANT(uint, kMaxPointLights, 16u);
struct PointLightGpu {
  vec4 position_range;  // xyz, range (metres; zero beyond)
  vec4 radiance;        // rgb: colour × intensity; w: a spot light's cone scale, 1 / (cos inner - cos outer)
  vec4 spot;            // xyz: the way a spot light points (unit; zero: a point light, all round);
                        // w: its cone offset, -cos outer × the scale
};
MOTE_ASSERT_SIZE(PointLightGpu, 48);
MOTE_ASSERT_OFFSET(PointLightGpu, position_range, 0);
MOTE_ASSERT_OFFSET(PointLightGpu, radiance, 16);
MOTE_ASSERT_OFFSET(PointLightGpu, spot, 32);

// ---- Pure functions (C++ and GLSL) ----

// The share of a light's radiance that leaves it along unit direction `from_light` (light →
// point): 1 for a point light; for a spot light ((cos - cos outer) / (cos inner - cos outer))
// clamped to [0, 1] and squared — full inside the inner cone, none outside the outer, the
// angle-to-cosine ramp between squared (Lagarde & de Rousiers, "Moving Frostbite to PBR", 2014).
RENDER_INLINE float light_cone_factor(vec4 radiance, vec4 spot, vec3 from_light) {
  if (spot.x == 0.0f && spot.y == 0.0f && spot.z == 0.0f) return 1.0f;
  float t = clamp(dot(from_light, vec3(spot.x, spot.y, spot.z)) * radiance.w + spot.w, 0.0f, 1.0f);
  return t * t;
}

// Rotates v by the unit quaternion q (x, y, z, w).
RENDER_INLINE vec3 particle_quat_rotate(vec4 q, vec3 v) {
  vec3 u = vec3(q.x, q.y, q.z);
  vec3 t = 2.0f * cross(u, v);
  return v + q.w * t + cross(u, t);
}

// The record's turn as a unit quaternion: a roll angle about +Z (width 1), or the stored
// quaternion normalised, the zero quaternion reading as no turn (w += 1 when |q| = 0).
RENDER_INLINE vec4 particle_orientation(uint width, vec4 stored) {
  float half_angle = 0.5f * stored.x;
  vec4 roll = vec4(0.0f, 0.0f, sin(half_angle), cos(half_angle));
  float len2 = dot(stored, stored);
  vec4 q = stored + vec4(0.0f, 0.0f, 0.0f, len2 > 0.0f ? 0.0f : 1.0f);
  q = q * (1.0f / sqrt(dot(q, q)));
  vec4 none = vec4(0.0f, 0.0f, 0.0f, 1.0f);
  return width == 1u ? roll : (width == 4u ? q : none);
}

// The projection mode's frame F (columns: right, up, shown side) for a particle at `position`
// moving at `velocity` (STRETCHED's elongation is particle_stretch). Every mode is a proper
// rotation: x = y × z.
RENDER_INLINE mat3 particle_frame(uint mode, vec3 position, vec3 velocity, vec3 cam_position, vec3 cam_right,
                                  vec3 cam_up, vec3 cam_forward) {
  vec3 toward_eye = -cam_forward;
  vec3 x = cam_right;
  vec3 y = cam_up;
  vec3 z = toward_eye;
  if (mode == kProjectionStretched) {
    vec3 v_plane = velocity - dot(velocity, cam_forward) * cam_forward;
    float speed = length(v_plane);
    if (speed > 1e-6f) {
      y = v_plane * (1.0f / speed);
      z = toward_eye;
      x = cross(y, z);
    }
  } else if (mode == kProjectionVertical) {
    vec3 to_eye = cam_position - position;
    vec3 flat_dir = vec3(to_eye.x, 0.0f, to_eye.z);
    float flat_len = length(flat_dir);
    vec3 fallback = vec3(toward_eye.x, 0.0f, toward_eye.z);
    float fallback_len = length(fallback);
    z = flat_len > 1e-6f ? flat_dir * (1.0f / flat_len)
                         : (fallback_len > 1e-6f ? fallback * (1.0f / fallback_len) : vec3(0.0f, 0.0f, 1.0f));
    y = vec3(0.0f, 1.0f, 0.0f);
    x = cross(y, z);
  } else if (mode == kProjectionHorizontal) {
    x = vec3(1.0f, 0.0f, 0.0f);
    y = vec3(0.0f, 0.0f, -1.0f);
    z = vec3(0.0f, 1.0f, 0.0f);
  } else if (mode == kProjectionFacingWorld) {
    x = vec3(1.0f, 0.0f, 0.0f);
    y = vec3(0.0f, 1.0f, 0.0f);
    z = vec3(0.0f, 0.0f, 1.0f);
  }
  return mat3(x, y, z);
}

// STRETCHED's elongation along the sprite's +Y: 1 + |v on the view plane| (metres per second
// read as a ratio; docs/design/render.md, "Particles: one contract, three renderers"); 1 for
// every other mode.
RENDER_INLINE float particle_stretch(uint mode, vec3 velocity, vec3 cam_forward) {
  vec3 v_plane = velocity - dot(velocity, cam_forward) * cam_forward;
  return mode == kProjectionStretched ? 1.0f + length(v_plane) : 1.0f;
}

// The world-space offset of quad corner `corner` (in [-0.5, 0.5]^2) from the particle's centre.
RENDER_INLINE vec3 particle_corner_offset(mat3 frame, vec4 orientation, vec2 corner, float size, float stretch) {
  vec3 local = vec3(corner.x * size, corner.y * size * stretch, 0.0f);
  return frame * particle_quat_rotate(orientation, local);
}

// The quad corner's UV in the image (before flipbook, palette and atlas): (0,0) top-left.
RENDER_INLINE vec2 particle_corner_uv(vec2 corner) { return vec2(corner.x + 0.5f, 0.5f - corner.y); }

// The flipbook frame (a real number: its fraction blends) from an explicit frame value, or from
// age / lifetime across all cells when `from_field` is false.
RENDER_INLINE float particle_flipbook_frame(bool from_field, float frame_value, float age, float lifetime, uint columns,
                                            uint rows) {
  float cells = float(columns * rows);
  float life = lifetime > 0.0f ? clamp(age / lifetime, 0.0f, 1.0f) : 0.0f;
  float by_age = min(life * cells, cells - 1.0f);
  float f = from_field ? frame_value : by_age;
  return clamp(f, 0.0f, cells - 1.0f);
}

// UV of cell `cell` (integer-valued) of a columns × rows flipbook, row-major from the top-left.
RENDER_INLINE vec2 particle_flipbook_uv(vec2 uv, float cell, uint columns, uint rows) {
  float c = float(columns);
  float row = floor(cell / c);
  float column = cell - row * c;
  return (vec2(column, row) + uv) * vec2(1.0f / c, 1.0f / float(rows));
}

// UV inside a rect (ox, oy, sx, sy).
RENDER_INLINE vec2 particle_rect_uv(vec2 uv, vec4 rect) { return vec2(rect.x, rect.y) + uv * vec2(rect.z, rect.w); }

// The view → clip projection: reversed-Z with an infinite far plane (depth = near / distance),
// the precision choice of Reed 2015 / Upchurch & Desbrun 2012. fov_y in radians.
RENDER_INLINE mat4 render_perspective(float fov_y, float aspect, float near_plane) {
  float f = 1.0f / tan(0.5f * fov_y);
  return mat4(vec4(f / aspect, 0.0f, 0.0f, 0.0f), vec4(0.0f, f, 0.0f, 0.0f), vec4(0.0f, 0.0f, 0.0f, -1.0f),
              vec4(0.0f, 0.0f, near_plane, 0.0f));
}

// Reversed-Z depth (near → 1, infinity → 0) to positive view distance along -Z for
// render_perspective.
RENDER_INLINE float particle_view_depth(float reversed_depth, float near_plane) {
  return near_plane / max(reversed_depth, 1e-7f);
}

// The soft-depth fade: 0 where the particle meets the scene, 1 `distance` metres in front of it.
RENDER_INLINE float particle_soft_fade(float scene_view_depth, float particle_view_depth, float distance) {
  return distance > 0.0f ? clamp((scene_view_depth - particle_view_depth) / distance, 0.0f, 1.0f) : 1.0f;
}

// Straight-alpha colour × texel → premultiplied out; additive particles write alpha 0. `fade`
// (soft depth, 0..1) scales both colour and alpha, so a soft edge fades additive and blended
// particles alike.
RENDER_INLINE vec4 particle_premultiply(vec4 color, vec4 texel, bool additive, float fade) {
  vec4 c = color * texel;
  float a = clamp(c.w, 0.0f, 1.0f) * fade;
  vec3 rgb = vec3(c.x, c.y, c.z) * a;
  return vec4(rgb, additive ? 0.0f : a);
}

MOTE_SHARED_END
#endif
