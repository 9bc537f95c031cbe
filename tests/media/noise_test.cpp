// The periodic gradient noise and the built-in tile's bake on the CPU (shaders/shared/media_density.h,
// src/media/noise_tile.cpp): periodicity at any integer period, range, determinism, the skirt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "media/noise_tile.hpp"
#include "shared/media_density.h"

namespace mote::media {
namespace {

using shader::media_periodic_noise;
using shader::media_tile_fbm;

TEST(PeriodicNoise, RepeatsAtEveryIntegerPeriodOnEachAxis) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(0.0f, 40.0f);
  for (uint32_t period : {1u, 3u, 4u, 7u, 16u, 29u}) {
    for (int i = 0; i < 200; ++i) {
      const glm::vec3 p(coord(rng), coord(rng), coord(rng));
      const float here = media_periodic_noise(p, period);
      for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 q = p;
        q[axis] += float(period);
        EXPECT_NEAR(media_periodic_noise(q, period), here, 2e-5f) << "period " << period << " axis " << axis;
      }
    }
  }
}

TEST(PeriodicNoise, IsNotPeriodicAtOtherShiftsAndVanishesOnTheLattice) {
  // Gradient noise is 0 at lattice points; a shift by less than the period changes the field.
  EXPECT_EQ(media_periodic_noise(glm::vec3(2.0f, 5.0f, 1.0f), 8), 0.0f);
  double differences = 0.0;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> coord(0.0f, 8.0f);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 p(coord(rng), coord(rng), coord(rng));
    differences += std::abs(media_periodic_noise(p, 8) - media_periodic_noise(p + glm::vec3(3.0f, 0.0f, 0.0f), 8));
  }
  EXPECT_GT(differences / 200.0, 0.05);
}

TEST(PeriodicNoise, StaysWithinPlusMinusOneAndHasNoBias) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(0.0f, 16.0f);
  double sum = 0.0, lo = 0.0, hi = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const float n = media_periodic_noise(glm::vec3(coord(rng), coord(rng), coord(rng)), 16);
    sum += n;
    lo = std::min<double>(lo, n);
    hi = std::max<double>(hi, n);
  }
  EXPECT_GE(lo, -1.0);
  EXPECT_LE(hi, 1.0);
  EXPECT_LT(lo, -0.4);
  EXPECT_GT(hi, 0.4);
  EXPECT_NEAR(sum / 20000.0, 0.0, 0.02);
}

TEST(TileFbm, IsPeriodicAcrossTheTile) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(0.0f, 1.0f);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 t(coord(rng), coord(rng), coord(rng));
    const float here = media_tile_fbm(t, 3);
    EXPECT_NEAR(media_tile_fbm(t + glm::vec3(1.0f, 0.0f, 0.0f), 3), here, 1e-4f);
    EXPECT_NEAR(media_tile_fbm(t + glm::vec3(0.0f, 1.0f, 0.0f), 3), here, 1e-4f);
    EXPECT_NEAR(media_tile_fbm(t + glm::vec3(0.0f, 0.0f, -1.0f), 3), here, 1e-4f);
  }
}

uint8_t at(const std::vector<uint8_t>& tile, uint32_t side, uint32_t x, uint32_t y, uint32_t z) {
  return tile[(size_t(z) * side + y) * side + x];
}

TEST(NoiseBake, SkirtIsTheContentWrapped) {
  const uint32_t content = 16, border = 1, side = content + 2 * border;
  auto baked = bake_noise_tile_cpu(content, border, 2);
  ASSERT_TRUE(baked.ok()) << baked.error().to_string();
  const std::vector<uint8_t>& tile = baked.value();
  ASSERT_EQ(tile.size(), size_t(side) * side * side);
  auto source = [&](uint32_t t) { return (t + content - border) % content + border; };
  for (uint32_t z = 0; z < side; ++z)
    for (uint32_t y = 0; y < side; ++y)
      for (uint32_t x = 0; x < side; ++x)
        ASSERT_EQ(at(tile, side, x, y, z), at(tile, side, source(x), source(y), source(z)))
            << x << "," << y << "," << z;
  // The skirt's first texel shows the content's last.
  EXPECT_EQ(at(tile, side, 0, 5, 5), at(tile, side, content, 5, 5));
  EXPECT_EQ(at(tile, side, side - 1, 5, 5), at(tile, side, 1, 5, 5));
}

TEST(NoiseBake, RangeFillsTheUnitIntervalAndIsDeterministic) {
  auto a = bake_noise_tile_cpu(32, 1, 3);
  auto b = bake_noise_tile_cpu(32, 1, 3);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value(), b.value());
  const auto [lo, hi] = std::minmax_element(a.value().begin(), a.value().end());
  // The remap saturates at both ends, so the multiplier reaches 0 and 1 somewhere.
  EXPECT_EQ(*lo, 0);
  EXPECT_EQ(*hi, 255);
  double mean = 0.0;
  for (uint8_t v : a.value()) mean += v / 255.0;
  mean /= double(a.value().size());
  EXPECT_GT(mean, 0.3);
  EXPECT_LT(mean, 0.7);
}

TEST(NoiseBake, EachTexelIsTheRemappedFbmAtItsContentCentre) {
  const uint32_t content = 8;
  auto baked = bake_noise_tile_cpu(content, 1, 1);
  ASSERT_TRUE(baked.ok());
  for (uint32_t x = 0; x < content; ++x) {
    const glm::vec3 t((float(x) + 0.5f) / float(content), 2.5f / float(content), 6.5f / float(content));
    const float expected = shader::media_smoothstep(-0.6f, 0.6f, media_tile_fbm(t, 1));
    EXPECT_EQ(at(baked.value(), content + 2, x + 1, 3, 7),
              uint8_t(std::lround(std::clamp(expected, 0.0f, 1.0f) * 255.0f)));
  }
}

TEST(NoiseBake, RefusesShapesItCannotBake) {
  EXPECT_EQ(bake_noise_tile_cpu(0, 1, 3).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bake_noise_tile_cpu(4, 5, 1).error().code, ErrorCode::kInvalidArgument);
  // 4 << 3 = 32 lattice cells do not fit 16 texels.
  EXPECT_EQ(bake_noise_tile_cpu(16, 1, 4).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bake_noise_tile_cpu(16, 1, 0).error().code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(bake_noise_tile_cpu(16, 1, 3).ok());
}

TEST(BorderedBlock, WrapsMultiByteTexelsAndRefusesWrongSizes) {
  const uint32_t content = 3, border = 2, side = content + 2 * border;
  std::vector<uint8_t> texels(size_t(content) * content * content * 2);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i);
  auto block = bordered_block(texels, content, border, 2);
  ASSERT_TRUE(block.ok());
  ASSERT_EQ(block.value().size(), size_t(side) * side * side * 2);
  for (uint32_t z = 0; z < side; ++z)
    for (uint32_t y = 0; y < side; ++y)
      for (uint32_t x = 0; x < side; ++x) {
        const uint32_t sx = (x + content * 2 - border) % content, sy = (y + content * 2 - border) % content,
                       sz = (z + content * 2 - border) % content;
        const size_t src = ((size_t(sz) * content + sy) * content + sx) * 2;
        const size_t dst = ((size_t(z) * side + y) * side + x) * 2;
        ASSERT_EQ(block.value()[dst], texels[src]);
        ASSERT_EQ(block.value()[dst + 1], texels[src + 1]);
      }
  EXPECT_EQ(bordered_block(std::span(texels).first(texels.size() - 1), content, border, 2).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(bordered_block(texels, content, 4, 2).error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote::media
