// Lit particles end to end through the scene renderer (docs/design/render.md, "Lighting") on every
// draw path: the sun's shadow reaches lit sprites (the scene's shadow map, through the irradiance
// volume), and a light behind a puff lights its thin edge while its dense core holds it back
// (back-face transmission).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <glm/gtc/constants.hpp>

#include "render/reference_lighting.hpp"
#include "render/render_view.hpp"
#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = MOTE_SOURCE_DIR;
const fs::path kScenes = kSourceDir / "tests/render/scenes";

struct PathCase {
  const char* name;
  DrawPath path;
  Transparency transparency;
};
constexpr PathCase kPaths[] = {{"raster oit", DrawPath::kRaster, Transparency::kOit},
                               {"raster sorted", DrawPath::kRaster, Transparency::kSorted},
                               {"raster avboit", DrawPath::kRaster, Transparency::kAvboit},
                               {"compute", DrawPath::kCompute, Transparency::kOit}};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// `text` with its first `from` replaced by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class LitSceneTest : public test::GpuTest {
 protected:
  // The composited HDR picture (before tonemapping) of frame 1 of the scene `text`.
  FrameCapture render(const std::string& text, const PathCase& p) {
    FrameCapture capture;
    auto loaded = scene::load_scene(text, kScenes);
    EXPECT_TRUE(loaded.ok()) << loaded.error().to_string();
    if (!loaded.ok()) return capture;
    SceneRenderOptions options;
    options.width = 160;
    options.height = 90;
    options.path = p.path;
    options.transparency = p.transparency;
    options.profile = false;
    auto created = SceneRenderer::create(device(), loaded.value(), options);
    EXPECT_TRUE(created.ok()) << created.error().to_string();
    if (!created.ok()) return capture;
    EXPECT_TRUE(created.value()->render_next().ok());
    auto frame = created.value()->capture_next(capture);
    EXPECT_TRUE(frame.ok()) << frame.error().to_string();
    return capture;
  }
};

// The pixel world point `p` projects to (rows top to bottom).
glm::ivec2 pixel_of(const FrameCapture& c, glm::vec3 p) {
  const glm::vec4 clip = c.view.view_projection * glm::vec4(p, 1.0f);
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::ivec2((ndc * 0.5f + 0.5f) * glm::vec2(c.view.viewport));
}

float luma_at(const FrameCapture& c, glm::ivec2 px) {
  const glm::vec4 v = c.composited[size_t(px.y) * size_t(c.view.viewport.x) + size_t(px.x)];
  return 0.25f * v.r + 0.5f * v.g + 0.25f * v.b;
}

