#include "render/render_view.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "mote/particle_renderer.hpp"

namespace mote::render {

shader::RenderView make_render_view(const ViewSetup& s) {
  shader::RenderView v{};
  const glm::vec3 eye = s.camera.position;
  glm::vec3 forward = s.camera.target - eye;
  if (glm::length(forward) < 1e-6f) forward = {0.0f, 0.0f, -1.0f};
  forward = glm::normalize(forward);
  // Looking straight up or down: take +Z as the reference up instead of +Y.
  const glm::vec3 world_up = std::abs(forward.y) > 0.999f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 right = glm::normalize(glm::cross(forward, world_up));
  const glm::vec3 up = glm::cross(right, forward);
  v.view = glm::lookAtRH(eye, eye + forward, up);
  const float aspect = float(s.width) / float(s.height);
  v.projection = shader::render_perspective(glm::radians(s.camera.fov_y_degrees), aspect, s.camera.near_plane);
  v.projection[1][1] = -v.projection[1][1];  // Vulkan's framebuffer y points down
  v.view_projection = v.projection * v.view;
  v.inverse_view_projection = glm::inverse(v.view_projection);
  v.camera_position = glm::vec4(eye, 1.0f);
  v.camera_right = glm::vec4(right, 0.0f);
  v.camera_up = glm::vec4(up, 0.0f);
  v.camera_forward = glm::vec4(forward, 0.0f);
  v.viewport = {float(s.width), float(s.height), 1.0f / float(s.width), 1.0f / float(s.height)};
  v.clip = {s.camera.near_plane, s.camera.far_plane, s.exposure, s.time};
  if (s.sun) {
    const glm::vec3 dir = glm::normalize(s.sun->direction);
    v.sun_direction = glm::vec4(dir, 1.0f);
    v.sun_radiance = glm::vec4(s.sun->color * s.sun->intensity, 0.0f);
    if (s.sun->shadows && s.shadow_map_size > 0) {
      const float r = std::max(s.shadow_radius, 0.1f);
      const glm::vec3 sun_up = std::abs(dir.y) > 0.999f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
      const glm::mat4 light_view = glm::lookAtRH(s.shadow_center - dir * (2.0f * r), s.shadow_center, sun_up);
      const glm::mat4 light_projection = glm::orthoRH_ZO(-r, r, -r, r, 0.0f, 4.0f * r);
      v.sun_view_projection = light_projection * light_view;
      v.sun_radiance.w = 1.0f / float(s.shadow_map_size);
    }
  }
  v.sky_ambient = glm::vec4(s.environment.sky_color * s.environment.ambient_intensity, 0.0f);
  v.ground_ambient = glm::vec4(s.environment.ground_color * s.environment.ambient_intensity, 0.0f);
  v.background = glm::vec4(s.environment.background, 1.0f);
  v.point_light_count = std::min(s.point_light_count, shader::kMaxPointLights);
  return v;
}

shader::PointLightGpu make_point_light(const scene::PointLight& light, const glm::vec3& world_position) {
  shader::PointLightGpu p{};
  p.position_range = glm::vec4(world_position, light.range);
  p.radiance = glm::vec4(light.color * light.intensity, 0.0f);
  return p;
}

shader::PointLightGpu spot_light_gpu(const glm::vec3& position, float range, const glm::vec3& radiance,
                                     const glm::vec3& direction, float inner_degrees, float outer_degrees) {
  const float length = glm::length(direction);
  const glm::vec3 axis = length > 1e-6f ? direction / length : glm::vec3(0.0f, -1.0f, 0.0f);
  const float outer = glm::clamp(outer_degrees, 1e-3f, 90.0f);
  const float inner = glm::clamp(inner_degrees, 0.0f, outer);
  const float cos_outer = std::cos(glm::radians(outer));
  const float cos_inner = std::cos(glm::radians(inner));
  // inner == outer: a hard edge, the ramp as steep as a float keeps it.
  const float scale = 1.0f / std::max(cos_inner - cos_outer, 1e-4f);
  shader::PointLightGpu p{};
  p.position_range = glm::vec4(position, range);
  p.radiance = glm::vec4(radiance, scale);
  p.spot = glm::vec4(axis, -cos_outer * scale);
  return p;
}

shader::PointLightGpu make_spot_light(const scene::SpotLight& light, const glm::mat4& world) {
  const glm::vec3 position(world * glm::vec4(light.position, 1.0f));
  // The direction turns (and, under a non-uniform scale, leans) as a vector does; normalised so
  // the cone's cosines stay exact.
  const glm::vec3 direction = glm::normalize(glm::mat3(world) * light.direction);
  return spot_light_gpu(position, light.range, light.color * light.intensity, direction, light.inner_degrees,
                        light.outer_degrees);
}

void public_lights(std::span<const shader::PointLightGpu> lights, mote::ParticleView& view) {
  for (const shader::PointLightGpu& light : lights) {
    const std::array<float, 3> position{light.position_range.x, light.position_range.y, light.position_range.z};
    const std::array<float, 3> radiance{light.radiance.x, light.radiance.y, light.radiance.z};
    if (light.spot == glm::vec4(0.0f)) {
      view.point_lights.push_back({position, light.position_range.w, radiance});
      continue;
    }
    // The cone back from its scale and offset (render_view.cpp, spot_light_gpu).
    const float cos_outer = -light.spot.w / light.radiance.w;
    const float cos_inner = std::min(cos_outer + 1.0f / light.radiance.w, 1.0f);
    view.spot_lights.push_back({.position = position,
                                .range = light.position_range.w,
                                .radiance = radiance,
                                .direction = {light.spot.x, light.spot.y, light.spot.z},
                                .inner_degrees = glm::degrees(std::acos(cos_inner)),
                                .outer_degrees = glm::degrees(std::acos(cos_outer))});
  }
}

}  // namespace mote::render
