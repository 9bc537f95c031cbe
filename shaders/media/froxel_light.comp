#version 460
// Lighting of the medium and its temporal accumulation (src/media/froxel_passes.cpp,
// docs/design/media.md "The froxel passes"): per froxel, at a point jittered with the light
// pass's own decorrelation offset, the radiance scattered towards the eye per metre —
// scattering x (the ambient + the sun through its shadow map + each point light), each direct
// light weighted by the Henyey-Greenstein phase of its scattering angle — beside the extinction.
// Then the froxel's centre is reprojected into the previous frame's grid and, when it lands
// inside, blended with the history there (history_weight of it).
#include "media/froxel_common.glsl"
#include "shared/particle_render.h"  // PointLightGpu

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 1) readonly buffer PointLights { PointLightGpu point_lights[]; };
layout(binding = 2, rgba16f) uniform readonly image3D medium;
layout(binding = 3) uniform sampler3D history;
layout(binding = 4, rgba16f) uniform writeonly image3D lit;
layout(binding = 5) uniform sampler2DShadow shadow_map;
#define PARTICLE_LIGHTS_BINDING 6
#define PARTICLE_LIGHT_CLUSTERS_BINDING 7
#include "render/particle_lights_list.glsl"

// Radiance scattered towards the eye per unit scattering coefficient, at p.
vec3 in_scattering(vec3 p) {
  vec3 to_eye = normalize(frame.camera_position.xyz - p);
  float g = frame.grid_size.w;
  vec3 light = frame.ambient.rgb;
  if (frame.sun_direction.w > 0.0)
    light += frame.sun_radiance.rgb * media_sun_visibility(shadow_map, p) *
             media_hg_phase(dot(frame.sun_direction.xyz, to_eye), g);
  for (uint i = 0u; i < min(frame.counts.y, kMaxPointLights); i++) {
    vec3 from_light = p - point_lights[i].position_range.xyz;
    float d = length(from_light);
    float cos_theta = d > 1e-4 ? dot(from_light / d, to_eye) : 1.0;
    float cone = d > 1e-4 ? light_cone_factor(point_lights[i].radiance, point_lights[i].spot, from_light / d) : 1.0;
    light += point_lights[i].radiance.rgb * media_point_falloff(d, point_lights[i].position_range.w) * cone *
             media_hg_phase(cos_theta, g);
  }
  // The particle lights of p's cluster (the whole list where p is in none).
  uint particle_count = particle_light_count();
  ParticleLightSpan span = particle_light_span(p);
  for (uint k = 0u; k < span.count; k++) {
    uint i = particle_light_at(span, k);
    if (i >= particle_count) continue;
    vec3 from_light = p - particle_lights[i].position_range.xyz;
    float d = length(from_light);
    if (d >= particle_lights[i].position_range.w) continue;  // past its range: nothing
    float cos_theta = d > 1e-4 ? dot(from_light / d, to_eye) : 1.0;
    light += particle_lights[i].radiance.rgb * media_point_falloff(d, particle_lights[i].position_range.w) *
             media_hg_phase(cos_theta, g);
  }
  return light;
}

// The previous frame's grid coordinate of world point p, in [0, 1]^3 when it was inside.
vec3 previous_uvw(vec3 p) {
  vec4 clip = frame.previous_view_projection * vec4(p, 1.0);
  if (clip.w <= 1e-6) return vec3(-1.0);
  vec2 uv = clip.xy / clip.w * 0.5 + 0.5;
  // For the perspective projections Mote uses, clip.w is the view depth.
  float slice = media_depth_slice(clip.w, frame.depth_range.x, frame.depth_range.y, frame.grid_size.z);
  return vec3(uv, slice / frame.grid_size.z);
}

void main() {
  uvec3 froxel = gl_GlobalInvocationID;
  if (any(greaterThanEqual(froxel, uvec3(frame.grid_size.xyz)))) return;
  vec4 m = imageLoad(medium, ivec3(froxel));
  vec3 jitter = media_jitter(froxel, frame.counts.z, uvec2(kMediaLightDecorrelationX, kMediaLightDecorrelationY));
  vec3 radiance = any(greaterThan(m.rgb, vec3(0.0))) ? m.rgb * in_scattering(froxel_world(vec3(froxel) + jitter))
                                                     : vec3(0.0);
  vec4 current = vec4(radiance, m.a);
  if (frame.counts.w != 0u) {
    vec3 uvw = previous_uvw(froxel_world(vec3(froxel) + 0.5));
    if (all(greaterThanEqual(uvw, vec3(0.0))) && all(lessThanEqual(uvw, vec3(1.0))))
      current = mix(current, textureLod(history, uvw, 0.0), frame.depth_range.w);
  }
  imageStore(lit, ivec3(froxel), current);
}
