// The GPU scene renderer (src/render/scene_renderer.hpp) end to end on the device, validation on:
//
//   * Goldens: every scene in scenes/ and the test scenes in tests/render/scenes/ (each
//     projection mode, a flipbook with and without blending, soft particles through the ground),
//     a few frames in at 160 x 90, against tests/render/golden/<case>.png — raster OIT for all,
//     the compute path and the sorted raster path for some. scripts/rebaseline_goldens.sh
//     rewrites them (MOTE_REBASELINE_GOLDENS=1 makes the golden tests write instead of compare).
//   * Error against the exact CPU reference (src/render/reference_renderer.hpp), one test per
//     draw path, on scenes whose records are all unlit quads: the frame's particle inputs are
//     captured (capture_next) and composited on the CPU over the captured opaque HDR.
//   * Hostile scenes: nothing in them, a missing or corrupt texture (soft-disc fallback and a
//     warning), a missing or uncompilable effect, a missing or corrupt glTF, and a mutation fuzz
//     of scene files through the whole renderer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <unistd.h>

#include "assets/image.hpp"
#include "render/reference_particle_lights.hpp"
#include "render/reference_renderer.hpp"
#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "shared/particle_render.h"
#include "support/gpu_fixture.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = MOTE_SOURCE_DIR;
const fs::path kGoldenDir = kSourceDir / "tests/render/golden";

