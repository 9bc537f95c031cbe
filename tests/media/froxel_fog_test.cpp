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

// A noisy, lit medium converged over frames against the CPU reference estimator at a handful of
// pixels: transmittance within 2% absolute, in-scattered radiance within 5% of the reference's
// plus 0.005 (docs/design/media.md, "The reference estimator").
TEST_F(FroxelTest, ConvergedFogMatchesTheReferenceEstimator) {
  make_targets(48, 27);
  make_atlas();
  const float near_distance = 0.5f, far_distance = 40.0f, g = 0.3f;
  auto fog = FroxelFog::create(device(), {.width = 48,
                                          .height = 27,
                                          .grid = {48, 27, 48},
                                          .near_distance = near_distance,
                                          .far_distance = far_distance,
                                          .anisotropy = g,
                                          .history_weight = 0.9f});
  ASSERT_TRUE(fog.ok()) << fog.error().to_string();
  shader::RenderView view = view_from({0.0f, 1.5f, 0.0f}, {0.0f, 1.0f, -15.0f});
  view.sky_ambient = glm::vec4(0.05f);
  view.ground_ambient = glm::vec4(0.03f);
  view.sun_direction = glm::vec4(glm::normalize(glm::vec3(0.3f, -0.8f, -0.5f)), 1.0f);
  view.sun_radiance = glm::vec4(4.0f, 4.0f, 4.0f, 0.0f);
  view.point_light_count = 1;
  const std::vector<shader::PointLightGpu> lights = {{glm::vec4(2.0f, 2.0f, -10.0f, 15.0f), glm::vec4(80.0f)}};
  VolumeParams p;
  p.transform = glm::scale(glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 1.0f, -15.0f)), glm::vec3(30, 6, 20));
  p.density = 0.08f;
  p.fade_distance = 1.0f;
  p.albedo = glm::vec3(0.9f);
  p.noise_strength = 0.8f;
  p.noise_scale = 48.0f;
  p.noise_warp = 0.1f;
  NoisePhase phase;
  phase.base = {0.3, 0.1, 0.7};
  const std::vector<shader::MediaVolume> rows = {make_volume_row(p, phase)};
  const float plane = 30.0f;
  for (int frame = 0; frame < 40; ++frame)
    record_frame(fog.value(), view, lights, rows, {1.0f, 0.0f, 0.0f, 1.0f}, 0.1f / plane);
  const std::vector<glm::vec4> out = read_color();

  std::vector<uint8_t> texels;
  ReferenceScene scene;
  scene.view = view;
  scene.lights = lights;
  scene.volumes = rows;
  scene.atlas = atlas_texels(texels);
  scene.near_distance = near_distance;
  scene.far_distance = far_distance;
  scene.anisotropy = g;
  const glm::uvec2 pixels[] = {{6, 6}, {24, 13}, {38, 8}, {15, 21}, {30, 19}, {8, 15}, {42, 23}, {22, 4}};
  for (const glm::uvec2 px : pixels) {
    const glm::vec2 uv((float(px.x) + 0.5f) / 48.0f, (float(px.y) + 0.5f) / 27.0f);
    const ReferenceFog ref = estimate_fog(scene, uv, plane, 4000);
    const glm::vec4 got = out[size_t(px.y) * 48 + px.x];
    const float transmittance = got.r - got.g;  // red background: r = T + S, g = S
    SCOPED_TRACE(testing::Message() << "pixel (" << px.x << ", " << px.y << "): T " << transmittance << " vs "
                                    << ref.transmittance << ", S " << got.g << " vs " << ref.in_scattered.g);
    EXPECT_NEAR(transmittance, ref.transmittance, 0.02f);
    EXPECT_NEAR(got.g, ref.in_scattered.g, 0.05f * ref.in_scattered.g + 0.005f);
    EXPECT_NEAR(got.b, got.g, 1e-3f);  // grey medium, white lights
  }
}

TEST_F(FroxelTest, ANoiselessSceneTakesNoNoiseTaps) {
  make_targets(16, 9);
  make_atlas();
  const glm::uvec3 grid{8, 5, 6};
  auto fog =
      FroxelFog::create(device(),
                        {.width = 16, .height = 9, .grid = grid, .far_distance = 60.0f, .count_noise_taps = true});
  ASSERT_TRUE(fog.ok()) << fog.error().to_string();
  const shader::RenderView view = view_from({0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, -10.0f});
  auto taps = [&](std::vector<shader::MediaVolume> rows) {
    record_frame(fog.value(), view, {}, rows, glm::vec4(0.0f), 0.0f);
    return fog->read_noise_taps().value();
  };
  const uint64_t froxels = uint64_t(grid.x) * grid.y * grid.z;
  // Uniform volumes, one of them around every froxel: no taps.
  EXPECT_EQ(taps({box_row({0, 0, 0}, glm::vec3(1000.0f), 0.1f), box_row({0, 1, -5}, glm::vec3(4.0f), 0.3f)}), 0u);
  // A noisy volume behind the camera: rejected by its box before any tap.
  EXPECT_EQ(taps({box_row({0, 0, 30}, glm::vec3(10.0f), 0.1f, 1.0f, 32.0f, 0.1f)}), 0u);
  // A noisy volume around every froxel: one tap each without warp, two with.
  EXPECT_EQ(taps({box_row({0, 0, 0}, glm::vec3(1000.0f), 0.1f, 1.0f, 32.0f, 0.0f)}), froxels);
  EXPECT_EQ(taps({box_row({0, 0, 0}, glm::vec3(1000.0f), 0.1f, 0.5f, 32.0f, 0.2f)}), 2 * froxels);
}

