// Scenes, the scene renderer and images through the public API (mote/scene.hpp, mote/image.hpp)
// on lavapipe with validation: what `mote render` and examples/01-render-a-scene use.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "api_fixture.hpp"
#include "mote/files.hpp"
#include "mote/image.hpp"
#include "mote/scene.hpp"

namespace mote {
namespace {

using test::ApiTest;

std::string scene_path(const std::string& name) { return std::string(MOTE_SCENES_DIR) + "/" + name; }
// The scenes name ../effects/: the source tree is their asset root (the default, the current
// directory, is the build folder here).
const SceneLoadOptions kSourceRoot{.asset_root = MOTE_SOURCE_DIR};

TEST(ApiScene, LoadingReportsTheOutputAndPointsAtProblems) {
  auto fire = Scene::load_file(scene_path("fire.json"), kSourceRoot);
  ASSERT_TRUE(fire.ok()) << fire.error().to_string();
  EXPECT_EQ(fire.value().name(), "fire");
  EXPECT_EQ(fire.value().emitter_count(), 1u);
  const SceneOutput out = fire.value().output();
  EXPECT_EQ(out.width, 320u);
  EXPECT_EQ(out.height, 180u);
  EXPECT_EQ(out.frames, 24u);
  EXPECT_EQ(out.fps, 24.0f);
  EXPECT_EQ(out.dt, 1.0f / 24.0f);  // no dt in the file: one step per frame

  auto missing = Scene::load_file(scene_path("no_such_scene.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().code == ErrorCode::kIo || missing.error().code == ErrorCode::kNotFound)
      << missing.error().to_string();

  auto bad = Scene::parse(R"({"version": 1, "output": {"width": 4}})", ".");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kParse);
  EXPECT_EQ(bad.error().where, "/output/width");

  Scene copy = fire.value();  // a value: copies are independent
  EXPECT_EQ(copy.name(), "fire");
}

TEST_F(ApiTest, TheRendererDrawsFramesOnBothPaths) {
  auto scene = Scene::load_file(scene_path("fire.json"), kSourceRoot);
  ASSERT_TRUE(scene.ok()) << scene.error().to_string();
  for (DrawPath path : {DrawPath::kRaster, DrawPath::kCompute}) {
    SCOPED_TRACE(path == DrawPath::kRaster ? "raster" : "compute");
    auto renderer = SceneRenderer::create(context(), scene.value(), {.width = 48, .height = 32, .path = path});
    ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
    EXPECT_EQ(renderer.value()->width(), 48u);
    EXPECT_EQ(renderer.value()->height(), 32u);
    for (uint32_t f = 0; f < 2; ++f) {
      SceneFrameReport report;
      auto image = renderer.value()->render_next(&report);
      ASSERT_TRUE(image.ok()) << image.error().to_string();
      EXPECT_EQ(image.value().width, 48u);
      EXPECT_EQ(image.value().height, 32u);
      ASSERT_EQ(image.value().pixels.size(), 48u * 32u * 4u);
      EXPECT_EQ(report.index, f);
      EXPECT_GT(report.alive, 0u);  // the warm-up filled the fire
      EXPECT_GE(report.steps, 1u);
      EXPECT_FALSE(report.render_passes.empty());
      EXPECT_FALSE(report.simulate_passes.empty());
      // Not one flat colour: the ground, the sky and the fire.
      bool varied = false;
      for (size_t i = 4; i < image.value().pixels.size() && !varied; i += 4)
        varied = image.value().pixels[i] != image.value().pixels[0];
      EXPECT_TRUE(varied);
    }
    EXPECT_EQ(renderer.value()->frames_rendered(), 2u);
  }
}

TEST_F(ApiTest, SceneProblemsAreFoundBeforeAnyFrame) {
  const std::string text = R"({"version": 1, "emitters": [{"effect": "effects/fire.json",
                           "fields": {"no_such_field": 1}}], "output": {"width": 32, "height": 32}})";
  auto scene = Scene::parse(text, MOTE_SOURCE_DIR, kSourceRoot);
  ASSERT_TRUE(scene.ok()) << scene.error().to_string();  // the loader cannot know the effect's fields
  auto renderer = SceneRenderer::create(context(), scene.value());
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.error().where, "/emitters/0/fields/no_such_field");

  auto fire = Scene::load_file(scene_path("fire.json"), kSourceRoot);
  ASSERT_TRUE(fire.ok());
  for (auto [w, h] : {std::pair{8u, 8u}, std::pair{64u, 0u}, std::pair{9000u, 64u}}) {
    auto refused = SceneRenderer::create(context(), fire.value(), {.width = w, .height = h});
    ASSERT_FALSE(refused.ok()) << w << "x" << h;
    EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
  }
}

