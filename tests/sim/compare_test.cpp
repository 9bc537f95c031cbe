// The bounds a FrameReport carries (measure_bounds, the one computation the reference and the
// GPU frame's reports share) and the birth-serial matcher behind mote/compare.hpp, on records
// written by hand: every way a GPU particle can disagree with its reference twin is seen.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "mote/simulation.hpp"
#include "sim/record_compare.hpp"
#include "support/effect_presets.hpp"

namespace mote {
namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// Records of 5 words: a header, then a 3-wide position at word 1, then one more word.
std::vector<uint32_t> records_of(const std::vector<std::array<float, 3>>& positions) {
  std::vector<uint32_t> words;
  for (const auto& p : positions) words.insert(words.end(), {7u, bits(p[0]), bits(p[1]), bits(p[2]), 0u});
  return words;
}

TEST(SimBounds, TheRangeOfThePositionFieldWithNanSkipped) {
  const std::vector<uint32_t> records = records_of({{1, 2, 3}, {-1, 5, kNan}, {4, -2, 0}});
  FrameReport r;
  ASSERT_TRUE(measure_bounds(records, 5, 1, r).ok());
  EXPECT_TRUE(r.has_bounds);
  EXPECT_EQ(r.bounds_min[0], -1.0f);
  EXPECT_EQ(r.bounds_min[1], -2.0f);
  EXPECT_EQ(r.bounds_min[2], 0.0f);
  EXPECT_EQ(r.bounds_max[0], 4.0f);
  EXPECT_EQ(r.bounds_max[1], 5.0f);
  EXPECT_EQ(r.bounds_max[2], 3.0f);

  // The same particles at slots 4, 0, 2 of a pool of 6 (the other slots must not count).
  std::vector<uint32_t> pool = records_of({{0, 0, 0}, {99, 99, 99}, {0, 0, 0}, {99, 99, 99}, {0, 0, 0}, {99, 99, 99}});
  const std::vector<uint32_t> slots = {4, 0, 2};
  for (size_t i = 0; i < slots.size(); ++i)
    std::copy_n(records.begin() + ptrdiff_t(i * 5), 5, pool.begin() + slots[i] * 5);
  FrameReport s;
  ASSERT_TRUE(measure_bounds(pool, 5, slots, 1, s).ok());
  EXPECT_TRUE(s.has_bounds);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(s.bounds_min[c], r.bounds_min[c]);
    EXPECT_EQ(s.bounds_max[c], r.bounds_max[c]);
  }

  FrameReport none;
  ASSERT_TRUE(measure_bounds(std::vector<uint32_t>{}, 5, 1, none).ok());
  EXPECT_FALSE(none.has_bounds);
}

TEST(SimBounds, RefusesAFieldPastTheRecordOrASlotPastThePool) {
  const std::vector<uint32_t> records = records_of({{1, 2, 3}});
  FrameReport r;
  r.alive = 42;
  EXPECT_FALSE(measure_bounds(records, 5, 3, r).ok());  // words 3..5 of a 5-word record
  EXPECT_FALSE(measure_bounds(records, 0, 0, r).ok());
  EXPECT_FALSE(measure_bounds(std::vector<uint32_t>(7, 0), 5, 1, r).ok());  // not whole records
  const std::vector<uint32_t> past = {1};
  EXPECT_FALSE(measure_bounds(records, 5, past, 1, r).ok());
  EXPECT_FALSE(r.has_bounds);  // left as it was
  EXPECT_EQ(r.alive, 42u);
}

TEST(SimBounds, TheFieldIsTheRendersPositionWhenThreeWide) {
  CompiledEffect e;
  e.program.particle_fields = {{"age", 1}, {"position", 3}, {"pos2", 2}, {"p4", 4}};
  EXPECT_EQ(bounds_field_offset(e), 2u);  // after the header and age
  e.render.position_field = "pos2";
  EXPECT_FALSE(bounds_field_offset(e).has_value());  // 2 wide: no bounds
  e.render.position_field = "p4";
  EXPECT_EQ(bounds_field_offset(e), 7u);
  e.render.position_field = "missing";
  EXPECT_FALSE(bounds_field_offset(e).has_value());
}

TEST(SimBounds, TheReferenceReportsMeasureItsAliveParticles) {
  const CompiledEffect fire = test::load_preset("fire.json");
  const std::optional<uint32_t> offset = bounds_field_offset(fire);
  ASSERT_TRUE(offset.has_value());
  Result<Simulation> sim = Simulation::create(fire, {.emitter = {.seed = 2}});
  ASSERT_TRUE(sim.ok()) << sim.error().to_string();
  for (int f = 0; f < 10; ++f) {
    Result<FrameReport> r = sim->step();
    ASSERT_TRUE(r.ok());
    FrameReport again;
    ASSERT_TRUE(measure_bounds(sim->pool(), sim->record_words(), sim->alive_slots(), *offset, again).ok());
    ASSERT_EQ(r->has_bounds, again.has_bounds);
    ASSERT_TRUE(r->has_bounds);
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(r->bounds_min[c], again.bounds_min[c]);
      EXPECT_EQ(r->bounds_max[c], again.bounds_max[c]);
    }
  }
}

// A program of fields a (1 wide) and b (2 wide): records of 4 words, compared in records of 6
// with the serial at word 4.
Program two_fields() {
  Program p;
  p.particle_fields = {{"a", 1}, {"b", 2}};
  return p;
}

