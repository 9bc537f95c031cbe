// Lit sprites per pixel, on both draw paths (particle_quad.frag, tile_blend.comp): the froxel
// irradiance volume (media/irradiance_volume.hpp, shaders/media/froxel_irradiance.comp) read at
// the fragment's viewport point and view depth, evaluated at the sprite's normal and at its
// opposite for the back-face transmission (shared/particle_lighting.h; docs/design/render.md,
// "Lighting").
#ifndef MOTE_SHADERS_RENDER_PARTICLE_LIGHTING_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_LIGHTING_GLSL
#include "shared/media_density.h"
#include "shared/media_passes.h"
#include "shared/particle_lighting.h"

// The volume's texture coordinate at viewport uv in [0, 1]^2 and view depth `view_depth`: a
// froxel's value sits at its centre, slice coordinate k + 1/2.
vec3 particle_irradiance_uvw(MediaFogSampling s, vec2 uv, float view_depth) {
  float slices = s.depth_range.z;
  float slice = media_depth_slice(min(view_depth, s.depth_range.y), s.depth_range.x, s.depth_range.y, slices);
  return vec3(uv, slice / slices);
}

// particle_lit_color for a fragment at (uv, view_depth) facing `normal`.
vec4 particle_lit_fragment(sampler3D luma, sampler3D chroma, MediaFogSampling s, vec2 uv, float view_depth,
                           vec3 normal, vec4 color, float texel_alpha, float fade) {
  vec3 uvw = particle_irradiance_uvw(s, uv, view_depth);
  vec4 l = textureLod(luma, uvw, 0.0);
  vec4 c = textureLod(chroma, uvw, 0.0);
  return particle_lit_color(color, texel_alpha, fade, irradiance_sh_evaluate(l, c, normal),
                            irradiance_sh_evaluate(l, c, -normal));
}
#endif
