#version 460
// Particle fragments: atlas texel × colour, soft-depth fade against the scene depth, premultiplied
// (additive → alpha 0). Built three times (shaders/render/shaders.cmake) — the compositing:
//   default           — weighted blended OIT (McGuire & Bavoil, JCGT 2013): target 0 accumulates
//                       premultiplied colour and alpha × w(z, a), target 1 the revealage product,
//                       target 2 the emission of additive particles (alpha 0: weights would
//                       vanish, and light adds in any order; docs/design/render.md, "Raster path");
//   RASTER_SORTED=1   — the draw list is sorted back to front: premultiplied over, one target;
//   RASTER_AVBOIT=1   — volume-based OIT (shaders/shared/avboit.h): the same three targets as
//                       the default, every fragment weighted by the transmittance in front of it
//                       (the optical depth the splat and integrate passes left in the volume) in
//                       place of the depth weight, and the emission attenuated by it too.
// A lit sprite's colour is an albedo lit per pixel from the froxel irradiance volume at its bent
// normal, with back-face transmission (render/particle_lighting.glsl). Each fragment is seen
// through the froxel fog in front of it (media/fog_apply.glsl; no fog: the renderer binds a volume
// of none and the read is skipped).
#ifndef RASTER_SORTED
#define RASTER_SORTED 0
#endif
#ifndef RASTER_AVBOIT
#define RASTER_AVBOIT 0
#endif
// RASTER_RIBBON=1: ribbon pieces (ribbon.vert): the colour varies along the strip and u repeats
// (a tiled strip's u runs past 1).
#ifndef RASTER_RIBBON
#define RASTER_RIBBON 0
#endif
#include "particle_draw_common.glsl"
#include "media/fog_apply.glsl"
#include "render/particle_lighting.glsl"

layout(binding = 5) uniform sampler2D atlas;
layout(binding = 6) uniform sampler2D scene_depth;  // reversed-Z, read-only this pass
layout(binding = 7) uniform sampler3D fog_integrated;
layout(std140, binding = 8) uniform FogSampling { MediaFogSampling fog_sampling; };
layout(binding = 9) uniform sampler3D irradiance_luma;
layout(binding = 10) uniform sampler3D irradiance_chroma;
layout(std140, binding = 11) uniform IrradianceSampling { MediaFogSampling irradiance_sampling; };
#if RASTER_AVBOIT
#include "shared/avboit.h"
layout(std430, binding = 12) readonly buffer AvboitSlicesBlock { AvboitSlices avboit; };
layout(std430, binding = 13) readonly buffer AvboitDepth { float avboit_depth[]; };
#define AVBOIT_READS_DEPTH 1
#include "render/avboit_common.glsl"
#endif

layout(location = 0) in vec2 v_uv;
layout(location = 1) in float v_view_depth;
#if RASTER_RIBBON
layout(location = 2) in vec4 v_color;
#else
layout(location = 2) flat in vec4 v_color;
#endif
layout(location = 3) flat in vec4 v_uv_rect;
layout(location = 4) flat in vec4 v_atlas_rect;
layout(location = 5) flat in vec4 v_flipbook;
layout(location = 6) flat in uint v_flags;
layout(location = 7) flat in vec3 v_face;
layout(location = 8) flat in vec3 v_right;
layout(location = 9) flat in vec3 v_up;

#if RASTER_SORTED
layout(location = 0) out vec4 o_color;
#else
layout(location = 0) out vec4 o_accum;      // sum of c·w, a·w
layout(location = 1) out vec4 o_revealage;  // a (blended as dst *= 1 - a)
layout(location = 2) out vec4 o_emission;   // additive light
#endif


// McGuire & Bavoil's weight, their equation (9) on view distance z in metres.
float wboit_weight(float z, float a) {
  float zz = z / 5.0;
  float w = 10.0 / (1e-5 + zz * zz + pow(z / 200.0, 6.0));
  return a * clamp(w, 1e-2, 3e3);
}

void main() {
  vec2 uv = v_uv;
#if RASTER_RIBBON
  uv.x = fract(uv.x);
#endif
  vec4 texel = particle_sample(atlas, uv, v_flipbook.x, uint(v_flipbook.y), uint(v_flipbook.z), v_flags, v_uv_rect,
                               v_atlas_rect);
  float fade = 1.0;
  if ((v_flags & kDrawFlagSoft) != 0u) {
    float scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy), 0).r;
    fade = particle_soft_fade(particle_view_depth(scene, view.clip.x), v_view_depth, v_flipbook.w);
  }
  bool additive = (v_flags & kDrawFlagAdditive) != 0u;
  vec2 screen_uv = gl_FragCoord.xy * view.viewport.zw;
  vec4 color = v_color;
  if ((v_flags & kDrawFlagLit) != 0u) {
    vec2 corner = vec2(v_uv.x - 0.5, 0.5 - v_uv.y);  // particle_corner_uv inverted
    vec3 normal = particle_lit_normal(v_face, v_right, v_up, corner);
    color = particle_lit_fragment(irradiance_luma, irradiance_chroma, irradiance_sampling, screen_uv, v_view_depth,
                                  normal, color, texel.a, fade);
  }
  vec4 c = particle_premultiply(color, texel, additive, fade);
  c = media_fog_premultiplied(c, media_fog_at(fog_integrated, fog_sampling, screen_uv, v_view_depth));
#if RASTER_SORTED
  o_color = c;
#else
#if RASTER_AVBOIT
  float w = exp(-avboit_optical_depth(screen_uv, avboit_slice_at(v_view_depth)));
  o_accum = additive ? vec4(0.0) : vec4(c.rgb * w, c.a * w);
  o_revealage = vec4(additive ? 0.0 : c.a);
  o_emission = additive ? vec4(c.rgb * w, 0.0) : vec4(0.0);
#else
  float w = wboit_weight(v_view_depth, c.a);
  o_accum = additive ? vec4(0.0) : vec4(c.rgb * w, c.a * w);
  o_revealage = vec4(additive ? 0.0 : c.a);
  o_emission = additive ? vec4(c.rgb, 0.0) : vec4(0.0);
#endif
#endif
}
