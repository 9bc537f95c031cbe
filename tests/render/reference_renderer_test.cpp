// The CPU reference particle renderer: coverage against analytic projections, the compositing
// order, additive and soft particles, the UV chain (flipbook, palette, atlas rect), orientation,
// projection modes, what is not drawn, clipping at the near plane, and the error metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/reference_renderer.hpp"
#include "shared/frame.h"
#include "shared/particle_lighting.h"
#include "shared/particle_render.h"
#include "support/particle_scene.hpp"

namespace mote::render {
namespace {

using shader::ParticleDrawRecord;

// Camera, make_view, quad_record, TestParticle, append_particle and the pool layout's words.
using namespace test::particle_scene;  // tests/support/particle_scene.hpp

const glm::vec4 kBlack(0.0f, 0.0f, 0.0f, 1.0f);  // the background when none is given

struct Draw {
  Camera camera;
  std::vector<ParticleDrawRecord> records;
  std::vector<uint32_t> pool;
  std::vector<uint32_t> alive;
  const ReferenceTexture* atlas = nullptr;
  std::vector<float> scene_depth;
  const ReferenceImage* background = nullptr;
  // What lit records are lit by: the view's ambient and sun, and point lights.
  glm::vec4 sky_ambient{0.0f}, ground_ambient{0.0f}, sun_direction{0.0f}, sun_radiance{0.0f};
  std::vector<shader::PointLightGpu> point_lights;

  uint32_t add(const TestParticle& p) {
    const uint32_t slot = append_particle(pool, p);
    alive.push_back(slot);
    return slot;
  }

  ReferenceInputs inputs() const {
    ReferenceInputs in;
    in.pool = pool;
    in.record_words = kRecordWords;
    in.alive_slots = alive;
    in.records = records;
    in.view = make_view(camera);
    in.atlas = atlas;
    in.scene_depth = scene_depth;
    in.background = background;
    in.view.sky_ambient = sky_ambient;
    in.view.ground_ambient = ground_ambient;
    in.view.sun_direction = sun_direction;
    in.view.sun_radiance = sun_radiance;
    in.view.point_light_count = uint32_t(point_lights.size());
    in.point_lights = point_lights;
    return in;
  }

  // The image, or (after failing the test) one full of NaN, so later checks fail rather than crash.
  ReferenceImage render() const {
    Result<ReferenceImage> r = render_particles_reference(inputs());
    if (!r.ok()) {
      ADD_FAILURE() << r.error().to_string();
      return ReferenceImage{camera.width, camera.height,
                            std::vector<glm::vec4>(size_t(camera.width) * camera.height,
                                                   glm::vec4(std::numeric_limits<float>::quiet_NaN()))};
    }
    return std::move(r).value();
  }
};

ReferenceTexture solid_texture(uint8_t r, uint8_t g, uint8_t b, uint8_t a) { return {1, 1, {r, g, b, a}}; }

// side x side texels, each quadrant one colour: top-left, top-right, bottom-left, bottom-right.
ReferenceTexture quadrant_texture(uint32_t side, const std::array<std::array<uint8_t, 4>, 4>& colors) {
  ReferenceTexture t{side, side, std::vector<uint8_t>(size_t(side) * side * 4)};
  for (uint32_t y = 0; y < side; ++y)
    for (uint32_t x = 0; x < side; ++x) {
      const size_t q = (y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1);
      std::copy(colors[q].begin(), colors[q].end(), t.rgba8_srgb.begin() + ptrdiff_t((size_t(y) * side + x) * 4));
    }
  return t;
}

constexpr std::array<uint8_t, 4> kRed8{255, 0, 0, 255}, kGreen8{0, 255, 0, 255}, kBlue8{0, 0, 255, 255},
    kYellow8{255, 255, 0, 255};
const glm::vec3 kRed(1, 0, 0), kGreen(0, 1, 0), kBlue(0, 0, 1), kYellow(1, 1, 0);

ReferenceImage solid_image(uint32_t w, uint32_t h, glm::vec4 c) {
  return {w, h, std::vector<glm::vec4>(size_t(w) * h, c)};
}

// Pixel indices whose centres i + 0.5 lie inside (lo, hi), clamped to [0, n). Fails the test
// when a centre lies within 1e-3 of either edge: the scene was meant to keep the fill rule out
// of the count.
std::pair<int, int> centres_inside(double lo, double hi, int n) {
  int first = int(std::ceil(lo - 0.5)), last = int(std::floor(hi - 0.5));
  for (int i = first - 1; i <= last + 1; ++i) {
    EXPECT_GT(std::abs(i + 0.5 - lo), 1e-3) << "a pixel centre sits on the edge at " << lo;
    EXPECT_GT(std::abs(i + 0.5 - hi), 1e-3) << "a pixel centre sits on the edge at " << hi;
  }
  return {std::max(first, 0), std::min(last, n - 1)};
}

// Framebuffer coordinates of a view-space point at distance d (Vulkan viewport: y down).
double fb_x(const Camera& c, double x, double d) { return (c.f() / c.aspect() * x / d + 1.0) * 0.5 * c.width; }
double fb_y(const Camera& c, double y, double d) { return (-c.f() * y / d + 1.0) * 0.5 * c.height; }

struct Coverage {
  int count = 0;
  int x_min = std::numeric_limits<int>::max(), x_max = -1, y_min = std::numeric_limits<int>::max(), y_max = -1;
};

// Pixels that differ from `background`.
Coverage coverage(const ReferenceImage& image, glm::vec4 background = kBlack) {
  Coverage c;
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x)
      if (image.at(x, y) != background) {
        ++c.count;
        c.x_min = std::min(c.x_min, int(x));
        c.x_max = std::max(c.x_max, int(x));
        c.y_min = std::min(c.y_min, int(y));
        c.y_max = std::max(c.y_max, int(y));
      }
  return c;
}

void expect_rgb_near(glm::vec4 got, glm::vec3 want, float tolerance, const char* what) {
  EXPECT_NEAR(got.r, want.r, tolerance) << what;
  EXPECT_NEAR(got.g, want.g, tolerance) << what;
  EXPECT_NEAR(got.b, want.b, tolerance) << what;
}

// --- Coverage ---------------------------------------------------------------------------------

TEST(ReferenceRenderer, BillboardCoversExactlyItsProjectedSquare) {
  Draw d;
  d.camera.width = 80;
  d.camera.height = 60;
  d.camera.fov_y = glm::radians(60.0f);
  const ReferenceTexture white = solid_texture(255, 255, 255, 255);
  d.atlas = &white;
  d.records = {quad_record(shader::kProjectionBillboard)};
  const glm::vec3 centre(0.7f, -0.4f, -9.0f);
  const float size = 2.3f;
  d.add({.position = centre, .size = size});
  const ReferenceImage image = d.render();

  // The camera looks down -Z from the origin: the billboard is the view-space square
  // centre ± size / 2 at distance 9.
  const double h = 0.5 * size, dist = 9.0;
  auto [x0, x1] = centres_inside(fb_x(d.camera, centre.x - h, dist), fb_x(d.camera, centre.x + h, dist), 80);
  // +Y is up in the world and the top row is y = 0: the square's top edge is its smaller y.
  auto [y0, y1] = centres_inside(fb_y(d.camera, centre.y + h, dist), fb_y(d.camera, centre.y - h, dist), 60);
  ASSERT_LT(x0, x1);
  ASSERT_LT(y0, y1);
  for (uint32_t y = 0; y < 60; ++y)
    for (uint32_t x = 0; x < 80; ++x) {
      const bool inside = int(x) >= x0 && int(x) <= x1 && int(y) >= y0 && int(y) <= y1;
      const glm::vec4 want = inside ? glm::vec4(1.0f) : kBlack;
      ASSERT_EQ(image.at(x, y), want) << "pixel " << x << "," << y;
    }
  EXPECT_EQ(coverage(image).count, (x1 - x0 + 1) * (y1 - y0 + 1));
}

TEST(ReferenceRenderer, SharedDiagonalIsBlendedOnce) {
  // Odd size: the quad's centre is a pixel centre and its diagonal runs through pixel centres,
  // exactly where both triangles' edge functions are zero.
  Draw d;
  d.camera.width = d.camera.height = 65;
  d.records = {quad_record(shader::kProjectionBillboard)};
  d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 4.0f, .color = {1.0f, 1.0f, 1.0f, 0.5f}});
  const ReferenceImage image = d.render();
  auto [x0, x1] = centres_inside(fb_x(d.camera, -2.0, 10.0), fb_x(d.camera, 2.0, 10.0), 65);
  int covered = 0;
  for (uint32_t y = 0; y < 65; ++y)
    for (uint32_t x = 0; x < 65; ++x) {
      const float r = image.at(x, y).r;
      ASSERT_TRUE(r == 0.0f || r == 0.5f) << "pixel " << x << "," << y << " = " << r << " (blended twice or torn)";
      covered += r == 0.5f;
    }
  EXPECT_EQ(covered, (x1 - x0 + 1) * (x1 - x0 + 1));
}

