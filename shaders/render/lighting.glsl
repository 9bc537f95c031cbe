// The scene's light model, shared by the opaque surfaces and the mesh particles (lit sprites are
// lit from the froxel irradiance volume: render/particle_lighting.glsl):
// hemisphere ambient (sky above, ground below), one directional light with a PCF-filtered
// shadow map, and point lights with inverse-square falloff windowed to their range (the
// Karis 2013 "Real Shading in UE4" window). Specular is GGX with Schlick Fresnel and the
// Smith-GGX correlated visibility (Heitz 2014), enough for the opaque set. The includer declares
// `view` (RenderView) and `point_lights[]`.
#ifndef MOTE_SHADERS_RENDER_LIGHTING_GLSL
#define MOTE_SHADERS_RENDER_LIGHTING_GLSL

#include "shared/particle_render.h"

const float kPi = 3.14159265358979f;

vec3 hemisphere_ambient(vec3 normal) {
  float up = clamp(0.5f * normal.y + 0.5f, 0.0f, 1.0f);
  return mix(view.ground_ambient.rgb, view.sky_ambient.rgb, up);
}

float point_light_falloff(float distance, float range) {
  float ratio = distance / max(range, 1e-4f);
  float window = clamp(1.0f - ratio * ratio * ratio * ratio, 0.0f, 1.0f);
  return window * window / max(distance * distance, 1e-4f);
}

float ggx_distribution(float n_dot_h, float alpha) {
  float a2 = alpha * alpha;
  float d = n_dot_h * n_dot_h * (a2 - 1.0f) + 1.0f;
  return a2 / (kPi * d * d);
}

float smith_visibility(float n_dot_v, float n_dot_l, float alpha) {
  float a2 = alpha * alpha;
  float gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0f - a2) + a2);
  float gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0f - a2) + a2);
  return 0.5f / max(gv + gl, 1e-5f);
}

// Outgoing radiance for one light of irradiance `e` (radiance · cos already applied by the
// caller's n_dot_l) arriving from `l`.
vec3 brdf(vec3 n, vec3 v, vec3 l, vec3 base_color, float roughness, float metallic) {
  vec3 h = normalize(v + l);
  float n_dot_l = max(dot(n, l), 0.0f);
  float n_dot_v = max(dot(n, v), 1e-4f);
  float n_dot_h = max(dot(n, h), 0.0f);
  float v_dot_h = max(dot(v, h), 0.0f);
  float alpha = roughness * roughness;
  vec3 f0 = mix(vec3(0.04f), base_color, metallic);
  vec3 fresnel = f0 + (1.0f - f0) * pow(1.0f - v_dot_h, 5.0f);
  vec3 specular = ggx_distribution(n_dot_h, alpha) * smith_visibility(n_dot_v, n_dot_l, alpha) * fresnel;
  vec3 diffuse = (1.0f - fresnel) * (1.0f - metallic) * base_color / kPi;
  return (diffuse + specular) * n_dot_l;
}

#endif
