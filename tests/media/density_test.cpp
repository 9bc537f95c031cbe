// The density function of shaders/shared/media_density.h on the CPU, over atlases built by hand
// and over the baked tile: the bound, the box and the fade, strength, scale, scroll, the warp's
// displacement in closed form, the skirt, and the light model's and the grid's helpers.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <vector>

#include "media/noise_tile.hpp"
#include "shared/media_density.h"

namespace mote::media {
namespace {

using shader::kMediaNoiseContent;
using shader::kMediaNoiseTile;
using shader::MediaNoiseAtlasView;
using shader::MediaVolume;

// An atlas of `slots_x` tiles in a row (one layer), each filled by `content(slot, x, y, z)` and
// wrapped into its skirt.
struct HandAtlas {
  uint32_t slots = 0;
  std::vector<uint8_t> texels;
  MediaNoiseAtlasView view() const {
    return {texels.data(), slots * kMediaNoiseTile, kMediaNoiseTile, kMediaNoiseTile};
  }
};

template <typename F>
HandAtlas make_atlas(uint32_t slots, F content) {
  HandAtlas atlas;
  atlas.slots = slots;
  const uint32_t width = slots * kMediaNoiseTile;
  atlas.texels.assign(size_t(width) * kMediaNoiseTile * kMediaNoiseTile, 0);
  const uint32_t c = kMediaNoiseContent;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    std::vector<uint8_t> tile(size_t(c) * c * c);
    for (uint32_t z = 0; z < c; ++z)
      for (uint32_t y = 0; y < c; ++y)
        for (uint32_t x = 0; x < c; ++x) tile[(size_t(z) * c + y) * c + x] = content(slot, x, y, z);
    auto block = bordered_block(tile, c, 1, 1);
    EXPECT_TRUE(block.ok());
    for (uint32_t z = 0; z < kMediaNoiseTile; ++z)
      for (uint32_t y = 0; y < kMediaNoiseTile; ++y)
        for (uint32_t x = 0; x < kMediaNoiseTile; ++x)
          atlas.texels[(size_t(z) * kMediaNoiseTile + y) * width + slot * kMediaNoiseTile + x] =
              block.value()[(size_t(z) * kMediaNoiseTile + y) * kMediaNoiseTile + x];
  }
  return atlas;
}

// A volume row for a box posed by `transform` (the unit box [-0.5, 0.5]^3 into the world).
MediaVolume make_row(const glm::mat4& transform, float density, float fade, float strength, float inverse_scale,
                     float warp, uint32_t slot = 0) {
  MediaVolume v{};
  v.world_to_local = glm::inverse(transform);
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner((c & 1) ? 0.5f : -0.5f, (c & 2) ? 0.5f : -0.5f, (c & 4) ? 0.5f : -0.5f);
    const glm::vec3 w = glm::vec3(transform * glm::vec4(corner, 1.0f));
    lo = glm::min(lo, w);
    hi = glm::max(hi, w);
  }
  v.bounds_min = glm::vec4(lo, fade);
  v.bounds_max = glm::vec4(hi, density);
  v.albedo = glm::vec4(0.9f, 0.9f, 0.9f, strength);
  v.edge_scale = glm::vec4(glm::length(glm::vec3(transform[0])), glm::length(glm::vec3(transform[1])),
                           glm::length(glm::vec3(transform[2])), inverse_scale);
  v.noise_offset = glm::vec4(0.0f, 0.0f, 0.0f, warp);
  v.noise_warp_offset = glm::vec4(0.0f);
  v.noise = glm::uvec4(slot, 0, 0, 0);
  return v;
}

const HandAtlas& baked_atlas() {
  static const HandAtlas atlas = [] {
    auto tile = bake_noise_tile_cpu(kMediaNoiseContent, 1, 3);
    EXPECT_TRUE(tile.ok());
    HandAtlas a;
    a.slots = 1;
    a.texels = std::move(tile).value();
    return a;
  }();
  return atlas;
}