bool rebaselining() {
  const char* v = std::getenv("MOTE_REBASELINE_GOLDENS");
  return v != nullptr && std::string(v) == "1";
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// A fresh folder under the system temp dir, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("mote_render_scene_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Loads `scene_file`, renders frames 0 .. `frame` and returns the last one; `renderer_out`
// (optional) keeps the renderer for more frames or its warnings.
Result<assets::ImageRgba8> render_frame(gpu::Device& device, const scene::Scene& scene, uint32_t frame,
                                        const SceneRenderOptions& options,
                                        std::unique_ptr<SceneRenderer>* renderer_out = nullptr) {
  MOTE_TRY_ASSIGN(std::unique_ptr<SceneRenderer> renderer, SceneRenderer::create(device, scene, options));
  assets::ImageRgba8 image;
  for (uint32_t f = 0; f <= frame; ++f) {
    MOTE_TRY_ASSIGN(image, renderer->render_next());
  }
  if (renderer_out) *renderer_out = std::move(renderer);
  return image;
}

// ---------------------------------------------------------------------------------------------
// Goldens
// ---------------------------------------------------------------------------------------------

// The golden tolerance, on the 8-bit sRGB output (RGB; the tonemapper writes alpha 255):
//   * mean |difference| over every RGB channel of every pixel <= 1.5 levels: rounding and
//     last-bit float differences (an LLVM or Mesa update reordering arithmetic, a shader edit
//     that does not mean to change the picture) move most pixels by 0 or 1 level and keep the
//     mean well under 1; a change of any colour, fade, tonemap or light over a visible part of
//     the picture moves it past 1.5 (a 160 x 90 image with a 10 % region off by 15 levels is
//     already a mean of 1.5);
//   * at most 0.5 % of the pixels (72 of 14,400) with a channel off by more than 24 levels:
//     a particle that lands a fraction of a pixel elsewhere after a last-bit change in the
//     simulation changes only its edge pixels by much — a handful — while a missing, flipped,
//     misplaced or wrongly ordered sprite changes dozens to hundreds.
// lavapipe renders the same build bit-identically, so on the machine that wrote the goldens
// both measures are 0; the tolerance is for drivers and shader changes, not for noise.
constexpr double kGoldenMeanLevels = 1.5;
constexpr int kGoldenOutlierLevels = 24;
constexpr double kGoldenOutlierFraction = 0.005;

struct GoldenDiff {
  double mean_levels = 0.0;  // mean |a - b| over RGB channels, in 8-bit levels
  int max_levels = 0;
  size_t outliers = 0;  // pixels with a channel off by more than kGoldenOutlierLevels
  double outlier_fraction = 0.0;
};

GoldenDiff diff_images(const assets::ImageRgba8& a, const assets::ImageRgba8& b) {
  GoldenDiff d;
  const size_t pixels = size_t(a.width) * a.height;
  double sum = 0.0;
  for (size_t i = 0; i < pixels; ++i) {
    int worst = 0;
    for (int c = 0; c < 3; ++c) {
      const int delta = std::abs(int(a.pixels[i * 4 + c]) - int(b.pixels[i * 4 + c]));
      sum += delta;
      worst = std::max(worst, delta);
    }
    d.max_levels = std::max(d.max_levels, worst);
    if (worst > kGoldenOutlierLevels) ++d.outliers;
  }
  d.mean_levels = pixels ? sum / double(pixels * 3) : 0.0;
  d.outlier_fraction = pixels ? double(d.outliers) / double(pixels) : 0.0;
  return d;
}

// |a - b| × 4 per channel, opaque: what to look at next to the actual picture.
assets::ImageRgba8 diff_picture(const assets::ImageRgba8& a, const assets::ImageRgba8& b) {
  assets::ImageRgba8 out;
  out.width = a.width;
  out.height = a.height;
  out.pixels.resize(a.pixels.size());
  for (size_t i = 0; i < a.pixels.size(); i += 4) {
    for (int c = 0; c < 3; ++c)
      out.pixels[i + c] = uint8_t(std::min(255, 4 * std::abs(int(a.pixels[i + c]) - int(b.pixels[i + c]))));
    out.pixels[i + 3] = 255;
  }
  return out;
}

// What the particles add to a picture: the picture against the same frame rendered without its
// emitters, over RGB channels, counting only differences above kSignalFloorLevels (so a level of
// rounding noise over the whole image is not "signal").
//   * The total (levels above the floor, summed) must stay within kGoldenSignalChange of the
//     golden's (or kGoldenSignalSlackLevels, whichever is more: rain's whole signal is ~75). Small, faint particles
//     (rain, snow, debris at 160 x 90) change few pixels by few levels: the per-pixel tolerance above would not notice
//     them vanish, dim or double; this does, and it is blind to where the particles are, so a sub-pixel move does not
//     trip it.
//   * A golden is only written when the particles change at least kMinSignalPixels pixels.
constexpr int kSignalFloorLevels = 2;
constexpr double kGoldenSignalChange = 0.10;
constexpr double kGoldenSignalSlackLevels = 40.0;  // or this many levels, for the faintest pictures
constexpr size_t kMinSignalPixels = 8;

struct ParticleSignal {
  double levels = 0.0;
  size_t pixels = 0;  // pixels with a channel above the floor
};

ParticleSignal particle_signal(const assets::ImageRgba8& picture, const assets::ImageRgba8& without_particles) {
  ParticleSignal s;
  const size_t pixels = size_t(picture.width) * picture.height;
  for (size_t i = 0; i < pixels; ++i) {
    bool changed = false;
    for (int c = 0; c < 3; ++c) {
      const int delta = std::abs(int(picture.pixels[i * 4 + c]) - int(without_particles.pixels[i * 4 + c]));
      if (delta > kSignalFloorLevels) {
        s.levels += delta - kSignalFloorLevels;
        changed = true;
      }
    }
    s.pixels += changed;
  }
  return s;
}

struct GoldenCase {
  const char* name;   // the golden is tests/render/golden/<name>.png
  const char* scene;  // relative to the source folder
  uint32_t frame;     // rendered after frames 0 .. frame - 1
  DrawPath path = DrawPath::kRaster;
  Transparency transparency = Transparency::kOit;
};

constexpr uint32_t kGoldenWidth = 160, kGoldenHeight = 90;

// Every scene in scenes/ (raster, OIT), the test scenes, and the other two draw paths on a few.
// Frame 6 is a quarter second in at 24 fps: bursts (debris, explosion) are spreading, steady
// emitters have their warm-up behind them. The test scenes warm up in the scene file itself.
const GoldenCase kGoldenCases[] = {
    {"bonfire", "scenes/bonfire.json", 6},
    {"debris", "scenes/debris.json", 6},
    {"explosion", "scenes/explosion.json", 6},
    {"fire", "scenes/fire.json", 6},
    {"fountain", "scenes/fountain.json", 6},  // mesh particles (lit boxes)
    {"rain", "scenes/rain.json", 6},
    {"showcase", "scenes/showcase.json", 6},
    {"smoke", "scenes/smoke.json", 6},
    {"snow", "scenes/snow.json", 6},
    {"sparkles", "scenes/sparkles.json", 6},
    {"water_jet", "scenes/water_jet.json", 6},
    {"fog_bank", "scenes/fog_bank.json", 6},  // fog volumes (docs/design/media.md)
    {"bonfire_fog", "scenes/bonfire_fog.json", 6},
    {"sun_shafts", "scenes/sun_shafts.json", 6},
    {"fireworks", "scenes/fireworks.json", 12},                // events: rockets burst into sparks
    {"rain_splash", "scenes/rain_splash.json", 6},             // events: rain splashes on the box and ground
    {"comet", "scenes/comet.json", 6},                         // a ribbon tail (docs/design/ribbons.md)
    {"sword_swing", "scenes/sword_swing.json", 6},             // a ribbon facing its normal field
    {"fireworks_trails", "scenes/fireworks_trails.json", 12},  // trails: events into a ribbon emitter
    {"leaves_swirl", "scenes/leaves_swirl.json", 6},           // an authored vector field carries the leaves
    {"embers_night", "scenes/embers_night.json", 6},           // particle lights (docs/design/particle_lights.md)
    {"projection_billboard", "tests/render/scenes/projection_billboard.json", 2},
    {"projection_stretched", "tests/render/scenes/projection_stretched.json", 2},
    {"projection_vertical", "tests/render/scenes/projection_vertical.json", 2},
    {"projection_horizontal", "tests/render/scenes/projection_horizontal.json", 2},
    {"projection_facing_world", "tests/render/scenes/projection_facing_world.json", 2},
    {"flipbook", "tests/render/scenes/flipbook.json", 0},
    {"flipbook_blend", "tests/render/scenes/flipbook_blend.json", 0},
    {"soft_crossing", "tests/render/scenes/soft_crossing.json", 1},
    {"lit_backlit", "tests/render/scenes/lit_backlit.json", 1},    // lit puffs, a light behind them
    {"ribbon_comet", "tests/render/scenes/ribbon_comet.json", 6},  // a ribbon (docs/design/ribbons.md)
    {"ribbon_comet_sorted", "tests/render/scenes/ribbon_comet.json", 6, DrawPath::kRaster, Transparency::kSorted},
    {"ribbon_comet_avboit", "tests/render/scenes/ribbon_comet.json", 6, DrawPath::kRaster, Transparency::kAvboit},
    {"ribbon_comet_compute", "tests/render/scenes/ribbon_comet.json", 6, DrawPath::kCompute},
    {"comet_compute", "scenes/comet.json", 6, DrawPath::kCompute},  // sprites in tiles, then the ribbon
    {"fire_compute", "scenes/fire.json", 6, DrawPath::kCompute},
    {"smoke_compute", "scenes/smoke.json", 6, DrawPath::kCompute},
    {"projection_billboard_compute", "tests/render/scenes/projection_billboard.json", 2, DrawPath::kCompute},
    {"soft_crossing_compute", "tests/render/scenes/soft_crossing.json", 1, DrawPath::kCompute},
    {"bonfire_compute", "scenes/bonfire.json", 6, DrawPath::kCompute},
    {"debris_compute", "scenes/debris.json", 6, DrawPath::kCompute},
    {"explosion_compute", "scenes/explosion.json", 6, DrawPath::kCompute},
    {"fountain_compute", "scenes/fountain.json", 6, DrawPath::kCompute},
    {"rain_compute", "scenes/rain.json", 6, DrawPath::kCompute},
    {"showcase_compute", "scenes/showcase.json", 6, DrawPath::kCompute},
    {"snow_compute", "scenes/snow.json", 6, DrawPath::kCompute},
    {"sparkles_compute", "scenes/sparkles.json", 6, DrawPath::kCompute},
    {"water_jet_compute", "scenes/water_jet.json", 6, DrawPath::kCompute},
    {"fog_bank_compute", "scenes/fog_bank.json", 6, DrawPath::kCompute},
    {"bonfire_fog_compute", "scenes/bonfire_fog.json", 6, DrawPath::kCompute},
    {"embers_night_compute", "scenes/embers_night.json", 6, DrawPath::kCompute},
    {"sun_shafts_compute", "scenes/sun_shafts.json", 6, DrawPath::kCompute},
    {"projection_stretched_compute", "tests/render/scenes/projection_stretched.json", 2, DrawPath::kCompute},
    {"projection_vertical_compute", "tests/render/scenes/projection_vertical.json", 2, DrawPath::kCompute},
    {"projection_horizontal_compute", "tests/render/scenes/projection_horizontal.json", 2, DrawPath::kCompute},
    {"projection_facing_world_compute", "tests/render/scenes/projection_facing_world.json", 2, DrawPath::kCompute},
    {"flipbook_compute", "tests/render/scenes/flipbook.json", 0, DrawPath::kCompute},
    {"flipbook_blend_compute", "tests/render/scenes/flipbook_blend.json", 0, DrawPath::kCompute},
    {"smoke_sorted", "scenes/smoke.json", 6, DrawPath::kRaster, Transparency::kSorted},
    {"snow_sorted", "scenes/snow.json", 6, DrawPath::kRaster, Transparency::kSorted},
    {"soft_crossing_sorted", "tests/render/scenes/soft_crossing.json", 1, DrawPath::kRaster, Transparency::kSorted},
    {"bonfire_sorted", "scenes/bonfire.json", 6, DrawPath::kRaster, Transparency::kSorted},  // lit smoke and soot
    {"lit_backlit_compute", "tests/render/scenes/lit_backlit.json", 1, DrawPath::kCompute},
    {"lit_backlit_sorted", "tests/render/scenes/lit_backlit.json", 1, DrawPath::kRaster, Transparency::kSorted},
    // AVBOIT at the size's default grid (a column per 16 x 16 pixels): the lit presets and smoke.
    {"bonfire_avboit", "scenes/bonfire.json", 6, DrawPath::kRaster, Transparency::kAvboit},
    {"bonfire_fog_avboit", "scenes/bonfire_fog.json", 6, DrawPath::kRaster, Transparency::kAvboit},
    {"smoke_avboit", "scenes/smoke.json", 6, DrawPath::kRaster, Transparency::kAvboit},
    {"lit_backlit_avboit", "tests/render/scenes/lit_backlit.json", 1, DrawPath::kRaster, Transparency::kAvboit},
};

// gtest prints the case by name (not as bytes) when a case fails.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

class GoldenTest : public test::GpuTest, public ::testing::WithParamInterface<GoldenCase> {};

TEST_P(GoldenTest, MatchesTheGolden) {
  const GoldenCase& c = GetParam();
  auto loaded = scene::load_scene_file(kSourceDir / c.scene);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  SceneRenderOptions options;
  options.width = kGoldenWidth;
  options.height = kGoldenHeight;
  options.path = c.path;
  options.transparency = c.transparency;
  options.profile = false;
  std::unique_ptr<SceneRenderer> renderer;
  auto rendered = render_frame(device(), loaded.value(), c.frame, options, &renderer);
  ASSERT_TRUE(rendered.ok()) << rendered.error().to_string();
  const assets::ImageRgba8& actual = rendered.value();
  ASSERT_EQ(actual.width, kGoldenWidth);
  ASSERT_EQ(actual.height, kGoldenHeight);
  EXPECT_TRUE(renderer->warnings().empty()) << renderer->warnings().front();
  renderer.reset();
  // The same frame without the emitters: what the particles add to the picture.
  scene::Scene no_particles = loaded.value();
  no_particles.emitters.clear();
  no_particles.events.clear();  // they name the emitters
  auto empty = render_frame(device(), no_particles, c.frame, options);
  ASSERT_TRUE(empty.ok()) << empty.error().to_string();
  const ParticleSignal actual_signal = particle_signal(actual, empty.value());

  const fs::path golden_path = kGoldenDir / (std::string(c.name) + ".png");
  if (rebaselining()) {
    std::printf("golden %s: particles change %zu pixels, signal %.0f levels\n", c.name, actual_signal.pixels,
                actual_signal.levels);
    ASSERT_GE(actual_signal.pixels, kMinSignalPixels)
        << "the particles barely show in this picture: not written (a golden must show what it tests)";
    ASSERT_TRUE(assets::write_png(golden_path, actual).ok());
    std::printf("wrote %s\n", golden_path.string().c_str());
    return;
  }
  auto golden = assets::load_image(golden_path);
  ASSERT_TRUE(golden.ok()) << golden.error().to_string() << " (run scripts/rebaseline_goldens.sh)";
  ASSERT_EQ(golden->width, actual.width);
  ASSERT_EQ(golden->height, actual.height);
  const GoldenDiff d = diff_images(golden.value(), actual);
  const ParticleSignal golden_signal = particle_signal(golden.value(), empty.value());
  const double signal_change = std::abs(actual_signal.levels - golden_signal.levels);
  const double signal_limit = std::max(kGoldenSignalChange * golden_signal.levels, kGoldenSignalSlackLevels);
  std::printf("golden %s: mean %.3f levels, max %d, %zu pixels over %d (%.3f %%); particle signal %.0f levels "
              "(golden %.0f, %+.2f %%)\n",
              c.name, d.mean_levels, d.max_levels, d.outliers, kGoldenOutlierLevels, 100.0 * d.outlier_fraction,
              actual_signal.levels, golden_signal.levels,
              100.0 * (actual_signal.levels - golden_signal.levels) / golden_signal.levels);
  if (d.mean_levels <= kGoldenMeanLevels && d.outlier_fraction <= kGoldenOutlierFraction &&
      signal_change <= signal_limit)
    return;
  const fs::path failures = fs::absolute(fs::current_path() / "golden_failures");
  fs::create_directories(failures);
  const fs::path actual_path = failures / (std::string(c.name) + ".actual.png");
  const fs::path diff_path = failures / (std::string(c.name) + ".diff.png");
  EXPECT_TRUE(assets::write_png(actual_path, actual).ok());
  EXPECT_TRUE(assets::write_png(diff_path, diff_picture(golden.value(), actual)).ok());
  ADD_FAILURE() << c.name << " differs from " << golden_path.string() << ": mean " << d.mean_levels << " levels (limit "
                << kGoldenMeanLevels << "), " << d.outliers << " pixels off by more than " << kGoldenOutlierLevels
                << " (" << 100.0 * d.outlier_fraction << " %, limit " << 100.0 * kGoldenOutlierFraction
                << " %), particle signal " << actual_signal.levels << " levels vs " << golden_signal.levels << " ("
                << signal_change << " apart, limit " << signal_limit << "). Wrote " << actual_path.string() << " and "
                << diff_path.string() << " (|difference| x 4); if the change is intended, run "
                << "scripts/rebaseline_goldens.sh and look at the new pictures before committing them.";
}

INSTANTIATE_TEST_SUITE_P(Scenes, GoldenTest, ::testing::ValuesIn(kGoldenCases),
                         [](const ::testing::TestParamInfo<GoldenCase>& param) {
                           return std::string(param.param.name);
                         });

// A scene added to scenes/ gets a golden too.
TEST(GoldenCoverage, EveryScenesFileHasARasterGolden) {
  std::set<std::string> covered;
  for (const GoldenCase& c : kGoldenCases)
    if (c.path == DrawPath::kRaster && c.transparency == Transparency::kOit) covered.insert(c.scene);
  size_t scenes = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(kSourceDir / "scenes")) {
    if (e.path().extension() != ".json") continue;
    ++scenes;
    const std::string relative = "scenes/" + e.path().filename().string();
    EXPECT_TRUE(covered.count(relative)) << relative << " has no golden case in kGoldenCases";
  }
  EXPECT_GE(scenes, 11u);
  // And every golden on disk belongs to a case (a renamed case leaves no stale picture behind).
  std::set<std::string> names;
  for (const GoldenCase& c : kGoldenCases) names.insert(std::string(c.name) + ".png");
  for (const fs::directory_entry& e : fs::directory_iterator(kGoldenDir))
    EXPECT_TRUE(names.count(e.path().filename().string())) << e.path() << " is not a golden of any case";
}

