// Particles that light the scene (docs/design/particle_lights.md) through the scene renderer on
// lavapipe with validation: a single particle light shades the ground as a scene point light of
// the same colour, intensity, range and position does (the opaque pass), lights the lit sprites as
// that point light does (GPU against GPU, and the GPU against the CPU reference given the GPU's
// list), and the fog's in-scatter likewise; lights appear and vanish with their particles; a list
// too small for the frame keeps the brightest, counts the rest, and is the CPU reference's
// selection light for light.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "render/reference_particle_lights.hpp"
#include "render/reference_renderer.hpp"
#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = MOTE_SOURCE_DIR;
const fs::path kScenes = kSourceDir / "tests/render/scenes";  // the effects resolve from here

// The light the effect particle_light_single.json makes: at the emitter, its colour and intensity,
// its radius (use_particle_color false: the invisible sprite's colour does not enter).
constexpr glm::vec3 kLightAt{0.3f, 0.5f, -0.2f};
constexpr glm::vec3 kLightColor{1.0f, 0.5f, 0.2f};
constexpr float kLightIntensity = 4.0f, kLightRange = 6.0f;

// A dark ground seen from above at an angle, lit by nothing but a dim ambient and the particle
// light of `effect` (one emitter at kLightAt); `extra` goes in before "output".
std::string scene_text(const std::string& effect, const std::string& extra = "") {
  return R"({"version": 1, "name": "particle_light",
    "camera": {"position": [0, 3, 4], "target": [0, 0, 0], "fov_y_degrees": 50},
    "environment": {"sky_color": [0.02, 0.02, 0.03], "ground_color": [0.01, 0.01, 0.01], "ambient_intensity": 0.5,
                    "background": [0, 0, 0]},
    "objects": [{"name": "ground", "shape": "plane", "scale": [20, 1, 20],
                 "material": {"base_color": [0.5, 0.5, 0.5], "roughness": 0.8}}],
    "emitters": [{"name": "light", "effect": "../effects/)" +
         effect + R"(", "position": [0.3, 0.5, -0.2]}],)" + extra + R"(
    "output": {"width": 96, "height": 64, "frames": 16, "fps": 10, "seed": 1, "warmup_seconds": 0.0}})";
}

// The same scene with the emitter gone and, when `point_light`, a scene point light where the
// particle light was.
scene::Scene without_particle_light(scene::Scene s, bool point_light) {
  s.emitters.clear();
  if (point_light)
    s.point_lights.push_back({.transform = "",
                              .position = kLightAt,
                              .color = kLightColor,
                              .intensity = kLightIntensity,
                              .range = kLightRange});
  return s;
}

struct MaxError {
  float max_abs = 0.0f;
  float peak = 0.0f;  // the largest channel of `a`: what the error is measured against
};

