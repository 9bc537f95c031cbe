// The volumes on the host (src/media/volume_table.cpp): the phase advance (units, wrap,
// continuity over a simulated week, a change of wind), the checks, the row and the table.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>

#include "media/volume_table.hpp"

namespace mote::media {
namespace {

// The wrapped distance from a to b, in (-0.5, 0.5].
double wrapped_delta(double a, double b) {
  double d = b - a;
  return d - std::round(d);
}

TEST(NoisePhase, MovesAgainstTheVelocityInTileUnits) {
  NoisePhase phase;
  EXPECT_TRUE(advance_noise_phase(phase, {1.0, 0.0, -2.0}, 1.0, 32.0));
  // 1 m/s for 1 s on 32 m tiles: 1/32 of a tile, subtracted (the field is carried along +x).
  EXPECT_DOUBLE_EQ(phase.base[0], 1.0 - 1.0 / 32.0);
  EXPECT_DOUBLE_EQ(phase.base[1], 0.0);
  EXPECT_DOUBLE_EQ(phase.base[2], 2.0 / 32.0);
  const double warp_rate = double(shader::kMediaWarpSpeedRatio) * double(shader::kMediaWarpFrequency);
  EXPECT_NEAR(phase.warp[0], 1.0 - warp_rate / 32.0, 1e-15);
  EXPECT_NEAR(phase.warp[2], 2.0 * warp_rate / 32.0, 1e-15);
  EXPECT_FALSE(advance_noise_phase(phase, {0.0, 0.0, 0.0}, 1.0, 32.0));
  EXPECT_DOUBLE_EQ(phase.base[0], 1.0 - 1.0 / 32.0);
}

TEST(NoisePhase, WrapStaysInTheUnitInterval) {
  EXPECT_EQ(wrap_phase(-1e-18), 0.0);  // 1 - 1e-18 rounds to 1: wrapped to 0
  EXPECT_DOUBLE_EQ(wrap_phase(2.25), 0.25);
  EXPECT_DOUBLE_EQ(wrap_phase(-0.25), 0.75);
  NoisePhase phase;
  for (int i = 0; i < 1000; ++i) {
    advance_noise_phase(phase, {1e4, -3.3e3, 7.0}, 0.016, 0.5);
    for (double p : phase.base) ASSERT_TRUE(p >= 0.0 && p < 1.0) << p;
    for (double p : phase.warp) ASSERT_TRUE(p >= 0.0 && p < 1.0) << p;
  }
}

TEST(NoisePhase, AWeekOfFramesNeitherDriftsNorGrows) {
  // 64 Hz for 7 days with steps that are exact in binary: the running sum equals the closed form
  // exactly, and every frame moves by exactly one step.
  const uint64_t frames = uint64_t(7) * 24 * 3600 * 64;
  const double dt = 1.0 / 64.0, scale = 32.0, speed = 0.75;  // one step = 3 / 8192 of a tile
  NoisePhase phase;
  double previous = phase.base[0];
  for (uint64_t i = 0; i < frames; ++i) {
    advance_noise_phase(phase, {speed, 0.0, 0.0}, dt, scale);
    if (wrapped_delta(previous, phase.base[0]) != -3.0 / 8192.0) FAIL() << "a jump at frame " << i;
    previous = phase.base[0];
  }
  const uint64_t ticks = (frames * 3) % 8192;  // 3/8192 of a tile a frame, subtracted
  EXPECT_EQ(phase.base[0], ticks == 0 ? 0.0 : 1.0 - double(ticks) / 8192.0);
  // At a rate that is not exact (60 Hz, 0.37 m/s) the sum stays within a micro-tile of the
  // closed form after the same week.
  NoisePhase inexact;
  const uint64_t frames_60 = uint64_t(7) * 24 * 3600 * 60;
  for (uint64_t i = 0; i < frames_60; ++i) advance_noise_phase(inexact, {0.37, 0.0, 0.0}, 1.0 / 60.0, 32.0);
  const double closed = wrap_phase(-std::fmod(double(frames_60) * 0.37 / 60.0 / 32.0, 1.0));
  EXPECT_LT(std::abs(wrapped_delta(closed, inexact.base[0])), 1e-6);
}

TEST(NoisePhase, AChangeOfWindNeverJumpsTheField) {
  VolumeTable table;
  VolumeParams p;
  p.noise_scale = 16.0f;
  p.noise_wind_factor = 0.5f;
  p.noise_velocity = {0.0f, 1.0f, 0.0f};
  const VolumeHandle h = table.add(p).value();
  table.advance({4.0, 0.0, 0.0}, 0.5);
  const NoisePhase before = *table.phase(h);
  EXPECT_DOUBLE_EQ(before.base[0], 1.0 - 0.5 * 4.0 * 0.5 / 16.0);
  EXPECT_DOUBLE_EQ(before.base[1], 1.0 - 1.0 * 0.5 / 16.0);
  // The wind turns round: the next frame moves by the new velocity's step from where it was.
  table.advance({-4.0, 0.0, 0.0}, 0.5);
  EXPECT_DOUBLE_EQ(wrapped_delta(before.base[0], table.phase(h)->base[0]), 0.5 * 4.0 * 0.5 / 16.0);
  EXPECT_DOUBLE_EQ(wrapped_delta(before.base[1], table.phase(h)->base[1]), -0.5 / 16.0);
}

bool only_slot_zero(uint32_t slot) { return slot == 0; }

TEST(Volume, ChecksRefuseBadInputWithTheField) {
  VolumeParams good;
  good.transform = glm::scale(glm::mat4(1.0f), glm::vec3(4.0f, 2.0f, 4.0f));
  EXPECT_TRUE(check_volume(good, only_slot_zero, "/volumes/0").ok());
  auto where = [&](VolumeParams p) { return check_volume(p, only_slot_zero, "/volumes/0").error().where; };
  VolumeParams p = good;
  p.transform[3][1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(where(p), "/volumes/0/transform");
  p = good;
  p.transform[1] = glm::vec4(0.0f);
  EXPECT_EQ(where(p), "/volumes/0/transform");  // flat
  p = good;
  p.transform[0][3] = 1.0f;
  EXPECT_EQ(where(p), "/volumes/0/transform");  // projective
  p = good;
  p.density = -0.1f;
  EXPECT_EQ(where(p), "/volumes/0/density");
  p = good;
  p.density = std::numeric_limits<float>::infinity();
  EXPECT_EQ(where(p), "/volumes/0/density");
  p = good;
  p.albedo.g = 1.5f;
  EXPECT_EQ(where(p), "/volumes/0/albedo");
  p = good;
  p.noise_strength = 1.01f;
  EXPECT_EQ(where(p), "/volumes/0/noise_strength");
  p = good;
  p.noise_scale = 0.0f;
  EXPECT_EQ(where(p), "/volumes/0/noise_scale");
  p = good;
  p.noise_velocity.z = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(where(p), "/volumes/0/noise_velocity");
  p = good;
  p.noise_texture = 3;
  EXPECT_EQ(where(p), "/volumes/0/noise_texture");
  EXPECT_EQ(check_volume(p, only_slot_zero, "").error().code, ErrorCode::kInvalidArgument);
}

TEST(Volume, RowCarriesTheBoxItsBoundsAndThePhases) {
  VolumeParams p;
  p.transform = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(1.0f, 2.0f, 3.0f)), glm::radians(90.0f),
                            glm::vec3(0.0f, 1.0f, 0.0f)) *
                glm::scale(glm::mat4(1.0f), glm::vec3(4.0f, 2.0f, 6.0f));
  p.density = 0.25f;
  p.fade_distance = 0.5f;
  p.noise_strength = 0.75f;
  p.noise_scale = 8.0f;
  p.noise_warp = 0.2f;
  p.noise_texture = 0;
  NoisePhase phase;
  phase.base = {0.25, 0.5, 0.125};
  phase.warp = {0.5, 0.0, 0.75};
  const shader::MediaVolume v = make_volume_row(p, phase);
  // Turned 90 degrees about +Y: the 4 m side lies along z, the 6 m side along x.
  EXPECT_NEAR(v.bounds_min.x, 1.0f - 3.0f, 1e-5f);
  EXPECT_NEAR(v.bounds_max.x, 1.0f + 3.0f, 1e-5f);
  EXPECT_NEAR(v.bounds_min.z, 3.0f - 2.0f, 1e-5f);
  EXPECT_NEAR(v.bounds_max.y, 3.0f, 1e-5f);
  EXPECT_FLOAT_EQ(v.bounds_min.w, 0.5f);
  EXPECT_FLOAT_EQ(v.bounds_max.w, 0.25f);
  EXPECT_NEAR(v.edge_scale.x, 4.0f, 1e-5f);
  EXPECT_NEAR(v.edge_scale.z, 6.0f, 1e-5f);
  EXPECT_FLOAT_EQ(v.edge_scale.w, 1.0f / 8.0f);
  EXPECT_FLOAT_EQ(v.albedo.w, 0.75f);
  EXPECT_EQ(v.noise_offset, glm::vec4(0.25f, 0.5f, 0.125f, 0.2f));
  EXPECT_EQ(v.noise_warp_offset, glm::vec4(0.5f, 0.0f, 0.75f, 0.0f));
  // world_to_local takes the box's corner to (0.5, 0.5, 0.5).
  const glm::vec3 corner = glm::vec3(p.transform * glm::vec4(0.5f, 0.5f, 0.5f, 1.0f));
  const glm::vec3 local = shader::media_local(v, corner);
  EXPECT_NEAR(local.x, 0.5f, 1e-5f);
  EXPECT_NEAR(local.y, 0.5f, 1e-5f);
  EXPECT_NEAR(local.z, 0.5f, 1e-5f);
}

TEST(Volume, TableHandsOutGenerationsAndPacksLiveRows) {
  VolumeTable table(2);
  VolumeParams a, b;
  a.density = 1.0f;
  b.density = 2.0f;
  const VolumeHandle ha = table.add(a).value();
  const VolumeHandle hb = table.add(b).value();
  EXPECT_EQ(table.add(a).error().code, ErrorCode::kInvalidArgument);  // full at 2
  table.advance({1.0, 0.0, 0.0}, 1.0);
  ASSERT_TRUE(table.remove(ha).ok());
  EXPECT_EQ(table.remove(ha).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(table.find(ha), nullptr);
  const VolumeHandle hc = table.add(a).value();
  EXPECT_EQ(hc.index, ha.index);            // the slot is reused ...
  EXPECT_NE(hc.generation, ha.generation);  // ... under a new generation
  EXPECT_EQ(table.set(ha, b).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(table.phase(hc)->base[0], 0.0);  // a new volume starts at phase 0
  // set keeps the phases.
  const double moved = table.phase(hb)->base[0];
  EXPECT_NE(moved, 0.0);
  b.density = 3.0f;
  ASSERT_TRUE(table.set(hb, b).ok());
  EXPECT_EQ(table.phase(hb)->base[0], moved);
  const std::vector<shader::MediaVolume> rows = table.rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FLOAT_EQ(rows[0].bounds_max.w, 1.0f);  // slot order: hc (slot 0), then hb
  EXPECT_FLOAT_EQ(rows[1].bounds_max.w, 3.0f);
  EXPECT_TRUE(table.uses_slot(0));
  EXPECT_FALSE(table.uses_slot(1));
}

}  // namespace
}  // namespace mote::media