// ---------------------------------------------------------------------------------------------
// Error against the exact CPU reference
// ---------------------------------------------------------------------------------------------

struct ReferenceCase {
  const char* scene;
  uint32_t frame;  // captured after frames 0 .. frame - 1
  // Held to the OIT bound too. The bonfire is not: its additive flame sits behind and inside
  // the alpha smoke, and weighted OIT adds emission unattenuated by what is in front (it keeps
  // no order to attenuate it by) — measured 27.8 dB, mean 0.0047, max 0.73 where the flame
  // shows through the smoke. Printed, not asserted; the sorted and compute paths are held.
  bool oit = true;
  // Lit sprites in it: held to kLitBounds on the sorted and compute paths (the volume's residual).
  bool lit = false;
};

// Scenes whose particles are quads, lit (the bonfire's smoke and soot) or not (the reference does
// not draw mesh particles) — every preset but the fountain (mesh particles, covered by goldens on
// both paths) and debris and rain (sub-pixel at 128x72: the particles change the picture by
// less than the 50 dB the check below requires; their goldens cover them): additive (fire, sparkles), alpha-blended and
// overlapping (smoke, snow), every projection mode, a textured flipbook with and without blending, soft particles.
const ReferenceCase kReferenceCases[] = {
    {"scenes/fire.json", 4},
    {"scenes/smoke.json", 4},
    {"scenes/sparkles.json", 4},
    {"scenes/snow.json", 4},
    {"scenes/bonfire.json", 4, false, true},
    {"scenes/explosion.json", 4},
    {"scenes/water_jet.json", 4},
    {"tests/render/scenes/projection_billboard.json", 1},
    {"tests/render/scenes/projection_stretched.json", 1},
    {"tests/render/scenes/projection_vertical.json", 1},
    {"tests/render/scenes/projection_horizontal.json", 1},
    {"tests/render/scenes/projection_facing_world.json", 1},
    {"tests/render/scenes/flipbook_blend.json", 0},
    {"tests/render/scenes/soft_crossing.json", 1},
    {"tests/render/scenes/lit_backlit.json", 1, true, true},
};

