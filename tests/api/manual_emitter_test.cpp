// The manual driver through the public API (docs/design/drivers.md, "The manual driver"): Mote
// draws exactly the uploaded records, keeps them untouched between uploads beside a GPU-driven
// emitter, replaces them on the next upload, and refuses bad input without changing anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/particle.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// A point of a helix: a spline of particles.
Particle spline_point(uint32_t i, uint32_t n, float turn) {
  const float t = float(i) / float(n) * 6.2831853f + turn;
  Particle p;
  p.position = {std::cos(t) * 2.0f, 0.01f * float(i), std::sin(t) * 2.0f};
  p.size = 0.05f + 0.001f * float(i);
  p.angle = t;
  p.color = {1.0f, 0.5f, float(i % 7) / 7.0f, 1.0f};
  p.uv_rect = {0.0f, 0.0f, 0.5f, 0.5f};
  return p;
}

bool same_bytes(const Particle& a, const Particle& b) { return std::memcmp(&a, &b, sizeof(Particle)) == 0; }

void expect_drawn_exactly(ParticleSystem& system, uint32_t row, const std::vector<Particle>& want) {
  const std::vector<Particle> drawn = drawn_particles(system, row);
  ASSERT_EQ(drawn.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(same_bytes(drawn[i], want[i])) << "record " << i;
}

TEST_F(ApiTest, AManualEmitterDrawsExactlyItsUploadedRecords) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto gpu_fire = system.add_emitter(fire, {.seed = 2});
  auto manual = system.add_manual_emitter(fire, 200, {.seed = 3});
  ASSERT_TRUE(gpu_fire.ok() && manual.ok()) << (manual.ok() ? "" : manual.error().to_string());
  EXPECT_EQ(manual->max_count(), 200u);
  std::vector<Particle> spline;
  for (uint32_t i = 0; i < 100; ++i) spline.push_back(spline_point(i, 100, 0.0f));
  ASSERT_TRUE(manual->write_range(0, spline).ok());
  ASSERT_TRUE(manual->set_count(100).ok());
  ASSERT_TRUE(manual->upload().ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  expect_drawn_exactly(system, manual->id().row, spline);
  auto count = system.read_alive_count(manual->id());
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value(), 100u);

  // No upload: the records stay bit for bit while the GPU-driven fire beside them runs.
  for (int f = 0; f < 10; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  expect_drawn_exactly(system, manual->id().row, spline);
  auto fire_count = system.read_alive_count(*gpu_fire);
  ASSERT_TRUE(fire_count.ok());
  EXPECT_GT(fire_count.value(), 0u);

  // A new upload replaces them: fewer records, moved.
  std::vector<Particle> turned;
  for (uint32_t i = 0; i < 40; ++i) turned.push_back(spline_point(i, 40, 1.0f));
  ASSERT_TRUE(manual->write_range(0, turned).ok());
  ASSERT_TRUE(manual->set(39, spline_point(7, 9, 2.0f)).ok());
  turned[39] = spline_point(7, 9, 2.0f);
  ASSERT_TRUE(manual->set_count(40).ok());
  ASSERT_TRUE(manual->upload().ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  expect_drawn_exactly(system, manual->id().row, turned);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_GE(stats->orphaned, 100u);  // the previous records, freed
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
  ASSERT_TRUE(system.execute(kDt).ok());
  expect_drawn_exactly(system, manual->id().row, turned);

  // set_count(0) and an upload: nothing drawn.
  ASSERT_TRUE(manual->set_count(0).ok());
  ASSERT_TRUE(manual->upload().ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  EXPECT_TRUE(drawn_particles(system, manual->id().row).empty());
}

TEST_F(ApiTest, AManualEmitterRefusesBadInputAndKeepsItsRecords) {
  ParticleSystem& system = make_system({.capacity = 1024, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto manual = system.add_manual_emitter(fire, 50);
  ASSERT_TRUE(manual.ok());
  ASSERT_TRUE(manual->set(3, spline_point(3, 10, 0.0f)).ok());
  ASSERT_TRUE(manual->set_count(10).ok());
  const std::vector<Particle> twenty(20, spline_point(1, 2, 0.5f));
  EXPECT_EQ(manual->set_count(51).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manual->write_range(40, twenty).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manual->write_range(0xFFFFFFF0u, twenty).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manual->set(50, spline_point(0, 1, 0.0f)).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manual->get(50).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manual->count(), 10u);
  auto kept = manual->get(3);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(same_bytes(kept.value(), spline_point(3, 10, 0.0f)));
  auto untouched = manual->get(45);  // the failed write_range wrote nothing
  ASSERT_TRUE(untouched.ok());
  EXPECT_TRUE(same_bytes(untouched.value(), Particle{}));

  // Effects whose record is not the standard particle, and bad capacities, are refused.
  const CompiledEffect rocket = load_effect("fireworks_rocket.json");
  auto wrong = system.add_manual_emitter(rocket, 10);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("particle_fields"), std::string::npos) << wrong.error().message;
  EXPECT_FALSE(system.add_manual_emitter(fire, 0).ok());
  EXPECT_FALSE(system.add_manual_emitter(fire, 1025).ok());
  EXPECT_EQ(system.swap_effect(manual->id(), rocket).error().code, ErrorCode::kInvalidArgument);

  // A swap to a standard effect keeps it manual and brings its records back under the new id.
  ASSERT_TRUE(manual->upload().ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  auto swapped = system.swap_effect(manual->id(), load_effect("smoke.json"));
  ASSERT_TRUE(swapped.ok()) << swapped.error().to_string();
  EXPECT_FALSE(manual->upload().ok()) << "the old id is stale";
  auto handle = system.manual_emitter(swapped.value());
  ASSERT_TRUE(handle.ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  auto count = system.read_alive_count(swapped.value());
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value(), 10u);

  // A GPU emitter is not a manual one; a removed manual emitter's handle refuses everything.
  auto gpu_fire = system.add_emitter(fire);
  ASSERT_TRUE(gpu_fire.ok());
  EXPECT_FALSE(system.manual_emitter(*gpu_fire).ok());
  ASSERT_TRUE(system.remove_emitter(swapped.value()).ok());
  EXPECT_FALSE(handle->set_count(1).ok());
  EXPECT_EQ(handle->count(), 0u);
  ASSERT_TRUE(system.execute(kDt).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

// The records of `row` the last frame drew, in index order (each record's size is its index's:
// spline_point gives every index its own).
std::vector<Particle> drawn_by_index(ParticleSystem& system, uint32_t row) {
  std::vector<Particle> drawn = drawn_particles(system, row);
  std::sort(drawn.begin(), drawn.end(), [](const Particle& a, const Particle& b) { return a.size < b.size; });
  return drawn;
}

void expect_drawn_in_any_order(ParticleSystem& system, uint32_t row, const std::vector<Particle>& want) {
  const std::vector<Particle> drawn = drawn_by_index(system, row);
  ASSERT_EQ(drawn.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(same_bytes(drawn[i], want[i])) << "record " << i;
}

// An upload sends what changed: the records written since the last one, and the new ones when
// the count grew; the first upload, a shrunk count, and an emitter that was inactive place all.
TEST_F(ApiTest, AManualUploadSendsOnlyWhatChanged) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto gpu_fire = system.add_emitter(fire, {.seed = 2});
  auto manual = system.add_manual_emitter(fire, 200, {.seed = 3});
  ASSERT_TRUE(gpu_fire.ok() && manual.ok());
  const uint32_t row = manual->id().row;
  std::vector<Particle> spline;
  for (uint32_t i = 0; i < 100; ++i) spline.push_back(spline_point(i, 200, 0.0f));
  uint64_t sent = system.driver_upload_bytes();
  auto upload_and_frame = [&](uint64_t expected_records) {
    ASSERT_TRUE(manual->upload().ok());
    ASSERT_TRUE(system.execute(kDt).ok());
    EXPECT_EQ(system.driver_upload_bytes() - sent, expected_records * sizeof(Particle));
    sent = system.driver_upload_bytes();
  };
  ASSERT_TRUE(manual->write_range(0, spline).ok());
  ASSERT_TRUE(manual->set_count(100).ok());
  upload_and_frame(100);
  expect_drawn_exactly(system, row, spline);

  // One record moved: one record sent, and drawn where the others stay.
  spline[7] = spline_point(7, 200, 0.5f);
  ASSERT_TRUE(manual->set(7, spline[7]).ok());
  upload_and_frame(1);
  expect_drawn_in_any_order(system, row, spline);

  // Twenty more: only they are sent, placed as newborns beside the hundred.
  for (uint32_t i = 100; i < 120; ++i) spline.push_back(spline_point(i, 200, 0.0f));
  ASSERT_TRUE(manual->write_range(100, std::span(spline).subspan(100)).ok());
  ASSERT_TRUE(manual->set_count(120).ok());
  upload_and_frame(20);
  expect_drawn_in_any_order(system, row, spline);

  // Overlapping writes go out once; an upload with nothing written sends nothing.
  for (uint32_t i = 50; i < 70; ++i) spline[i] = spline_point(i, 200, 1.0f);
  ASSERT_TRUE(manual->write_range(50, std::span(spline).subspan(50, 10)).ok());
  ASSERT_TRUE(manual->write_range(55, std::span(spline).subspan(55, 15)).ok());
  upload_and_frame(20);
  expect_drawn_in_any_order(system, row, spline);
  upload_and_frame(0);
  expect_drawn_in_any_order(system, row, spline);

  // Fewer records: all of them placed anew, replacing the others.
  spline.resize(90);
  ASSERT_TRUE(manual->set_count(90).ok());
  upload_and_frame(90);
  expect_drawn_exactly(system, row, spline);

  // Inactive, its particles are freed; active again, the next upload places them all.
  ASSERT_TRUE(system.set_active(manual->id(), false).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  EXPECT_TRUE(drawn_particles(system, row).empty());
  ASSERT_TRUE(system.set_active(manual->id(), true).ok());
  spline[3] = spline_point(3, 200, 2.0f);
  ASSERT_TRUE(manual->set(3, spline[3]).ok());
  upload_and_frame(90);
  expect_drawn_exactly(system, row, spline);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

}  // namespace
}  // namespace mote::test