TEST(ReferenceRenderer, NoPixelIsCoveredTwiceByOneQuadAtAnyTurn) {
  // Half-transparent quads centred on pixel centres and rolled by multiples of 15°: their
  // diagonals run through or within rounding of pixel centres, where the two triangles' edge
  // functions must agree exactly. A centre claimed by both would composite to 0.75.
  Draw base;
  base.camera.width = base.camera.height = 33;
  ParticleDrawRecord r = quad_record(shader::kProjectionBillboard);
  r.rotation_word = kRotationWord;
  r.rotation_width = 1;
  base.records = {r};
  int covered = 0;
  for (int step = 0; step < 24; ++step)
    for (float size : {1.0f, 2.5f, 3.3f}) {
      Draw d = base;
      const float roll = float(step) * glm::pi<float>() / 12.0f;
      d.add({.position = {0.0f, 0.0f, -5.0f},
             .size = size,
             .color = {1.0f, 1.0f, 1.0f, 0.5f},
             .rotation = {roll, 0.0f, 0.0f, 0.0f}});
      const ReferenceImage image = d.render();
      for (const glm::vec4& p : image.pixels) {
        ASSERT_TRUE(p.r == 0.0f || p.r == 0.5f) << "roll step " << step << ", size " << size << ": " << p.r;
        covered += p.r == 0.5f;
      }
    }
  EXPECT_GT(covered, 0);
}

// --- Compositing ------------------------------------------------------------------------------