TEST(Density, IsBoundedByDensityEverywhere) {
  const MediaNoiseAtlasView atlas = baked_atlas().view();
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  double largest_ratio = 0.0;
  for (int volume = 0; volume < 40; ++volume) {
    glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(unit(rng) * 20.0f - 10.0f, unit(rng) * 4.0f, 0.0f));
    t = glm::rotate(t, unit(rng) * 6.28f, glm::normalize(glm::vec3(unit(rng), unit(rng) + 0.1f, unit(rng))));
    t = glm::scale(t, glm::vec3(2.0f + 10.0f * unit(rng), 1.0f + 5.0f * unit(rng), 2.0f + 10.0f * unit(rng)));
    const float density = 0.01f + 2.0f * unit(rng);
    MediaVolume v = make_row(t, density, 2.0f * unit(rng), unit(rng), 1.0f / (1.0f + 40.0f * unit(rng)),
                             0.3f * unit(rng));
    v.noise_offset = glm::vec4(unit(rng), unit(rng), unit(rng), v.noise_offset.w);
    v.noise_warp_offset = glm::vec4(unit(rng), unit(rng), unit(rng), 0.0f);
    for (int i = 0; i < 400; ++i) {
      const glm::vec3 local(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f);
      const glm::vec3 p = glm::vec3(t * glm::vec4(local * 1.2f, 1.0f));
      const float d = shader::media_density_at(atlas, v, p);
      ASSERT_GE(d, 0.0f);
      ASSERT_LE(d, density) << "volume " << volume << " point " << i;
      largest_ratio = std::max(largest_ratio, double(d / density));
    }
  }
  EXPECT_GT(largest_ratio, 0.95);  // the bound is reached, not merely respected
}

TEST(Density, IsZeroOutsideTheBoxAndFadesToItsFaces) {
  const MediaNoiseAtlasView atlas = baked_atlas().view();
  const glm::mat4 t = glm::scale(glm::translate(glm::mat4(1.0f), glm::vec3(1.0f, 2.0f, 3.0f)),
                                 glm::vec3(8.0f, 4.0f, 2.0f));
  const MediaVolume v = make_row(t, 0.5f, 0.5f, 0.0f, 1.0f / 32.0f, 0.0f);
  EXPECT_FLOAT_EQ(shader::media_density_at(atlas, v, glm::vec3(1.0f, 2.0f, 3.0f)), 0.5f);
  EXPECT_EQ(shader::media_density_at(atlas, v, glm::vec3(5.01f, 2.0f, 3.0f)), 0.0f);
  EXPECT_EQ(shader::media_density_at(atlas, v, glm::vec3(1.0f, 2.0f, 4.05f)), 0.0f);
  // Fade in metres, whatever the box's scale along the axis: 0.25 m from the +x face (x = 5) is
  // half the fade distance, smoothstep(0.5) = 0.5.
  EXPECT_NEAR(shader::media_density_at(atlas, v, glm::vec3(4.75f, 2.0f, 3.0f)), 0.25f, 1e-5f);
  EXPECT_NEAR(shader::media_density_at(atlas, v, glm::vec3(1.0f, 2.0f, 3.75f)), 0.25f, 1e-5f);
  EXPECT_NEAR(shader::media_density_at(atlas, v, glm::vec3(5.0f, 2.0f, 3.0f)), 0.0f, 1e-5f);
}

TEST(Density, StrengthBlendsBetweenUniformAndTheTap) {
  const MediaNoiseAtlasView atlas = baked_atlas().view();
  const glm::mat4 t = glm::scale(glm::mat4(1.0f), glm::vec3(50.0f));
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> coord(-20.0f, 20.0f);
  for (int i = 0; i < 100; ++i) {
    const glm::vec3 p(coord(rng), coord(rng), coord(rng));
    const float uniform = shader::media_density_at(atlas, make_row(t, 1.0f, 0.0f, 0.0f, 0.05f, 0.1f), p);
    const float full = shader::media_density_at(atlas, make_row(t, 1.0f, 0.0f, 1.0f, 0.05f, 0.1f), p);
    const float third = shader::media_density_at(atlas, make_row(t, 1.0f, 0.0f, 1.0f / 3.0f, 0.05f, 0.1f), p);
    EXPECT_FLOAT_EQ(uniform, 1.0f);
    EXPECT_NEAR(third, (2.0f * uniform + full) / 3.0f, 1e-5f);
  }
}