std::vector<uint32_t> record(uint32_t header, float a, float b0, float b1, uint32_t serial) {
  return {header, bits(a), bits(b0), bits(b1), serial, 0u};
}

void append(std::vector<uint32_t>& to, const std::vector<uint32_t>& words) {
  to.insert(to.end(), words.begin(), words.end());
}

TEST(SimCompare, TwinsAreFoundByBirthSerialInAnyOrder) {
  Result<sim::BirthSerialMatcher> made = sim::BirthSerialMatcher::create(two_fields(), 6, 4);
  ASSERT_TRUE(made.ok()) << made.error().to_string();
  sim::BirthSerialMatcher m = std::move(made).value();
  // Frame 0: the reference spawned two, at slots 3 and 1 (serials 0 and 1); the GPU has them the
  // other way round and at other slots.
  std::vector<uint32_t> ref_pool(4 * 6, 0);
  std::copy_n(record(9, 1.0f, 2.0f, 3.0f, 0).begin(), 6, ref_pool.begin() + 3 * 6);
  std::copy_n(record(9, 4.0f, 5.0f, 6.0f, 0).begin(), 6, ref_pool.begin() + 1 * 6);
  std::vector<uint32_t> gpu;
  append(gpu, record(9, 4.0f, 5.0f, 6.0f, 1));
  append(gpu, record(9, 1.0f, 2.0f, 3.0f, 0));
  ASSERT_TRUE(m.add_frame(ref_pool, std::vector<uint32_t>{3, 1}, 2, gpu).ok());
  EXPECT_EQ(m.summary().records_compared, 2u);
  EXPECT_EQ(m.summary().unmatched, 0u);
  EXPECT_EQ(m.summary().header_mismatches, 0u);
  ASSERT_EQ(m.summary().max_deviation.size(), 2u);
  EXPECT_EQ(m.summary().max_deviation[0].field, "a");
  EXPECT_EQ(m.summary().max_deviation[1].field, "b");
  for (const FieldDeviation& d : m.summary().max_deviation) {
    EXPECT_EQ(d.abs, 0.0) << d.field;
    EXPECT_FALSE(d.nan_mismatch) << d.field;
  }

  // Frame 1: one newborn at slot 0 (serial 2), slot 1 died. The GPU's twin of serial 0 has moved
  // b.y by 0.5 (reference 3: relative 0.5 / 4), serial 2 has a NaN where the reference has none
  // and another header, and a particle of serial 7 has no twin.
  std::copy_n(record(9, 7.0f, 8.0f, 9.0f, 0).begin(), 6, ref_pool.begin());
  std::vector<uint32_t> gpu1;
  append(gpu1, record(9, 1.0f, 2.0f, 3.5f, 0));
  append(gpu1, record(10, kNan, 8.0f, 9.0f, 2));
  append(gpu1, record(9, 0.0f, 0.0f, 0.0f, 7));
  ASSERT_TRUE(m.add_frame(ref_pool, std::vector<uint32_t>{0, 3}, 1, gpu1).ok());
  const ComparisonSummary& s = m.summary();
  EXPECT_EQ(s.records_compared, 4u);
  EXPECT_EQ(s.unmatched, 1u);
  EXPECT_EQ(s.header_mismatches, 1u);
  EXPECT_EQ(s.max_deviation[0].abs, 0.0);
  EXPECT_TRUE(s.max_deviation[0].nan_mismatch);
  EXPECT_EQ(s.max_deviation[1].abs, 0.5);
  EXPECT_EQ(s.max_deviation[1].relative, 0.5 / 4.0);
  EXPECT_FALSE(s.max_deviation[1].nan_mismatch);

  // Frame 2: serial 1's slot died last frame: a GPU particle still claiming it is unmatched.
  std::vector<uint32_t> gpu2;
  append(gpu2, record(9, 4.0f, 5.0f, 6.0f, 1));
  ASSERT_TRUE(m.add_frame(ref_pool, std::vector<uint32_t>{0, 3}, 0, gpu2).ok());
  EXPECT_EQ(m.summary().unmatched, 2u);
  EXPECT_EQ(m.summary().records_compared, 4u);
}

TEST(SimCompare, RefusesLayoutsThatCannotHoldTheSerialAndTornRecords) {
  EXPECT_FALSE(sim::BirthSerialMatcher::create(two_fields(), 6, 3).ok());  // inside field b
  EXPECT_FALSE(sim::BirthSerialMatcher::create(two_fields(), 6, 6).ok());  // past the record
  EXPECT_FALSE(sim::BirthSerialMatcher::create(two_fields(), 3, 4).ok());  // a record too short
  Result<sim::BirthSerialMatcher> made = sim::BirthSerialMatcher::create(two_fields(), 6, 4);
  ASSERT_TRUE(made.ok());
  const std::vector<uint32_t> pool(2 * 6, 0);
  EXPECT_FALSE(made->add_frame(pool, std::vector<uint32_t>{}, 0, std::vector<uint32_t>(5, 0)).ok());
  EXPECT_FALSE(made->add_frame(pool, std::vector<uint32_t>{2}, 1, std::vector<uint32_t>{}).ok());
  EXPECT_EQ(made->summary().records_compared, 0u);
}

}  // namespace
}  // namespace mote
