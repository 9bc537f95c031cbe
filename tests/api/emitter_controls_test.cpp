// The runtime controls of an emitter through the public API (docs/design/drivers.md, "Runtime
// controls"): pause keeps the particles bit for bit while the others run, stop lets them finish,
// inactive frees them and costs nothing, the constant pose moves the newborns, the alive count.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// Each emitter row's records (header and all), keyed by pool slot, from the last frame.
std::map<uint32_t, std::vector<uint32_t>> records_of(ParticleSystem& system, EmitterId id) {
  std::map<uint32_t, std::vector<uint32_t>> out;
  auto alive = system.read_alive_records();
  EXPECT_TRUE(alive.ok());
  if (!alive.ok()) return out;
  const AliveRecords& r = alive.value();
  for (size_t i = 0; i < r.slots.size(); ++i) {
    const uint32_t* record = r.records.data() + i * r.record_words;
    if (header_row(record[0]) != id.row) continue;
    out[r.slots[i]] = std::vector<uint32_t>(record, record + r.record_words);
  }
  return out;
}

void run(ParticleSystem& system, int frames) {
  for (int f = 0; f < frames; ++f) ASSERT_TRUE(system.execute(kDt).ok());
}

void expect_pool_whole(ParticleSystem& system) {
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

// A paused emitter beside a running one, with one program (a plain walk of the list) and with two
// (the coherence buckets): the paused emitter's records stay exactly as they were, its clock and
// spawn count stand, its particles are still in the list (drawn); the other keeps moving. Resumed,
// it spawns and moves again from where it stood.
void pause_test(ParticleSystem& system, const CompiledEffect& paused_effect, const CompiledEffect& running_effect) {
  auto paused = system.add_emitter(paused_effect, {.seed = 11});
  auto running = system.add_emitter(running_effect, {.seed = 12, .position = {3.0f, 0.0f, 0.0f}});
  ASSERT_TRUE(paused.ok() && running.ok());
  run(system, 20);
  // With compiled simulate, the kernels (built from the same simulate.comp) run what follows.
  ASSERT_TRUE(system.wait_for_kernels().ok());
  run(system, 1);
  ASSERT_TRUE(system.set_paused(*paused, true).ok());
  run(system, 1);
  const auto frozen = records_of(system, *paused);
  const auto moving = records_of(system, *running);
  auto state = system.read_emitter_state(*paused);
  ASSERT_TRUE(state.ok());
  ASSERT_FALSE(frozen.empty());
  EXPECT_EQ(state->newborns, 0u);
  ASSERT_TRUE(system.burst(*paused, 5).ok());  // waits for the resume
  run(system, 15);
  EXPECT_EQ(records_of(system, *paused), frozen) << "a paused emitter's particles changed";
  EXPECT_NE(records_of(system, *running), moving);
  auto later = system.read_emitter_state(*paused);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->age, state->age);
  EXPECT_EQ(later->spawned, state->spawned);
  auto count = system.read_alive_count(*paused);
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value(), frozen.size());
  expect_pool_whole(system);

  ASSERT_TRUE(system.set_paused(*paused, false).ok());
  run(system, 1);
  auto resumed = system.read_emitter_state(*paused);
  ASSERT_TRUE(resumed.ok());
  EXPECT_FLOAT_EQ(resumed->age, state->age + kDt);
  EXPECT_GE(resumed->newborns, 5u);  // the queued burst at least
  EXPECT_NE(records_of(system, *paused), frozen);
  expect_pool_whole(system);
}

TEST_F(ApiTest, APausedEmitterKeepsItsParticlesExactlyWithOneProgram) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  pause_test(system, fire, fire);
}

TEST_F(ApiTest, APausedEmitterKeepsItsParticlesExactlyWithTwoPrograms) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  pause_test(system, load_effect("fire.json"), load_effect("sparkles.json"));
}

TEST_F(ApiTest, AnInterpretedPausedEmitterKeepsItsParticlesExactly) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4, .compiled_simulate = false});
  pause_test(system, load_effect("fire.json"), load_effect("sparkles.json"));
}

