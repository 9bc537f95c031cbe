// The GPU frame (src/runtime_frame/) on lavapipe with validation on: lifecycle (rate, bursts,
// death, budget, removal), the pool invariant over hundreds of frames, and parity with the
// reference simulation (include/mote/simulation.hpp) on the fire preset.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <limits>
#include <set>
#include <sstream>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "runtime/frame/particle_system.hpp"
#include "sim/emission.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"
#include "support/random_life_program.hpp"
#include "support/spawn_probe_program.hpp"

namespace mote {
namespace {

using runtime::FrameStats;
using runtime::ParticleSystem;
using runtime::ParticleSystemOptions;

using test::kProgram;            // tests/support/spawn_probe_program.hpp
using test::kRandomLifeProgram;  // tests/support/random_life_program.hpp
using test::load_preset;         // tests/support/effect_presets.hpp

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kSerialWord = 31;  // past every test program's fields, inside 32 words

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect make_effect(const char* text, float rate, float life, uint32_t capacity = 1024) {
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "test";
  e.program = std::move(p).value();
  e.emitter_defaults = {bits(life), bits(rate)};
  e.emission.rate = rate;
  e.emission.capacity_hint = capacity;
  return e;
}

class ParticleSystemTest : public test::GpuTest {
 protected:
  ParticleSystem make_system(uint32_t capacity, uint32_t serial_word = kSerialWord, bool compiled_simulate = true,
                             bool compile_in_background = false) {
    auto s = ParticleSystem::create(device(), {.capacity = capacity,
                                               .record_words = 32,
                                               .max_emitters = 16,
                                               .serial_word = serial_word,
                                               .compiled_simulate = compiled_simulate,
                                               .compile_in_background = compile_in_background});
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? std::move(s).value() : ParticleSystem{};
  }
  // Simulate on the fast interpreter, on the compiled kernel, or on the interpreter until the
  // kernel built in the background arrives.
  enum class Simulate { kInterpreted, kCompiled, kCompiledInBackground };
  void check_fire_against_reference(Simulate simulate);
  uint32_t add(ParticleSystem& s, const CompiledEffect& e, EmitterDesc o = {}) {
    auto r = s.add_emitter(e, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? r.value() : 0;
  }
  FrameStats step(ParticleSystem& s, float dt = kDt) {
    Status st = s.execute(dt);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
    auto r = s.read_stats();
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? r.value() : FrameStats{};
  }
  // alive + free == capacity, every slot in exactly one of the lists, live headers non-zero
  // and free headers zero.
  void expect_invariant(ParticleSystem& s, int frame) {
    auto alive = s.read_alive_slots();
    auto free = s.read_free_slots();
    auto pool = s.read_pool();
    ASSERT_TRUE(alive.ok() && free.ok() && pool.ok());
    ASSERT_EQ(alive.value().size() + free.value().size(), s.capacity()) << "frame " << frame;
    std::vector<uint8_t> seen(s.capacity(), 0);
    for (uint32_t slot : alive.value()) {
      ASSERT_LT(slot, s.capacity()) << "frame " << frame;
      ASSERT_EQ(seen[slot]++, 0) << "slot " << slot << " twice, frame " << frame;
      ASSERT_NE(pool.value()[size_t(slot) * s.record_words()], 0u) << "live slot with header 0, frame " << frame;
    }
    for (uint32_t slot : free.value()) {
      ASSERT_LT(slot, s.capacity()) << "frame " << frame;
      ASSERT_EQ(seen[slot]++, 0) << "slot " << slot << " in both lists or free twice, frame " << frame;
      ASSERT_EQ(pool.value()[size_t(slot) * s.record_words()], 0u) << "free slot with a header, frame " << frame;
    }
  }
};

TEST_F(ParticleSystemTest, RateSpawnsMatchTheReferenceAccumulatorAndDieAtEndOfLife) {
  // 90/s at 60 Hz = 1.5 a frame: 1, 2, 1, 2, ... ; life 0.25 s.
  const CompiledEffect effect = make_effect(kProgram, 90.0f, 0.25f);
  ParticleSystem system = make_system(1024);
  add(system, effect, {.seed = 3});
  Result<Simulation> sim =
      Simulation::create(effect, {.dt = kDt, .emitter = {.seed = 3}, .capacity = 1024, .record_words = 32});
  ASSERT_TRUE(sim.ok());
  uint32_t total = 0;
  for (int f = 0; f < 120; ++f) {
    const FrameStats g = step(system);
    Result<FrameReport> r = sim.value().step();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(g.newborns, r.value().spawned) << "frame " << f;
    EXPECT_EQ(g.killed, r.value().killed) << "frame " << f;
    EXPECT_EQ(g.alive, r.value().alive) << "frame " << f;
    EXPECT_EQ(g.dropped, 0u);
    EXPECT_EQ(g.alive + g.free_count, 1024u);
    total += g.newborns;
  }
  EXPECT_EQ(total, 180u);  // 1.5 x 120
  // 0.25 s of life at 60 Hz: ~15 frames x 1.5 a frame alive at once, and deaths happened.
  const FrameStats last = step(system);
  EXPECT_GE(last.alive, 20u);
  EXPECT_LE(last.alive, 26u);
}

TEST_F(ParticleSystemTest, SpawnBuiltinsAndBirthSerials) {
  const CompiledEffect effect = make_effect(kProgram, 0.0f, 100.0f);
  ParticleSystem system = make_system(256);
  const uint32_t row = add(system, effect);
  ASSERT_TRUE(system.burst(row, 5).ok());
  FrameStats a = step(system);
  EXPECT_EQ(a.newborns, 5u);
  ASSERT_TRUE(system.burst(row, 3).ok());
  ASSERT_TRUE(system.burst(row, 4).ok());  // merged on the host: one batch of 7
  FrameStats b = step(system);
  EXPECT_EQ(b.newborns, 7u);
  EXPECT_EQ(b.alive, 12u);
  auto pool = system.read_pool().value();
  auto alive = system.read_alive_slots().value();
  std::set<uint32_t> serials;
  for (uint32_t slot : alive) {
    const uint32_t* rec = pool.data() + size_t(slot) * 32;
    EXPECT_EQ(rec[0], encode_particle_header(row, system.generation(row)));
    const uint32_t serial = rec[kSerialWord];
    serials.insert(serial);
    // spawn = (SPAWN_INDEX, SPAWN_COUNT, PARTICLE_INDEX, SPAWN_FRACTION) at birth (record words 6..9).
    const float index = std::bit_cast<float>(rec[6]);
    const float count = std::bit_cast<float>(rec[7]);
    EXPECT_EQ(std::bit_cast<float>(rec[8]), float(serial));
    EXPECT_EQ(count, serial < 5 ? 5.0f : 7.0f);
    EXPECT_EQ(index, float(serial < 5 ? serial : serial - 5));
    // SPAWN_FRACTION is a GPU division: 3 ULP, the ISA table's LOAD_BUILTIN bound (the H200's
    // division is not correctly rounded).
    const float fraction = (index + 0.5f) / count;
    EXPECT_NEAR(std::bit_cast<float>(rec[9]), fraction, 3.0f * std::numeric_limits<float>::epsilon() * fraction);
  }
  EXPECT_EQ(serials, (std::set<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

// INIT writes only a field at words 4..5 (chunk 1), so the compiled emit's window holds neither
// the header (chunk 0) nor the serial (word 9, chunk 2): their invocations write those chunks
// whole, and the rest of the record is zero.
TEST_F(ParticleSystemTest, NewbornRecordsWhenTheWindowHoldsNeitherHeaderNorSerial) {
  const CompiledEffect effect = make_effect(R"(
.registers 4
.particle pad 3
.particle value 2
.emitter life 1
.emitter rate 1

.init
  LOAD_BUILTIN r0.x, SPAWN_INDEX
  ADD r1.x, r0.x, 100.0
  STORE_FIELD @value, r0.xy

.update
  LOAD_FIELD r1.xy, @value
  ADD r1.x, r1.x, 1.0
  STORE_FIELD @value, r1.xy
)",
                                            0.0f, 100.0f);
  for (bool compiled : {true, false}) {
    ParticleSystem system = make_system(256, /*serial_word=*/9, compiled);
    const uint32_t row = add(system, effect);
    ASSERT_TRUE(system.burst(row, 70).ok());  // more than one workgroup of newborns
    const FrameStats g = step(system);
    ASSERT_EQ(g.newborns, 70u);
    auto pool = system.read_pool().value();
    auto alive = system.read_alive_slots().value();
    ASSERT_EQ(alive.size(), 70u);
    for (uint32_t slot : alive) {
      const uint32_t* rec = pool.data() + size_t(slot) * 32;
      const uint32_t serial = rec[9];
      ASSERT_LT(serial, 70u);
      EXPECT_EQ(rec[0], encode_particle_header(row, system.generation(row))) << "slot " << slot;
      EXPECT_EQ(std::bit_cast<float>(rec[4]), float(serial)) << "slot " << slot;
      EXPECT_EQ(std::bit_cast<float>(rec[5]), float(serial) + 100.0f) << "slot " << slot;
      for (uint32_t w : {1u, 2u, 3u, 6u, 7u, 8u, 10u, 11u, 12u, 20u, 31u})
        EXPECT_EQ(rec[w], 0u) << "slot " << slot << " word " << w;
    }
    EXPECT_EQ(system.compiled_kernel_count(), compiled ? 2u : 0u);
  }
}

TEST_F(ParticleSystemTest, BurstAddsToTheRateThroughTheSameBudget) {
  const CompiledEffect effect = make_effect(kProgram, 60.0f, 100.0f);  // 1 a frame
  ParticleSystem system = make_system(128);
  const uint32_t row = add(system, effect);
  for (int f = 0; f < 3; ++f) EXPECT_EQ(step(system).newborns, 1u);
  ASSERT_TRUE(system.burst(row, 50).ok());
  FrameStats b = step(system);
  EXPECT_EQ(b.newborns, 51u);
  EXPECT_EQ(b.alive, 54u);
  // A burst larger than what is free is clamped and the rest dropped, not kept.
  ASSERT_TRUE(system.burst(row, 1000).ok());
  FrameStats c = step(system);
  EXPECT_EQ(c.newborns, 128u - 54u);
  EXPECT_EQ(c.dropped, 1001u - (128u - 54u));
  EXPECT_EQ(c.alive, 128u);
  EXPECT_EQ(c.free_count, 0u);
  FrameStats d = step(system);
  EXPECT_EQ(d.newborns, 0u);
  EXPECT_EQ(d.dropped, 1u);
  EXPECT_EQ(d.free_count, 0u);
}

// The effect's own bursts are scheduled by the GPU tick (no host burst() calls): a burst of 7
// repeating 3 times every 0.1 s from 0.05 s, over a 30/s rate, spawns what the reference spawns
// on every frame, 3 times and then never again; a second, endless one (every 0.25 s) keeps firing.
TEST_F(ParticleSystemTest, RepeatingDeclaredBurstMatchesTheReferenceFrameByFrame) {
  CompiledEffect effect = make_effect(kProgram, 30.0f, 0.5f, 512);
  effect.emission.bursts = {{.time = 0.05f, .count = 7, .cycles = 3, .interval = 0.1f}};
  CompiledEffect endless = effect;
  endless.emission.bursts.push_back({.time = 0.0f, .count = 5, .cycles = 0, .interval = 0.25f});
  for (const CompiledEffect* e : {&effect, &endless}) {
    ParticleSystem system = make_system(512);
    const uint32_t row = add(system, *e, {.seed = 5});
    Result<Simulation> sim =
        Simulation::create(*e, {.dt = kDt, .emitter = {.seed = 5}, .capacity = 512, .record_words = 32});
    ASSERT_TRUE(sim.ok()) << sim.error().to_string();
    float accumulator = 0.0f, age = 0.0f;
    uint32_t firing_frames = 0;
    uint64_t burst_total = 0;
    for (int f = 0; f < 80; ++f) {  // 1.33 s
      const FrameStats g = step(system);
      const FrameReport r = sim.value().step().value();
      ASSERT_EQ(g.newborns, r.spawned) << "frame " << f;
      ASSERT_EQ(g.dropped, r.dropped) << "frame " << f;
      ASSERT_EQ(g.killed, r.killed) << "frame " << f;
      ASSERT_EQ(g.alive, r.alive) << "frame " << f;
      // What the bursts added on this frame, beside the rate.
      const float before = age;
      age = age + kDt;
      const uint32_t rate_part = sim::take_rate_spawns(accumulator, 30.0f, kDt);
      ASSERT_GE(g.newborns, rate_part) << "frame " << f;
      if (g.newborns > rate_part) ++firing_frames;
      burst_total += g.newborns - rate_part;
      EXPECT_EQ(g.newborns - rate_part, sim::bursts_due(e->emission.bursts, before, age)) << "frame " << f;
    }
    if (e == &effect) {
      EXPECT_EQ(firing_frames, 3u);
      EXPECT_EQ(burst_total, 21u);
    } else {
      EXPECT_EQ(burst_total, 21u + 6u * 5u);  // the endless one at 0, 0.25, .., 1.25
    }
    // Host bursts still add on top of the declared ones.
    ASSERT_TRUE(system.burst(row, 3).ok());
    const FrameStats g = step(system);
    const FrameReport r = sim.value().step().value();
    const float before = age;
    age = age + kDt;
    EXPECT_EQ(g.newborns, r.spawned + 3u);
    EXPECT_EQ(g.newborns,
              sim::take_rate_spawns(accumulator, 30.0f, kDt) + sim::bursts_due(e->emission.bursts, before, age) + 3u);
  }
}

TEST_F(ParticleSystemTest, BurstsOfATinyIntervalAreCountedAtOnceAndMatchTheReference) {
  // Intervals a candidate walk could not finish (1e-30 s, for ever; a million cycles 1e-7 s
  // apart): both sides count them by bisection, the budget takes what the pool holds, and the
  // drops are the reference's.
  CompiledEffect effect = make_effect(kProgram, 0.0f, 0.05f, 256);
  effect.emission.bursts = {{.time = 0.0f, .count = 1, .cycles = 0, .interval = 1e-30f},
                            {.time = 0.1f, .count = 3, .cycles = 1000000, .interval = 1e-7f}};
  ParticleSystem system = make_system(256);
  add(system, effect, {.seed = 2});
  Result<Simulation> sim = Simulation::create(effect,
                                              {.dt = kDt, .emitter = {.seed = 2}, .capacity = 256, .record_words = 32});
  ASSERT_TRUE(sim.ok()) << sim.error().to_string();
  uint64_t dropped = 0;
  for (int f = 0; f < 12; ++f) {  // 0.2 s: the endless burst at frame 0, the dense one at 0.1 s
    const FrameStats g = step(system);
    const FrameReport r = sim.value().step().value();
    ASSERT_EQ(g.newborns, r.spawned) << "frame " << f;
    ASSERT_EQ(g.dropped, r.dropped) << "frame " << f;
    ASSERT_EQ(g.alive, r.alive) << "frame " << f;
    ASSERT_EQ(g.alive + g.free_count, 256u) << "frame " << f;
    dropped += g.dropped;
  }
  EXPECT_GT(dropped, 1000000u);  // far more was due than the pool holds, and none of it hung
}

TEST_F(ParticleSystemTest, FullPoolDropsSpawnsWithoutWrappingAndMatchesTheReference) {
  // 6000/s = 100 a frame into 64 slots; life 0.1 s (6 frames): the pool fills, drains, refills.
  const CompiledEffect effect = make_effect(kProgram, 6000.0f, 0.1f, 64);
  ParticleSystem system = make_system(64);
  add(system, effect, {.seed = 9});
  Result<Simulation> sim = Simulation::create(effect,
                                              {.dt = kDt, .emitter = {.seed = 9}, .capacity = 64, .record_words = 32});
  ASSERT_TRUE(sim.ok());
  for (int f = 0; f < 40; ++f) {
    const FrameStats g = step(system);
    const FrameReport r = sim.value().step().value();
    EXPECT_EQ(g.newborns, r.spawned) << "frame " << f;
    EXPECT_EQ(g.dropped, r.dropped) << "frame " << f;
    EXPECT_EQ(g.killed, r.killed) << "frame " << f;
    EXPECT_EQ(g.alive, r.alive) << "frame " << f;
    EXPECT_LE(g.free_count, 64u);
    EXPECT_EQ(g.alive + g.free_count, 64u) << "frame " << f;
    expect_invariant(system, f);
  }
}

TEST_F(ParticleSystemTest, ManyEmittersShareAShortBudgetAcrossWorkgroupsWithoutWrapping) {
  // 600 emitters (three of the tick's 256-row workgroups) burst 10 each into 1,000 free slots,
  // and one asks for 2^30 more (a workgroup total past the tick's 2^30 saturation): the budget
  // goes out exactly, the rest is dropped and counted, and the lists stay consistent.
  const CompiledEffect effect = make_effect(kProgram, 0.0f, 10.0f, 1000);
  auto created = ParticleSystem::create(device(), {.capacity = 1000, .record_words = 32, .max_emitters = 600});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  std::vector<EmitterDesc> options(600);
  for (uint32_t i = 0; i < 600; ++i) options[i].seed = i + 1;
  auto rows = system.add_emitters(effect, options);
  ASSERT_TRUE(rows.ok()) << rows.error().to_string();
  for (uint32_t row : *rows) ASSERT_TRUE(system.burst(row, 10).ok());
  ASSERT_TRUE(system.burst((*rows)[300], 1u << 30).ok());
  const FrameStats g = step(system);
  EXPECT_EQ(g.newborns, 1000u);
  EXPECT_EQ(g.alive, 1000u);
  EXPECT_EQ(g.free_count, 0u);
  EXPECT_EQ(g.budget_left, 0u);
  // Row 300 asked 2^30 + 10 (the tick takes at most 2^25 of it into the workgroup's total; the
  // drop count is what was asked less what was taken); every other row 10.
  EXPECT_EQ(g.dropped, 600u * 10u + (1u << 30) - 1000u);
  auto alive = system.read_alive_slots();
  ASSERT_TRUE(alive.ok());
  std::set<uint32_t> distinct(alive->begin(), alive->end());
  EXPECT_EQ(distinct.size(), 1000u);
  EXPECT_LT(*distinct.rbegin(), 1000u);
  // Next frame nobody asks: nothing is born, nothing is dropped.
  const FrameStats h = step(system);
  EXPECT_EQ(h.newborns, 0u);
  EXPECT_EQ(h.dropped, 0u);
  EXPECT_EQ(h.alive + h.free_count, 1000u);
}

TEST_F(ParticleSystemTest, SurvivorsKeepLastFramesOrderAfterTheNewborns) {
  // Steady spawning and dying: each frame's list is its newborns, then last frame's survivors in
  // last frame's order (frame_compact), whatever order the GPU ran them in; and the newborns
  // take the slots freed in the frame before, first the first freed, in the order of the list
  // they died from (frame_compact pushes them so, emit takes the stack from the top).
  const CompiledEffect effect = make_effect(kProgram, 3000.0f, 0.2f, 2048);
  ParticleSystem system = make_system(2048);
  add(system, effect, {.seed = 4});
  std::vector<uint32_t> last, freed_last_frame;
  uint32_t checked = 0, reused = 0;
  for (int f = 0; f < 40; ++f) {
    const FrameStats g = step(system);
    auto alive = system.read_alive_slots();
    ASSERT_TRUE(alive.ok());
    ASSERT_EQ(alive->size(), g.alive);
    ASSERT_LE(g.newborns, g.alive);
    const size_t take = std::min<size_t>(g.newborns, freed_last_frame.size());
    ASSERT_EQ(std::vector<uint32_t>(alive->begin(), alive->begin() + take),
              std::vector<uint32_t>(freed_last_frame.begin(), freed_last_frame.begin() + take))
        << "frame " << f;
    reused += uint32_t(take);
    const std::set<uint32_t> now(alive->begin() + g.newborns, alive->end());
    freed_last_frame.clear();
    if (!last.empty()) {
      std::vector<uint32_t> expected;
      for (uint32_t slot : last) (now.contains(slot) ? expected : freed_last_frame).push_back(slot);
      const std::vector<uint32_t> survivors(alive->begin() + g.newborns, alive->end());
      ASSERT_EQ(survivors, expected) << "frame " << f;
      checked += uint32_t(survivors.size());
    }
    last = *alive;
  }
  EXPECT_GT(checked, 5000u);
  EXPECT_GT(reused, 1000u);
}

TEST_F(ParticleSystemTest, RemovingAnEmitterKillsItsParticlesNextFrame) {
  const CompiledEffect a = make_effect(kProgram, 120.0f, 100.0f);
  const CompiledEffect b = make_effect(kRandomLifeProgram, 60.0f, 100.0f);
  ParticleSystem system = make_system(1024);
  const uint32_t row_a = add(system, a);
  const uint32_t row_b = add(system, b);
  for (int f = 0; f < 10; ++f) step(system);
  FrameStats before = step(system);
  EXPECT_EQ(before.newborns, 3u);
  const uint32_t gen_a = system.generation(row_a);
  ASSERT_TRUE(system.remove_emitter(row_a).ok());
  FrameStats after = step(system);
  EXPECT_EQ(after.orphaned, 22u);
  EXPECT_EQ(after.alive, before.alive - 22u + 1u - after.killed);
  EXPECT_EQ(after.alive + after.free_count, 1024u);
  auto pool = system.read_pool().value();
  for (uint32_t slot = 0; slot < 1024; ++slot) {
    const uint32_t h = pool[size_t(slot) * 32];
    EXPECT_FALSE(h != 0 && header_row(h) == row_a) << "slot " << slot << " still belongs to the removed row";
  }
  // The row is reused by a new emitter with a new generation: its state restarts.
  const uint32_t row_c = add(system, a);
  EXPECT_EQ(row_c, row_a);
  EXPECT_NE(system.generation(row_c), gen_a);
  FrameStats c = step(system);
  EXPECT_EQ(c.newborns, 2u + 1u);
  auto states = system.read_emitter_states().value();
  EXPECT_EQ(states[row_c].spawned, 2u);  // serials start over
  EXPECT_EQ(states[row_c].tick, 0u);
  EXPECT_EQ(states[row_b].tick, 12u);
  expect_invariant(system, 0);
}

TEST_F(ParticleSystemTest, PoolInvariantHoldsOverHundredsOfFrames) {
  // Two programs, three emitters, random bursts, a removal and a re-add, a pool small enough
  // that the budget clamps often.
  const CompiledEffect a = make_effect(kProgram, 700.0f, 0.3f);
  const CompiledEffect b = make_effect(kRandomLifeProgram, 1500.0f, 0.5f);
  ParticleSystem system = make_system(300);
  const uint32_t ra = add(system, a, {.seed = 1});
  uint32_t rb = add(system, b, {.seed = 2});
  const uint32_t rc = add(system, a, {.seed = 3});
  std::mt19937 rng(1234);
  uint64_t dropped = 0;
  for (int f = 0; f < 300; ++f) {
    if (rng() % 7 == 0) {
      ASSERT_TRUE(system.burst(rng() % 2 ? ra : rc, rng() % 200).ok());
    }
    if (f == 120) {
      ASSERT_TRUE(system.remove_emitter(rb).ok());
    }
    if (f == 180) rb = add(system, b, {.seed = 4});
    const FrameStats s = step(system);
    dropped += s.dropped;
    ASSERT_EQ(s.alive + s.free_count, 300u) << "frame " << f;
    expect_invariant(system, f);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(dropped, 0u);  // the budget was exercised
}

// Fire for 150 frames against the reference simulation: counts equal every frame, and every
// live particle's record (every third frame), matched by birth serial, within
// |d| <= 1e-4 + 1e-4 |ref| per word
// (the GPU's transcendentals and fused arithmetic differ from the CPU's by a few ulp; nothing in
// the preset is chaotic enough to amplify that past the bound).
// The fire preset against the reference simulation, particle by particle, with simulate on the
// compiled kernel (the default) or on the fast interpreter.
void ParticleSystemTest::check_fire_against_reference(Simulate simulate) {
  const bool compiled_simulate = simulate != Simulate::kInterpreted;
  const CompiledEffect fire = load_preset("fire.json");
  ASSERT_FALSE(fire.program.update.empty());
  const uint32_t capacity = fire.emission.capacity_hint;
  const uint32_t own = fire.program.particle_record_words();
  ASSERT_LT(own, kSerialWord);
  ParticleSystem system = make_system(capacity, kSerialWord, compiled_simulate,
                                      simulate == Simulate::kCompiledInBackground);
  const uint32_t row = add(system, fire, {.seed = 7});
  Result<Simulation> sim = Simulation::create(fire, {.dt = kDt,
                                                     .emitter = {.seed = 7},
                                                     .capacity = capacity,
                                                     .record_words = 32,
                                                     .prewarm = false,
                                                     .emitter_row = row,
                                                     .emitter_generation = system.generation(row)});
  ASSERT_TRUE(sim.ok()) << sim.error().to_string();
  std::map<uint32_t, uint32_t> ref_serial;  // reference slot -> birth serial
  uint32_t born = 0;
  double worst = 0.0;
  uint32_t compared = 0;
  for (int f = 0; f < 150; ++f) {
    // In the background case the kernel arrives whenever its worker is done; halfway through,
    // the test waits for it, so the frames after run compiled whatever the machine's speed.
    if (f == 75 && simulate == Simulate::kCompiledInBackground) {
      ASSERT_TRUE(system.wait_for_kernels().ok());
      EXPECT_EQ(system.pending_kernel_count(), 0u);
    }
    const FrameStats g = step(system);
    const FrameReport r = sim.value().step().value();
    ASSERT_EQ(g.alive, r.alive) << "frame " << f;
    ASSERT_EQ(g.newborns, r.spawned) << "frame " << f;
    ASSERT_EQ(g.killed, r.killed) << "frame " << f;
    ASSERT_EQ(g.dropped, r.dropped) << "frame " << f;
    const std::vector<uint32_t>& ref_alive = sim.value().alive_slots();
    for (uint32_t i = 0; i < r.spawned; ++i) ref_serial[ref_alive[i]] = born + i;  // newborns lead the list
    born += r.spawned;
    if (f % 3 != 2) continue;
    // Match every live particle by serial and compare its fields word by word.
    const std::vector<uint32_t>& ref_pool = sim.value().pool();
    std::map<uint32_t, uint32_t> ref_by_serial;
    for (uint32_t slot : ref_alive) ref_by_serial[ref_serial.at(slot)] = slot;
    auto pool = system.read_pool().value();
    auto alive = system.read_alive_slots().value();
    ASSERT_EQ(alive.size(), ref_alive.size());
    for (uint32_t slot : alive) {
      const uint32_t* got = pool.data() + size_t(slot) * 32;
      auto it = ref_by_serial.find(got[kSerialWord]);
      ASSERT_NE(it, ref_by_serial.end()) << "frame " << f << ": serial " << got[kSerialWord]
                                         << " not alive in the reference";
      const uint32_t* want = ref_pool.data() + size_t(it->second) * 32;
      ASSERT_EQ(got[0], want[0]) << "header, frame " << f;
      for (uint32_t w = 1; w < own; ++w) {
        const float x = std::bit_cast<float>(got[w]);
        const float y = std::bit_cast<float>(want[w]);
        const double d = std::abs(double(x) - double(y));
        worst = std::max(worst, d / (1.0 + std::abs(double(y))));
        ASSERT_LE(d, 1e-4 + 1e-4 * std::abs(double(y)))
            << "frame " << f << " serial " << it->first << " word " << w << ": gpu " << x << " ref " << y;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 2500u);  // ~50 checkpoints of ~60 live particles
  // The passes that ran: fire's program compiled for simulate and for emit, or neither.
  EXPECT_EQ(system.compiled_kernel_count(), compiled_simulate ? 2u : 0u);
  std::cout << "fire parity ("
            << (simulate == Simulate::kInterpreted ? "interpreted"
                : simulate == Simulate::kCompiled  ? "compiled"
                                                   : "background-compiled")
            << " simulate): " << compared << " particle records compared, worst relative difference " << worst << "\n";
}

TEST_F(ParticleSystemTest, FireMatchesTheReferenceSimulation) { check_fire_against_reference(Simulate::kCompiled); }
TEST_F(ParticleSystemTest, FireOnTheInterpreterMatchesTheReferenceSimulation) {
  check_fire_against_reference(Simulate::kInterpreted);
}
TEST_F(ParticleSystemTest, FireMatchesTheReferenceAcrossTheSwitchToAKernelBuiltInTheBackground) {
  check_fire_against_reference(Simulate::kCompiledInBackground);
}

TEST_F(ParticleSystemTest, MisuseIsAnError) {
  EXPECT_FALSE(ParticleSystem::create(device(), {.capacity = 0}).ok());
  EXPECT_FALSE(ParticleSystem::create(device(), {.capacity = 16, .record_words = 1}).ok());
  ParticleSystem system = make_system(16);
  EXPECT_FALSE(system.burst(3, 1).ok());
  EXPECT_FALSE(system.remove_emitter(0).ok());
  EXPECT_FALSE(system.execute(0.0f).ok());
  // serial_word 31 inside a 40-word record would overlap; a 33-word program does not fit 32.
  CompiledEffect e = make_effect(kProgram, 1.0f, 1.0f);
  for (int i = 0; i < 7; ++i) e.program.particle_fields.push_back({"big" + std::to_string(i), 4});
  EXPECT_FALSE(system.add_emitter(e).ok());
  // More declared bursts than the tick schedules, or a non-finite burst time: refused.
  CompiledEffect many = make_effect(kProgram, 1.0f, 1.0f);
  for (uint32_t i = 0; i <= runtime::kMaxEffectBursts; ++i)
    many.emission.bursts.push_back({.time = float(i), .count = 1});
  auto refused = system.add_emitter(many);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().to_string().find("bursts"), std::string::npos) << refused.error().to_string();
  many.emission.bursts.back().count = 0;  // a burst that never fires does not count
  EXPECT_TRUE(system.add_emitter(many).ok());
  CompiledEffect nan_time = make_effect(kProgram, 1.0f, 1.0f);
  nan_time.emission.bursts = {{.time = NAN, .count = 1, .cycles = 0, .interval = 0.1f}};
  EXPECT_FALSE(system.add_emitter(nan_time).ok());
}

}  // namespace
}  // namespace mote