constexpr uint32_t kReferenceWidth = 128, kReferenceHeight = 72;

struct PathBounds {
  double min_psnr_db;  // every scene
  double max_mean_abs;
};

// Lit scenes (the bonfire's smoke and soot): the exact lights against the froxel volume's samples
// at one froxel per pixel and 256 slices — measured 49.9 dB / mean 0.0003 on the compute path,
// the worst pixels beside the fire's point light.
constexpr PathBounds kLitBounds{40.0, 0.001};

constexpr glm::uvec3 kAvboitReferenceGrid{120, 68, 64};

// One path's error on one scene, for the table.
struct PathError {
  double psnr_db = 0.0;
  double mean_abs = 0.0;
};

class ReferenceErrorTest : public test::GpuTest {
 protected:
  // Every scene of `cases` on one path: the error per scene into `row` (in their order), each scene held to `bounds`
  // (kLitBounds when lit; WBOIT skips the scenes it is not held on).
  void check_path(const char* label, DrawPath path, Transparency transparency, const PathBounds& bounds,
                  std::vector<PathError>& row, std::span<const ReferenceCase> cases = kReferenceCases,
                  glm::uvec3 avboit_grid = kAvboitReferenceGrid) {
    double worst_psnr = INFINITY;
    row.assign(cases.size(), PathError{});
    for (size_t index = 0; index < cases.size(); ++index) {
      const ReferenceCase& c = cases[index];
      SCOPED_TRACE(c.scene);
      auto loaded = scene::load_scene_file(kSourceDir / c.scene);
      ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
      SceneRenderOptions options;
      options.width = kReferenceWidth;
      options.height = kReferenceHeight;
      options.path = path;
      options.transparency = transparency;
      options.profile = false;
      // Lit sprites: the reference evaluates the lights exactly at each fragment; a froxel per pixel
      // and 256 slices leaves the paths' compositing as the error, and a residual of the volume's
      // jitter within a froxel (largest right by a point light).
      options.lighting_grid = {kReferenceWidth, kReferenceHeight, 256};
      // AVBOIT: the columns a 1920 x 1080 target gets by default (a column per 16 x 16 pixels,
      // 120 x 68), so the volume resolves the same share of the view as it does there; at
      // 128 x 72 the default would be 8 x 5 columns (printed beside it by the AVBOIT test).
      options.avboit_grid = avboit_grid;
      auto created = SceneRenderer::create(device(), loaded.value(), options);
      ASSERT_TRUE(created.ok()) << created.error().to_string();
      SceneRenderer& renderer = *created.value();
      for (uint32_t f = 0; f < c.frame; ++f) ASSERT_TRUE(renderer.render_next().ok());
      FrameCapture capture;
      auto frame = renderer.capture_next(capture);
      ASSERT_TRUE(frame.ok()) << frame.error().to_string();

      const size_t texels = size_t(kReferenceWidth) * kReferenceHeight;
      ASSERT_EQ(capture.opaque.size(), texels);
      ASSERT_EQ(capture.composited.size(), texels);
      ASSERT_EQ(capture.depth.size(), texels);
      ASSERT_NE(capture.atlas, nullptr);
      ASSERT_GT(capture.alive.size(), 0u) << "nothing to compare: no particle alive";
      uint32_t quads = 0;
      for (const shader::ParticleDrawRecord& r : capture.records) {
        if (!(r.flags & shader::kDrawFlagLive)) continue;
        ASSERT_NE(r.flags & shader::kDrawProjectionMask, shader::kProjectionMesh);
        ++quads;
      }
      ASSERT_GT(quads, 0u);

      ReferenceTexture atlas{capture.atlas->image.width, capture.atlas->image.height, capture.atlas->image.pixels};
      ReferenceImage background{kReferenceWidth, kReferenceHeight, capture.opaque};
      ReferenceInputs in;
      in.pool = capture.pool;
      in.record_words = capture.record_words;
      in.alive_slots = capture.alive;
      in.records = capture.records;
      in.view = capture.view;
      in.atlas = &atlas;
      in.scene_depth = capture.depth;
      in.background = &background;
      in.point_lights = capture.point_lights;
      // The particle lights as the CPU selects them from the captured pool (not the GPU's list).
      const ReferenceParticleLights particle_lights =
          select_reference_particle_lights(capture.pool, capture.record_words, capture.alive, capture.records,
                                           capture.light_records, capture.particle_light_header.capacity);
      in.particle_lights = particle_lights.lights;
      auto reference = render_particles_reference(in);
      ASSERT_TRUE(reference.ok()) << reference.error().to_string();
      const ReferenceImage gpu{kReferenceWidth, kReferenceHeight, capture.composited};
      const ImageError e = compare_images(reference.value(), gpu);
      // How much the particles changed the picture, so a PSNR is read against something.
      const ImageError particles = compare_images(reference.value(), background);
      std::printf("%s %-48s alive %5zu  PSNR %6.2f dB  mean %.5f  max %.4f  (particles vs none: %.2f dB)\n", label,
                  c.scene, capture.alive.size(), e.psnr_db, e.mean_abs, e.max_abs, particles.psnr_db);
      EXPECT_LT(particles.psnr_db, 50.0) << "the particles barely show: the comparison would prove little";
      row[index] = {e.psnr_db, e.mean_abs};
      if (transparency == Transparency::kOit && path == DrawPath::kRaster && !c.oit) continue;
      const PathBounds& held = c.lit ? kLitBounds : bounds;
      EXPECT_GE(e.psnr_db, held.min_psnr_db);
      EXPECT_LE(e.mean_abs, held.max_mean_abs);
      worst_psnr = std::min(worst_psnr, e.psnr_db);
    }
    std::printf("%s: worst PSNR %.2f dB (bound %.1f dB)\n", label, worst_psnr, bounds.min_psnr_db);
  }
};

