// The coherence buckets on lavapipe (validation on): with two or more live programs, simulate
// walks each program's own bucket of the coherence list (src/runtime/frame/bucket_pass.hpp).
// Checked: every 64-entry group of the list holds one program and the padding is sentinels, each
// bucket holds exactly its program's entries of the walked list, each particle is updated by its
// own program only; hundreds of distinct programs added, swapped and removed over two thousand
// frames keep the pool whole and the counts equal to the reference simulation's.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "mote/simulation.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/frame/tagged_program.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::FrameStats;
using runtime::ParticleSystem;

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kRecordWords = 8;  // header, position 3, age, life, tag, one spare

CompiledEffect tagged(uint32_t tag, float rate, float life) {
  Result<CompiledEffect> e = test::tagged_effect(tag, rate, life);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().to_string());
  return e.ok() ? std::move(e).value() : CompiledEffect{};
}

std::vector<shader::EmitterRecord> read_records(ParticleSystem& s, uint32_t rows) {
  Result<std::vector<uint32_t>> words = s.read_emitter_table(rows);
  EXPECT_TRUE(words.ok());
  std::vector<shader::EmitterRecord> records(rows);
  if (words.ok()) std::memcpy(records.data(), words.value().data(), rows * sizeof(shader::EmitterRecord));
  return records;
}

class BucketTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};

