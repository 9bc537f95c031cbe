// What the froxel passes share (shaders/media/*.comp, src/media/froxel_fog.cpp): the frame block
// at binding 0 and the froxel <-> world mapping. The grid covers the viewport in x and y, and view
// depth from near to far in logarithmic slices (media_slice_depth).
#ifndef MOTE_SHADERS_MEDIA_FROXEL_COMMON_GLSL
#define MOTE_SHADERS_MEDIA_FROXEL_COMMON_GLSL
#include "shared/media_density.h"
#include "shared/media_passes.h"

layout(std140, binding = 0) uniform Frame { MediaFrame frame; };

// The world point at continuous grid coordinate g (x, y in froxels across the viewport, z in
// slices): on the ray through that viewport point, at the slice's view depth.
vec3 froxel_world(vec3 g) {
  vec2 ndc = g.xy / frame.grid_size.xy * 2.0 - 1.0;
  // Any depth on the ray will do for its direction; 0.5 lies in front of the camera for both a
  // finite and an infinite reversed-Z projection.
  vec4 on_ray = frame.inverse_view_projection * vec4(ndc, 0.5, 1.0);
  vec3 direction = normalize(on_ray.xyz / on_ray.w - frame.camera_position.xyz);
  float depth = media_slice_depth(g.z, frame.depth_range.x, frame.depth_range.y, frame.grid_size.z);
  return frame.camera_position.xyz + direction * (depth / max(dot(direction, frame.camera_forward.xyz), 1e-4));
}

// View depth (along camera_forward) of the scene at a pixel: its reversed-Z depth unprojected.
// A depth of 0 is the far plane at infinity: no surface, the fog's whole depth in front of it.
float scene_view_depth(vec2 ndc, float depth) {
  if (depth <= 0.0) return 3.0e38;
  vec4 p = frame.inverse_view_projection * vec4(ndc, depth, 1.0);
  return dot(p.xyz / p.w - frame.camera_position.xyz, frame.camera_forward.xyz);
}
// The sun's visibility at p through its shadow map (frame.sun_view_projection; texel size in
// frame.sun_radiance.w, 0: unshadowed): one compare tap (the jitter, and the fog's accumulation,
// filter it). Outside the map: lit.
float media_sun_visibility(sampler2DShadow shadow_map, vec3 p) {
  if (frame.sun_radiance.w <= 0.0) return 1.0;
  vec4 clip = frame.sun_view_projection * vec4(p, 1.0);
  vec3 ndc = clip.xyz / clip.w;
  vec2 uv = ndc.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || ndc.z > 1.0) return 1.0;
  return texture(shadow_map, vec3(uv, ndc.z - 0.002));
}
#endif