// Bounds (PSNR over clamped linear RGB, mean |error| per channel), each about 10 dB under the
// worst scene measured on lavapipe (the per-scene numbers are printed; measured when written:
// sorted raster worst 60.4 dB / mean 0.00035 (smoke), compute worst 70.8 dB / 0.00007, raster
// OIT worst 42.4 dB (projection_billboard) and 48.9 dB / 0.00093 (smoke); every other scene
// 70-95 dB on all three paths).
//
// Sorted raster and compute order whole sprites by their centre's view depth, the reference
// orders fragments; for camera-facing sprites that do not intersect the two orders are the same,
// so what is left is rounding: bilinear filtering and rasterisation at sprite edges, and the
// HDR target's half floats. The sorted raster path blends each of its layers INTO the RGBA16F
// target (one half-float rounding per layer: 100+ overlapping puffs in smoke add up to ~0.006),
// the compute path blends a pixel's whole list in 32-bit registers and rounds once, hence
// its higher floor. World-aligned modes (horizontal, facing_world) could order differently from
// the reference where sprites intersect; the test grids' sprites do not.
constexpr PathBounds kSortedBounds{50.0, 0.001};
constexpr PathBounds kComputeBounds{60.0, 0.0005};
// Weighted blended OIT (McGuire & Bavoil 2013) is an approximation of "over": where alpha
// sprites overlap, the colour is their average weighted by alpha x w(depth), normalised by the
// weights' sum, and only the coverage (revealage) is exact — not the nearest sprite's colour on
// top. Overlapping sprites of different colours are where it shows: the billboard grid's opaque
// textured sprites that touch (up to 0.35 off where two overlap: their mean instead of the front
// one) and smoke's puffs; additive sprites are exact (their own accumulator), and so is a single
// layer.
constexpr PathBounds kOitBounds{35.0, 0.003};

// Volume-based OIT (AVBOIT): each fragment weighted by the transmittance in front of it from the
// extinction volume, at the froxel resolution (a column per 16 x 16 pixels: 8 x 5 columns at
// 128 x 72) and 64 adaptive slices. The total coverage of a pixel is exact (revealage), and so is
// a single layer; where layers overlap, the weights are the volume's transmittance, averaged over
// a column and a slice, not the exact product of the layers in front, which is the error left.
// Additive sprites behind alpha ones are attenuated by it (the bonfire's flame through its smoke).
constexpr PathBounds kAvboitBounds{40.0, 0.002};

// The issue's headline: AVBOIT at 40 dB or better on the bonfire (lit smoke and soot over an
// additive flame, WBOIT 37 dB) and on the smoke-heavy scenes.
TEST_F(ReferenceErrorTest, AvboitHoldsTheBonfireAndTheSmoke) {
  const ReferenceCase cases[] = {{"scenes/bonfire.json", 4, true, true}, {"scenes/smoke.json", 4}};
  std::vector<PathError> row;
  check_path("raster AVBOIT", DrawPath::kRaster, Transparency::kAvboit, kAvboitBounds, row, cases);
  ASSERT_EQ(row.size(), 2u);
  EXPECT_GE(row[0].psnr_db, 40.0) << "bonfire";
  EXPECT_GE(row[1].psnr_db, 40.0) << "smoke";
  // The default grid at this size, 8 x 5 columns, for the record (not held: a column spans an
  // eighth of the view, where the bonfire's flame shows through its smoke).
  // (The lit flag off: held to the loose bound below, not kLitBounds.)
  const ReferenceCase coarse_cases[] = {{"scenes/bonfire.json", 4, true, false}, {"scenes/smoke.json", 4}};
  std::vector<PathError> coarse;
  check_path("raster AVBOIT, 16 px columns", DrawPath::kRaster, Transparency::kAvboit, PathBounds{30.0, 0.005}, coarse,
             coarse_cases, glm::uvec3(0));
}

// Every path against the reference on every scene, one test per path (each is minutes on
// lavapipe: together they ran past one test's timeout); each prints its column of the table
// docs/design/render.md keeps.
struct ReferencePath {
  const char* label;
  DrawPath path;
  Transparency transparency;
  PathBounds bounds;
};

class ReferencePathTest : public ReferenceErrorTest, public ::testing::WithParamInterface<ReferencePath> {};

TEST_P(ReferencePathTest, EveryScene) {
  const ReferencePath& p = GetParam();
  std::vector<PathError> column;
  check_path(p.label, p.path, p.transparency, p.bounds, column);
  ASSERT_EQ(column.size(), std::size(kReferenceCases));
  std::printf("\n| scene | %s |\n|---|---|\n", p.label);
  for (size_t c = 0; c < std::size(kReferenceCases); ++c)
    std::printf("| %s%s | %.1f |\n", kReferenceCases[c].scene, kReferenceCases[c].lit ? " (lit)" : "",
                column[c].psnr_db);
}

std::string reference_path_name(const ::testing::TestParamInfo<ReferencePath>& param) {
  static const char* const kPathNames[] = {"wboit", "avboit", "sorted", "compute"};
  return kPathNames[param.index];
}

INSTANTIATE_TEST_SUITE_P(
    Paths, ReferencePathTest,
    ::testing::Values(ReferencePath{"raster OIT (WBOIT)", DrawPath::kRaster, Transparency::kOit, kOitBounds},
                      ReferencePath{"raster AVBOIT", DrawPath::kRaster, Transparency::kAvboit, kAvboitBounds},
                      ReferencePath{"raster sorted", DrawPath::kRaster, Transparency::kSorted, kSortedBounds},
                      ReferencePath{"compute", DrawPath::kCompute, Transparency::kOit, kComputeBounds}),
    reference_path_name);

// ---------------------------------------------------------------------------------------------
// Hostile scenes
// ---------------------------------------------------------------------------------------------

