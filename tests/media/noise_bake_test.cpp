// The noise tile baked on lavapipe (src/media/noise_bake.cpp) against the CPU bake, texel for
// texel: the skirt, determinism, the neighbouring slot untouched, the built-in 128^3 tile.
#include <gtest/gtest.h>

#include <cstdlib>

#include "media/noise_bake.hpp"
#include "media/noise_tile.hpp"
#include "shared/media_density.h"
#include "support/gpu_fixture.hpp"

namespace mote::media {
namespace {

using NoiseBakeTest = test::GpuTest;

// Texels where the two bakes differ, and by how much at most (the float rounding of the two
// compilers may move a value across a rounding boundary of the 8-bit encoding).
struct Difference {
  size_t count = 0;
  int largest = 0;
};
Difference compare(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  Difference d;
  for (size_t i = 0; i < a.size(); ++i) {
    const int delta = std::abs(int(a[i]) - int(b[i]));
    if (delta) ++d.count;
    d.largest = std::max(d.largest, delta);
  }
  return d;
}

TEST_F(NoiseBakeTest, MatchesTheCpuBakeAndLeavesOtherSlotsAlone) {
  auto atlas = TileAtlas3D::create(device(), {.content = 16, .border = 1, .slots_x = 2, .slots_y = 1, .capacity = 2});
  ASSERT_TRUE(atlas.ok());
  const uint32_t other = atlas->allocate().value(), slot = atlas->allocate().value();
  const std::vector<uint8_t> marker(16 * 16 * 16, 77);
  ASSERT_TRUE(atlas->write(other, marker).ok());
  auto bake = NoiseBake::create(device());
  ASSERT_TRUE(bake.ok()) << bake.error().to_string();
  ASSERT_TRUE(bake_noise_tile(device(), bake.value(), atlas.value(), slot, 3).ok());
  const std::vector<uint8_t> gpu = atlas->read_tile(slot).value();
  const std::vector<uint8_t> cpu = bake_noise_tile_cpu(16, 1, 3).value();
  ASSERT_EQ(gpu.size(), cpu.size());
  const Difference d = compare(gpu, cpu);
  EXPECT_LE(d.largest, 1);
  EXPECT_LE(d.count, gpu.size() / 200) << d.count << " of " << gpu.size() << " texels differ";
  EXPECT_EQ(atlas->read_tile(other).value(), std::vector<uint8_t>(18 * 18 * 18, 77));
  // The device's skirt is its own content wrapped.
  std::vector<uint8_t> content;
  for (uint32_t z = 1; z <= 16; ++z)
    for (uint32_t y = 1; y <= 16; ++y)
      for (uint32_t x = 1; x <= 16; ++x) content.push_back(gpu[(size_t(z) * 18 + y) * 18 + x]);
  EXPECT_EQ(bordered_block(content, 16, 1, 1).value(), gpu);
  // And the bake is deterministic.
  ASSERT_TRUE(bake_noise_tile(device(), bake.value(), atlas.value(), slot, 3).ok());
  EXPECT_EQ(atlas->read_tile(slot).value(), gpu);
}

TEST_F(NoiseBakeTest, TheBuiltInTileMatchesTheCpu) {
  auto atlas = TileAtlas3D::create(device(), {});
  ASSERT_TRUE(atlas.ok());
  const uint32_t slot = atlas->allocate().value();
  auto bake = NoiseBake::create(device());
  ASSERT_TRUE(bake.ok());
  ASSERT_TRUE(bake_noise_tile(device(), bake.value(), atlas.value(), slot, shader::kMediaNoiseOctaves).ok());
  const std::vector<uint8_t> gpu = atlas->read_tile(slot).value();
  const std::vector<uint8_t> cpu =
      bake_noise_tile_cpu(shader::kMediaNoiseContent, shader::kMediaNoiseBorder, shader::kMediaNoiseOctaves).value();
  const Difference d = compare(gpu, cpu);
  EXPECT_LE(d.largest, 1);
  EXPECT_LE(d.count, gpu.size() / 200) << d.count << " of " << gpu.size() << " texels differ";
}

TEST_F(NoiseBakeTest, RefusesWhatItCannotBake) {
  auto bake = NoiseBake::create(device());
  ASSERT_TRUE(bake.ok());
  auto atlas = TileAtlas3D::create(device(), {.content = 8, .border = 1, .slots_x = 1, .slots_y = 1, .capacity = 1});
  ASSERT_TRUE(atlas.ok());
  const uint32_t slot = atlas->allocate().value();
  // 4 << 1 = 8 lattice cells fit 8 texels; 4 << 2 do not.
  EXPECT_TRUE(bake_noise_tile(device(), bake.value(), atlas.value(), slot, 2).ok());
  EXPECT_EQ(bake_noise_tile(device(), bake.value(), atlas.value(), slot, 3).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bake_noise_tile(device(), bake.value(), atlas.value(), slot + 1, 1).error().code,
            ErrorCode::kInvalidArgument);
  auto wide = TileAtlas3D::create(device(), {.format = VK_FORMAT_R32_SFLOAT, .content = 8, .capacity = 1});
  ASSERT_TRUE(wide.ok());
  const uint32_t wide_slot = wide->allocate().value();
  EXPECT_EQ(bake_noise_tile(device(), bake.value(), wide.value(), wide_slot, 1).error().code,
            ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote::media