// A scene's vector_fields (docs/design/vector_field.md, "Scene files"): leaves_swirl renders with
// its authored field; a field file that fails to load is refused at its path's pointer with the
// loader's offset; an effect naming a field the scene does not list is refused at its emitter.
TEST_F(ApiTest, SceneVectorFieldsLoadStrictlyAndBindByName) {
  auto leaves = Scene::load_file(scene_path("leaves_swirl.json"), kSourceRoot);
  ASSERT_TRUE(leaves.ok()) << leaves.error().to_string();
  auto renderer = SceneRenderer::create(context(), leaves.value(), {.width = 48, .height = 32});
  ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
  SceneFrameReport report;
  ASSERT_TRUE(renderer.value()->render_next(&report).ok());
  EXPECT_GT(report.alive, 0u);

  // A folder of its own as the asset root: the effect and a good field copied in, a bad one written.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mote_api_scene_fields";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::string(MOTE_SOURCE_DIR) + "/effects/leaves_swirl.json", dir / "leaves.json");
  std::filesystem::copy_file(std::string(MOTE_SCENES_DIR) + "/fields/leaves_swirl.mvf", dir / "good.mvf");
  const SceneLoadOptions root{.asset_root = dir.string()};
  auto scene_with = [&](const std::string& fields) {
    return R"({"version": 1, "vector_fields": )" + fields +
           R"(, "emitters": [{"effect": "leaves.json"}], "output": {"width": 32, "height": 32}})";
  };
  // The good file with its magic changed: the loader's offset 0, at the path's pointer.
  auto good = read_binary_file(dir / "good.mvf");
  ASSERT_TRUE(good.ok()) << good.error().to_string();
  std::vector<uint8_t> bad = good.value();
  bad[3] = '2';
  ASSERT_TRUE(write_binary_file(dir / "bad.mvf", bad).ok());
  auto bad_scene = Scene::parse(scene_with(R"([{"name": "swirl", "path": "bad.mvf"}])"), dir.string(), root);
  ASSERT_TRUE(bad_scene.ok()) << bad_scene.error().to_string();
  auto refused = SceneRenderer::create(context(), bad_scene.value());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "/vector_fields/0/path");
  EXPECT_NE(refused.error().message.find("offset 0"), std::string::npos) << refused.error().message;
  // A file that is not there.
  auto missing = Scene::parse(scene_with(R"([{"name": "swirl", "path": "none.mvf"}])"), dir.string(), root);
  ASSERT_TRUE(missing.ok());
  auto not_found = SceneRenderer::create(context(), missing.value());
  ASSERT_FALSE(not_found.ok());
  EXPECT_EQ(not_found.error().where, "/vector_fields/0/path");
  // The effect samples "swirl"; the scene lists only "gust" (a good file), or nothing.
  for (const std::string& fields : {std::string(R"([{"name": "gust", "path": "good.mvf"}])"), std::string("[]")}) {
    auto unnamed = Scene::parse(scene_with(fields), dir.string(), root);
    ASSERT_TRUE(unnamed.ok()) << unnamed.error().to_string();
    auto unbound = SceneRenderer::create(context(), unnamed.value());
    ASSERT_FALSE(unbound.ok()) << fields;
    EXPECT_EQ(unbound.error().where, "/emitters/0/effect");
    EXPECT_NE(unbound.error().message.find("'swirl'"), std::string::npos) << unbound.error().message;
  }
  auto named = Scene::parse(scene_with(R"([{"name": "swirl", "path": "good.mvf"}])"), dir.string(), root);
  ASSERT_TRUE(named.ok()) << named.error().to_string();
  EXPECT_TRUE(SceneRenderer::create(context(), named.value()).ok());
  std::filesystem::remove_all(dir);
}

ImageRgba8 gradient(uint32_t width, uint32_t height) {
  ImageRgba8 image{width, height, std::vector<uint8_t>(size_t(width) * height * 4)};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = image.pixels.data() + (size_t(y) * width + x) * 4;
      p[0] = uint8_t(x * 8);
      p[1] = uint8_t(y * 8);
      p[2] = 128;
      p[3] = 255;
    }
  return image;
}

TEST(ApiImage, PngsAndContactSheets) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "mote_api_image_test";
  std::filesystem::create_directories(dir);
  const ImageRgba8 image = gradient(20, 10);
  ASSERT_TRUE(write_png(dir / "gradient.png", image).ok());
  auto bytes = read_binary_file(dir / "gradient.png");
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  const std::vector<uint8_t> signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  ASSERT_GE(bytes.value().size(), signature.size());
  EXPECT_TRUE(std::equal(signature.begin(), signature.end(), bytes.value().begin()));

  ImageRgba8 torn = image;
  torn.pixels.pop_back();
  EXPECT_FALSE(write_png(dir / "torn.png", torn).ok());
  EXPECT_FALSE(write_png(dir / "no_such_folder" / "x.png", image).ok());

  // Five 20 x 10 frames in 2 columns, tiles at most 10 wide: a factor of 2, 3 rows of 10 x 5.
  const std::vector<ImageRgba8> frames(5, image);
  auto sheet = contact_sheet(frames, 2, 10);
  ASSERT_TRUE(sheet.ok()) << sheet.error().to_string();
  EXPECT_EQ(sheet.value().width, 20u);
  EXPECT_EQ(sheet.value().height, 15u);
  EXPECT_EQ(sheet.value().pixels.size(), 20u * 15u * 4u);
  // The top-left tile texel averages a 2 x 2 block: x 0..1, y 0..1 -> red (0 + 8) / 2.
  EXPECT_EQ(sheet.value().pixels[0], 4);
  EXPECT_EQ(sheet.value().pixels[1], 4);
  const std::vector<ImageRgba8> mixed = {image, gradient(10, 10)};
  EXPECT_FALSE(contact_sheet(mixed, 2, 10).ok());
  EXPECT_FALSE(contact_sheet({}, 2, 10).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mote