class HostileSceneTest : public test::GpuTest {
 protected:
  static SceneRenderOptions small(DrawPath path = DrawPath::kRaster, Transparency t = Transparency::kOit) {
    SceneRenderOptions o;
    o.width = 32;
    o.height = 32;
    o.path = path;
    o.transparency = t;
    o.profile = false;
    o.min_capacity = 256;
    return o;
  }
};

// Exact in half floats, so the HDR target must hold exactly this where nothing is drawn.
constexpr float kBackground[3] = {0.25f, 0.375f, 0.5f};

TEST_F(HostileSceneTest, EmptySceneRendersTheBackground) {
  auto loaded = scene::load_scene(R"({"version": 1, "environment": {"background": [0.25, 0.375, 0.5]}})", kSourceDir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  struct PathCase {
    DrawPath path;
    Transparency transparency;
  };
  std::vector<uint8_t> first_picture;
  for (const PathCase p :
       {PathCase{DrawPath::kRaster, Transparency::kOit}, PathCase{DrawPath::kRaster, Transparency::kSorted},
        PathCase{DrawPath::kRaster, Transparency::kAvboit}, PathCase{DrawPath::kCompute, Transparency::kOit}}) {
    SCOPED_TRACE(p.path == DrawPath::kCompute              ? "compute"
                 : p.transparency == Transparency::kOit    ? "oit"
                 : p.transparency == Transparency::kSorted ? "sorted"
                                                           : "avboit");
    auto created = SceneRenderer::create(device(), loaded.value(), small(p.path, p.transparency));
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    SceneRenderer& renderer = *created.value();
    EXPECT_TRUE(renderer.warnings().empty());
    for (int f = 0; f < 2; ++f) {
      FrameCapture capture;
      auto image = renderer.capture_next(capture);
      ASSERT_TRUE(image.ok()) << image.error().to_string();
      EXPECT_TRUE(capture.alive.empty());
      for (size_t i = 0; i < capture.opaque.size(); ++i) {
        for (int ch = 0; ch < 3; ++ch) {
          ASSERT_EQ(capture.opaque[i][ch], kBackground[ch]) << "texel " << i;
          ASSERT_EQ(capture.composited[i][ch], kBackground[ch]) << "texel " << i;
        }
        ASSERT_EQ(capture.depth[i], 0.0f) << "texel " << i << ": nothing drawn, depth stays at the far plane";
      }
      // The picture: one colour everywhere, the background tonemapped (not black, opaque).
      const assets::ImageRgba8& pic = image.value();
      ASSERT_EQ(pic.pixels.size(), 32u * 32u * 4u);
      for (size_t i = 0; i < pic.pixels.size(); i += 4)
        ASSERT_TRUE(std::equal(pic.pixels.begin() + i, pic.pixels.begin() + i + 4, pic.pixels.begin()))
            << "pixel " << i / 4;
      EXPECT_LT(pic.pixels[0], pic.pixels[1]);  // blue-ish sky: r < g < b survives tonemapping
      EXPECT_LT(pic.pixels[1], pic.pixels[2]);
      EXPECT_EQ(pic.pixels[3], 255);
      if (first_picture.empty()) first_picture = pic.pixels;
      EXPECT_EQ(pic.pixels, first_picture) << "the draw paths disagree about an empty frame";
    }
  }
}

// The grid of textured sprites in a temp folder, with `texture` as its render texture.
std::string grid_effect_with_texture(const std::string& texture) {
  std::string text = read_text(kSourceDir / "tests/render/effects/grid_billboard.json");
  const std::string from = R"("texture": "../textures/quadrants.png")";
  const size_t at = text.find(from);
  if (at == std::string::npos) return {};
  return text.replace(at, from.size(), R"("texture": ")" + texture + "\"");
}

std::string grid_scene_text(const std::string& effect_file) {
  return R"({"version": 1,
    "camera": {"position": [0, 2.2, 3.6], "target": [0, 0.8, 0]},
    "objects": [{"shape": "plane", "scale": [20, 1, 20]}],
    "emitters": [{"effect": ")" +
         effect_file + R"("}],
    "output": {"width": 64, "height": 36, "warmup_seconds": 0.1}})";
}