// The three puffs of lit_backlit under a roof the sun shines down on, seen against the sky: with
// the roof's shadow the dense puff takes the ambient only, without it the sun too.
TEST_F(LitSceneTest, TheSunsShadowReachesLitParticles) {
  std::string text = read_text(kScenes / "lit_backlit.json");
  text = replaced(
      text,
      R"("sun": {"direction": [0.3, -0.5, -1.0], "color": [0.55, 0.68, 1.0], "intensity": 0.6, "shadows": false})",
      R"("sun": {"direction": [0, -1, 0], "color": [1, 1, 1], "intensity": 3, "shadows": true, "shadow_map_size": 512})");
  text = replaced(text, R"("intensity": 3, "range": 6)", R"("intensity": 0, "range": 6)");
  // No ground in view: a floor far below (inside the shadow map's bounds) and a roof above the view.
  text = replaced(text, R"("objects": [{"name": "ground", "shape": "plane", "scale": [20, 1, 20],)",
                  R"("objects": [{"name": "roof", "shape": "box", "position": [0, 3, 0], "scale": [4, 0.2, 2]},
                                 {"name": "floor", "shape": "plane", "position": [0, -8, 0], "scale": [20, 1, 20],)");
  text = replaced(text, R"("camera": {"position": [0, 0.8, 4.0], "target": [0, 0.6, 0])",
                  R"("camera": {"position": [0, 0.6, 4.0], "target": [0, 0.6, 0])");
  const std::string open_sky = replaced(text, R"("shadows": true)", R"("shadows": false)");
  for (const PathCase& p : kPaths) {
    SCOPED_TRACE(p.name);
    const FrameCapture shadowed = render(text, p);
    const FrameCapture sunlit = render(open_sky, p);
    ASSERT_FALSE(shadowed.composited.empty());
    ASSERT_FALSE(sunlit.composited.empty());
    const glm::ivec2 dense = pixel_of(shadowed, {1.1f, 0.6f, 0.0f});
    const float in_shadow = luma_at(shadowed, dense), in_sun = luma_at(sunlit, dense);
    const float sky = luma_at(shadowed, {2, 2});
    EXPECT_GT(in_sun, in_shadow + 0.1f) << "the sun lights the puff where the roof does not shade it";
    EXPECT_LT(in_shadow, 0.1f) << "under the roof: the ambient alone";
    EXPECT_NEAR(luma_at(sunlit, {2, 2}), sky, 1e-3f) << "the sky behind is the same in both";
  }
}

// lit_backlit's point light sits behind the puffs: against the same scene without it, the dense
// puff (alpha 1 at its core) gains light at its thin edge and next to none at its centre, and the
// thin puff (alpha 0.25) gains light through its middle.
TEST_F(LitSceneTest, ALightBehindAPuffLightsItsThinEdgeNotItsDenseCore) {
  const std::string text = read_text(kScenes / "lit_backlit.json");
  const std::string dark = replaced(text, R"("intensity": 3, "range": 6)", R"("intensity": 0, "range": 6)");
  for (const PathCase& p : kPaths) {
    SCOPED_TRACE(p.name);
    const FrameCapture lit = render(text, p);
    const FrameCapture unlit = render(dark, p);
    ASSERT_FALSE(lit.composited.empty());
    ASSERT_FALSE(unlit.composited.empty());
    auto gain = [&](glm::vec3 at) {
      const glm::ivec2 px = pixel_of(lit, at);
      return luma_at(lit, px) - luma_at(unlit, px);
    };
    const float core = gain({1.1f, 0.6f, 0.0f});
    float edge = 0.0f;
    for (float dx = 0.15f; dx <= 0.45f; dx += 0.05f) edge = std::max(edge, gain({1.1f - dx, 0.6f, 0.0f}));
    EXPECT_GT(edge, 0.02f) << "the dense puff's edge lets the light behind through";
    EXPECT_GT(edge, 4.0f * core) << "its core holds it back (core gain " << core << ")";
    EXPECT_GT(gain({-1.1f, 0.6f, 0.0f}), 0.01f) << "the thin puff is lit through its middle";
  }
}

// A spot light's cone in closed form (render_view.hpp's spot_light_gpu, light_cone_factor, the
// CPU reference's irradiance): against the same light without a cone, the irradiance at a point
// seen from the light at angle t off its axis is scaled by 1 inside the inner cone, 0 outside the
// outer, and ((cos t - cos outer) / (cos inner - cos outer))^2 between.
TEST(SpotLightCone, ItsIrradianceIsThePointLightsScaledByTheClosedFormRamp) {
  shader::RenderView view{};
  view.point_light_count = 1;
  const glm::vec3 at(0.5f, 4.0f, -1.0f);
  const glm::vec3 axis = glm::normalize(glm::vec3(0.2f, -1.0f, 0.1f));
  const float inner = 20.0f, outer = 30.0f;
  const shader::PointLightGpu spot = spot_light_gpu(at, 50.0f, {2.0f, 1.5f, 1.0f}, axis * 3.0f, inner, outer);
  shader::PointLightGpu point = spot;
  point.radiance.w = 0.0f;
  point.spot = glm::vec4(0.0f);
  EXPECT_NEAR(glm::length(glm::vec3(spot.spot)), 1.0f, 1e-6f) << "the axis is normalised";
  // A direction `degrees` off the axis (turned about a unit vector across it).
  const glm::vec3 across = glm::normalize(glm::cross(axis, glm::vec3(1.0f, 0.0f, 0.0f)));
  auto off_axis = [&](float degrees) {
    const float t = glm::radians(degrees);
    return std::cos(t) * axis + std::sin(t) * across;
  };
  const float cos_inner = std::cos(glm::radians(inner)), cos_outer = std::cos(glm::radians(outer));
  for (float degrees : {0.0f, 10.0f, 19.0f, 21.0f, 25.0f, 29.0f, 31.0f, 60.0f, 120.0f}) {
    SCOPED_TRACE(degrees);
    const glm::vec3 p = at + 2.5f * off_axis(degrees);
    const float t = std::clamp((std::cos(glm::radians(degrees)) - cos_outer) / (cos_inner - cos_outer), 0.0f, 1.0f);
    const float want = t * t;
    const shader::IrradianceSh lit = reference_irradiance(view, std::span(&spot, 1), p);
    const shader::IrradianceSh all_round = reference_irradiance(view, std::span(&point, 1), p);
    ASSERT_GT(all_round.luma[0], 0.0f);
    EXPECT_NEAR(lit.luma[0] / all_round.luma[0], want, 1e-4f);
    for (int c = 1; c < 4; ++c) EXPECT_NEAR(lit.luma[c], all_round.luma[c] * want, 1e-5f);
    if (degrees < inner) {
      EXPECT_FLOAT_EQ(want, 1.0f);
    }
    if (degrees > outer) {
      EXPECT_FLOAT_EQ(want, 0.0f);
    }
  }
}

// lit_backlit with its point light replaced by a narrow spot light above the dense puff: the
// dense puff is lit and the thin one, 42 degrees off the axis, takes nothing from it; turned
// towards the thin puff, the other way round — through the scene format, the public renderer and
// the irradiance pass, on every path.
TEST_F(LitSceneTest, ASpotLightLightsWhatIsInItsConeAlone) {
  const std::string base = read_text(kScenes / "lit_backlit.json");
  const std::string point =
      R"("point_lights": [{"position": [0.0, 0.6, -0.8], "color": [1.0, 0.6, 0.25], "intensity": 3, "range": 6}],)";
  auto with_spot = [&](const char* direction, const char* intensity) {
    return replaced(base, point,
                    std::string(R"("spot_lights": [{"position": [1.1, 3.0, 0.0], "direction": )") + direction +
                        R"(, "color": [1, 1, 1], "intensity": )" + intensity +
                        R"(, "range": 10, "inner_degrees": 12, "outer_degrees": 20}],)");
  };
  const std::string down = with_spot("[0, -1, 0]", "6");
  const std::string towards_thin = with_spot("[-2.2, -2.4, 0]", "6");
  const std::string dark = with_spot("[0, -1, 0]", "0");
  // The same turn as towards_thin, made by the light's transform (z by -42.51 degrees takes
  // (0, -1, 0) to (-2.2, -2.4, 0) normalised): a transform turns the cone as well as moving it.
  const std::string turned_by_transform =
      replaced(base, point,
               R"("transforms": [{"name": "rig", "position": [1.1, 3.0, 0.0], "euler_degrees": [0, 0, -42.51]}],)"
               R"("spot_lights": [{"transform": "rig", "direction": [0, -1, 0], "color": [1, 1, 1], "intensity": 6,)"
               R"( "range": 10, "inner_degrees": 12, "outer_degrees": 20}],)");
  for (const PathCase& p : kPaths) {
    SCOPED_TRACE(p.name);
    const FrameCapture unlit = render(dark, p);
    const FrameCapture on_dense = render(down, p);
    const FrameCapture on_thin = render(towards_thin, p);
    ASSERT_FALSE(unlit.composited.empty());
    ASSERT_FALSE(on_dense.composited.empty());
    ASSERT_FALSE(on_thin.composited.empty());
    auto gain = [&](const FrameCapture& lit, glm::vec3 at) {
      const glm::ivec2 px = pixel_of(lit, at);
      return luma_at(lit, px) - luma_at(unlit, px);
    };
    const glm::vec3 dense{1.1f, 0.75f, 0.0f}, thin{-1.1f, 0.75f, 0.0f};
    EXPECT_GT(gain(on_dense, dense), 0.02f) << "the spot lights the puff below it";
    EXPECT_LT(std::abs(gain(on_dense, thin)), 1e-3f) << "and nothing outside its cone";
    EXPECT_GT(gain(on_thin, thin), 0.01f) << "turned, it lights the thin puff";
    EXPECT_LT(std::abs(gain(on_thin, dense)), 1e-3f) << "and not the dense one any more";
    const FrameCapture on_turned = render(turned_by_transform, p);
    ASSERT_FALSE(on_turned.composited.empty());
    EXPECT_GT(gain(on_turned, thin), 0.01f) << "turned by its transform, it lights the thin puff";
    EXPECT_LT(std::abs(gain(on_turned, dense)), 1e-3f) << "and not the dense one";
  }
}

}  // namespace
}  // namespace mote::render