TEST(ReferenceRenderer, AdditiveAddsOverTheBackgroundWithAlphaZero) {
  Draw d;
  d.camera.width = d.camera.height = 32;
  const ReferenceImage background = solid_image(32, 32, {0.2f, 0.3f, 0.4f, 0.5f});
  d.background = &background;
  d.records = {quad_record(shader::kProjectionBillboard, shader::kDrawFlagAdditive),
               quad_record(shader::kProjectionBillboard)};
  const glm::vec4 glow(0.5f, 0.25f, 0.1f, 0.8f);  // premultiplied: (0.4, 0.2, 0.08), alpha 0
  d.add({.position = {0.0f, 0.0f, -5.0f}, .size = 2.0f, .color = glow, .row = 0});
  {
    const ReferenceImage image = d.render();
    const glm::vec4 c = image.at(16, 16);
    expect_rgb_near(c, {0.6f, 0.5f, 0.48f}, 1e-6f, "additive over the background");
    EXPECT_FLOAT_EQ(c.a, 0.5f) << "an additive fragment must not add coverage";
    EXPECT_EQ(image.at(0, 0), background.pixels[0]);
  }
  // A half-transparent black particle in front attenuates the glow behind it.
  d.add({.position = {0.0f, 0.0f, -3.0f}, .size = 2.0f, .color = {0.0f, 0.0f, 0.0f, 0.5f}, .row = 1});
  {
    const glm::vec4 c = d.render().at(16, 16);
    expect_rgb_near(c, {0.3f, 0.25f, 0.24f}, 1e-6f, "additive behind a 50% layer");
    EXPECT_FLOAT_EQ(c.a, 0.75f);
  }
  // Behind the glow instead, it leaves the glow whole.
  d.pool.clear();
  d.alive.clear();
  d.add({.position = {0.0f, 0.0f, -5.0f}, .size = 2.0f, .color = glow, .row = 0});
  d.add({.position = {0.0f, 0.0f, -7.0f}, .size = 2.0f, .color = {0.0f, 0.0f, 0.0f, 0.5f}, .row = 1});
  {
    const glm::vec4 c = d.render().at(16, 16);
    expect_rgb_near(c, {0.5f, 0.35f, 0.28f}, 1e-6f, "additive in front of a 50% layer");
    EXPECT_FLOAT_EQ(c.a, 0.75f);
  }
}

TEST(ReferenceRenderer, OverlappingParticlesCompositeInDepthOrderWhateverTheAliveOrder) {
  const glm::vec4 red(1.0f, 0.0f, 0.0f, 0.5f), blue(0.0f, 0.0f, 1.0f, 0.5f);
  auto render = [&](bool red_first_in_list) {
    Draw d;
    d.records = {quad_record(shader::kProjectionBillboard)};
    const TestParticle near_red{.position = {0.0f, 0.0f, -5.0f}, .size = 1.0f, .color = red};
    const TestParticle far_blue{.position = {0.0f, 0.0f, -6.0f}, .size = 1.0f, .color = blue};
    if (red_first_in_list) {
      d.add(near_red);
      d.add(far_blue);
    } else {
      d.add(far_blue);
      d.add(near_red);
    }
    return d.render();
  };
  const ReferenceImage a = render(true), b = render(false);
  EXPECT_TRUE(std::isinf(compare_images(a, b).psnr_db)) << "the alive-list order changed the image";
  // Red over blue over black: (0.5, 0, 0) + 0.5 · (0, 0, 0.5), alpha 0.75, then 0.25 of black.
  const glm::vec4 c = a.at(32, 32);
  expect_rgb_near(c, {0.5f, 0.0f, 0.25f}, 1e-6f, "red in front of blue");
  EXPECT_FLOAT_EQ(c.a, 1.0f);
  // The wrong order (blue over red) would give (0.25, 0, 0.5).
  EXPECT_GT(std::abs(c.r - 0.25f) + std::abs(c.b - 0.5f), 0.4f);
}

TEST(ReferenceRenderer, EqualDepthsFollowTheAliveOrder) {
  const glm::vec4 red(1.0f, 0.0f, 0.0f, 0.5f), blue(0.0f, 0.0f, 1.0f, 0.5f);
  auto centre = [&](glm::vec4 first, glm::vec4 second) {
    Draw d;
    d.records = {quad_record(shader::kProjectionBillboard)};
    d.add({.position = {0.0f, 0.0f, -5.0f}, .size = 1.0f, .color = first});
    d.add({.position = {0.0f, 0.0f, -5.0f}, .size = 1.0f, .color = second});
    return d.render().at(32, 32);
  };
  expect_rgb_near(centre(red, blue), {0.5f, 0.0f, 0.25f}, 1e-6f, "red listed first is in front");
  expect_rgb_near(centre(blue, red), {0.25f, 0.0f, 0.5f}, 1e-6f, "blue listed first is in front");
}

// --- Depth ------------------------------------------------------------------------------------

TEST(ReferenceRenderer, SoftParticlesFadeNearTheSceneDepth) {
  auto centre = [](float distance, bool soft) {
    Draw d;
    d.camera.width = d.camera.height = 32;
    d.scene_depth.assign(32 * 32, d.camera.near_plane / 10.0f);  // an opaque wall 10 m away
    ParticleDrawRecord r = quad_record(shader::kProjectionBillboard, soft ? shader::kDrawFlagSoft : 0u);
    r.soft_distance = 1.0f;
    d.records = {r};
    d.add({.position = {0.0f, 0.0f, -distance}, .size = 1.0f});
    return d.render().at(16, 16);
  };
  // White, alpha = fade, over black: the red channel is the fade.
  EXPECT_NEAR(centre(9.5f, true).r, 0.5f, 1e-4f);
  EXPECT_NEAR(centre(9.9f, true).r, 0.1f, 1e-4f);
  EXPECT_NEAR(centre(7.0f, true).r, 1.0f, 1e-6f);
  EXPECT_NEAR(centre(9.5f, false).r, 1.0f, 1e-6f);
  EXPECT_EQ(centre(10.5f, true), kBlack) << "behind the wall";
}

TEST(ReferenceRenderer, NearerSceneDepthHidesTheParticle) {
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard)};
  d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 4.0f});
  d.scene_depth.assign(64 * 64, d.camera.near_plane / 5.0f);  // a wall at 5 m
  EXPECT_EQ(coverage(d.render()).count, 0);
  d.scene_depth.assign(64 * 64, d.camera.near_plane / 20.0f);  // a wall at 20 m
  EXPECT_EQ(d.render().at(32, 32), glm::vec4(1.0f));
}

// --- Texture and UV chain ---------------------------------------------------------------------

