#version 460
// Opaque shading: lighting.glsl's model with the sun's shadow map (3x3 PCF on a compare sampler),
// the scene's point and spot lights, then the frame's particle lights of the pixel's cluster
// (particle_lights_list.glsl; the whole list where the point is in no cluster).
#include "opaque_common.glsl"
#include "lighting.glsl"
#define PARTICLE_LIGHTS_BINDING 8
#define PARTICLE_LIGHT_CLUSTERS_BINDING 9
#include "particle_lights_list.glsl"

layout(binding = 7) uniform sampler2DShadow shadow_map;

layout(location = 0) in vec3 v_world;
layout(location = 1) in vec3 v_normal;
layout(location = 2) flat in vec4 v_base_color;
layout(location = 3) flat in vec4 v_emissive;
layout(location = 0) out vec4 o_color;

float sun_shadow(vec3 world, vec3 normal) {
  if (view.sun_radiance.w <= 0.0) return 1.0;
  // Normal offset (a texel's worth along the normal) against acne on grazing surfaces.
  vec3 offset_world = world + normal * 0.02;
  vec4 clip = view.sun_view_projection * vec4(offset_world, 1.0);
  vec3 ndc = clip.xyz / clip.w;
  vec2 uv = ndc.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || ndc.z > 1.0) return 1.0;
  float texel = view.sun_radiance.w;
  float lit = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) lit += texture(shadow_map, vec3(uv + vec2(x, y) * texel, ndc.z - 0.0015));
  return lit / 9.0;
}

vec3 point_light_shade(PointLightGpu light, vec3 n, vec3 v, vec3 base, float roughness, float metallic) {
  vec3 to_light = light.position_range.xyz - v_world;
  float d = length(to_light);
  vec3 l = to_light / max(d, 1e-4);
  return brdf(n, v, l, base, roughness, metallic) * light.radiance.rgb *
         point_light_falloff(d, light.position_range.w) * light_cone_factor(light.radiance, light.spot, -l);
}

void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(view.camera_position.xyz - v_world);
  vec3 base = v_base_color.rgb;
  float roughness = clamp(v_base_color.a, 0.02, 1.0);
  float metallic = v_emissive.a;
  // Ambient: diffuse from the hemisphere at the normal, and a specular term from the hemisphere
  // in the reflected direction (no environment map: metals would otherwise read black).
  vec3 f0 = mix(vec3(0.04), base, metallic);
  vec3 reflected = reflect(-v, n);
  vec3 color = hemisphere_ambient(n) * base * (1.0 - metallic) + hemisphere_ambient(reflected) * f0 + v_emissive.rgb;
  if (view.sun_direction.w > 0.0) {
    vec3 l = -view.sun_direction.xyz;
    color += brdf(n, v, l, base, roughness, metallic) * view.sun_radiance.rgb * sun_shadow(v_world, n);
  }
  for (uint i = 0u; i < min(view.point_light_count, kMaxPointLights); ++i)
    color += point_light_shade(point_lights[i], n, v, base, roughness, metallic);
  uint particle_count = particle_light_count();
  ParticleLightSpan span = particle_light_span(v_world);
  for (uint k = 0u; k < span.count; ++k) {
    uint i = particle_light_at(span, k);
    if (i >= particle_count) continue;
    // Beyond its range a light adds nothing: skip the BRDF (a cluster's box is larger than the
    // pixel's point, and the whole list's most lights are out of range where there is no cluster).
    vec3 to_light = particle_lights[i].position_range.xyz - v_world;
    float range = particle_lights[i].position_range.w;
    if (dot(to_light, to_light) >= range * range) continue;
    color += point_light_shade(particle_lights[i], n, v, base, roughness, metallic);
  }
  o_color = vec4(color, 1.0);
}