MaxError max_error(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  MaxError e;
  EXPECT_EQ(a.size(), b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    for (int c = 0; c < 3; ++c) {
      e.max_abs = std::max(e.max_abs, std::abs(a[i][c] - b[i][c]));
      e.peak = std::max(e.peak, a[i][c]);
    }
  return e;
}

class ParticleLightTest : public test::GpuTest {
 protected:
  // Frames 0 .. last of `s`, capturing `frames` of them (by index) into `out`.
  void render(const scene::Scene& s, const std::vector<uint32_t>& frames, std::vector<FrameCapture>& out,
              DrawPath path = DrawPath::kRaster, uint32_t max_lights = 256) {
    atlas_ = {};
    SceneRenderOptions options;
    options.path = path;
    options.profile = false;
    options.max_particle_lights = max_lights;
    auto created = SceneRenderer::create(device(), s, options);
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    out.assign(frames.size(), FrameCapture{});
    const uint32_t last = *std::max_element(frames.begin(), frames.end());
    for (uint32_t f = 0; f <= last; ++f) {
      const auto at = std::find(frames.begin(), frames.end(), f);
      if (at == frames.end()) {
        ASSERT_TRUE(created.value()->render_next().ok());
        continue;
      }
      FrameCapture& c = out[size_t(at - frames.begin())];
      auto rendered = created.value()->capture_next(c);
      ASSERT_TRUE(rendered.ok()) << rendered.error().to_string();
      // The atlas as the frame drew with it: the capture's pointer dies with the renderer.
      atlas_ = {c.atlas->image.width, c.atlas->image.height, c.atlas->image.pixels};
      c.atlas = nullptr;
    }
  }

  ReferenceTexture atlas_;  // the last captured frame's atlas

  scene::Scene load(const std::string& text) {
    auto loaded = scene::load_scene(text, kScenes);
    EXPECT_TRUE(loaded.ok()) << loaded.error().to_string();
    return loaded.ok() ? std::move(loaded).value() : scene::Scene{};
  }
};

// The GPU's one light is the point light the effect describes, and the ground it lights is the
// ground a scene point light there lights: the same shading function on the same values, so the
// bound is a rounding's (max |difference| under 1e-5 of the brightest channel). Without either
// light the ground is far darker where the light falls (the light is really there).
TEST_F(ParticleLightTest, ASingleParticleLightShadesTheGroundAsThePointLightThere) {
  const scene::Scene lit = load(scene_text("particle_light_single.json"));
  std::vector<FrameCapture> particle, point, dark;
  render(lit, {2}, particle);
  render(without_particle_light(lit, true), {2}, point);
  render(without_particle_light(lit, false), {2}, dark);
  ASSERT_EQ(particle[0].particle_light_header.count, 1u);
  EXPECT_EQ(particle[0].particle_light_header.candidates, 1u);
  EXPECT_EQ(particle[0].particle_light_header.overflow, 0u);
  ASSERT_EQ(particle[0].particle_lights.size(), 1u);
  const shader::PointLightGpu& l = particle[0].particle_lights[0];
  EXPECT_EQ(glm::vec3(l.position_range), kLightAt);
  EXPECT_EQ(l.position_range.w, kLightRange);
  EXPECT_EQ(glm::vec3(l.radiance), kLightColor * kLightIntensity);
  EXPECT_EQ(l.spot, glm::vec4(0.0f));

  const MaxError same = max_error(point[0].opaque, particle[0].opaque);
  const MaxError gone = max_error(point[0].opaque, dark[0].opaque);
  std::printf("particle light vs point light on the ground: max |diff| %.3g of peak %.3g (without: %.3g)\n",
              same.max_abs, same.peak, gone.max_abs);
  EXPECT_GT(same.peak, 0.05f) << "the light reaches the ground";
  EXPECT_LE(same.max_abs, 1e-5f * same.peak);
  EXPECT_GT(gone.max_abs, 0.5f * gone.peak) << "without the light the ground is dark";
  // The composite too: the particle itself is invisible (alpha 0), so nothing else differs.
  EXPECT_LE(max_error(point[0].composited, particle[0].composited).max_abs, 1e-5f * same.peak);
}

// The particle light comes and goes with its particle: born by a burst at 0.25 s, dead 0.3 s
// later. Before and after, the list is empty and the ground is the unlit ground exactly; while it
// lives the ground is the point-lit ground.
TEST_F(ParticleLightTest, LightsAppearAndVanishWithTheirParticles) {
  const scene::Scene lit = load(scene_text("particle_light_blink.json"));
  std::vector<FrameCapture> frames, point, dark;
  render(lit, {1, 4, 9}, frames);
  render(without_particle_light(lit, true), {1}, point);
  render(without_particle_light(lit, false), {1}, dark);
  const float peak = max_error(point[0].opaque, dark[0].opaque).peak;
  ASSERT_GT(peak, 0.05f);
  EXPECT_EQ(frames[0].alive.size(), 0u);
  EXPECT_EQ(frames[0].particle_light_header.count, 0u) << "before the burst";
  EXPECT_LE(max_error(dark[0].opaque, frames[0].opaque).max_abs, 1e-6f);
  EXPECT_EQ(frames[1].alive.size(), 1u);
  EXPECT_EQ(frames[1].particle_light_header.count, 1u) << "while the particle lives";
  EXPECT_LE(max_error(point[0].opaque, frames[1].opaque).max_abs, 1e-5f * peak);
  EXPECT_EQ(frames[2].alive.size(), 0u);
  EXPECT_EQ(frames[2].particle_light_header.count, 0u) << "after it died";
  EXPECT_LE(max_error(dark[0].opaque, frames[2].opaque).max_abs, 1e-6f);
}

// 40 particle lights of different brightness into a list of 16: 16 kept, 24 counted as overflow,
// and the list is the CPU reference's selection of the captured pool — the 16 brightest, in order,
// light for light — never past its capacity.
TEST_F(ParticleLightTest, ATooSmallListKeepsTheBrightestAndCountsTheRest) {
  const scene::Scene many = load(scene_text("particle_light_many.json"));
  std::vector<FrameCapture> frames;
  render(many, {2}, frames, DrawPath::kRaster, 16);
  const FrameCapture& c = frames[0];
  ASSERT_EQ(c.alive.size(), 40u);
  EXPECT_EQ(c.particle_light_header.candidates, 40u);
  EXPECT_EQ(c.particle_light_header.count, 16u);
  EXPECT_EQ(c.particle_light_header.overflow, 24u);
  EXPECT_EQ(c.particle_light_header.capacity, 16u);
  const ReferenceParticleLights ref = select_reference_particle_lights(c.pool, c.record_words, c.alive, c.records,
                                                                       c.light_records, 16);
  EXPECT_EQ(ref.header.count, 16u);
  EXPECT_EQ(ref.header.overflow, 24u);
  ASSERT_EQ(c.particle_lights.size(), ref.lights.size());
  for (size_t i = 0; i < ref.lights.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(c.particle_lights[i].position_range, ref.lights[i].position_range);
    EXPECT_EQ(c.particle_lights[i].radiance, ref.lights[i].radiance);
    if (i > 0) {
      EXPECT_GE(shader::particle_light_weight(c.particle_lights[i - 1]),
                shader::particle_light_weight(c.particle_lights[i]));
    }
  }
  // Every light left out is no brighter than the dimmest kept.
  const ReferenceParticleLights all = select_reference_particle_lights(c.pool, c.record_words, c.alive, c.records,
                                                                       c.light_records, 64);
  ASSERT_EQ(all.lights.size(), 40u);
  for (size_t i = 16; i < all.lights.size(); ++i)
    EXPECT_LE(shader::particle_light_weight(all.lights[i]), shader::particle_light_weight(c.particle_lights[15]));
}

// Lit sprites see the particle light through the irradiance volume, on both draw paths: the lit
// puffs of lit_puffs.json beside the light look as they do beside the point light (the volume is
// built from the same light either way), and as the CPU reference draws them given the GPU's list.
TEST_F(ParticleLightTest, LitSpritesSeeTheParticleLightAsThePointLight) {
  scene::Scene lit = load(scene_text("particle_light_single.json"));
  scene::Emitter puff_emitter;
  puff_emitter.name = "puffs";
  puff_emitter.effect = kScenes / "../effects/lit_puffs.json";
  puff_emitter.position = {0.0f, 0.6f, 0.6f};
  lit.emitters.push_back(puff_emitter);
  scene::Scene point = without_particle_light(lit, true);
  point.emitters.push_back(puff_emitter);
  for (DrawPath path : {DrawPath::kRaster, DrawPath::kCompute}) {
    SCOPED_TRACE(path == DrawPath::kRaster ? "raster" : "compute");
    std::vector<FrameCapture> a, b;
    render(point, {2}, b, path);
    render(lit, {2}, a, path);  // last: atlas_ is its atlas
    ASSERT_EQ(a[0].particle_light_header.count, 1u);
    const MaxError e = max_error(b[0].composited, a[0].composited);
    std::printf("lit puffs, particle light vs point light: max |diff| %.3g of peak %.3g\n", e.max_abs, e.peak);
    EXPECT_LE(e.max_abs, 1e-3f * e.peak + 1e-4f);
    // The reference: the captured pool, the GPU's particle-light list and no scene light.
    const FrameCapture& c = a[0];
    ReferenceImage background{uint32_t(c.view.viewport.x), uint32_t(c.view.viewport.y), c.opaque};
    ReferenceInputs in;
    in.pool = c.pool;
    in.record_words = c.record_words;
    in.alive_slots = c.alive;
    in.records = c.records;
    in.view = c.view;
    in.atlas = &atlas_;
    in.scene_depth = c.depth;
    in.background = &background;
    in.point_lights = c.point_lights;
    in.particle_lights = c.particle_lights;
    auto reference = render_particles_reference(in);
    ASSERT_TRUE(reference.ok()) << reference.error().to_string();
    const ImageError error = compare_images(reference.value(),
                                            ReferenceImage{background.width, background.height, c.composited});
    std::printf("lit puffs under a particle light, GPU vs reference: %.1f dB\n", error.psnr_db);
    EXPECT_GT(error.psnr_db, 45.0);  // 49.2 dB measured on lavapipe
    // Without the particle light the reference is far off: the light is what the puffs show.
    in.particle_lights = {};
    auto unlit = render_particles_reference(in);
    ASSERT_TRUE(unlit.ok()) << unlit.error().to_string();
    const ImageError without = compare_images(unlit.value(),
                                              ReferenceImage{background.width, background.height, c.composited});
    std::printf("  (the reference without the particle light: %.1f dB)\n", without.psnr_db);
    EXPECT_LT(without.psnr_db, error.psnr_db - 10.0);
  }
}

// The fog's in-scatter adds the particle light as it adds the point light: a fog bank around the
// light glows alike either way (the same light pass on the same values, the same history).
TEST_F(ParticleLightTest, TheFogInScattersTheParticleLightAsThePointLight) {
  const std::string fog = R"(
    "volumes": [{"name": "bank", "position": [0, 1, 0], "scale": [8, 2, 8], "density": 0.6, "albedo": [0.9, 0.9, 0.9]}],
    "fog": {"grid": [24, 16, 32], "near": 0.3, "far": 20},)";
  // Warmed up, so the particle is there from the first frame the fog accumulates (its history is
  // a running mean of the frames so far: a frame without the light would dim the glow).
  std::string text = scene_text("particle_light_single.json", fog);
  text.replace(text.find(R"("warmup_seconds": 0.0)"), 21, R"("warmup_seconds": 0.5)");
  const scene::Scene lit = load(text);
  std::vector<FrameCapture> a, b, c;
  render(lit, {2}, a);
  render(without_particle_light(lit, true), {2}, b);
  render(without_particle_light(lit, false), {2}, c);
  ASSERT_EQ(a[0].particle_light_header.count, 1u);
  const MaxError same = max_error(b[0].composited, a[0].composited);
  const MaxError gone = max_error(b[0].composited, c[0].composited);
  std::printf("fog, particle light vs point light: max |diff| %.3g of peak %.3g (without: %.3g)\n", same.max_abs,
              same.peak, gone.max_abs);
  EXPECT_LE(same.max_abs, 1e-3f * same.peak + 1e-4f);
  EXPECT_GT(gone.max_abs, 10.0f * (same.max_abs + 1e-4f)) << "the light is really there";
}

}  // namespace
}  // namespace mote::render