TEST(Density, ScaleIsMetresPerTileRepeatAndScrollIsAPhase) {
  const MediaNoiseAtlasView atlas = baked_atlas().view();
  const glm::mat4 t = glm::scale(glm::mat4(1.0f), glm::vec3(400.0f));
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> coord(-30.0f, 30.0f);
  for (int i = 0; i < 100; ++i) {
    const glm::vec3 p(coord(rng), coord(rng), coord(rng));
    const MediaVolume at_16 = make_row(t, 1.0f, 0.0f, 1.0f, 1.0f / 16.0f, 0.0f);
    const MediaVolume at_32 = make_row(t, 1.0f, 0.0f, 1.0f, 1.0f / 32.0f, 0.0f);
    // Twice the scale: the same field stretched twice as far.
    EXPECT_NEAR(shader::media_density_at(atlas, at_32, 2.0f * p), shader::media_density_at(atlas, at_16, p), 2e-4f);
    // One tile repeat away: the same value.
    EXPECT_NEAR(shader::media_density_at(atlas, at_16, p + glm::vec3(16.0f, -32.0f, 48.0f)),
                shader::media_density_at(atlas, at_16, p), 2e-4f);
    // A phase of delta tile units reads the field delta * scale metres on.
    MediaVolume scrolled = at_16;
    const glm::vec3 delta(0.125f, -0.25f, 0.0625f);
    scrolled.noise_offset = glm::vec4(delta, 0.0f);
    EXPECT_NEAR(shader::media_density_at(atlas, scrolled, p), shader::media_density_at(atlas, at_16, p + delta * 16.0f),
                2e-4f);
  }
}

// Slot 1 holds a ramp along x (content texel x holds 2x / 255); slot 0 is all ones, so a read of
// the wrong slot shows. Inside the content, a trilinear tap of the ramp is linear in u.x.
float ramp_tap(float u_x) {
  const float f = u_x - std::floor(u_x);
  return (f * float(kMediaNoiseContent) - 0.5f) * 2.0f / 255.0f;
}

TEST(Density, WarpDisplacesTheBaseLookupInClosedForm) {
  const HandAtlas atlas = make_atlas(2, [](uint32_t slot, uint32_t x, uint32_t, uint32_t) {
    return slot == 0 ? uint8_t(255) : uint8_t(2 * x);
  });
  const glm::mat4 t = glm::scale(glm::mat4(1.0f), glm::vec3(1000.0f));
  const float inverse_scale = 1.0f / 32.0f;
  for (float warp : {0.0f, 0.1f, 0.4f}) {
    MediaVolume v = make_row(t, 1.0f, 0.0f, 1.0f, inverse_scale, warp, 1);
    v.noise_offset = glm::vec4(0.2f, 0.0f, 0.0f, warp);
    v.noise_warp_offset = glm::vec4(0.3f, 0.0f, 0.0f, 0.0f);
    for (float x : {1.0f, 5.0f, 9.5f, 13.0f}) {
      const glm::vec3 p(x, 3.0f, -2.0f);
      const glm::vec3 base = p * inverse_scale;
      float u = base.x + 0.2f;
      if (warp > 0.0f) {
        const float w = ramp_tap(base.x * 0.5f + 0.3f);
        u += (w - 0.5f) * warp * 0.6f;
      }
      EXPECT_NEAR(shader::media_density_at(atlas.view(), v, p), ramp_tap(u), 2e-5f) << "warp " << warp << " x " << x;
    }
  }
}