TEST(ReferenceRenderer, SrgbIsDecodedPerTexelBeforeFilteringAndTintMultiplies) {
  {
    // A black and a white texel, sampled half way: linear filtering of decoded values gives 0.5
    // (decoding the filtered byte would give 0.214).
    Draw d;
    d.camera.width = d.camera.height = 65;
    const ReferenceTexture ramp{2, 1, {0, 0, 0, 255, 255, 255, 255, 255}};
    d.atlas = &ramp;
    d.records = {quad_record(shader::kProjectionBillboard)};
    d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 4.0f});
    EXPECT_NEAR(d.render().at(32, 32).r, 0.5f, 1e-4f);
  }
  {
    Draw d;
    const ReferenceTexture grey = solid_texture(128, 128, 128, 255);
    d.atlas = &grey;
    ParticleDrawRecord r = quad_record(shader::kProjectionBillboard);
    r.tint = glm::vec4(0.5f, 1.0f, 2.0f, 1.0f);
    d.records = {r};
    d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 4.0f, .color = {1.0f, 1.0f, 0.5f, 1.0f}});
    const float g = float(std::pow((128.0 / 255.0 + 0.055) / 1.055, 2.4));  // 0.21586
    expect_rgb_near(d.render().at(32, 32), {0.5f * g, g, g}, 1e-6f, "colour x tint x decoded texel");
  }
}

class FlipbookTest : public ::testing::Test {
 protected:
  ReferenceTexture atlas_ = quadrant_texture(16, {kRed8, kGreen8, kBlue8, kYellow8});

  // The colour at the centre of a quad showing the whole 2 x 2 flipbook.
  glm::vec3 centre(const TestParticle& p, bool frame_field, bool blend) {
    Draw d;
    d.atlas = &atlas_;
    ParticleDrawRecord r = quad_record(shader::kProjectionBillboard, blend ? shader::kDrawFlagFlipbookBlend : 0u);
    r.flipbook_columns = 2;
    r.flipbook_rows = 2;
    r.age_word = kAgeWord;
    r.lifetime_word = kLifetimeWord;
    if (frame_field) r.frame_word = kFrameWord;
    d.records = {r};
    TestParticle q = p;
    q.position = {0.0f, 0.0f, -10.0f};
    q.size = 8.0f;
    d.add(q);
    return glm::vec3(d.render().at(32, 32));
  }
};

void expect_color(glm::vec3 got, glm::vec3 want, const char* what) {
  EXPECT_NEAR(got.r, want.r, 1e-5f) << what;
  EXPECT_NEAR(got.g, want.g, 1e-5f) << what;
  EXPECT_NEAR(got.b, want.b, 1e-5f) << what;
}

TEST_F(FlipbookTest, FrameFromAgeOverLifetime) {
  expect_color(centre({.age = 0.0f, .lifetime = 1.0f}, false, false), kRed, "age 0: cell 0");
  expect_color(centre({.age = 0.3f, .lifetime = 1.0f}, false, false), kGreen, "1.2: cell 1");
  expect_color(centre({.age = 0.6f, .lifetime = 1.0f}, false, false), kBlue, "2.4: cell 2");
  expect_color(centre({.age = 1.0f, .lifetime = 1.0f}, false, false), kYellow, "end of life: the last cell");
  expect_color(centre({.age = 5.0f, .lifetime = 1.0f}, false, false), kYellow, "past the end: clamped");
  expect_color(centre({.age = 0.6f, .lifetime = 0.0f}, false, false), kRed, "no lifetime: cell 0");
}

TEST_F(FlipbookTest, FrameFromTheFrameField) {
  // The field wins over age / lifetime (which would say cell 1).
  expect_color(centre({.frame = 2.0f, .age = 0.3f, .lifetime = 1.0f}, true, false), kBlue, "frame 2");
  expect_color(centre({.frame = 1.75f, .age = 0.0f}, true, false), kGreen, "frame 1.75 without blend: floor");
  expect_color(centre({.frame = 7.0f}, true, false), kYellow, "frame past the end: clamped");
}

TEST_F(FlipbookTest, BlendMixesFloorAndNextByTheFraction) {
  expect_color(centre({.frame = 1.25f}, true, true), 0.75f * kGreen + 0.25f * kBlue, "frame 1.25");
  expect_color(centre({.age = 0.6f, .lifetime = 1.0f}, false, true), 0.6f * kBlue + 0.4f * kYellow, "age 2.4");
  expect_color(centre({.frame = 3.0f}, true, true), kYellow, "the last cell blends with nothing");
}

TEST(ReferenceRenderer, UvRectSelectsAQuarterInsideTheAtlasRect) {
  // 32 x 16 texels: the left half is the four-colour texture, the right half white.
  ReferenceTexture atlas{32, 16, std::vector<uint8_t>(32 * 16 * 4, 255)};
  const ReferenceTexture quadrants = quadrant_texture(16, {kRed8, kGreen8, kBlue8, kYellow8});
  for (uint32_t y = 0; y < 16; ++y)
    std::copy_n(quadrants.rgba8_srgb.begin() + ptrdiff_t(y * 16 * 4), 16 * 4,
                atlas.rgba8_srgb.begin() + ptrdiff_t(y * 32 * 4));
  auto centre = [&](glm::vec4 uv_rect, glm::vec4 atlas_rect) {
    Draw d;
    d.atlas = &atlas;
    ParticleDrawRecord r = quad_record(shader::kProjectionBillboard);
    r.uv_rect_word = kUvRectWord;
    r.atlas_rect = atlas_rect;
    d.records = {r};
    d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 8.0f, .uv_rect = uv_rect});
    return glm::vec3(d.render().at(32, 32));
  };
  // The palette entry (uv_rect) is a rect of the texture, and the texture the atlas rect's.
  const glm::vec4 texture(0.0f, 0.0f, 0.5f, 1.0f);
  expect_color(centre({0.0f, 0.0f, 0.5f, 0.5f}, texture), kRed, "top-left quarter");
  expect_color(centre({0.5f, 0.0f, 0.5f, 0.5f}, texture), kGreen, "top-right quarter");
  expect_color(centre({0.0f, 0.5f, 0.5f, 0.5f}, texture), kBlue, "bottom-left quarter");
  // Applied the other way round (the atlas rect first), this would read the white half.
  expect_color(centre({0.5f, 0.5f, 0.5f, 0.5f}, texture), kYellow, "bottom-right quarter");
  expect_color(centre({0.0f, 0.0f, 1.0f, 1.0f}, {0.5f, 0.0f, 0.5f, 1.0f}), glm::vec3(1.0f), "the white texture");
}