// The sun straight down through a shadow map whose left half is covered above the medium: the
// medium on the left scatters no sunlight, the right does.
TEST_F(FroxelTest, ShadowedMediumScattersNoSunlight) {
  make_targets(32, 18);
  make_atlas();
  auto fog = FroxelFog::create(device(), {.width = 32,
                                          .height = 18,
                                          .grid = {32, 18, 24},
                                          .far_distance = 40.0f,
                                          .anisotropy = 0.0f,
                                          .history_weight = 0.0f});
  ASSERT_TRUE(fog.ok()) << fog.error().to_string();
  shader::RenderView view = view_from({0.0f, 2.0f, 0.0f}, {0.0f, 2.0f, -15.0f});
  view.sun_direction = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
  view.sun_radiance = glm::vec4(5.0f, 5.0f, 5.0f, 1.0f / 64.0f);
  // Looking down from 20 m over the scene: depth 0.3 is y = 8, above the medium (y < 6).
  view.sun_view_projection = glm::orthoRH_ZO(-40.0f, 40.0f, -40.0f, 40.0f, 0.0f, 40.0f) *
                             glm::lookAtRH(glm::vec3(0, 20, -15), glm::vec3(0, 0, -15), glm::vec3(0, 0, -1));
  auto shadow = gpu::Image::create(device(), {.width = 64,
                                              .height = 64,
                                              .format = VK_FORMAT_D32_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "test.shadow"});
  ASSERT_TRUE(shadow.ok());
  std::vector<float> depths(64 * 64, 1.0f);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const glm::vec4 ndc((float(x) + 0.5f) / 32.0f - 1.0f, (float(y) + 0.5f) / 32.0f - 1.0f, 0.5f, 1.0f);
      const glm::vec4 world = glm::inverse(view.sun_view_projection) * ndc;
      if (world.x / world.w < 0.0f) depths[y * 64 + x] = 0.3f;
    }
  ASSERT_TRUE(gpu::upload_image(device(), shadow.value(),
                                std::span(reinterpret_cast<const uint8_t*>(depths.data()), depths.size() * 4))
                  .ok());
  const std::vector<shader::MediaVolume> rows = {box_row({0, 0, 0}, {1000.0f, 12.0f, 1000.0f}, 0.05f)};
  record_frame(fog.value(), view, {}, rows, glm::vec4(0.0f), 0.0f,
               {shadow->view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  const std::vector<glm::vec4> out = read_color();
  double left = 0.0, right = 0.0;
  for (uint32_t y = 0; y < 18; ++y)
    for (uint32_t x = 0; x < 12; ++x) {
      left += out[y * 32 + x].g;
      right += out[y * 32 + 31 - x].g;
    }
  EXPECT_GT(right, 0.1 * 18 * 12);
  EXPECT_LT(left, 0.1 * right);
  shadow = gpu::Image();
}

// After the camera moves, the history is read where each froxel's point was a frame ago: one frame
// after a move the fog equals the fog converged at the new place.
TEST_F(FroxelTest, HistoryFollowsTheCamera) {
  make_targets(32, 18);
  make_atlas();
  const FroxelFogDesc desc{.width = 32,
                           .height = 18,
                           .grid = {32, 18, 32},
                           .far_distance = 40.0f,
                           .history_weight = 0.9f};
  auto moving = FroxelFog::create(device(), desc);
  auto settled = FroxelFog::create(device(), desc);
  ASSERT_TRUE(moving.ok() && settled.ok());
  // A uniform box filling x < 0: a sharp wall the camera moves along.
  const std::vector<shader::MediaVolume> rows = {box_row({-50.0f, 0.0f, 0.0f}, {100.0f, 100.0f, 1000.0f}, 0.1f)};
  const shader::RenderView before = view_from({0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, -20.0f});
  const shader::RenderView after = view_from({3.0f, 1.0f, -1.0f}, {3.0f, 1.0f, -21.0f});
  for (int i = 0; i < 20; ++i) record_frame(moving.value(), before, {}, rows, {1.0f, 0.0f, 0.0f, 1.0f}, 0.0f);
  record_frame(moving.value(), after, {}, rows, {1.0f, 0.0f, 0.0f, 1.0f}, 0.0f);
  const std::vector<glm::vec4> moved = read_color();
  for (int i = 0; i < 20; ++i) record_frame(settled.value(), after, {}, rows, {1.0f, 0.0f, 0.0f, 1.0f}, 0.0f);
  const std::vector<glm::vec4> converged = read_color();
  double mean = 0.0, worst = 0.0;
  for (size_t i = 0; i < moved.size(); ++i) {
    const double d = std::abs(double(moved[i].r) - double(converged[i].r));
    mean += d / double(moved.size());
    worst = std::max(worst, d);
  }
  EXPECT_LT(mean, 0.01);
  EXPECT_LT(worst, 0.1);
}

}  // namespace
}  // namespace mote::media::test
