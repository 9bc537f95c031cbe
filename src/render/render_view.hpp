// The frame's RenderView block (shaders/shared/particle_render.h) from the scene's camera pose,
// lights and environment: a right-handed look-at view, the reversed-Z infinite projection with
// Vulkan's y-down flip folded in (so the picture is upright and counter-clockwise stays the front
// face), and the sun's orthographic shadow projection fitted to a bounding sphere of the set.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <glm/glm.hpp>

#include "scene/scene.hpp"
#include "shared/particle_render.h"

namespace mote {
struct ParticleView;  // mote/particle_renderer.hpp
}  // namespace mote

namespace mote::render {

struct ViewSetup {
  scene::CameraPose camera;
  uint32_t width = 1;
  uint32_t height = 1;
  float exposure = 1.0f;
  float time = 0.0f;
  std::optional<scene::DirectionalLight> sun;
  glm::vec3 shadow_center{0.0f};  // the sphere the sun's shadow map covers
  float shadow_radius = 10.0f;
  uint32_t shadow_map_size = 0;  // 0 = no shadows
  scene::Environment environment;
  uint32_t point_light_count = 0;
};

shader::RenderView make_render_view(const ViewSetup& setup);

// The point lights as the shaders read them (at most kMaxPointLights; world positions given).
shader::PointLightGpu make_point_light(const scene::PointLight& light, const glm::vec3& world_position);
// A spot light as the shaders read it (shared/particle_render.h, light_cone_factor): pointing
// along `direction` (normalised here; zero: straight down), its cone's half-angles in degrees,
// outer clamped to (0, 90] and inner to [0, outer].
shader::PointLightGpu spot_light_gpu(const glm::vec3& position, float range, const glm::vec3& radiance,
                                     const glm::vec3& direction, float inner_degrees, float outer_degrees);
// `world`: its transform's world matrix (identity for a light placed in the world), which moves
// and turns it.
shader::PointLightGpu make_spot_light(const scene::SpotLight& light, const glm::mat4& world);
// The lights as the public renderer takes them (mote::ParticleView's point_lights and
// spot_lights, appended in that order: a list of point lights then spot lights comes back as it
// was; a spot's cone recovered from its scale and offset).
void public_lights(std::span<const shader::PointLightGpu> lights, mote::ParticleView& view);

}  // namespace mote::render