TEST(ReferenceRenderer, UvIsPerspectiveCorrect) {
  // A 10 m floor 1 m below the eye from 2 m to 12 m ahead, the four-colour texture on it: its
  // top half (v < 0.5) lies beyond z = -7, which projects to y_fb = (1 + 1/7) / 2 · 64 = 36.6;
  // the floor spans rows 34.7 .. 48, so interpolating UV linearly in screen space would put
  // v = 0.5 near row 41 instead.
  const ReferenceTexture atlas = quadrant_texture(16, {kRed8, kGreen8, kBlue8, kYellow8});
  Draw d;
  d.atlas = &atlas;
  d.records = {quad_record(shader::kProjectionHorizontal)};  // sprite +Y is world -Z: v = 0 is the far edge
  d.add({.position = {0.0f, -1.0f, -7.0f}, .size = 10.0f});
  const ReferenceImage image = d.render();
  // Column 20 lies on the floor's left half (world x < 0) on these rows.
  expect_color(glm::vec3(image.at(20, 35)), kRed, "row 35: 9.1 m away, v = 0.29");
  expect_color(glm::vec3(image.at(20, 38)), kBlue, "row 38: 4.9 m away, v = 0.71");
  expect_color(glm::vec3(image.at(43, 38)), kYellow, "right half");
}

// --- Orientation ------------------------------------------------------------------------------

class RotationTest : public ::testing::Test {
 protected:
  // 8 x 8: the top-left 4 x 4 red, the rest green.
  ReferenceTexture atlas_ = quadrant_texture(8, {kRed8, kGreen8, kGreen8, kGreen8});

  // A billboard spanning pixels 19.2 .. 44.8 on both axes.
  ReferenceImage render(uint32_t width, glm::vec4 rotation) {
    Draw d;
    d.atlas = &atlas_;
    ParticleDrawRecord r = quad_record(shader::kProjectionBillboard);
    if (width != 0) {
      r.rotation_word = kRotationWord;
      r.rotation_width = width;
    }
    d.records = {r};
    d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 8.0f, .rotation = rotation});
    return d.render();
  }
};

TEST_F(RotationTest, RollOfNinetyDegreesTurnsTheTexture) {
  const ReferenceImage upright = render(0, glm::vec4(0.0f));
  expect_color(glm::vec3(upright.at(24, 24)), kRed, "UV (0,0) is the image's top-left");
  expect_color(glm::vec3(upright.at(39, 24)), kGreen, "top-right");
  expect_color(glm::vec3(upright.at(24, 39)), kGreen, "bottom-left");
  expect_color(glm::vec3(upright.at(39, 39)), kGreen, "bottom-right");
  // +90° about the sprite's +Z (towards the viewer) is counter-clockwise on screen: the red
  // top-left corner goes to the bottom-left.
  const ReferenceImage rolled = render(1, glm::vec4(glm::half_pi<float>(), 0.0f, 0.0f, 0.0f));
  expect_color(glm::vec3(rolled.at(24, 24)), kGreen, "rolled top-left");
  expect_color(glm::vec3(rolled.at(39, 24)), kGreen, "rolled top-right");
  expect_color(glm::vec3(rolled.at(24, 39)), kRed, "rolled bottom-left");
  expect_color(glm::vec3(rolled.at(39, 39)), kGreen, "rolled bottom-right");
  EXPECT_EQ(coverage(upright).count, coverage(rolled).count) << "a square turned 90° covers the same pixels";
}

TEST_F(RotationTest, ZeroQuaternionIsNoTurnAndAQuaternionMatchesTheRoll) {
  const ReferenceImage none = render(0, glm::vec4(0.0f));
  const ReferenceImage zero = render(4, glm::vec4(0.0f));
  EXPECT_TRUE(std::isinf(compare_images(none, zero).psnr_db));
  // 90° about +Z, not normalised (the header normalises).
  const float s = std::sqrt(0.5f);
  const ReferenceImage quat = render(4, glm::vec4(0.0f, 0.0f, 3.0f * s, 3.0f * s));
  const ReferenceImage roll = render(1, glm::vec4(glm::half_pi<float>(), 0.0f, 0.0f, 0.0f));
  EXPECT_GT(compare_images(quat, roll).psnr_db, 60.0);
  EXPECT_LT(compare_images(quat, none).psnr_db, 20.0) << "the quaternion did turn the texture";
}

// --- Projection modes -------------------------------------------------------------------------

