#include "api/host_frame.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "render/render_view.hpp"

namespace mote::detail {

namespace {

glm::vec3 vec3_of(const std::array<float, 3>& a) { return {a[0], a[1], a[2]}; }

}  // namespace

shader::RenderView render_view(const ParticleView& v, uint32_t width, uint32_t height, uint32_t lights) {
  shader::RenderView out{};
  out.view = glm::make_mat4(v.view.data());
  out.projection = glm::make_mat4(v.projection.data());
  out.view_projection = out.projection * out.view;
  out.inverse_view_projection = glm::inverse(out.view_projection);
  out.sun_view_projection = glm::make_mat4(v.sun_view_projection.data());
  // The camera's frame in the world: the inverse view's columns.
  const glm::mat4 camera = glm::inverse(out.view);
  out.camera_position = glm::vec4(glm::vec3(camera[3]), 1.0f);
  out.camera_right = glm::vec4(glm::normalize(glm::vec3(camera[0])), 0.0f);
  out.camera_up = glm::vec4(glm::normalize(glm::vec3(camera[1])), 0.0f);
  out.camera_forward = glm::vec4(-glm::normalize(glm::vec3(camera[2])), 0.0f);
  out.viewport = {float(width), float(height), 1.0f / float(width), 1.0f / float(height)};
  out.clip = {v.near_plane, v.far_plane, v.exposure, v.time};
  const glm::vec3 radiance = vec3_of(v.sun_radiance);
  const glm::vec3 direction = vec3_of(v.sun_direction);
  if (glm::length(radiance) > 0.0f && glm::length(direction) > 0.0f) {
    out.sun_direction = glm::vec4(glm::normalize(direction), 1.0f);
    out.sun_radiance = glm::vec4(radiance, v.shadow_map_size > 0 ? 1.0f / float(v.shadow_map_size) : 0.0f);
  }
  out.sky_ambient = glm::vec4(vec3_of(v.sky_ambient), 0.0f);
  out.ground_ambient = glm::vec4(vec3_of(v.ground_ambient), 0.0f);
  out.point_light_count = std::min(lights, shader::kMaxPointLights);
  return out;
}

Status check_view(const ParticleView& v) {
  auto finite = [](std::span<const float> values) {
    return std::all_of(values.begin(), values.end(), [](float x) { return std::isfinite(x); });
  };
  if (!finite(v.view) || !finite(v.projection) || !finite(v.sun_view_projection))
    return make_error(ErrorCode::kInvalidArgument, "the view's matrices must be finite");
  if (!(v.near_plane > 0.0f) || !(v.far_plane > v.near_plane) || !std::isfinite(v.far_plane))
    return make_error(ErrorCode::kInvalidArgument, "the view needs 0 < near_plane < far_plane, both finite");
  if (std::abs(glm::determinant(glm::make_mat4(v.view.data()))) < 1e-12f)
    return make_error(ErrorCode::kInvalidArgument, "the view matrix is not invertible");
  for (size_t i = 0; i < v.spot_lights.size(); ++i) {
    const SpotLight& s = v.spot_lights[i];
    const std::string where = "spot_lights[" + std::to_string(i) + "]";
    if (!finite(s.position) || !finite(s.radiance) || !finite(s.direction) || !std::isfinite(s.range))
      return make_error(ErrorCode::kInvalidArgument, "a spot light's values must be finite", where);
    if (glm::length(vec3_of(s.direction)) < 1e-6f)
      return make_error(ErrorCode::kInvalidArgument, "a spot light's direction must not be zero", where);
    if (!(s.outer_degrees > 0.0f && s.outer_degrees <= 90.0f) ||
        !(s.inner_degrees >= 0.0f && s.inner_degrees <= s.outer_degrees))
      return make_error(ErrorCode::kInvalidArgument,
                        "a spot light needs 0 <= inner_degrees <= outer_degrees <= 90 and outer_degrees > 0", where);
  }
  return ok_status();
}

std::vector<shader::PointLightGpu> point_lights(const ParticleView& v) {
  std::vector<shader::PointLightGpu> out;
  for (const PointLight& light : v.point_lights) {
    if (out.size() == shader::kMaxPointLights) break;
    out.push_back({glm::vec4(vec3_of(light.position), light.range), glm::vec4(vec3_of(light.radiance), 0.0f)});
  }
  for (const SpotLight& light : v.spot_lights) {
    if (out.size() == shader::kMaxPointLights) break;
    out.push_back(render::spot_light_gpu(vec3_of(light.position), light.range, vec3_of(light.radiance),
                                         vec3_of(light.direction), light.inner_degrees, light.outer_degrees));
  }
  return out;
}

Status borrow(const ParticleTargets& t, uint32_t width, uint32_t height, BorrowedTargets& b) {
  if (t.color == VK_NULL_HANDLE || t.color_view == VK_NULL_HANDLE || t.depth == VK_NULL_HANDLE ||
      t.depth_view == VK_NULL_HANDLE)
    return make_error(ErrorCode::kInvalidArgument, "the targets need the colour and depth images and their views");
  b.color = gpu::Image::borrow(t.color, t.color_view, render::kHdrFormat, width, height, VK_IMAGE_ASPECT_COLOR_BIT);
  b.depth = gpu::Image::borrow(t.depth, t.depth_view, render::kDepthFormat, width, height, VK_IMAGE_ASPECT_DEPTH_BIT);
  b.targets = {&b.color, t.color_layout, &b.depth, t.depth_layout};
  return ok_status();
}

}  // namespace mote::detail