// Stopped: nothing from the rate, the clock runs, the particles finish their lives (fire lives at
// most 0.8 s), burst() still spawns exactly its count; resumed, the rate spawns again.
TEST_F(ApiTest, AStoppedEmitterLetsItsParticlesFinish) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  auto id = system.add_emitter(load_effect("fire.json"), {.seed = 4});
  ASSERT_TRUE(id.ok());
  run(system, 30);
  auto alive = system.read_alive_count(*id);
  ASSERT_TRUE(alive.ok());
  ASSERT_GT(alive.value(), 20u);
  ASSERT_TRUE(system.set_emitting(*id, false).ok());
  auto before = system.read_emitter_state(*id);
  ASSERT_TRUE(before.ok());
  uint32_t last = alive.value();
  for (int f = 0; f < 60; ++f) {
    ASSERT_TRUE(system.execute(kDt).ok());
    auto state = system.read_emitter_state(*id);
    ASSERT_TRUE(state.ok());
    EXPECT_EQ(state->newborns, 0u) << "frame " << f;
    auto count = system.read_alive_count(*id);
    ASSERT_TRUE(count.ok());
    EXPECT_LE(count.value(), last) << "frame " << f;
    last = count.value();
  }
  EXPECT_EQ(last, 0u) << "the particles did not finish";
  auto after = system.read_emitter_state(*id);
  ASSERT_TRUE(after.ok());
  EXPECT_NEAR(after->age, before->age + 60.0f * kDt, 1e-4f);  // the clock ran on
  ASSERT_TRUE(system.burst(*id, 7).ok());
  run(system, 1);
  auto burst = system.read_emitter_state(*id);
  ASSERT_TRUE(burst.ok());
  EXPECT_EQ(burst->newborns, 7u);
  ASSERT_TRUE(system.set_emitting(*id, true).ok());
  run(system, 2);
  auto resumed = system.read_emitter_state(*id);
  ASSERT_TRUE(resumed.ok());
  EXPECT_GT(resumed->spawned, burst->spawned);
  expect_pool_whole(system);
}

// Inactive: the particles are freed at the next frame (as orphans), nothing spawns, the clock
// stands, the other emitter is untouched; active again, it spawns.
TEST_F(ApiTest, AnInactiveEmitterHoldsNothingAndCostsNothing) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto off = system.add_emitter(fire, {.seed = 1});
  auto on = system.add_emitter(fire, {.seed = 2});
  ASSERT_TRUE(off.ok() && on.ok());
  run(system, 20);
  auto held = system.read_alive_count(*off);
  ASSERT_TRUE(held.ok());
  ASSERT_GT(held.value(), 0u);
  ASSERT_TRUE(system.set_active(*off, false).ok());
  run(system, 1);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->orphaned, held.value());
  auto state = system.read_emitter_state(*off);
  ASSERT_TRUE(state.ok());
  for (int f = 0; f < 10; ++f) {
    ASSERT_TRUE(system.execute(kDt).ok());
    auto count = system.read_alive_count(*off);
    ASSERT_TRUE(count.ok());
    EXPECT_EQ(count.value(), 0u);
    auto other = system.read_alive_count(*on);
    ASSERT_TRUE(other.ok());
    EXPECT_GT(other.value(), 0u);
    expect_pool_whole(system);
  }
  auto later = system.read_emitter_state(*off);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->age, state->age);
  EXPECT_EQ(later->spawned, state->spawned);
  ASSERT_TRUE(system.set_active(*off, true).ok());
  run(system, 3);
  auto back = system.read_alive_count(*off);
  ASSERT_TRUE(back.ok());
  EXPECT_GT(back.value(), 0u);
}

// The constant pose moves the newborns (fire spawns at a point: the emitter's position); bad
// values, a transform-placed emitter and a stale id are refused.
TEST_F(ApiTest, SetEmitterPositionMovesTheNewborns) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4, .max_transforms = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto id = system.add_emitter(fire, {.seed = 9});
  ASSERT_TRUE(id.ok());
  run(system, 5);
  ASSERT_TRUE(system.set_emitter_position(*id, {10.0f, -2.0f, 4.0f}).ok());
  run(system, 1);
  auto state = system.read_emitter_state(*id);
  ASSERT_TRUE(state.ok());
  ASSERT_GT(state->newborns, 0u);
  auto alive = system.read_alive_records();
  ASSERT_TRUE(alive.ok());
  // This frame's newborns come first in the list; fire's position is record words 1..3.
  for (uint32_t i = 0; i < state->newborns; ++i) {
    const uint32_t* record = alive->records.data() + size_t(i) * alive->record_words;
    EXPECT_FLOAT_EQ(std::bit_cast<float>(record[1]), 10.0f);
    EXPECT_FLOAT_EQ(std::bit_cast<float>(record[2]), -2.0f);
    EXPECT_FLOAT_EQ(std::bit_cast<float>(record[3]), 4.0f);
  }
  const float nan = std::nanf("");
  EXPECT_EQ(system.set_emitter_position(*id, {nan, 0.0f, 0.0f}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.set_emitter_pose(*id, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}).error().code,
            ErrorCode::kInvalidArgument);
  auto transform = system.add_transform();
  ASSERT_TRUE(transform.ok());
  auto placed = system.add_emitter(fire, {.transform = *transform});
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(system.set_emitter_position(*placed, {1.0f, 0.0f, 0.0f}).error().code, ErrorCode::kInvalidArgument);
  ASSERT_TRUE(system.remove_emitter(*id).ok());
  EXPECT_FALSE(system.set_emitter_position(*id, {1.0f, 0.0f, 0.0f}).ok());
  EXPECT_FALSE(system.set_paused(*id, true).ok());
  EXPECT_FALSE(system.read_alive_count(*id).ok());
}

}  // namespace
}  // namespace mote::test
