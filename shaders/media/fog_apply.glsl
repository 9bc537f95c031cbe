// Reading the integrated fog at a view depth (the composite over the opaque scene and the
// particles on both draw paths: particle_quad.frag, tile_blend.comp). The integrated volume holds,
// in slice k, the in-scattered light (rgb) and the transmittance (a) from the camera to the far
// side of slice k; between the camera and slice 0's far side the fog grows from none (docs/design/
// media.md, "The composite").
#ifndef MOTE_SHADERS_MEDIA_FOG_APPLY_GLSL
#define MOTE_SHADERS_MEDIA_FOG_APPLY_GLSL
#include "shared/media_density.h"
#include "shared/media_passes.h"

// (in-scattered rgb, transmittance) between the eye and view depth `view_depth` at viewport
// coordinate uv in [0, 1]^2.
vec4 media_fog_at(sampler3D integrated, MediaFogSampling s, vec2 uv, float view_depth) {
  if (s.depth_range.w == 0.0) return vec4(0.0, 0.0, 0.0, 1.0);
  float slices = s.depth_range.z;
  float slice = view_depth >= s.depth_range.y ? slices
                                              : media_depth_slice(view_depth, s.depth_range.x, s.depth_range.y, slices);
  vec4 at = textureLod(integrated, vec3(uv, (max(slice, 1.0) - 0.5) / slices), 0.0);
  return slice < 1.0 ? mix(vec4(0.0, 0.0, 0.0, 1.0), at, slice) : at;
}

// A premultiplied colour seen through the fog in front of it: attenuated, and the light the fog
// scatters towards the eye added in proportion to the colour's coverage (an additive particle,
// alpha 0, only dims).
vec4 media_fog_premultiplied(vec4 c, vec4 fog) { return vec4(c.rgb * fog.a + c.a * fog.rgb, c.a); }
#endif
