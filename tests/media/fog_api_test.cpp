// The public fog (include/mote/volumes.hpp) through include/mote/ alone: volumes with ids and
// generations, the checks with the field in `where`, the wind and the phases, the host's noise
// textures in the atlas.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/volumes.hpp"

namespace mote {
namespace {

using FogApiTest = test::ApiTest;

std::unique_ptr<Fog> make_fog(Context& context, uint32_t max_volumes = 4) {
  auto fog = Fog::create(context, {.width = 64, .height = 36, .grid = {16, 9, 8}, .max_volumes = max_volumes});
  EXPECT_TRUE(fog.ok()) << fog.error().to_string();
  return fog.ok() ? std::move(fog).value() : nullptr;
}

TEST_F(FogApiTest, RefusesDescriptionsOutOfRange) {
  EXPECT_EQ(Fog::create(context(), {.width = 0, .height = 36}).error().where, "/width");
  EXPECT_EQ(Fog::create(context(), {.width = 64, .height = 36, .grid = {16, 0, 8}}).error().where, "/grid");
  EXPECT_EQ(
      Fog::create(context(), {.width = 64, .height = 36, .near_distance = 5.0f, .far_distance = 4.0f}).error().where,
      "/far_distance");
  EXPECT_EQ(Fog::create(context(), {.width = 64, .height = 36, .anisotropy = 1.0f}).error().where, "/anisotropy");
  EXPECT_EQ(Fog::create(context(), {.width = 64, .height = 36, .history_weight = 1.0f}).error().where,
            "/history_weight");
}

TEST_F(FogApiTest, VolumesHaveIdsAndBadOnesAreRefusedWithTheirField) {
  std::unique_ptr<Fog> fog = make_fog(context(), 2);
  ASSERT_TRUE(fog);
  FogVolume v;
  v.transform[0] = 10.0f;  // a 10 x 1 x 1 box
  auto a = fog->add_volume(v);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  auto b = fog->add_volume(v);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(fog->add_volume(v).error().code, ErrorCode::kInvalidArgument);  // max_volumes
  EXPECT_EQ(fog->volume_count(), 2u);
  ASSERT_TRUE(fog->remove_volume(a.value()).ok());
  EXPECT_EQ(fog->remove_volume(a.value()).error().code, ErrorCode::kInvalidArgument);
  auto c = fog->add_volume(v);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->index, a->index);
  EXPECT_NE(c->generation, a->generation);
  EXPECT_EQ(fog->set_volume(a.value(), v).error().code, ErrorCode::kInvalidArgument);  // stale

  FogVolume bad = v;
  bad.density = -1.0f;
  EXPECT_EQ(fog->set_volume(c.value(), bad).error().where, "/density");
  bad = v;
  bad.transform[13] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(fog->set_volume(c.value(), bad).error().where, "/transform");
  bad = v;
  bad.noise_texture = 1;  // the spare slot exists in the atlas but holds no texture
  EXPECT_EQ(fog->set_volume(c.value(), bad).error().where, "/noise_texture");
  bad = v;
  bad.noise_scale = 0.0f;
  EXPECT_EQ(fog->set_volume(c.value(), bad).error().where, "/noise_scale");
  EXPECT_EQ(fog->volume_count(), 2u);  // nothing lost
}

TEST_F(FogApiTest, WindAndAdvanceAreChecked) {
  std::unique_ptr<Fog> fog = make_fog(context());
  ASSERT_TRUE(fog);
  EXPECT_TRUE(fog->set_wind({3.0f, 0.0f, -1.0f}).ok());
  EXPECT_EQ(fog->set_wind({std::numeric_limits<float>::infinity(), 0.0f, 0.0f}).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_TRUE(fog->advance(1.0 / 60.0).ok());
  EXPECT_EQ(fog->advance(-1.0).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(fog->advance(std::nan("")).error().code, ErrorCode::kInvalidArgument);
}

TEST_F(FogApiTest, HostNoiseTexturesTakeSlotsAndAreGivenBack) {
  std::unique_ptr<Fog> fog = make_fog(context());
  ASSERT_TRUE(fog);
  const std::vector<uint8_t> texels(128 * 128 * 128, 200);
  EXPECT_EQ(fog->add_noise_texture(std::vector<uint8_t>(1000)).error().code, ErrorCode::kInvalidArgument);
  auto slot = fog->add_noise_texture(texels);
  ASSERT_TRUE(slot.ok()) << slot.error().to_string();
  EXPECT_EQ(slot.value(), 1u);  // after the built-in tile
  // A second one grows the atlas by a layer.
  auto second = fog->add_noise_texture(texels);
  ASSERT_TRUE(second.ok()) << second.error().to_string();
  EXPECT_EQ(second.value(), 2u);
  FogVolume v;
  v.noise_texture = slot.value();
  v.noise_strength = 1.0f;
  auto id = fog->add_volume(v);
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  EXPECT_EQ(fog->remove_noise_texture(slot.value()).error().code, ErrorCode::kInvalidArgument);  // in use
  EXPECT_EQ(fog->remove_noise_texture(0).error().code, ErrorCode::kInvalidArgument);             // built-in
  ASSERT_TRUE(fog->remove_volume(id.value()).ok());
  EXPECT_TRUE(fog->remove_noise_texture(slot.value()).ok());
  EXPECT_EQ(fog->remove_noise_texture(slot.value()).error().code, ErrorCode::kInvalidArgument);
  v.noise_texture = slot.value();
  EXPECT_EQ(fog->add_volume(v).error().where, "/noise_texture");
}

}  // namespace
}  // namespace mote
