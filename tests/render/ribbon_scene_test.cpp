// Ribbons through the scene renderer and the public particle renderer (docs/design/ribbons.md) on
// lavapipe with validation: a comet's tail (tests/render/scenes/ribbon_comet.json: points left
// behind by an orbiting, bobbing emitter, each dying 1.2 s after its birth, so the strip loses its
// oldest points every frame) — the GPU's strips against the CPU reference's, built apart from the
// pool, and every raster mode's picture against the CPU reference renderer, its error printed and
// held — the compute path's too, which draws ribbons after its tiles with the raster pipeline.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "render/reference_renderer.hpp"
#include "render/reference_ribbons.hpp"
#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;
const fs::path kSourceDir = MOTE_SOURCE_DIR;
constexpr uint32_t kWidth = 128, kHeight = 72;

struct Captured {
  FrameCapture capture;
  ReferenceImage reference;
  ReferenceRibbons ribbons;
};

class RibbonSceneTest : public test::GpuTest {
 protected:
  // Frame `frame` of the comet on `path` / `transparency`, captured, with the reference's picture.
  void render(DrawPath path, Transparency transparency, uint32_t frame, Captured& out) {
    auto loaded = scene::load_scene_file(kSourceDir / "tests/render/scenes/ribbon_comet.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    SceneRenderOptions options;
    options.width = kWidth;
    options.height = kHeight;
    options.path = path;
    options.transparency = transparency;
    options.profile = false;
    auto created = SceneRenderer::create(device(), loaded.value(), options);
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    SceneRenderer& renderer = *created.value();
    for (uint32_t f = 0; f < frame; ++f) ASSERT_TRUE(renderer.render_next().ok());
    auto rendered = renderer.capture_next(out.capture);
    ASSERT_TRUE(rendered.ok()) << rendered.error().to_string();
    const FrameCapture& c = out.capture;
    ReferenceTexture atlas{c.atlas->image.width, c.atlas->image.height, c.atlas->image.pixels};
    ReferenceImage background{kWidth, kHeight, c.opaque};
    ReferenceInputs in;
    in.pool = c.pool;
    in.record_words = c.record_words;
    in.alive_slots = c.alive;
    in.records = c.records;
    in.ribbons = c.ribbons;
    in.view = c.view;
    in.atlas = &atlas;
    in.scene_depth = c.depth;
    in.background = &background;
    auto reference = render_particles_reference(in);
    ASSERT_TRUE(reference.ok()) << reference.error().to_string();
    out.reference = std::move(reference).value();
    out.ribbons = build_reference_ribbons(in);
  }
};

// The strips the GPU linked (kRibbonPointNext runs), as pool slots.
std::vector<std::vector<uint32_t>> gpu_strips(const FrameCapture& c) {
  std::vector<std::vector<uint32_t>> strips;
  bool open = false;
  for (const shader::RibbonPoint& p : c.ribbon_points) {
    if (p.row == 0xFFFFFFFFu) continue;
    if (!open) strips.push_back({});
    strips.back().push_back(p.slot);
    open = (p.flags & shader::kRibbonPointNext) != 0;
  }
  return strips;
}

TEST_F(RibbonSceneTest, TheGpuStripsAreTheReferenceStripsFrameAfterFrame) {
  // Frames 0, 3 and 9: the tail grows, then loses its oldest points as they die.
  for (uint32_t frame : {0u, 3u, 9u}) {
    SCOPED_TRACE(frame);
    Captured c;
    render(DrawPath::kRaster, Transparency::kOit, frame, c);
    if (HasFatalFailure()) return;
    ASSERT_EQ(c.ribbons.strips.size(), 1u);
    EXPECT_GE(c.ribbons.strips[0].size(), 20u);
    EXPECT_EQ(gpu_strips(c.capture), c.ribbons.strips);
    const size_t segments = c.ribbons.strips[0].size() - 1;
    ASSERT_EQ(c.capture.ribbon_counts.size(), shader::kRibbonCountWords);
    EXPECT_EQ(c.capture.ribbon_counts[shader::kRibbonCountSegments], segments);
    EXPECT_EQ(c.capture.ribbon_counts[shader::kRibbonCountPieces], segments * 4);  // subdivisions 4
    EXPECT_EQ(c.ribbons.pieces.size(), segments * 4);
  }
}

// Each draw mode against the CPU reference (PSNR over clamped linear RGB; printed). Measured
// on lavapipe when written: see docs/design/ribbons.md; held about 10 dB under.
TEST_F(RibbonSceneTest, EveryDrawModeAgainstTheReference) {
  const struct {
    const char* label;
    DrawPath path;
    Transparency transparency;
    double min_psnr_db;
  } modes[] = {{"raster sorted", DrawPath::kRaster, Transparency::kSorted, 40.0},
               {"raster OIT", DrawPath::kRaster, Transparency::kOit, 35.0},
               {"raster AVBOIT", DrawPath::kRaster, Transparency::kAvboit, 35.0},
               {"compute", DrawPath::kCompute, Transparency::kOit, 40.0}};
  for (const auto& m : modes) {
    SCOPED_TRACE(m.label);
    Captured c;
    render(m.path, m.transparency, 6, c);
    if (HasFatalFailure()) return;
    const ReferenceImage gpu{kWidth, kHeight, c.capture.composited};
    const ImageError e = compare_images(c.reference, gpu);
    const ReferenceImage background{kWidth, kHeight, c.capture.opaque};
    const ImageError shown = compare_images(c.reference, background);
    std::printf("%-14s ribbon_comet  PSNR %6.2f dB  mean %.5f  max %.4f  (ribbon vs none: %.2f dB)\n", m.label,
                e.psnr_db, e.mean_abs, e.max_abs, shown.psnr_db);
    EXPECT_LT(shown.psnr_db, 40.0) << "the ribbon barely shows: the comparison would prove little";
    EXPECT_GE(e.psnr_db, m.min_psnr_db);
  }
}

}  // namespace
}  // namespace mote::render