TEST(ReferenceRenderer, StretchedElongatesAlongTheScreenVelocity) {
  auto render = [](glm::vec3 velocity) {
    Draw d;
    ParticleDrawRecord r = quad_record(shader::kProjectionStretched);
    r.velocity_word = kVelocityWord;
    d.records = {r};
    d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 2.0f, .velocity = velocity});
    return coverage(d.render());
  };
  const Camera cam;
  // |v on the view plane| = 3: stretch 4, so 8 m along the velocity and 2 m across it.
  auto [l0, l1] = centres_inside(fb_x(cam, -4.0, 10.0), fb_x(cam, 4.0, 10.0), 64);
  auto [s0, s1] = centres_inside(fb_x(cam, -1.0, 10.0), fb_x(cam, 1.0, 10.0), 64);
  const int long_side = l1 - l0 + 1, short_side = s1 - s0 + 1;
  ASSERT_GT(long_side, 3 * short_side);

  const Coverage along_x = render({3.0f, 0.0f, 0.0f});
  EXPECT_EQ(along_x.count, long_side * short_side);
  EXPECT_EQ(along_x.x_max - along_x.x_min + 1, long_side);
  EXPECT_EQ(along_x.y_max - along_x.y_min + 1, short_side);

  const Coverage along_y = render({0.0f, -3.0f, 0.0f});
  EXPECT_EQ(along_y.count, long_side * short_side);
  EXPECT_EQ(along_y.x_max - along_y.x_min + 1, short_side);
  EXPECT_EQ(along_y.y_max - along_y.y_min + 1, long_side);

  // Motion along the view direction has no screen velocity: a plain square.
  const Coverage toward = render({0.0f, 0.0f, 5.0f});
  EXPECT_EQ(toward.count, short_side * short_side);
}

TEST(ReferenceRenderer, HorizontalIsASquareFromAboveAndNothingEdgeOn) {
  auto render = [](const Camera& camera) {
    Draw d;
    d.camera = camera;
    d.records = {quad_record(shader::kProjectionHorizontal)};
    d.add({.position = {0.0f, 0.0f, 0.0f}, .size = 4.0f});
    return d.render();
  };
  Camera above;
  above.eye = {0.0f, 10.0f, 0.0f};
  above.target = {0.0f, 0.0f, 0.0f};
  above.up = {0.0f, 0.0f, -1.0f};
  const ReferenceImage top = render(above);
  auto [x0, x1] = centres_inside(fb_x(above, -2.0, 10.0), fb_x(above, 2.0, 10.0), 64);
  const Coverage c = coverage(top);
  EXPECT_EQ(c.count, (x1 - x0 + 1) * (x1 - x0 + 1));
  EXPECT_EQ(c.x_min, x0);
  EXPECT_EQ(c.y_min, x0);
  EXPECT_EQ(top.at(32, 32), glm::vec4(1.0f));

  Camera side;
  side.eye = {0.0f, 0.0f, 10.0f};
  side.target = {0.0f, 0.0f, 0.0f};
  EXPECT_EQ(coverage(render(side)).count, 0) << "edge-on: zero area";

  Camera raised = side;
  raised.eye = {0.0f, 3.0f, 10.0f};
  EXPECT_GT(coverage(render(raised)).count, 0) << "seen slightly from above, the quad is there";
}

// --- What is not drawn ------------------------------------------------------------------------

TEST(ReferenceRenderer, StaleGenerationsFreeRowsAndMeshRowsDrawNothing) {
  Draw d;
  ParticleDrawRecord hidden = quad_record(shader::kProjectionBillboard);
  hidden.flags &= ~shader::kDrawFlagLive;
  d.records = {quad_record(shader::kProjectionBillboard), hidden, quad_record(shader::kProjectionMesh)};
  const glm::vec3 centre(0.0f, 0.0f, -10.0f);
  d.add({.position = centre, .size = 4.0f, .row = 0, .generation = 2});  // stale
  d.add({.position = centre, .size = 4.0f, .row = 1, .generation = 1});  // row not live
  d.add({.position = centre, .size = 4.0f, .row = 2, .generation = 1});  // mesh particles
  d.add({.position = centre, .size = 4.0f, .row = 7, .generation = 1});  // no such row
  EXPECT_EQ(coverage(d.render()).count, 0);
  d.add({.position = centre, .size = 4.0f, .row = 0, .generation = 1});
  EXPECT_GT(coverage(d.render()).count, 0) << "the live, current particle is drawn";
}

TEST(ReferenceRenderer, ParticlesBehindTheCameraDrawNothing) {
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard), quad_record(shader::kProjectionFacingWorld)};
  d.add({.position = {0.0f, 0.0f, 10.0f}, .size = 4.0f});
  d.add({.position = {0.0f, 0.0f, 0.0f}, .size = 4.0f, .row = 1});    // in the eye's plane
  d.add({.position = {0.0f, 0.0f, 0.05f}, .size = 50.0f, .row = 1});  // just behind, huge
  EXPECT_EQ(coverage(d.render()).count, 0);
}

TEST(ReferenceRenderer, QuadCrossingTheNearPlaneIsClipped) {
  // A 40 m floor 1 m below the eye, half of it behind the camera. What is in front covers the
  // rows below the far edge's horizon (y_fb = (1 + 1/20) / 2 · 64 = 33.6) across the whole
  // width; nothing from behind the eye may fold into the upper half. Half-transparent, so a
  // pixel covered by two of the clipped pieces would show.
  Draw d;
  d.records = {quad_record(shader::kProjectionHorizontal)};
  d.add({.position = {0.0f, -1.0f, 0.0f}, .size = 40.0f, .color = {1.0f, 1.0f, 1.0f, 0.5f}});
  const ReferenceImage image = d.render();
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const glm::vec4 want = y >= 34 ? glm::vec4(0.5f, 0.5f, 0.5f, 1.0f) : kBlack;
      ASSERT_EQ(image.at(x, y), want) << "pixel " << x << "," << y;
    }
}

