// Pool-full policies through the public API (docs/design/drivers.md, "Pool-full policies"): a
// replace-oldest emitter's bursts spawn whole in a full pool, and it keeps exactly its newest
// particles — the rule modelled here (its list is newest first by birth frame, each frame's
// newborns in serial order, and the oldest freed are the last of its list) — beside an emitter
// whose particles are never touched; the drop policy keeps the oldest and counts the drops.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// Particles that never die and spawn only from burst(): what a pool holds is what was burst.
CompiledEffect immortal_effect() {
  auto effect = compile_effect(R"({"name": "immortal",
    "particle_fields": [{"name": "position", "width": 3}],
    "emission": {"rate": 0, "capacity": 64},
    "init": {"nodes": [{"id": "e", "type": "emit_sphere", "inputs": {"radius": 0.5}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "e.position"}}]},
    "update": {"nodes": []}})");
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
}

// The birth serials of `id`'s particles in alive-list order, and the pool's invariant.
std::vector<uint32_t> serials_of(ParticleSystem& system, EmitterId id, uint32_t serial_word) {
  std::vector<uint32_t> out;
  auto alive = system.read_alive_records();
  EXPECT_TRUE(alive.ok());
  if (!alive.ok()) return out;
  for (size_t i = 0; i < alive->slots.size(); ++i) {
    const uint32_t* record = alive->records.data() + i * alive->record_words;
    if (header_row(record[0]) == id.row && header_generation(record[0]) == id.generation)
      out.push_back(record[serial_word]);
  }
  auto stats = system.read_stats();
  EXPECT_TRUE(stats.ok());
  if (stats.ok()) {
    EXPECT_EQ(stats->alive + stats->free, system.capacity());
  }
  return out;
}

// The documented rule: `room` free slots for the burst of `count` (serials from `next`), the
// rest freed from the end of the emitter's list, the newborns first in the new list.
void model_burst(std::deque<uint32_t>& list, uint32_t& next, uint32_t count, uint32_t room) {
  uint32_t to_free = count > room ? count - room : 0;
  to_free = std::min<uint32_t>(to_free, uint32_t(list.size()));
  for (uint32_t i = 0; i < to_free; ++i) list.pop_back();
  const uint32_t placed = std::min<uint32_t>(count, room + to_free);
  for (uint32_t i = placed; i-- > 0;) list.push_front(next + i);
  next += count;
}

