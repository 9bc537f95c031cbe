// The 3-D tile atlas on lavapipe with validation (src/media/tile_atlas.cpp): slots and their
// placement, the skirt, growth by a layer and widening under an imposed limit with every tile's
// texels read back, the limit's error, the copy path for a device producer, and refusals.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "media/noise_tile.hpp"
#include "media/tile_atlas.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::media {
namespace {

using TileAtlasTest = test::GpuTest;

// Content texels unique to `slot` (content^3 bytes).
std::vector<uint8_t> content_for(uint32_t slot, uint32_t content) {
  std::vector<uint8_t> texels(size_t(content) * content * content);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 7 + slot * 31 + 1);
  return texels;
}

std::vector<uint8_t> bordered_for(uint32_t slot, uint32_t content, uint32_t border) {
  return bordered_block(content_for(slot, content), content, border, 1).value();
}

TEST_F(TileAtlasTest, HandsOutSlotsLinearlyAndReusesTheMostRecentlyFreed) {
  auto created = TileAtlas3D::create(device(), {.content = 4, .border = 1, .slots_x = 2, .slots_y = 1, .capacity = 3});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  TileAtlas3D& atlas = created.value();
  EXPECT_EQ(atlas.capacity(), 4u);  // rounded up to whole layers of 2
  EXPECT_EQ(atlas.footprint(), (std::array<uint32_t, 3>{2, 1, 2}));
  EXPECT_EQ(atlas.image().width(), 12u);
  EXPECT_EQ(atlas.image().depth(), 12u);
  for (uint32_t expected = 0; expected < 4; ++expected) EXPECT_EQ(atlas.allocate().value(), expected);
  EXPECT_EQ(atlas.slot_origin(1), (std::array<uint32_t, 3>{6, 0, 0}));
  EXPECT_EQ(atlas.slot_origin(2), (std::array<uint32_t, 3>{0, 0, 6}));
  EXPECT_EQ(atlas.slot_origin(3), (std::array<uint32_t, 3>{6, 0, 6}));
  EXPECT_EQ(atlas.live_count(), 4u);
  ASSERT_TRUE(atlas.free(1).ok());
  ASSERT_TRUE(atlas.free(2).ok());
  EXPECT_FALSE(atlas.is_live(2));
  EXPECT_EQ(atlas.free(2).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(atlas.free(9).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(atlas.allocate().value(), 2u);
  EXPECT_EQ(atlas.allocate().value(), 1u);
  EXPECT_EQ(atlas.live_count(), 4u);
  EXPECT_EQ(atlas.capacity(), 4u);  // no growth while freed slots were there
}

TEST_F(TileAtlasTest, WriteBuildsTheSkirtFromTheContentWrapped) {
  auto atlas = TileAtlas3D::create(device(), {.content = 5, .border = 1, .slots_x = 2, .slots_y = 1, .capacity = 2});
  ASSERT_TRUE(atlas.ok());
  const uint32_t a = atlas->allocate().value(), b = atlas->allocate().value();
  ASSERT_TRUE(atlas->write(a, content_for(a, 5)).ok());
  ASSERT_TRUE(atlas->write(b, content_for(b, 5)).ok());
  for (uint32_t slot : {a, b}) {
    auto read = atlas->read_tile(slot);
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    ASSERT_EQ(read.value(), bordered_for(slot, 5, 1)) << "slot " << slot;
    // The first skirt texel along x repeats the content's last: texel (0, 1, 1) = content (4, 0, 0).
    const std::vector<uint8_t> content = content_for(slot, 5);
    EXPECT_EQ(read.value()[(1 * 7 + 1) * 7 + 0], content[4]);
  }
  EXPECT_EQ(atlas->write(a, std::vector<uint8_t>(124)).error().code, ErrorCode::kInvalidArgument);
  ASSERT_TRUE(atlas->free(b).ok());
  EXPECT_EQ(atlas->write(b, content_for(b, 5)).error().code, ErrorCode::kInvalidArgument);
}

TEST_F(TileAtlasTest, GrowsByALayerKeepingEveryTile) {
  auto atlas = TileAtlas3D::create(device(), {.content = 4, .border = 1, .slots_x = 2, .slots_y = 2, .capacity = 4});
  ASSERT_TRUE(atlas.ok());
  for (uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(atlas->write(atlas->allocate().value(), content_for(i, 4)).ok());
  const VkImage before = atlas->handle();
  const uint32_t fifth = atlas->allocate().value();
  EXPECT_EQ(fifth, 4u);
  EXPECT_NE(atlas->handle(), before);
  EXPECT_EQ(atlas->footprint(), (std::array<uint32_t, 3>{2, 2, 2}));
  EXPECT_EQ(atlas->image().depth(), 12u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(atlas->read_tile(i).value(), bordered_for(i, 4, 1)) << "slot " << i;
  // The new slot reads as zero until written.
  EXPECT_EQ(atlas->read_tile(fifth).value(), std::vector<uint8_t>(216, 0));
}

TEST_F(TileAtlasTest, WidensAtTheLimitAndFailsPastItWithTheNumbers) {
  // Tiles of 6 texels under a limit of 18: at most 3 a side, 27 slots.
  auto created =
      TileAtlas3D::create(device(),
                          {.content = 4, .border = 1, .slots_x = 1, .slots_y = 1, .capacity = 1, .max_extent = 18});
  ASSERT_TRUE(created.ok());
  TileAtlas3D& atlas = created.value();
  EXPECT_EQ(atlas.capacity_limit(), 27u);
  // The footprint after handing out slot i (growth by layer until the depth is at 3, then widening).
  const std::map<uint32_t, std::array<uint32_t, 3>> footprints = {{0, {1, 1, 1}}, {1, {1, 1, 2}},  {2, {1, 1, 3}},
                                                                  {3, {2, 1, 2}}, {4, {2, 1, 3}},  {6, {2, 2, 2}},
                                                                  {8, {2, 2, 3}}, {12, {3, 2, 3}}, {18, {3, 3, 3}},
                                                                  {26, {3, 3, 3}}};
  for (uint32_t i = 0; i < 27; ++i) {
    auto slot = atlas.allocate();
    ASSERT_TRUE(slot.ok()) << slot.error().to_string();
    ASSERT_EQ(slot.value(), i);
    ASSERT_TRUE(atlas.write(i, content_for(i, 4)).ok());
    if (auto f = footprints.find(i); f != footprints.end()) {
      EXPECT_EQ(atlas.footprint(), f->second) << "after slot " << i;
      // Every tile handed out keeps its texels through the grow or the widening.
      for (uint32_t s = 0; s <= i; ++s) ASSERT_EQ(atlas.read_tile(s).value(), bordered_for(s, 4, 1)) << "slot " << s;
    }
  }
  EXPECT_LE(atlas.image().width(), 18u);
  EXPECT_LE(atlas.image().height(), 18u);
  EXPECT_LE(atlas.image().depth(), 18u);
  auto full = atlas.allocate();
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().code, ErrorCode::kOutOfMemory);
  EXPECT_NE(full.error().message.find("27 slots"), std::string::npos) << full.error().message;
  EXPECT_NE(full.error().message.find("18 texels"), std::string::npos) << full.error().message;
  EXPECT_EQ(atlas.live_count(), 27u);  // nothing lost
  EXPECT_EQ(atlas.read_tile(13).value(), bordered_for(13, 4, 1));
  // A freed slot is handed out again even when full.
  ASSERT_TRUE(atlas.free(13).ok());
  EXPECT_EQ(atlas.allocate().value(), 13u);
}

TEST_F(TileAtlasTest, CopiesATileADeviceProducerWrote) {
  auto atlas = TileAtlas3D::create(device(), {.content = 4, .border = 1, .slots_x = 2, .slots_y = 1, .capacity = 2});
  ASSERT_TRUE(atlas.ok());
  (void)atlas->allocate();
  const uint32_t slot = atlas->allocate().value();
  // A bordered tile in rows of 8 texels (2 of padding each), 6 rows a layer, at offset 16.
  const std::vector<uint8_t> tile = bordered_for(5, 4, 1);
  std::vector<uint8_t> bytes(16 + 8 * 6 * 6, 0xEE);
  for (uint32_t z = 0; z < 6; ++z)
    for (uint32_t y = 0; y < 6; ++y) std::memcpy(&bytes[16 + (z * 6 + y) * 8], &tile[(z * 6 + y) * 6], 6);
  auto buffer = gpu::Buffer::create(device(), {.size = bytes.size()});
  ASSERT_TRUE(buffer.ok());
  ASSERT_TRUE(gpu::upload(device(), buffer.value(), bytes).ok());
  Status recorded = ok_status();
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    recorded = atlas->record_copy_from_buffer(cmd, slot, buffer.value(), 16, 8);
                  })
                  .ok());
  ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  EXPECT_EQ(atlas->read_tile(slot).value(), tile);
  Status refused = ok_status();
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    refused = atlas->record_copy_from_buffer(cmd, slot, buffer.value(), 32, 8);
                  })
                  .ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
}

TEST_F(TileAtlasTest, RefusesShapesItCannotHold) {
  EXPECT_EQ(TileAtlas3D::create(device(), {.format = VK_FORMAT_B8G8R8_UNORM}).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(TileAtlas3D::create(device(), {.content = 2, .border = 3}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(TileAtlas3D::create(device(), {.slots_x = 0}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(TileAtlas3D::create(device(), {.content = 4, .slots_x = 4, .max_extent = 18}).error().code,
            ErrorCode::kInvalidArgument);
}

TEST_F(TileAtlasTest, TheVolumetricsInstanceFitsTheDevice) {
  // r8unorm, 128 + 1 border, 2 slots: the engine's tile and a spare.
  auto atlas = TileAtlas3D::create(device(), {});
  ASSERT_TRUE(atlas.ok()) << atlas.error().to_string();
  EXPECT_EQ(atlas->tile(), 130u);
  EXPECT_EQ(atlas->image().width(), 260u);
  EXPECT_GE(atlas->capacity_limit(), 27u);
}

}  // namespace
}  // namespace mote::media
