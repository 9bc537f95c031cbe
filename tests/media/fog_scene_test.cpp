// A scene's fog through the scene renderer (src/render/scene_fog.cpp over the public mote::Fog) on
// both draw paths: fog sits between the camera and every particle, and a scene's bad volume is an
// error at its JSON pointer before any frame.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::media {
namespace {

namespace fs = std::filesystem;
using FogSceneTest = mote::test::GpuTest;

const fs::path kScenes = fs::path(MOTE_SOURCE_DIR) / "scenes";

Result<assets::ImageRgba8> frame_of(gpu::Device& device, const scene::Scene& scene, render::DrawPath path,
                                    uint32_t frame) {
  render::SceneRenderOptions options;
  options.width = 96;
  options.height = 54;
  options.path = path;
  options.profile = false;
  MOTE_TRY_ASSIGN(std::unique_ptr<render::SceneRenderer> renderer,
                  render::SceneRenderer::create(device, scene, options));
  assets::ImageRgba8 image;
  for (uint32_t f = 0; f <= frame; ++f) {
    MOTE_TRY_ASSIGN(image, renderer->render_next());
  }
  return image;
}

// Levels the particles add to a picture over the same frame without its emitters.
double particle_levels(const assets::ImageRgba8& with, const assets::ImageRgba8& without) {
  double levels = 0.0;
  for (size_t i = 0; i < with.pixels.size(); i += 4)
    for (int c = 0; c < 3; ++c) levels += std::abs(int(with.pixels[i + c]) - int(without.pixels[i + c]));
  return levels;
}

TEST_F(FogSceneTest, FogSitsBetweenTheCameraAndEveryParticleOnBothPaths) {
  auto loaded = scene::load_scene_file(kScenes / "fire.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  scene::Scene clear = loaded.value();
  scene::Scene foggy = clear;
  scene::Volume fog;
  fog.scale = glm::vec3(200.0f);
  fog.density = 2.0f;
  foggy.volumes.push_back(fog);
  foggy.fog.grid = {24, 14, 24};
  foggy.fog.far_distance = 20.0f;
  for (render::DrawPath path : {render::DrawPath::kRaster, render::DrawPath::kCompute}) {
    SCOPED_TRACE(path == render::DrawPath::kRaster ? "raster" : "compute");
    double levels[2] = {};
    for (int f = 0; f < 2; ++f) {
      scene::Scene with = f ? foggy : clear;
      scene::Scene without = with;
      without.emitters.clear();
      auto a = frame_of(device(), with, path, 2);
      auto b = frame_of(device(), without, path, 2);
      ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.error().to_string() : a.error().to_string());
      levels[f] = particle_levels(a.value(), b.value());
    }
    // Seen through 2.5 m of fog at 2 per metre (a transmittance under 1%) the fire nearly
    // vanishes; drawn over the fogged scene unfogged it would keep all its contrast, or more.
    EXPECT_GT(levels[0], 500.0);
    EXPECT_LT(levels[1], 0.25 * levels[0]) << levels[1] << " vs " << levels[0];
    EXPECT_GT(levels[1], 0.0);
  }
}

TEST_F(FogSceneTest, AVolumeTheFogRefusesIsAnErrorAtItsPointer) {
  auto loaded = scene::load_scene_file(kScenes / "fog_bank.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  scene::Scene s = loaded.value();
  s.volumes.push_back(s.volumes[0]);
  s.volumes[1].noise_texture = 3;  // a scene's atlas holds the built-in tile only
  render::SceneRenderOptions options;
  options.width = 32;
  options.height = 18;
  auto created = render::SceneRenderer::create(device(), s, options);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(created.error().where, "/volumes/1/noise_texture") << created.error().to_string();
}

}  // namespace
}  // namespace mote::media