// A missing texture and a corrupt one render exactly as the soft disc (texture "") does, with a
// warning naming the texture.
TEST_F(HostileSceneTest, MissingOrCorruptTextureFallsBackToTheSoftDisc) {
  TempDir dir;
  write_bytes(dir.path() / "disc.json", grid_effect_with_texture(""));
  write_bytes(dir.path() / "missing.json", grid_effect_with_texture("no_such_texture.png"));
  write_bytes(dir.path() / "corrupt.json", grid_effect_with_texture("corrupt.png"));
  // A PNG signature followed by garbage, and a file of garbage: neither decodes.
  write_bytes(dir.path() / "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(300, '\x5a'));
  ASSERT_FALSE(grid_effect_with_texture("").empty());

  SceneRenderOptions options = small();
  options.width = 96;
  options.height = 64;
  auto render = [&](const std::string& effect, std::vector<std::string>* warnings) -> assets::ImageRgba8 {
    auto loaded = scene::load_scene(grid_scene_text(effect), dir.path());
    EXPECT_TRUE(loaded.ok()) << loaded.error().to_string();
    if (!loaded.ok()) return {};
    std::unique_ptr<SceneRenderer> renderer;
    auto image = render_frame(device(), loaded.value(), 1, options, &renderer);
    EXPECT_TRUE(image.ok()) << image.error().to_string();
    if (!image.ok()) return {};
    *warnings = renderer->warnings();
    return std::move(image).value();
  };
  std::vector<std::string> disc_warnings, missing_warnings, corrupt_warnings;
  const assets::ImageRgba8 disc = render("disc.json", &disc_warnings);
  const assets::ImageRgba8 missing = render("missing.json", &missing_warnings);
  const assets::ImageRgba8 corrupt = render("corrupt.json", &corrupt_warnings);
  ASSERT_FALSE(disc.pixels.empty());
  ASSERT_FALSE(missing.pixels.empty());
  ASSERT_FALSE(corrupt.pixels.empty());
  EXPECT_TRUE(disc_warnings.empty());
  ASSERT_EQ(missing_warnings.size(), 1u);
  EXPECT_NE(missing_warnings[0].find("no_such_texture.png"), std::string::npos) << missing_warnings[0];
  ASSERT_EQ(corrupt_warnings.size(), 1u);
  EXPECT_NE(corrupt_warnings[0].find("corrupt.png"), std::string::npos) << corrupt_warnings[0];

  // The disc is drawn: the sprites show (the picture is not the empty ground and sky) ...
  auto empty_scene = scene::load_scene(grid_scene_text("disc.json"), dir.path());
  ASSERT_TRUE(empty_scene.ok());
  empty_scene->emitters.clear();
  auto background = render_frame(device(), empty_scene.value(), 1, options);
  ASSERT_TRUE(background.ok()) << background.error().to_string();
  EXPECT_GT(diff_images(background.value(), disc).mean_levels, 2.0);
  // ... and the fallbacks draw the same disc (their own copy in the atlas: same texels, so at
  // most a rounding difference of the UV remap).
  for (const assets::ImageRgba8* fallback : {&missing, &corrupt}) {
    const GoldenDiff d = diff_images(disc, *fallback);
    EXPECT_LE(d.max_levels, 2);
    EXPECT_LE(d.mean_levels, 0.05);
  }
}

TEST_F(HostileSceneTest, MissingEffectFileIsAnErrorAtTheEmitter) {
  TempDir dir;
  auto loaded = scene::load_scene(grid_scene_text("no_such_effect.json"), dir.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  auto created = SceneRenderer::create(device(), loaded.value(), small());
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().where, "/emitters/0/effect");
  EXPECT_NE(created.error().message.find("no_such_effect.json"), std::string::npos) << created.error().message;
}

TEST_F(HostileSceneTest, EffectThatFailsToCompileIsAnErrorAtTheEmitter) {
  TempDir dir;
  // A node type that does not exist, and text that is not JSON at all; the scene names the good
  // effect first so the pointer must say which emitter.
  std::string bad = read_text(kSourceDir / "tests/render/effects/grid_billboard.json");
  const std::string node = R"({"id": "shape", "type": "emit_point"})";
  const size_t at = bad.find(node);
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, node.size(), R"({"id": "shape", "type": "emit_frobnicator"})");
  write_bytes(dir.path() / "good.json", grid_effect_with_texture(""));
  write_bytes(dir.path() / "bad_node.json", bad);
  write_bytes(dir.path() / "not_json.json", "{\"version\": 1, \"name\": ");
  for (const char* effect : {"bad_node.json", "not_json.json"}) {
    SCOPED_TRACE(effect);
    const std::string text = R"({"version": 1, "emitters": [{"effect": "good.json"}, {"effect": ")" +
                             std::string(effect) + R"("}]})";
    auto loaded = scene::load_scene(text, dir.path());
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    auto created = SceneRenderer::create(device(), loaded.value(), small());
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().code, ErrorCode::kParse) << created.error().to_string();
    EXPECT_EQ(created.error().where, "/emitters/1/effect");
    EXPECT_NE(created.error().message.find(effect), std::string::npos) << created.error().message;
  }
  // The unknown node is located inside the effect document.
  auto loaded = scene::load_scene(R"({"version": 1, "emitters": [{"effect": "bad_node.json"}]})", dir.path());
  ASSERT_TRUE(loaded.ok());
  auto created = SceneRenderer::create(device(), loaded.value(), small());
  ASSERT_FALSE(created.ok());
  EXPECT_NE(created.error().message.find("/init/nodes/7"), std::string::npos) << created.error().message;
}

TEST_F(HostileSceneTest, MissingOrCorruptGltfIsAnErrorAtTheObject) {
  TempDir dir;
  write_bytes(dir.path() / "corrupt.glb", std::string("glTF\x02\x00\x00\x00", 8) + std::string(64, '\x11'));
  write_bytes(dir.path() / "corrupt.gltf",
              R"({"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": )");
  for (const char* mesh : {"no_such_mesh.glb", "corrupt.glb", "corrupt.gltf"}) {
    SCOPED_TRACE(mesh);
    const std::string text = R"({"version": 1, "objects": [
        {"shape": "plane", "scale": 10},
        {"name": "statue", "shape": "mesh", "mesh": ")" +
                             std::string(mesh) + R"("}]})";
    auto loaded = scene::load_scene(text, dir.path());
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    auto created = SceneRenderer::create(device(), loaded.value(), small());
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().where, "/objects/1/mesh") << created.error().to_string();
    EXPECT_NE(created.error().message.find(mesh), std::string::npos) << created.error().message;
  }
}

// Deterministic mutations of a small scene that exercises every section (a camera path,
// transforms that spin and bob, a point light riding one, objects of every built-in shape, two
// emitters with field overrides), each loaded and — when it loads — rendered one frame at
// 32 x 32 on one of the three paths. Loading, creation and frame errors are fine; a crash, a
// validation message or an error without a message is not. The output section (the timing)
// comes first and is left alone: the renderer does not bound the simulation steps a frame takes,
// so a mutated step (dt 1e-6) with a long warm-up would ask for hundreds of millions of them.
constexpr const char* kFuzzScene = R"({"output": {"width": 32, "height": 32, "frames": 1, "fps": 24, "seed": 3},
  "version": 1,
  "name": "fuzz",
  "camera": {"keys": [{"time": 0, "position": [0, 1.5, 4], "target": [0, 0.8, 0], "fov_y_degrees": 50},
                      {"time": 1, "position": [1, 1.6, 3.5], "target": [0, 0.7, 0]}], "near": 0.05, "far": 200},
  "sun": {"direction": [-0.4, -1.0, -0.3], "color": [1, 0.9, 0.8], "intensity": 2.5, "shadows": true, "shadow_map_size": 512},
  "point_lights": [{"transform": "spinner", "position": [0.5, 0.2, 0], "color": [1, 0.5, 0.2], "intensity": 6, "range": 5}],
  "environment": {"sky_color": [0.4, 0.5, 0.7], "ground_color": [0.2, 0.18, 0.15], "ambient_intensity": 0.5, "background": [0.3, 0.4, 0.6]},
  "transforms": [{"name": "root", "position": [0, 0.2, 0], "scale": 1},
                 {"name": "spinner", "parent": "root", "position": [0.4, 0.6, 0], "spin_degrees_per_second": 90, "bob_amplitude": 0.1, "bob_hz": 2}],
  "objects": [{"shape": "plane", "scale": [10, 1, 10], "material": {"base_color": [0.5, 0.5, 0.45], "roughness": 0.9}},
              {"shape": "box", "transform": "root", "position": [-0.8, 0.25, 0], "scale": 0.5, "material": {"metallic": 0.5, "emissive": [0.1, 0, 0]}},
              {"shape": "sphere", "position": [0.8, 0.3, -0.5], "scale": [0.6, 0.4, 0.6], "casts_shadow": false}],
  "emitters": [{"effect": "../effects/sparkles.json", "transform": "spinner", "seed": 7,
                "fields": {"rate": 80, "size_min": 0.05, "size_max": 0.1, "speed_max": 2}},
               {"effect": "../tests/render/effects/grid_stretched.json", "position": [0, 0.2, 0], "start_time": 0}]
})";