TEST_F(ApiTest, AReplaceOldestEmitterKeepsExactlyItsNewestParticles) {
  const CompiledEffect effect = immortal_effect();
  const uint32_t own = effect.program.particle_record_words();
  ParticleSystem& system = make_system(
      {.capacity = 100, .record_words = own + 1, .max_emitters = 4, .max_transforms = 0, .serial_word = own});
  auto ring = system.add_emitter(effect, {.seed = 1});
  auto other = system.add_emitter(effect, {.seed = 2});
  ASSERT_TRUE(ring.ok() && other.ok());
  EXPECT_EQ(system.pool_full_policy(*ring).value(), PoolFullPolicy::kDrop);
  ASSERT_TRUE(system.set_pool_full_policy(*ring, PoolFullPolicy::kReplaceOldest).ok());
  EXPECT_EQ(system.pool_full_policy(*ring).value(), PoolFullPolicy::kReplaceOldest);

  // The other emitter holds 20 of the 100 slots for good; the ring bursts 30 a frame into the
  // rest, so from the third frame on every burst replaces its oldest (31 a frame once: a burst
  // not a multiple of the room cuts a frame's newborns).
  ASSERT_TRUE(system.burst(*other, 20).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  const std::vector<uint32_t> others = serials_of(system, *other, own);
  ASSERT_EQ(others.size(), 20u);
  std::deque<uint32_t> model;
  uint32_t next = 0;
  for (int frame = 0; frame < 10; ++frame) {
    SCOPED_TRACE(frame);
    const uint32_t count = frame == 4 ? 31 : 30;
    const uint32_t room = 80 - uint32_t(model.size());
    ASSERT_TRUE(system.burst(*ring, count).ok());
    ASSERT_TRUE(system.execute(kDt).ok());
    model_burst(model, next, count, room);
    const std::vector<uint32_t> got = serials_of(system, *ring, own);
    EXPECT_EQ(got, std::vector<uint32_t>(model.begin(), model.end()));
    EXPECT_EQ(serials_of(system, *other, own), others) << "another emitter's particles are never replaced";
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->newborns, count) << "the burst spawns whole";
    EXPECT_EQ(stats->dropped, 0u);
    EXPECT_EQ(system.read_alive_count(*ring).value(), model.size());
  }
  EXPECT_EQ(model.size(), 80u);
  // The newest 80, by birth frame: the last frame's 30, the two before it, and the first 20 of
  // the frame before those (serial order within a frame).
  EXPECT_EQ(model.front(), next - 30);

  // A burst larger than the emitter and the free slots together: every particle of the emitter
  // is replaced, and only what even an empty emitter cannot hold is dropped and counted.
  ASSERT_TRUE(system.burst(*ring, 120).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  std::vector<uint32_t> newest(80);
  for (uint32_t i = 0; i < 80; ++i) newest[i] = next + i;
  EXPECT_EQ(serials_of(system, *ring, own), newest);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->newborns, 80u);
  EXPECT_EQ(stats->dropped, 40u);
  EXPECT_EQ(serials_of(system, *other, own), others);

  // Back to drop: a full pool drops the burst and keeps what it had.
  ASSERT_TRUE(system.set_pool_full_policy(*ring, PoolFullPolicy::kDrop).ok());
  ASSERT_TRUE(system.burst(*ring, 10).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  EXPECT_EQ(serials_of(system, *ring, own), newest);
  EXPECT_EQ(system.read_stats()->dropped, 10u);
}

// A replace-oldest burst takes its slots first: another emitter's burst in the same frame gets
// what is left (its drops counted), never the slots made for the replace-oldest one.
TEST_F(ApiTest, AReplaceOldestBurstIsServedBeforeTheFramesOtherSpawns) {
  const CompiledEffect effect = immortal_effect();
  const uint32_t own = effect.program.particle_record_words();
  ParticleSystem& system = make_system(
      {.capacity = 64, .record_words = own + 1, .max_emitters = 4, .max_transforms = 0, .serial_word = own});
  auto ring = system.add_emitter(effect, {.seed = 1});
  auto other = system.add_emitter(effect, {.seed = 2});
  ASSERT_TRUE(ring.ok() && other.ok());
  ASSERT_TRUE(system.set_pool_full_policy(*ring, PoolFullPolicy::kReplaceOldest).ok());
  ASSERT_TRUE(system.burst(*ring, 40).ok());
  ASSERT_TRUE(system.burst(*other, 10).ok());
  ASSERT_TRUE(system.execute(kDt).ok());  // 50 of 64
  ASSERT_EQ(serials_of(system, *ring, own).size(), 40u);
  ASSERT_EQ(system.read_alive_count(*other).value(), 10u);
  // 14 free: the ring's burst takes them and 26 of its oldest; the other's 10 find nothing.
  ASSERT_TRUE(system.burst(*ring, 40).ok());
  ASSERT_TRUE(system.burst(*other, 10).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  std::vector<uint32_t> want;
  for (uint32_t i = 0; i < 40; ++i) want.push_back(40 + i);  // the newborns first
  for (uint32_t i = 0; i < 14; ++i) want.push_back(i);       // then the first born's first 14
  EXPECT_EQ(serials_of(system, *ring, own), want);
  EXPECT_EQ(system.read_alive_count(*other).value(), 10u) << "the other's particles are untouched";
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->newborns, 40u);
  EXPECT_EQ(stats->dropped, 10u) << "the other's burst found no slot";
  EXPECT_EQ(stats->alive, 64u);
}

TEST_F(ApiTest, PoolFullPoliciesRefuseBadInput) {
  ParticleSystem& system = make_system({.capacity = 1024, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto manual = system.add_manual_emitter(fire, 10);
  auto cpu = system.add_cpu_emitter(fire, {.max_count = 10});
  auto gpu = system.add_emitter(fire);
  ASSERT_TRUE(manual.ok() && cpu.ok() && gpu.ok());
  EXPECT_EQ(system.set_pool_full_policy(manual->id(), PoolFullPolicy::kReplaceOldest).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.set_pool_full_policy(cpu->id(), PoolFullPolicy::kReplaceOldest).error().code,
            ErrorCode::kUnsupported);
  EXPECT_EQ(system.burst(manual->id(), 5).error().code, ErrorCode::kInvalidArgument);
  ASSERT_TRUE(system.set_pool_full_policy(*gpu, PoolFullPolicy::kReplaceOldest).ok());
  // swap_effect keeps the policy (the row's); a stale id is refused.
  auto swapped = system.swap_effect(*gpu, load_effect("smoke.json"));
  ASSERT_TRUE(swapped.ok());
  EXPECT_EQ(system.pool_full_policy(*swapped).value(), PoolFullPolicy::kReplaceOldest);
  EXPECT_FALSE(system.pool_full_policy(*gpu).ok());
  EXPECT_FALSE(system.set_pool_full_policy(*gpu, PoolFullPolicy::kDrop).ok());
}

}  // namespace
}  // namespace mote::test
