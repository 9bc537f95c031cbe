// The reference simulation's loop: spawning (accumulator, bursts), the capacity budget, kill,
// determinism, executor parity and the pre-warm, on programs assembled from .masm text.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>

#include "mote/assembly.hpp"
#include "mote/simulation.hpp"
#include "support/spawn_probe_program.hpp"
#include "shared/vm_semantics.h"

namespace mote {
namespace {

using test::kProgram;  // tests/support/spawn_probe_program.hpp

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect make_effect(float rate, float life, uint32_t capacity) {
  Result<Program> p = assemble(kProgram);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "test";
  e.program = std::move(p).value();
  e.emitter_defaults = {bits(life), bits(rate)};
  e.emission.rate = rate;
  e.emission.capacity_hint = capacity;
  return e;
}

// Copies a field out of the simulation (empty on error; the size checks then fail).
std::vector<float> field_of(const Simulation& sim, std::string_view name) {
  Result<std::vector<float>> r = sim.field(name);
  EXPECT_TRUE(r.ok()) << name;
  return r.ok() ? std::move(r).value() : std::vector<float>{};
}

Simulation make_sim(const CompiledEffect& e, SimulationOptions o = {}) {
  Result<Simulation> s = Simulation::create(e, o);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return std::move(s).value();
}

TEST(SimSpawn, AccumulatorGivesExactCountsOverManyTicks) {
  // 30/s at 60 Hz: 0.5 a tick, exact in f32: the ticks alternate 0, 1.
  Simulation sim = make_sim(make_effect(30.0f, 100.0f, 4096));
  uint64_t total = 0;
  for (int f = 0; f < 600; ++f) {
    FrameReport r = *sim.step();
    EXPECT_EQ(r.spawned, uint32_t(f % 2)) << "frame " << f;
    total += r.spawned;
  }
  EXPECT_EQ(total, 300u);
  // A rate that is not dyadic: within one particle of rate * time after 10 s.
  Simulation sim7 = make_sim(make_effect(7.3f, 100.0f, 4096));
  total = 0;
  for (int f = 0; f < 600; ++f) total += sim7.step()->spawned;
  EXPECT_NEAR(double(total), 73.0, 1.0);
}

TEST(SimSpawn, EmitterFieldRateOverridesEmissionRate) {
  CompiledEffect e = make_effect(30.0f, 100.0f, 4096);
  e.emission.rate = 1000.0f;  // ignored: the effect declares a "rate" emitter field
  SimulationOptions o;
  o.emitter.fields = {{"rate", {120.0f}}};
  Simulation sim = make_sim(e, o);
  uint64_t total = 0;
  for (int f = 0; f < 60; ++f) total += sim.step()->spawned;
  EXPECT_EQ(total, 120u);
}

TEST(SimSpawn, BurstsFireOnTheirCycles) {
  CompiledEffect e = make_effect(0.0f, 100.0f, 4096);
  e.emission.bursts = {{0.0f, 5, 1, 0.0f}, {0.5f, 10, 3, 0.25f}};
  SimulationOptions o;
  o.dt = 1.0f / 64.0f;  // dyadic: the clock is exact and the firing ticks are known
  Simulation sim = make_sim(e, o);
  std::vector<uint32_t> spawned;
  for (int f = 0; f < 128; ++f) spawned.push_back(sim.step()->spawned);
  for (int f = 0; f < 128; ++f) {
    const uint32_t want = f == 0 ? 5 : (f == 32 || f == 48 || f == 64) ? 10 : 0;
    EXPECT_EQ(spawned[f], want) << "frame " << f;
  }
  // Forever (cycles = 0): every 0.25 s.
  e.emission.bursts = {{0.0f, 2, 0, 0.25f}};
  Simulation forever = make_sim(e, o);
  uint64_t total = 0;
  for (int f = 0; f < 256; ++f) total += forever.step()->spawned;  // 4 s: t = 0, 0.25, ..., 3.75
  EXPECT_EQ(total, 32u);
}

TEST(SimSpawn, SpawnBuiltinsDescribeTheBatch) {
  CompiledEffect e = make_effect(0.0f, 100.0f, 64);
  e.emission.bursts = {{0.0f, 5, 2, 0.5f}};
  Simulation sim = make_sim(e);
  ASSERT_EQ(sim.step()->spawned, 5u);
  std::vector<float> s = field_of(sim, "spawn");
  ASSERT_EQ(s.size(), 20u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s[i * 4 + 0], float(i));                  // SPAWN_INDEX
    EXPECT_EQ(s[i * 4 + 1], 5.0f);                      // SPAWN_COUNT
    EXPECT_EQ(s[i * 4 + 2], float(i));                  // PARTICLE_INDEX: the birth serial
    EXPECT_EQ(s[i * 4 + 3], (float(i) + 0.5f) / 5.0f);  // SPAWN_FRACTION
  }
  for (int f = 1; f < 40; ++f) ASSERT_TRUE(sim.step().ok());
  // The second burst's newborns come first in the alive list, numbered on from 5.
  s = field_of(sim, "spawn");
  ASSERT_EQ(s.size(), 40u);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(s[i * 4 + 2], float(5 + i));
}

TEST(SimSpawn, NewbornsAreNotAdvancedInTheirBirthTick) {
  CompiledEffect e = make_effect(0.0f, 100.0f, 64);
  e.emission.bursts = {{0.0f, 8, 1, 0.0f}};
  Simulation sim = make_sim(e);
  ASSERT_TRUE(sim.step().ok());
  for (float a : field_of(sim, "age")) EXPECT_EQ(a, 0.0f);
  ASSERT_TRUE(sim.step().ok());
  for (float a : field_of(sim, "age")) EXPECT_EQ(a, 1.0f / 60.0f);
}

TEST(SimBudget, CapacityIsNeverExceededAndDropsAreCounted) {
  // 600/s for 1 s lives into 50 slots.
  CompiledEffect e = make_effect(600.0f, 1.0f, 50);
  Simulation sim = make_sim(e);
  uint64_t dropped = 0, spawned = 0, killed = 0;
  for (int f = 0; f < 300; ++f) {
    FrameReport r = *sim.step();
    dropped += r.dropped;
    spawned += r.spawned;
    killed += r.killed;
    ASSERT_LE(r.alive, 50u);
    ASSERT_EQ(sim.alive_count() + sim.free_count(), sim.capacity()) << "frame " << f;
    ASSERT_EQ(r.spawned + r.dropped, 10u) << "frame " << f;  // 600/60 requested each tick
    std::set<uint32_t> slots(sim.alive_slots().begin(), sim.alive_slots().end());
    ASSERT_EQ(slots.size(), sim.alive_slots().size()) << "a slot is used twice, frame " << f;
    for (uint32_t s = 0; s < sim.capacity(); ++s) {
      const uint32_t header = sim.pool()[size_t(s) * sim.record_words()];
      if (slots.count(s)) {
        ASSERT_EQ(header_row(header), 0u);
        ASSERT_EQ(header_generation(header), 1u);
      } else {
        ASSERT_EQ(header, 0u);
      }
    }
  }
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(spawned, killed + sim.alive_count());
}

TEST(SimKill, ParticlesDieAtTheEndOfTheirLife) {
  CompiledEffect e = make_effect(0.0f, 0.5f, 64);
  e.emission.bursts = {{0.0f, 10, 1, 0.0f}};
  SimulationOptions o;
  o.dt = 1.0f / 64.0f;
  Simulation sim = make_sim(e, o);
  uint32_t killed = 0;
  for (int f = 0; f < 40; ++f) {
    FrameReport r = *sim.step();
    killed += r.killed;
    // Born on frame 0, advanced from frame 1: age reaches 0.5 on frame 32.
    EXPECT_EQ(r.alive, f < 32 ? 10u : 0u) << "frame " << f;
  }
  EXPECT_EQ(killed, 10u);
  EXPECT_EQ(sim.free_count(), 64u);
}

TEST(SimDeterminism, SameSeedIsBitIdenticalOtherSeedDiffers) {
  CompiledEffect e = make_effect(200.0f, 0.7f, 256);
  SimulationOptions o;
  o.emitter.seed = 1234;
  Simulation a = make_sim(e, o), b = make_sim(e, o);
  o.emitter.seed = 1235;
  Simulation c = make_sim(e, o);
  for (int f = 0; f < 120; ++f) {
    ASSERT_TRUE(a.step().ok());
    ASSERT_TRUE(b.step().ok());
    ASSERT_TRUE(c.step().ok());
  }
  EXPECT_EQ(a.pool(), b.pool());
  EXPECT_EQ(a.alive_slots(), b.alive_slots());
  EXPECT_NE(a.pool(), c.pool());
}

TEST(SimDeterminism, ReferenceAndBatchExecutorsGiveIdenticalRecords) {
  CompiledEffect e = make_effect(500.0f, 0.5f, 200);
  e.emission.bursts = {{0.1f, 50, 0, 0.3f}};
  SimulationOptions o;
  o.emitter.seed = 99;
  o.emitter.position[0] = 3.0f;
  o.emitter.rotation[1] = std::sin(0.4f);
  o.emitter.rotation[3] = std::cos(0.4f);
  Simulation ref = make_sim(e, o);
  o.executor = SimulationExecutor::kBatch;
  Simulation bat = make_sim(e, o);
  for (int f = 0; f < 90; ++f) {
    FrameReport r1 = *ref.step(), r2 = *bat.step();
    ASSERT_EQ(r1.alive, r2.alive);
    ASSERT_EQ(r1.dropped, r2.dropped);
    ASSERT_EQ(ref.pool(), bat.pool()) << "frame " << f;
  }
}

TEST(SimDeterminism, RngBaseFormula) {
  EXPECT_EQ(simulation_rng_base(7, 3, 1), shader::vm_hash3(7, 3, kRngSalt + 1));
  EXPECT_NE(simulation_rng_base(7, 3, 0), simulation_rng_base(7, 3, 1));
  EXPECT_NE(simulation_rng_base(7, 3, 0), simulation_rng_base(7, 4, 0));
}

TEST(SimWarmup, ScheduleStretchesTicksAndJitterKeepsTheMean) {
  WarmupSchedule w = warmup_schedule(2.0f);
  EXPECT_EQ(w.ticks, kWarmupMaxTicks);
  EXPECT_FLOAT_EQ(w.tick_seconds, 2.0f / float(kWarmupMaxTicks));
  w = warmup_schedule(0.5f);
  EXPECT_EQ(w.ticks, 30u);
  EXPECT_FLOAT_EQ(w.tick_seconds, 0.5f / 30.0f);
  EXPECT_EQ(warmup_schedule(0.0f).ticks, 0u);
  double mean = 0.0;
  for (uint32_t b = 0; b < kWarmupDtBuckets; ++b) {
    const float dt = warmup_particle_dt(0.1f, b);
    EXPECT_GE(dt, 0.1f * (1.0f - kWarmupDtJitter));
    EXPECT_LE(dt, 0.1f * (1.0f + kWarmupDtJitter));
    mean += dt / kWarmupDtBuckets;
  }
  EXPECT_NEAR(mean, 0.1, 1e-6);
  // The buckets are a hash of (slot, tick): every level is used, roughly evenly.
  uint32_t hist[kWarmupDtBuckets] = {};
  for (uint32_t s = 0; s < 8000; ++s) ++hist[warmup_dt_bucket(s, 5)];
  for (uint32_t h : hist) EXPECT_NEAR(double(h), 1000.0, 150.0);
  EXPECT_NE(warmup_dt_bucket(17, 1), warmup_dt_bucket(17, 2) + kWarmupDtBuckets);  // a hash, sanity
}

TEST(SimWarmup, PrewarmReachesTheSteadyStateWithoutBands) {
  CompiledEffect e = make_effect(100.0f, 1.0f, 1024);
  e.emission.prewarm_seconds = 2.0f;
  Simulation warm = make_sim(e);
  EXPECT_EQ(warm.warmup().ticks, kWarmupMaxTicks);
  EXPECT_NEAR(warm.emitter_age(), 2.0f, 1e-4f);
  // Steady state: rate x life = 100 alive.
  EXPECT_NEAR(double(warm.alive_count()), 100.0, 15.0);
  SimulationOptions cold_options;
  cold_options.prewarm = false;
  Simulation cold = make_sim(e, cold_options);
  for (int f = 0; f < 120; ++f) ASSERT_TRUE(cold.step().ok());
  EXPECT_NEAR(double(warm.alive_count()), double(cold.alive_count()), 15.0);
  // Ages spread over (0, life) instead of one value per warm-up tick.
  std::vector<float> ages = field_of(warm, "age");
  std::set<float> distinct(ages.begin(), ages.end());
  // Unjittered, particles born in one tick would share one age: at most life / tick (32)
  // distinct values survive. Jittered, nearly every particle has its own.
  const double birth_ticks = 1.0 / double(warm.warmup().tick_seconds);
  EXPECT_GT(double(distinct.size()), 2.0 * birth_ticks);
  EXPECT_GT(double(distinct.size()), 0.7 * double(ages.size()));
  double mean_age = 0.0;
  for (float a : ages) mean_age += a / double(ages.size());
  EXPECT_NEAR(mean_age, 0.5, 0.1);
  // The frame loop continues from the warmed state.
  FrameReport r = *warm.step();
  EXPECT_NEAR(double(r.alive), 100.0, 15.0);
  EXPECT_NEAR(r.emitter_age, 2.0f + 1.0f / 60.0f, 1e-4f);
}

TEST(SimErrors, BadOptionsAreErrorsNotCrashes) {
  CompiledEffect e = make_effect(10.0f, 1.0f, 64);
  SimulationOptions o;
  o.emitter.fields = {{"nope", {1.0f}}};
  Result<Simulation> s = Simulation::create(e, o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kNotFound);
  o = {};
  o.dt = 0.0f;
  EXPECT_FALSE(Simulation::create(e, o).ok());
  o = {};
  o.record_words = 3;
  EXPECT_FALSE(Simulation::create(e, o).ok());
  e.emission.capacity_hint = 0;
  EXPECT_FALSE(Simulation::create(e, {}).ok());
}

}  // namespace
}  // namespace mote