TEST(Density, TapBlendsIntoTheSkirtAndNeverTheNextSlot) {
  // Slot 0: a ramp, its skirt the ramp wrapped; slot 1: all 255 beside it.
  const HandAtlas atlas = make_atlas(2, [](uint32_t slot, uint32_t x, uint32_t, uint32_t) {
    return slot == 1 ? uint8_t(255) : uint8_t(2 * x);
  });
  const float last = 254.0f / 255.0f, first = 0.0f;
  // u.x at 127.75 / 128: a quarter of the way from content texel 127's centre to the skirt's.
  const float tap = shader::media_noise_tap(atlas.view(), 0, glm::vec3(127.75f / 128.0f, 0.5f, 0.5f));
  EXPECT_NEAR(tap, 0.75f * last + 0.25f * first, 1e-5f);
  // And symmetrically before content texel 0.
  const float before = shader::media_noise_tap(atlas.view(), 0, glm::vec3(0.25f / 128.0f, 0.5f, 0.5f));
  EXPECT_NEAR(before, 0.25f * last + 0.75f * first, 1e-5f);
  // Slot 1 is at its own origin.
  EXPECT_NEAR(shader::media_noise_tap(atlas.view(), 1, glm::vec3(0.999f, 0.0f, 0.5f)), 1.0f, 1e-6f);
}

TEST(Phase, HenyeyGreensteinIsNormalisedAndPeaksForward) {
  for (float g : {-0.5f, 0.0f, 0.3f, 0.8f}) {
    double integral = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      const float mu = -1.0f + 2.0f * (float(i) + 0.5f) / float(n);
      integral += double(shader::media_hg_phase(mu, g)) * 2.0 * M_PI * (2.0 / n);
    }
    EXPECT_NEAR(integral, 1.0, 1e-3) << "g " << g;
  }
  EXPECT_NEAR(shader::media_hg_phase(0.3f, 0.0f), 1.0f / (4.0f * float(M_PI)), 1e-6f);
  EXPECT_GT(shader::media_hg_phase(1.0f, 0.5f), shader::media_hg_phase(-1.0f, 0.5f));
}

TEST(Grid, SlicesAreLogarithmicAndInvertible) {
  const float near_depth = 0.5f, far_depth = 200.0f, slices = 64.0f;
  EXPECT_NEAR(shader::media_slice_depth(0.0f, near_depth, far_depth, slices), near_depth, 1e-6f);
  EXPECT_NEAR(shader::media_slice_depth(slices, near_depth, far_depth, slices), far_depth, 1e-3f);
  // Each slice is the same ratio deep.
  const float ratio = shader::media_slice_depth(11.0f, near_depth, far_depth, slices) /
                      shader::media_slice_depth(10.0f, near_depth, far_depth, slices);
  EXPECT_NEAR(ratio, std::pow(far_depth / near_depth, 1.0f / slices), 1e-5f);
  for (float s : {0.0f, 0.4f, 17.3f, 63.9f})
    EXPECT_NEAR(shader::media_depth_slice(shader::media_slice_depth(s, near_depth, far_depth, slices), near_depth,
                                          far_depth, slices),
                s, 1e-4f);
}

TEST(Grid, JitterIsStratifiedOverFramesAndDecorrelatedAcrossFroxelsAndPasses) {
  int bins[16] = {};
  double mean[3] = {};
  for (uint32_t frame = 0; frame < 64; ++frame) {
    const glm::vec3 j = shader::media_jitter({3, 4, 5}, frame, {53, 97});
    for (int a = 0; a < 3; ++a) {
      ASSERT_GE(j[a], 0.0f);
      ASSERT_LT(j[a], 1.0f);
      mean[a] += j[a] / 64.0;
    }
    ++bins[int(j.x * 16.0f)];
  }
  for (int b = 0; b < 16; ++b) {
    EXPECT_GE(bins[b], 2) << "bin " << b;
    EXPECT_LE(bins[b], 6) << "bin " << b;
  }
  for (double m : mean) EXPECT_NEAR(m, 0.5, 0.03);
  const glm::vec3 here = shader::media_jitter({3, 4, 5}, 9, {53, 97});
  EXPECT_NE(here, shader::media_jitter({4, 4, 5}, 9, {53, 97}));
  EXPECT_NE(here, shader::media_jitter({3, 4, 5}, 9, {37, 71}));
}

}  // namespace
}  // namespace mote::media
