// Lit particles (docs/design/render.md, "Lighting"), written once for the froxel irradiance pass
// (shaders/media/froxel_irradiance.comp), both draw paths (particle_quad.frag, tile_blend.comp)
// and the CPU reference renderer (src/render/reference_renderer.cpp).
//
// The irradiance a froxel holds is six numbers in two RGBA16F volumes:
//   luma    (c0, c1.x, c1.y, c1.z): the luma Y of the irradiance on a surface facing n as the
//           linear function c0 + dot(c1, n), the order-1 spherical-harmonic projection of the
//           clamped cosine: one light of irradiance E arriving from unit direction l gives
//           Y(E) (1/4 + dot(n, l) / 2);
//   chroma  (Co, Cg, 0, 0): YCoCg's two chroma channels of the mean irradiance over all
//           directions (order 0 only: chroma has no direction).
// Evaluated at n, the colour is max(0, c0 + dot(c1, n)) times the mean irradiance's colour at
// unit luma, so one light of colour E gives E max(0, 1/4 + cos / 2) exactly, and two lights of
// different colours from opposite sides tint both sides with their mix.
//
// The hemisphere ambient (sky above, ground below, mixed by n.y / 2 + 1/2) is linear in n, so the
// projection keeps its luma exactly.
//
// A sprite's normal is its quad's plane turned to the side the eye is on, bent out toward the
// corners (a puff, not a card); its colour is a diffuse albedo: albedo / pi times the irradiance
// at the normal, plus, passed on in proportion to 1 - alpha, the irradiance at -normal (back-face
// transmission: a thin edge lets light from behind through, a dense core holds it back).
#ifndef MOTE_SHADERS_SHARED_PARTICLE_LIGHTING_H
#define MOTE_SHADERS_SHARED_PARTICLE_LIGHTING_H
#include "shared/interop.h"

#ifdef __cplusplus
#include <glm/geometric.hpp>
namespace mote::shader {
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::max;
using glm::normalize;
}  // namespace mote::shader
#define LIGHTING_INLINE inline
#else
#define LIGHTING_INLINE
#endif

MOTE_SHARED_BEGIN

MOTE_CONSTANT(float, kLightingPi, 3.14159265358979f);
// How far a sprite's normal leans out at the middle of an edge: tan(45 degrees) (the corners lean
// atan(sqrt 2), about 55 degrees).
MOTE_CONSTANT(float, kLitNormalBend, 1.0f);

struct IrradianceSh {
  vec4 luma;    // c0, c1.xyz
  vec4 chroma;  // Co, Cg of the mean, 0, 0
};

LIGHTING_INLINE float lighting_luma(vec3 c) { return 0.25f * c.x + 0.5f * c.y + 0.25f * c.z; }
LIGHTING_INLINE float lighting_co(vec3 c) { return 0.5f * c.x - 0.5f * c.z; }
LIGHTING_INLINE float lighting_cg(vec3 c) { return -0.25f * c.x + 0.5f * c.y - 0.25f * c.z; }

LIGHTING_INLINE IrradianceSh irradiance_sh_zero() {
  IrradianceSh s;
  s.luma = vec4(0.0f);
  s.chroma = vec4(0.0f);
  return s;
}

LIGHTING_INLINE IrradianceSh irradiance_sh_add(IrradianceSh a, IrradianceSh b) {
  IrradianceSh s;
  s.luma = a.luma + b.luma;
  s.chroma = a.chroma + b.chroma;
  return s;
}

// One light of irradiance `e` (rgb, on a surface facing it) arriving from unit direction
// `to_light`.
LIGHTING_INLINE IrradianceSh irradiance_sh_light(vec3 e, vec3 to_light) {
  float y = lighting_luma(e);
  IrradianceSh s;
  s.luma = vec4(0.25f * y, 0.5f * y * to_light.x, 0.5f * y * to_light.y, 0.5f * y * to_light.z);
  s.chroma = vec4(0.25f * lighting_co(e), 0.25f * lighting_cg(e), 0.0f, 0.0f);
  return s;
}

// The hemisphere ambient: irradiance `sky` on a surface facing up, `ground` facing down, their
// mean facing sideways.
LIGHTING_INLINE IrradianceSh irradiance_sh_ambient(vec3 sky, vec3 ground) {
  vec3 mean = 0.5f * (sky + ground);
  IrradianceSh s;
  s.luma = vec4(lighting_luma(mean), 0.0f, 0.5f * (lighting_luma(sky) - lighting_luma(ground)), 0.0f);
  s.chroma = vec4(lighting_co(mean), lighting_cg(mean), 0.0f, 0.0f);
  return s;
}

// The irradiance on a surface facing unit `normal`, clamped at zero.
LIGHTING_INLINE vec3 irradiance_sh_evaluate(vec4 luma, vec4 chroma, vec3 normal) {
  float y = max(luma.x + luma.y * normal.x + luma.z * normal.y + luma.w * normal.z, 0.0f);
  if (!(luma.x > 1e-8f)) return vec3(0.0f);
  float co = chroma.x / luma.x;
  float cg = chroma.y / luma.x;
  // YCoCg -> RGB at unit luma; the mean of non-negative colours has no negative channel, the
  // max only absorbs half-float rounding.
  vec3 unit = max(vec3(1.0f + co - cg, 1.0f + cg, 1.0f - co - cg), vec3(0.0f));
  return y * unit;
}

// A lit sprite's normal at quad coordinate `corner` (in [-0.5, 0.5]^2): `face` is its plane's
// normal turned to the eye (unit), `right` and `up` its unit in-plane axes.
LIGHTING_INLINE vec3 particle_lit_normal(vec3 face, vec3 right, vec3 up, vec2 corner) {
  return normalize(face + (2.0f * kLitNormalBend) * (corner.x * right + corner.y * up));
}

// The plane normal of axes (axis_x, axis_y) turned to the side `to_eye` is on.
LIGHTING_INLINE vec3 particle_lit_face(vec3 axis_x, vec3 axis_y, vec3 to_eye) {
  vec3 n = normalize(cross(axis_x, axis_y));
  return dot(n, to_eye) < 0.0f ? -n : n;
}

// The colour a lit sprite's fragment passes to particle_premultiply: its straight-alpha colour
// `color` with rgb as a diffuse albedo, lit by irradiance `front` (at the normal) and `back` (at
// -normal), the back passed on in proportion to 1 - the fragment's alpha (colour alpha x texel
// alpha x soft fade).
LIGHTING_INLINE vec4 particle_lit_color(vec4 color, float texel_alpha, float fade, vec3 front, vec3 back) {
  float alpha = clamp(color.w * texel_alpha, 0.0f, 1.0f) * fade;
  vec3 e = front + (1.0f - alpha) * back;
  vec3 rgb = vec3(color.x, color.y, color.z) * e * (1.0f / kLightingPi);
  return vec4(rgb.x, rgb.y, rgb.z, color.w);
}

MOTE_SHARED_END
#endif
