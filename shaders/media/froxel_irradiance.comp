#version 460
// The froxel irradiance volume lit particles read (src/media/irradiance_volume.cpp,
// docs/design/render.md "Lighting"): per froxel, at a point jittered through it every frame with
// this pass's own decorrelation offset, the irradiance of the hemisphere ambient, the sun through
// its shadow map and every point light, projected to luma SH (L1) and constant chroma
// (shared/particle_lighting.h). No medium: it runs with or without fog, and a lit particle is lit
// as the surfaces beside it are (the fog is composited over both). No history: the jitter moves
// each frame, the volume is rebuilt whole.
#include "media/froxel_common.glsl"
#include "shared/particle_lighting.h"
#include "shared/particle_render.h"  // PointLightGpu

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 1) readonly buffer PointLights { PointLightGpu point_lights[]; };
layout(binding = 2) uniform sampler2DShadow shadow_map;
layout(binding = 3, rgba16f) uniform writeonly image3D luma;
layout(binding = 4, rgba16f) uniform writeonly image3D chroma;
layout(push_constant) uniform Push { IrradiancePush push; };
#define PARTICLE_LIGHTS_BINDING 5
#define PARTICLE_LIGHT_CLUSTERS_BINDING 6
#include "render/particle_lights_list.glsl"

// Irradiance of a point light (no cone: the particle lights) at p.
IrradianceSh add_point_light(IrradianceSh sh, PointLightGpu light, vec3 p) {
  vec3 to_light = light.position_range.xyz - p;
  float d = length(to_light);
  if (d <= 1e-4 || d >= light.position_range.w) return sh;  // at the light, or past its range
  vec3 e = light.radiance.rgb * media_point_falloff(d, light.position_range.w) *
           light_cone_factor(light.radiance, light.spot, -to_light / d);
  return irradiance_sh_add(sh, irradiance_sh_light(e, to_light / d));
}

IrradianceSh irradiance_at(vec3 p) {
  IrradianceSh sh = irradiance_sh_ambient(push.sky_ambient.rgb, push.ground_ambient.rgb);
  if (frame.sun_direction.w > 0.0) {
    vec3 e = frame.sun_radiance.rgb * media_sun_visibility(shadow_map, p);
    sh = irradiance_sh_add(sh, irradiance_sh_light(e, -frame.sun_direction.xyz));
  }
  for (uint i = 0u; i < min(frame.counts.y, kMaxPointLights); i++) {
    vec3 to_light = point_lights[i].position_range.xyz - p;
    float d = length(to_light);
    if (d <= 1e-4) continue;  // at the light: no direction to take it from
    vec3 e = point_lights[i].radiance.rgb * media_point_falloff(d, point_lights[i].position_range.w) *
             light_cone_factor(point_lights[i].radiance, point_lights[i].spot, -to_light / d);
    sh = irradiance_sh_add(sh, irradiance_sh_light(e, to_light / d));
  }
  // The particle lights of p's cluster (the whole list where p is in none).
  uint particle_count = particle_light_count();
  ParticleLightSpan span = particle_light_span(p);
  for (uint k = 0u; k < span.count; k++) {
    uint i = particle_light_at(span, k);
    if (i < particle_count) sh = add_point_light(sh, particle_lights[i], p);
  }
  return sh;
}

void main() {
  uvec3 froxel = gl_GlobalInvocationID;
  if (any(greaterThanEqual(froxel, uvec3(frame.grid_size.xyz)))) return;
  vec3 jitter = media_jitter(froxel, frame.counts.z,
                             uvec2(kMediaIrradianceDecorrelationX, kMediaIrradianceDecorrelationY));
  IrradianceSh sh = irradiance_at(froxel_world(vec3(froxel) + jitter));
  imageStore(luma, ivec3(froxel), sh.luma);
  imageStore(chroma, ivec3(froxel), sh.chroma);
}
