#include "media/reference_estimator.hpp"

#include <algorithm>
#include <cmath>

namespace mote::media {

glm::vec3 reference_in_scattering(const ReferenceScene& s, const glm::vec3& p, const glm::vec3& eye) {
  const glm::vec3 to_eye = glm::normalize(eye - p);
  const float g = s.anisotropy;
  glm::vec3 light = 0.5f * (glm::vec3(s.view.sky_ambient) + glm::vec3(s.view.ground_ambient));
  if (s.view.sun_direction.w > 0.0f)
    light += glm::vec3(s.view.sun_radiance) *
             shader::media_hg_phase(glm::dot(glm::vec3(s.view.sun_direction), to_eye), g);
  const uint32_t count = std::min<uint32_t>({s.view.point_light_count, shader::kMaxPointLights,
                                             uint32_t(s.lights.size())});
  for (uint32_t i = 0; i < count; ++i) {
    const glm::vec3 from_light = p - glm::vec3(s.lights[i].position_range);
    const float d = glm::length(from_light);
    const float cos_theta = d > 1e-4f ? glm::dot(from_light / d, to_eye) : 1.0f;
    const float cone = d > 1e-4f ? shader::light_cone_factor(s.lights[i].radiance, s.lights[i].spot, from_light / d)
                                 : 1.0f;
    light += glm::vec3(s.lights[i].radiance) * shader::media_point_falloff(d, s.lights[i].position_range.w) * cone *
             shader::media_hg_phase(cos_theta, g);
  }
  return light;
}

ReferenceFog estimate_fog(const ReferenceScene& s, glm::vec2 uv, float surface_depth, uint32_t steps) {
  const glm::vec3 eye(s.view.camera_position);
  const glm::vec3 forward(s.view.camera_forward);
  const glm::vec2 ndc = uv * 2.0f - 1.0f;
  const glm::vec4 on_ray = s.view.inverse_view_projection * glm::vec4(ndc, 0.5f, 1.0f);
  const glm::vec3 direction = glm::normalize(glm::vec3(on_ray) / on_ray.w - eye);
  const float ray_per_depth = 1.0f / std::max(glm::dot(direction, forward), 1e-4f);
  const float begin = s.near_distance;
  const float end = std::min(surface_depth, s.far_distance);
  ReferenceFog out;
  if (!(end > begin) || steps == 0) return out;
  // Double accumulation: the sum runs over thousands of steps.
  glm::dvec3 light(0.0);
  double transmittance = 1.0;
  const double step_depth = double(end - begin) / double(steps);
  const double step_length = step_depth * double(ray_per_depth);
  for (uint32_t i = 0; i < steps; ++i) {
    const float depth = float(double(begin) + (double(i) + 0.5) * step_depth);
    const glm::vec3 p = eye + direction * (depth * ray_per_depth);
    glm::vec3 scattering(0.0f);
    float extinction = 0.0f;
    for (const shader::MediaVolume& v : s.volumes) {
      const float d = shader::media_density_at(s.atlas, v, p);
      scattering += glm::vec3(v.albedo) * d;
      extinction += d;
    }
    if (extinction <= 0.0f) continue;
    const glm::dvec3 radiance = glm::dvec3(scattering * reference_in_scattering(s, p, eye));
    const double slab = std::exp(-double(extinction) * step_length);
    light += transmittance * (radiance - radiance * slab) / double(extinction);
    transmittance *= slab;
  }
  out.in_scattered = glm::vec3(light);
  out.transmittance = float(transmittance);
  return out;
}

}  // namespace mote::media