TEST(ReferenceRenderer, NonFiniteFieldsDrawNothingAndHugeQuadsCoverTheScreen) {
  // Pool words are whatever the GPU simulation left: they must never crash the reference.
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard)};
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  d.add({.position = {nan, 0.0f, -10.0f}, .size = 4.0f});
  d.add({.position = {0.0f, 0.0f, -10.0f}, .size = inf});
  d.add({.position = {0.0f, 0.0f, -10.0f}, .size = nan});
  EXPECT_EQ(coverage(d.render()).count, 0);
  d.add({.position = {0.0f, 0.0f, -10.0f}, .size = 1e20f});
  EXPECT_EQ(coverage(d.render()).count, 64 * 64);
}

// --- Scale and order independence -------------------------------------------------------------

TEST(ReferenceRenderer, TwentyThousandParticlesAreIndependentOfTheAliveOrder) {
  Draw d;
  d.camera.width = d.camera.height = 256;
  d.camera.fov_y = glm::radians(60.0f);
  d.records = {quad_record(shader::kProjectionBillboard),
               quad_record(shader::kProjectionBillboard, shader::kDrawFlagAdditive)};
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int i = 0; i < 20000; ++i) {
    TestParticle p;
    // Distinct distances, so no two fragments of a pixel tie and the order is the depth's alone.
    p.position = {8.0f * unit(rng) - 4.0f, 8.0f * unit(rng) - 4.0f, -(6.0f + 0.0005f * float(i))};
    p.size = 0.05f + 0.35f * unit(rng);
    p.color = {unit(rng), unit(rng), unit(rng), 0.2f + 0.7f * unit(rng)};
    p.row = unit(rng) < 0.2f ? 1u : 0u;
    d.add(p);
  }
  const ReferenceImage in_order = d.render();
  std::shuffle(d.alive.begin(), d.alive.end(), rng);
  const ReferenceImage shuffled = d.render();
  const ImageError e = compare_images(in_order, shuffled);
  EXPECT_TRUE(std::isinf(e.psnr_db)) << "max error " << e.max_abs;
  EXPECT_GT(coverage(in_order).count, 256 * 256 / 2);
}

// --- Lighting -----------------------------------------------------------------------------------

// Pixel (32, 32) of the 64 x 64 test camera (90 degrees) sees a unit sprite 2 m ahead at quad
// coordinate (1/32, -1/32) (its centre lies between pixels): where that pixel's fragment lies and
// its bent normal (shared/particle_lighting.h: face + 2 x bend x c).
const glm::vec3 kPixelPoint(1.0f / 32.0f, -1.0f / 32.0f, -2.0f);
const glm::vec3 kPixelNormal = glm::normalize(glm::vec3(2.0f / 32.0f, -2.0f / 32.0f, 1.0f));

// A lit sprite (kDrawFlagLit) is an albedo lit by the lights exactly at each fragment
// (render/reference_lighting.hpp): facing a sun that shines from behind the camera, its centre takes
// E (1/4 + 1/2) / pi; the hemisphere ambient adds sky or ground by the normal's y.
TEST(ReferenceLighting, ALitSpriteTakesTheClampedCosineOfItsLight) {
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard)};
  d.records[0].flags |= shader::kDrawFlagLit;
  d.sun_direction = glm::vec4(0.0f, 0.0f, -1.0f, 1.0f);
  d.sun_radiance = glm::vec4(2.0f, 1.0f, 0.5f, 0.0f) * glm::pi<float>();
  d.add({.position = {0.0f, 0.0f, -2.0f}, .color = {0.5f, 0.5f, 0.5f, 1.0f}});
  const ReferenceImage sun = d.render();
  const glm::vec4 centre = sun.at(32, 32);  // by the quad's centre: the normal faces the eye
  const float facing = 0.25f + 0.5f * kPixelNormal.z;
  EXPECT_NEAR(centre.r, 0.5f * 2.0f * facing, 1e-4f);
  EXPECT_NEAR(centre.g, 0.5f * 1.0f * facing, 1e-4f);
  EXPECT_NEAR(centre.b, 0.5f * 0.5f * facing, 1e-4f);
  EXPECT_NEAR(facing, 0.75f, 0.005f);
  // Towards the top edge the normal leans up, away from a sun that now shines down the view.
  d.sun_direction = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
  const ReferenceImage overhead = d.render();
  EXPECT_NEAR(overhead.at(32, 32).r, 0.5f * 2.0f * (0.25f + 0.5f * kPixelNormal.y), 1e-4f);  // cos ~0: ~1/4
  EXPECT_GT(overhead.at(32, 25).r, overhead.at(32, 32).r + 0.05f) << "the top edge faces the sun";
  EXPECT_LT(overhead.at(32, 39).r, overhead.at(32, 32).r - 0.05f) << "the bottom edge faces away";
  // Sky above, ground below, no sun: the centre faces sideways and takes their mean.
  d.sun_direction = glm::vec4(0.0f);
  d.sky_ambient = glm::vec4(1.0f, 1.0f, 1.0f, 0.0f) * glm::pi<float>();
  d.ground_ambient = glm::vec4(0.0f);
  EXPECT_NEAR(d.render().at(32, 32).g, 0.5f * (0.5f + 0.5f * kPixelNormal.y), 1e-4f);
}