TEST_P(BucketTest, EveryGroupHoldsOneProgramAndEachParticleRunsItsOwn) {
  const bool compiled = GetParam();
  auto created = ParticleSystem::create(
      device(), {.capacity = 4096, .record_words = kRecordWords, .max_emitters = 16, .compiled_simulate = compiled});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  // Five programs over twelve emitters, rates from 40 to 700 a second: buckets of a few
  // particles to a few hundred, most not a multiple of 64.
  std::vector<CompiledEffect> effects;
  for (uint32_t tag = 1; tag <= 5; ++tag) effects.push_back(tagged(tag, 40.0f * float(tag * tag), 0.4f));
  std::map<uint32_t, uint32_t> tag_of_row;
  for (uint32_t e = 0; e < 12; ++e) {
    const uint32_t pick = (e * 7) % 5;
    Result<uint32_t> row = system.add_emitter(effects[pick], {.seed = e + 1});
    ASSERT_TRUE(row.ok()) << row.error().to_string();
    tag_of_row[row.value()] = pick + 1;
  }
  ASSERT_EQ(system.placed_program_count(), 5u);
  const uint32_t tag_word = effects[0].program.particle_field_offset("tag").value();
  for (int frame = 0; frame < 30; ++frame) {
    // The list the next frame walks, and whose program each of its entries runs.
    Result<std::vector<uint32_t>> walked = system.read_alive_slots();
    Result<std::vector<uint32_t>> pool_before = system.read_pool();
    ASSERT_TRUE(walked.ok() && pool_before.ok());
    const std::vector<shader::EmitterRecord> records = read_records(system, 16);
    auto program_of = [&](uint32_t t) {
      const uint32_t header = pool_before.value()[size_t(walked.value()[t]) * kRecordWords];
      return records[header & shader::kFrameHeaderRowMask].program_id;
    };
    ASSERT_TRUE(system.execute(kDt).ok());
    Result<runtime::BucketReadback> buckets = system.read_buckets();
    ASSERT_TRUE(buckets.ok()) << buckets.error().to_string();
    if (frame == 0) {
      EXPECT_TRUE(buckets.value().buckets.empty() || walked.value().empty());
      continue;
    }
    const std::vector<uint32_t>& list = buckets.value().coherence;
    std::map<uint32_t, uint32_t> expected_count;
    for (uint32_t t = 0; t < walked.value().size(); ++t) ++expected_count[program_of(t)];
    std::vector<uint8_t> seen(walked.value().size(), 0);
    for (uint32_t p = 0; p < buckets.value().buckets.size(); ++p) {
      const shader::FrameBucket& b = buckets.value().buckets[p];
      SCOPED_TRACE(testing::Message() << "frame " << frame << ", program " << p);
      EXPECT_EQ(b.count, expected_count[p]);
      EXPECT_EQ(b.entries, (b.count + 63) / 64 * 64);
      EXPECT_EQ(b.first % 64, 0u);
      EXPECT_EQ(b.groups_x, b.entries / 64);
      EXPECT_EQ(b.cursor, b.first + b.count);
      ASSERT_LE(size_t(b.first) + b.entries, list.size());
      for (uint32_t i = 0; i < b.entries; ++i) {
        const uint32_t t = list[b.first + i];
        if (i >= b.count) {
          EXPECT_EQ(t, shader::kFrameBucketPadEntry) << "padding entry " << i;
          continue;
        }
        ASSERT_LT(t, walked.value().size()) << "entry " << i;
        EXPECT_EQ(seen[t]++, 0) << "list entry " << t << " in two buckets";
        EXPECT_EQ(program_of(t), p) << "entry " << i << " of another program";
      }
    }
    for (uint32_t t = 0; t < seen.size(); ++t) EXPECT_EQ(seen[t], 1) << "frame " << frame << ": entry " << t;
    // Every particle updated this frame carries its own program's tag.
    Result<std::vector<uint32_t>> alive = system.read_alive_slots();
    Result<std::vector<uint32_t>> pool = system.read_pool();
    ASSERT_TRUE(alive.ok() && pool.ok());
    const std::set<uint32_t> walked_slots(walked.value().begin(), walked.value().end());
    uint32_t checked = 0;
    for (uint32_t slot : alive.value()) {
      if (!walked_slots.count(slot)) continue;  // a newborn: not updated yet
      const uint32_t header = pool.value()[size_t(slot) * kRecordWords];
      const float tag = std::bit_cast<float>(pool.value()[size_t(slot) * kRecordWords + tag_word]);
      EXPECT_EQ(tag, float(tag_of_row[header & shader::kFrameHeaderRowMask])) << "frame " << frame << ", slot " << slot;
      ++checked;
    }
    EXPECT_GT(checked, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Simulate, BucketTest, ::testing::Bool(),
                         [](const auto& test_info) { return test_info.param ? "compiled" : "interpreted"; });

// One emitter of the churn and its reference simulation, started when the emitter (or its
// current program) started.
struct ChurnEmitter {
  uint32_t row = 0;
  uint32_t tag = 0;
  float rate = 0.0f;  // the emitter fields "rate" and "life": a swap carries them to the new program
  float life = 0.0f;
  std::unique_ptr<Simulation> reference;
  uint32_t alive = 0;  // the reference's count after the last frame
};

class BucketChurnTest : public test::GpuTest {};

TEST_F(BucketChurnTest, HundredsOfProgramsAddedSwappedAndRemovedKeepThePoolAndMatchTheReference) {
  constexpr uint32_t kCapacity = 4096;
  constexpr uint32_t kMaxEmitters = 48;
  constexpr int kFrames = 2000;
  constexpr uint32_t kPrograms = 400;
  auto created = ParticleSystem::create(device(), {.capacity = kCapacity,
                                                   .record_words = kRecordWords,
                                                   .max_emitters = kMaxEmitters,
                                                   .compiled_simulate = false});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  std::mt19937 rng(2026);
  std::vector<ChurnEmitter> live;
  uint32_t next_tag = 1;
  std::set<uint32_t> tags_used;
  uint32_t max_live_programs = 0;
  // A program of its own for every add and swap, up to kPrograms; then reused.
  auto fresh = [&](uint32_t row) {
    ChurnEmitter e;
    e.row = row;
    e.tag = next_tag <= kPrograms ? next_tag++ : 1 + rng() % kPrograms;
    tags_used.insert(e.tag);
    return e;
  };
  auto start_reference = [&](ChurnEmitter& e, const CompiledEffect& effect, uint32_t seed) {
    Result<Simulation> sim =
        Simulation::create(effect,
                           {.dt = kDt, .emitter = {.seed = seed}, .capacity = kCapacity, .record_words = kRecordWords});
    ASSERT_TRUE(sim.ok()) << sim.error().to_string();
    e.reference = std::make_unique<Simulation>(std::move(sim).value());
    e.alive = 0;
  };
  // An added emitter's rate and life: 6 .. 60 a second for 0.1 .. 0.5 s (at most ~1,400 alive).
  // A swap keeps the emitter's field values (both programs declare "rate" and "life"), so the new
  // program's reference runs with the old values (its defaults are made equal to them).
  auto effect_of = [&](const ChurnEmitter& e) { return tagged(e.tag, e.rate, e.life); };

  for (int frame = 0; frame < kFrames; ++frame) {
    SCOPED_TRACE(testing::Message() << "frame " << frame);
    uint32_t expected_orphans = 0;
    const uint32_t action = rng() % 10;
    if ((action < 4 && live.size() < kMaxEmitters) || live.size() < 2) {  // add
      const uint32_t seed = rng();
      ChurnEmitter e = fresh(0);
      e.rate = 6.0f * float(1 + rng() % 10);
      e.life = 0.1f + 0.1f * float(rng() % 5);
      const CompiledEffect effect = effect_of(e);
      Result<uint32_t> row = system.add_emitter(effect, {.seed = seed});
      ASSERT_TRUE(row.ok()) << row.error().to_string();
      e.row = row.value();
      start_reference(e, effect, seed);
      live.push_back(std::move(e));
    } else if (action < 6) {  // swap to a new program: the old particles die as orphans
      ChurnEmitter& e = live[rng() % live.size()];
      const uint32_t old_alive = e.alive;
      ChurnEmitter swapped = fresh(e.row);
      swapped.rate = e.rate;
      swapped.life = e.life;
      const CompiledEffect effect = effect_of(swapped);
      ASSERT_TRUE(system.swap_effect(e.row, effect).ok());
      // The swapped emitter keeps its seed; the reference is restarted with the registry's.
      const uint32_t seed = read_records(system, kMaxEmitters)[e.row].seed;
      start_reference(swapped, effect, seed);
      expected_orphans += old_alive;
      e = std::move(swapped);
    } else if (action < 8) {  // remove
      const size_t i = rng() % live.size();
      ASSERT_TRUE(system.remove_emitter(live[i].row).ok());
      expected_orphans += live[i].alive;
      live.erase(live.begin() + std::ptrdiff_t(i));
    }
    const Status ran = system.execute(kDt);
    ASSERT_TRUE(ran.ok()) << ran.error().to_string();
    uint32_t spawned = 0, killed = 0, alive = 0;
    for (ChurnEmitter& e : live) {
      Result<FrameReport> r = e.reference->step();
      ASSERT_TRUE(r.ok());
      spawned += r.value().spawned;
      killed += r.value().killed;
      e.alive = r.value().alive;
      alive += e.alive;
    }
    max_live_programs = std::max(max_live_programs, system.placed_program_count());
    Result<FrameStats> stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    const FrameStats& g = stats.value();
    ASSERT_EQ(g.dropped, 0u);
    ASSERT_EQ(g.newborns, spawned);
    ASSERT_EQ(g.killed, killed);
    ASSERT_EQ(g.orphaned, expected_orphans);
    ASSERT_EQ(g.alive, alive);
    ASSERT_EQ(g.alive + g.free_count, kCapacity);
    if (frame % 100 == 99) {
      Result<std::vector<uint32_t>> alive_slots = system.read_alive_slots();
      Result<std::vector<uint32_t>> free_slots = system.read_free_slots();
      ASSERT_TRUE(alive_slots.ok() && free_slots.ok());
      std::vector<uint8_t> seen(kCapacity, 0);
      for (uint32_t slot : alive_slots.value()) {
        ASSERT_LT(slot, kCapacity);
        ASSERT_EQ(seen[slot]++, 0) << "slot " << slot << " twice";
      }
      for (uint32_t slot : free_slots.value()) {
        ASSERT_LT(slot, kCapacity);
        ASSERT_EQ(seen[slot]++, 0) << "slot " << slot << " alive and free, or free twice";
      }
    }
  }
  EXPECT_GE(tags_used.size(), 300u);  // hundreds of distinct programs went through
  EXPECT_GE(max_live_programs, 20u);  // and many were live at once
}

}  // namespace
}  // namespace mote