// The mutations aim past the loader (whose own fuzz is tests/scene) at the renderer: most keep
// the document loadable. A number is scaled (by 0, a tiny or a huge factor, -1) or replaced by
// an edge value; a string value is swapped for another of its kind (effect files, including
// mesh particles, flipbooks, soft particles, a missing file and a folder; shapes; transform
// names); a list entry is duplicated (more emitters, objects, lights); rarely, bytes go.
constexpr const char* kEdgeNumbers[] = {"0", "1e-6", "1000000", "-1000000", "179", "1.5", "16", "8192", "65535", "1"};
constexpr double kScales[] = {0.0, 1e-3, 0.5, 2.0, 10.0, 1000.0, -1.0};
constexpr const char* kEffectFiles[] = {"../effects/rain.json",
                                        "../effects/fountain.json",
                                        "../effects/explosion.json",
                                        "../effects/smoke.json",
                                        "../tests/render/effects/soft_crossing.json",
                                        "../tests/render/effects/flipbook_blend.json",
                                        "../tests/render/effects/grid_horizontal.json",
                                        "../no/such/effect.json",
                                        "."};
constexpr const char* kShapes[] = {"plane", "box", "sphere", "mesh"};
constexpr const char* kTransformNames[] = {"root", "spinner", "", "nowhere"};

uint32_t xorshift(uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

template <typename T, size_t N>
const T& pick(const T (&list)[N], uint32_t& s) {
  return list[xorshift(s) % N];
}

// The end of the JSON value (object or array) opening at `open`, one past its closing bracket.
size_t value_end(const std::string& text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '{' || text[i] == '[') ++depth;
    if (text[i] == '}' || text[i] == ']')
      if (--depth == 0) return i + 1;
  }
  return std::string::npos;
}

std::string mutate(const std::string& base, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 12345u;
  std::string text = base;
  const size_t protected_end = text.find("\"version\"");  // the output line stays intact
  const int edits = 1 + int(xorshift(s) % 3);
  static const std::regex kNumber(R"(-?\d+(\.\d+)?([eE][-+]?\d+)?)");
  static const std::regex kStringValue(R"re(: "([^"]*)")re");
  for (int e = 0; e < edits; ++e) {
    const uint32_t kind = xorshift(s) % 20;
    if (kind < 10) {  // a number
      std::vector<std::pair<size_t, size_t>> numbers;
      for (auto it = std::sregex_iterator(text.begin() + long(protected_end), text.end(), kNumber);
           it != std::sregex_iterator(); ++it)
        numbers.push_back({protected_end + size_t(it->position()), size_t(it->length())});
      if (numbers.empty()) continue;
      const auto [at, len] = numbers[xorshift(s) % numbers.size()];
      std::string value;
      if (xorshift(s) % 2) {
        value = pick(kEdgeNumbers, s);
      } else {
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%.9g", std::stod(text.substr(at, len)) * pick(kScales, s));
        value = buffer;
      }
      text.replace(at, len, value);
    } else if (kind < 16) {                            // a string value, for one of its kind
      std::vector<std::pair<size_t, size_t>> strings;  // the quoted value's span
      for (auto it = std::sregex_iterator(text.begin() + long(protected_end), text.end(), kStringValue);
           it != std::sregex_iterator(); ++it)
        strings.push_back({protected_end + size_t(it->position(1)), size_t(it->length(1))});
      if (strings.empty()) continue;
      const auto [at, len] = strings[xorshift(s) % strings.size()];
      const std::string old = text.substr(at, len);
      const char* value = old.find(".json") != std::string::npos                ? pick(kEffectFiles, s)
                          : (old == "plane" || old == "box" || old == "sphere") ? pick(kShapes, s)
                                                                                : pick(kTransformNames, s);
      text.replace(at, len, value);
    } else if (kind < 19) {  // duplicate a list's first entry
      static const char* const kLists[] = {"\"emitters\": [", "\"objects\": [", "\"point_lights\": [",
                                           "\"spot_lights\": ["};
      const std::string list = pick(kLists, s);
      const size_t at = text.find(list);
      if (at == std::string::npos) continue;
      const size_t open = text.find('{', at);
      const size_t end = open == std::string::npos ? std::string::npos : value_end(text, open);
      if (end == std::string::npos) continue;
      text.insert(open, text.substr(open, end - open) + ", ");
    } else {  // delete a few bytes
      const size_t at = protected_end + xorshift(s) % (text.size() - protected_end);
      text.erase(at, std::min<size_t>(1 + xorshift(s) % 4, text.size() - at));
    }
  }
  return text;
}

TEST_F(HostileSceneTest, MutatedScenesThroughTheRenderer) {
  const fs::path base_dir = kSourceDir / "scenes";
  // The base scene itself must load and render, or the mutations test nothing.
  {
    auto loaded = scene::load_scene(kFuzzScene, base_dir);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    auto image = render_frame(device(), loaded.value(), 0, small());
    ASSERT_TRUE(image.ok()) << image.error().to_string();
  }
  constexpr uint32_t kVariants = 40;
  uint32_t rejected_by_loader = 0, refused_by_renderer = 0, rendered = 0, frame_errors = 0;
  for (uint32_t v = 0; v < kVariants; ++v) {
    const std::string text = mutate(kFuzzScene, v + 1);
    SCOPED_TRACE("variant " + std::to_string(v) + ":\n" + text);
    auto loaded = scene::load_scene(text, base_dir);
    if (!loaded.ok()) {
      EXPECT_FALSE(loaded.error().message.empty());
      std::printf("variant %2u: loader: %s\n", v, loaded.error().to_string().c_str());
      ++rejected_by_loader;
      continue;
    }
    const DrawPath path = v % 4 == 2 ? DrawPath::kCompute : DrawPath::kRaster;
    const Transparency transparency = v % 4 == 1   ? Transparency::kSorted
                                      : v % 4 == 3 ? Transparency::kAvboit
                                                   : Transparency::kOit;
    auto created = SceneRenderer::create(device(), loaded.value(), small(path, transparency));
    if (!created.ok()) {
      EXPECT_FALSE(created.error().message.empty());
      std::printf("variant %2u: renderer: %s\n", v, created.error().to_string().c_str());
      ++refused_by_renderer;
    } else {
      auto image = created.value()->render_next();
      if (image.ok()) {
        EXPECT_EQ(image->width, 32u);
        EXPECT_EQ(image->pixels.size(), 32u * 32u * 4u);
        std::printf("variant %2u: rendered\n", v);
        ++rendered;
      } else {
        EXPECT_FALSE(image.error().message.empty());
        std::printf("variant %2u: frame: %s\n", v, image.error().to_string().c_str());
        ++frame_errors;
      }
    }
    created = Error{};  // the renderer goes before the messages are collected
    for (const std::string& m : take_validation_messages()) ADD_FAILURE() << "Vulkan validation: " << m;
  }
  std::printf("mutated scenes: %u rejected by the loader, %u refused by the renderer, %u frame errors, %u rendered\n",
              rejected_by_loader, refused_by_renderer, frame_errors, rendered);
  EXPECT_GE(rendered, kVariants / 4) << "too few variants reach the GPU to test it";
}

}  // namespace
}  // namespace mote::render
