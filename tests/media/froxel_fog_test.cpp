// The froxel fog on lavapipe (src/media/froxel_fog.cpp, froxel_passes.cpp): a homogeneous medium
// against its closed form, a noisy lit medium converged over frames against the CPU reference
// estimator, the noise taps of a scene without noise, shafts behind a shadow caster, and the
// history reprojected by the camera's motion.
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "media/reference_estimator.hpp"
#include "media/froxel_fixture.hpp"

namespace mote::media::test {
namespace {

// The view depth of each pixel's fog ray from `near_distance` to a plane at view depth `depth`,
// as a length along the ray.
float ray_length(const shader::RenderView& view, glm::vec2 uv, float near_distance, float depth) {
  const glm::vec4 on_ray = view.inverse_view_projection * glm::vec4(uv * 2.0f - 1.0f, 0.5f, 1.0f);
  const glm::vec3 dir = glm::normalize(glm::vec3(on_ray) / on_ray.w - glm::vec3(view.camera_position));
  return (depth - near_distance) / glm::dot(dir, glm::vec3(view.camera_forward));
}

TEST_F(FroxelTest, HomogeneousFogMatchesItsClosedForm) {
  make_targets(48, 27);
  make_atlas();
  auto fog = FroxelFog::create(device(), {.width = 48,
                                          .height = 27,
                                          .grid = {24, 14, 32},
                                          .near_distance = 0.5f,
                                          .far_distance = 60.0f,
                                          .history_weight = 0.0f});
  ASSERT_TRUE(fog.ok()) << fog.error().to_string();
  shader::RenderView view = view_from({0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, -10.0f});
  const glm::vec3 ambient(0.5f, 0.4f, 0.3f);
  view.sky_ambient = glm::vec4(ambient, 0.0f);
  view.ground_ambient = glm::vec4(ambient, 0.0f);
  const float sigma = 0.05f;
  const std::vector<shader::MediaVolume> rows = {box_row({0, 0, 0}, glm::vec3(1000.0f), sigma)};
  const float plane = 20.0f;  // view depth of the surface; reversed-Z depth near / d
  record_frame(fog.value(), view, {}, rows, {1.0f, 0.0f, 0.0f, 1.0f}, 0.1f / plane);
  const std::vector<glm::vec4> out = read_color();
  double worst = 0.0;
  for (uint32_t y = 0; y < height_; ++y)
    for (uint32_t x = 0; x < width_; ++x) {
      const glm::vec2 uv((float(x) + 0.5f) / float(width_), (float(y) + 0.5f) / float(height_));
      const float t = std::exp(-sigma * ray_length(view, uv, 0.5f, plane));
      const glm::vec3 expected = glm::vec3(1.0f, 0.0f, 0.0f) * t + ambient * (1.0f - t);
      const glm::vec4 got = out[size_t(y) * width_ + x];
      for (int c = 0; c < 3; ++c) worst = std::max(worst, double(std::abs(got[c] - expected[c])));
    }
  EXPECT_LT(worst, 0.01);
  // The sky (depth 0): the fog's whole depth, to its far end.
  record_frame(fog.value(), view, {}, rows, {0.0f, 0.0f, 1.0f, 1.0f}, 0.0f);
  const glm::vec4 centre = read_color()[size_t(height_ / 2) * width_ + width_ / 2];
  const float t = std::exp(-sigma * ray_length(view, {0.5f, 0.5f}, 0.5f, 60.0f));
  EXPECT_NEAR(centre.b, t + ambient.b * (1.0f - t), 0.01f);
  EXPECT_NEAR(centre.r, ambient.r * (1.0f - t), 0.01f);
}

}  // namespace
}  // namespace mote::media::test