// Back-face transmission (docs/design/render.md, "Lighting"): a light behind a sprite reaches the
// eye through it in proportion to 1 - alpha, so a thin puff is lit from behind and a dense one
// is not; in front of the light the thin one is lit more on its near side than through it.
TEST(ReferenceLighting, LightBehindAThinPuffComesThroughItAndNotThroughADenseOne) {
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard)};
  d.records[0].flags |= shader::kDrawFlagLit;
  d.sun_direction = glm::vec4(0.0f, 0.0f, 1.0f, 1.0f);  // travelling towards the eye: from behind
  d.sun_radiance = glm::vec4(glm::pi<float>());
  d.add({.position = {0.0f, 0.0f, -2.0f}, .color = {1.0f, 1.0f, 1.0f, 0.25f}});
  const glm::vec4 thin = d.render().at(32, 32);
  // Premultiplied: alpha x albedo x (front 0 + (1 - alpha) x back 3/4) (colour over black).
  EXPECT_NEAR(thin.r, 0.25f * 0.75f * 0.75f, 1e-3f);
  d.pool.clear();
  d.alive.clear();
  d.add({.position = {0.0f, 0.0f, -2.0f}, .color = {1.0f, 1.0f, 1.0f, 1.0f}});
  EXPECT_NEAR(d.render().at(32, 32).r, 0.0f, 1e-4f) << "a dense sprite holds the light behind it back";
  // The same thin sprite with the light in front: all of it on the near side.
  d.pool.clear();
  d.alive.clear();
  d.add({.position = {0.0f, 0.0f, -2.0f}, .color = {1.0f, 1.0f, 1.0f, 0.25f}});
  d.sun_direction = glm::vec4(0.0f, 0.0f, -1.0f, 1.0f);
  EXPECT_NEAR(d.render().at(32, 32).r, 0.25f * 0.75f, 1e-3f);
}

// A point light is evaluated at each fragment's own point: nearer parts of the quad are brighter.
TEST(ReferenceLighting, PointLightsAreEvaluatedAtTheFragment) {
  Draw d;
  d.records = {quad_record(shader::kProjectionBillboard)};
  d.records[0].flags |= shader::kDrawFlagLit;
  d.point_lights.push_back({glm::vec4(0.4f, 0.0f, -1.8f, 10.0f), glm::vec4(1.0f, 1.0f, 1.0f, 0.0f)});
  d.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f});
  const ReferenceImage image = d.render();
  EXPECT_GT(image.at(39, 32).r, image.at(25, 32).r * 2.0f) << "the side nearer the light is brighter";
  // Inverse square windowed to the range, at the fragment's point and normal.
  const glm::vec3 to_light = glm::vec3(0.4f, 0.0f, -1.8f) - kPixelPoint;
  const float d_light = glm::length(to_light);
  const float window = 1.0f - std::pow(d_light / 10.0f, 4.0f);
  const float e = window * window / (d_light * d_light);
  const float cosine = glm::dot(kPixelNormal, to_light / d_light);
  EXPECT_NEAR(image.at(32, 32).r, e * (0.25f + 0.5f * cosine) / glm::pi<float>(), 1e-3f);
}

// --- Errors -----------------------------------------------------------------------------------

TEST(ReferenceRenderer, RefusesMalformedInputs) {
  auto code_of = [](const Draw& d) {
    Result<ReferenceImage> r = render_particles_reference(d.inputs());
    return r.ok() ? ErrorCode{} : r.error().code;
  };
  Draw base;
  base.records = {quad_record(shader::kProjectionBillboard)};
  base.add({.position = {0.0f, 0.0f, -10.0f}});
  ASSERT_EQ(code_of(base), ErrorCode{});

  Draw slot = base;
  slot.alive.push_back(5);
  EXPECT_EQ(code_of(slot), ErrorCode::kInvalidArgument);

  Draw depth = base;
  depth.scene_depth.assign(10, 0.0f);
  EXPECT_EQ(code_of(depth), ErrorCode::kInvalidArgument);

  Draw word = base;
  word.records[0].position_word = kRecordWords - 2;  // 3 words would run past the record
  EXPECT_EQ(code_of(word), ErrorCode::kInvalidArgument);

  Draw rotation = base;
  rotation.records[0].rotation_word = kRotationWord;
  rotation.records[0].rotation_width = 2;
  EXPECT_EQ(code_of(rotation), ErrorCode::kInvalidArgument);

  Draw projection = base;
  projection.records[0].flags = shader::kDrawFlagLive | 9u;
  EXPECT_EQ(code_of(projection), ErrorCode::kInvalidArgument);

  Draw viewport = base;
  viewport.camera.width = 0;
  EXPECT_EQ(code_of(viewport), ErrorCode::kInvalidArgument);

  Draw atlas = base;
  const ReferenceTexture short_atlas{2, 2, {255, 255, 255, 255}};
  atlas.atlas = &short_atlas;
  EXPECT_EQ(code_of(atlas), ErrorCode::kInvalidArgument);

  Draw background = base;
  const ReferenceImage small = solid_image(8, 8, kBlack);
  background.background = &small;
  EXPECT_EQ(code_of(background), ErrorCode::kInvalidArgument);
}

// --- The error metric -------------------------------------------------------------------------

TEST(CompareImages, IdenticalIsInfiniteAndDifferencesAreMeasuredOnClampedRgb) {
  const ReferenceImage a{2, 1, {{0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f, 1.0f}}};
  const ImageError same = compare_images(a, a);
  EXPECT_TRUE(std::isinf(same.psnr_db) && same.psnr_db > 0.0);
  EXPECT_EQ(same.mean_abs, 0.0);
  EXPECT_EQ(same.max_abs, 0.0);

  ReferenceImage b = a;
  b.pixels[1].g = 0.5f;
  const ImageError e = compare_images(a, b);
  EXPECT_DOUBLE_EQ(e.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(e.mean_abs, 0.5 / 6.0);
  EXPECT_NEAR(e.psnr_db, 10.0 * std::log10(24.0), 1e-9);  // MSE = 0.25 / 6

  ReferenceImage c = a;
  c.pixels[1] = {3.0f, 2.0f, 1.5f, 0.25f};  // above 1 clamps to 1; alpha is not compared
  c.pixels[0].r = -1.0f;                    // below 0 clamps to 0
  EXPECT_TRUE(std::isinf(compare_images(a, c).psnr_db));

  ReferenceImage n = a;
  n.pixels[0].b = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(compare_images(a, n).max_abs, 1.0);
}

}  // namespace
}  // namespace mote::render
