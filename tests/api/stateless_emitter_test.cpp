// The stateless driver through the public API (docs/design/drivers.md, "The stateless driver";
// lavapipe, validation on): a stateless emitter's particles are its effect's EVAL at the
// emitter's clock, evaluated on the GPU every frame — equal to the CPU reference's at that time,
// the same bit for bit however the clock got there (forwards, backwards, a jump, a scale of 20),
// the retroactive line already spread at t = 0; bad input refused.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/effect.hpp"

namespace mote {
namespace {

using test::ApiTest;
using test::load_effect;

// The row's records in the last frame's alive list (the order its particles were placed in:
// particle index order), whole records of the effect's words.
std::vector<uint32_t> row_records(ParticleSystem& system, EmitterId id, uint32_t words) {
  std::vector<uint32_t> out;
  auto alive = system.read_alive_records();
  EXPECT_TRUE(alive.ok());
  if (!alive.ok()) return out;
  for (size_t i = 0; i < alive->slots.size(); ++i) {
    const uint32_t* record = alive->records.data() + i * alive->record_words;
    if (header_row(record[0]) != id.row || header_generation(record[0]) != id.generation) continue;
    out.insert(out.end(), record, record + words);
  }
  return out;
}

// GPU words against the reference's, every word but the header: within the interpreters'
// tolerance (docs/design/vm.md: the GPU's transcendentals are not the host's bit for bit).
void expect_near_reference(const std::vector<uint32_t>& gpu, const StatelessRecords& ref) {
  ASSERT_EQ(gpu.size(), ref.records.size());
  uint32_t off = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (i % ref.record_words == 0) continue;
    const float g = std::bit_cast<float>(gpu[i]), r = std::bit_cast<float>(ref.records[i]);
    if (!(std::fabs(g - r) <= 1e-4f + 1e-4f * std::fabs(r))) {
      if (++off <= 5)
        ADD_FAILURE() << "particle " << i / ref.record_words << " word " << i % ref.record_words << ": gpu " << g
                      << ", reference " << r;
    }
  }
  EXPECT_EQ(off, 0u);
}

// The pool's bookkeeping after the last frame: every slot alive or free.
void expect_pool_whole(ParticleSystem& system) {
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

template <typename R>
void expect_refused(const R& result, ErrorCode code) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, code) << result.error().to_string();
}

class StatelessTest : public ApiTest {
 protected:
  CompiledEffect fountain_ = load_effect("stateless/fountain.json");
  const EmitterDesc desc_{.seed = 7, .position = {1.0f, 0.5f, -2.0f}};
  uint32_t words() const { return vm_particle_record_words(fountain_.program); }
};

TEST_F(StatelessTest, TheGpuDrawsTheReferenceEvaluation) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 4});
  auto fire = system.add_emitter(load_effect("fire.json"));
  ASSERT_TRUE(fire.ok());
  auto emitter = system.add_stateless_emitter(fountain_, desc_);
  ASSERT_TRUE(emitter.ok()) << emitter.error().to_string();
  EXPECT_EQ(emitter->count(), 4096u);
  EXPECT_EQ(system.driver(emitter->id()).value(), Driver::kStateless);
  ASSERT_TRUE(emitter->set_time(3.25).ok());
  const float dt = 1.0f / 32.0f;
  for (int frame = 0; frame < 3; ++frame) {
    const double t = emitter->time();
    ASSERT_TRUE(system.execute(dt).ok());
    EXPECT_DOUBLE_EQ(emitter->time(), t + dt);
    auto ref = evaluate_stateless(fountain_, desc_, t);
    ASSERT_TRUE(ref.ok()) << ref.error().to_string();
    expect_near_reference(row_records(system, emitter->id(), words()), *ref);
    auto count = system.read_alive_count(emitter->id());
    ASSERT_TRUE(count.ok());
    EXPECT_EQ(*count, 4096u);
  }
  expect_pool_whole(system);
}

// The frame at t = 2.5 reached four ways: forwards at scale 1, backwards at -1 from 5, by a jump,
// at scale 20 and at -20 — the records equal bit for bit (dt = 1/16: every clock is exact).
TEST_F(StatelessTest, TheFrameAtATimeIsTheSameHoweverItIsReached) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 2});
  auto emitter = system.add_stateless_emitter(fountain_, desc_);
  ASSERT_TRUE(emitter.ok()) << emitter.error().to_string();
  const float dt = 1.0f / 16.0f;
  auto reach = [&](double start, double scale, int frames) {
    EXPECT_TRUE(emitter->set_time(start).ok());
    EXPECT_TRUE(emitter->set_time_scale(scale).ok());
    for (int f = 0; f < frames; ++f) EXPECT_TRUE(system.execute(dt).ok());
    EXPECT_EQ(emitter->time(), 2.5);
    EXPECT_TRUE(system.execute(dt).ok());  // the frame that evaluates 2.5
    return row_records(system, emitter->id(), words());
  };
  const std::vector<uint32_t> forwards = reach(0.0, 1.0, 40);
  ASSERT_EQ(forwards.size(), size_t(4096) * words());
  EXPECT_EQ(reach(5.0, -1.0, 40), forwards);
  EXPECT_EQ(reach(2.5, 1.0, 0), forwards);
  EXPECT_EQ(reach(0.0, 20.0, 2), forwards);
  EXPECT_EQ(reach(5.0, -20.0, 2), forwards);
  // A scale of 0 stands: the next frame evaluates 2.5 again.
  ASSERT_TRUE(emitter->set_time(2.5).ok());
  ASSERT_TRUE(emitter->set_time_scale(0.0).ok());
  ASSERT_TRUE(system.execute(dt).ok());
  ASSERT_TRUE(system.execute(dt).ok());
  EXPECT_EQ(row_records(system, emitter->id(), words()), forwards);
  // And a different time draws different particles.
  ASSERT_TRUE(emitter->set_time(2.0).ok());
  ASSERT_TRUE(system.execute(dt).ok());
  EXPECT_NE(row_records(system, emitter->id(), words()), forwards);
}

// The notebook's retroactive line: particles emitted only before t = 0 along x = 30 t. At t = 0
// every visible particle is already out on the line (x < 0), spread over several metres.
TEST_F(StatelessTest, TheRetroactiveLineIsSpreadAtTimeZero) {
  const CompiledEffect line = load_effect("stateless/retroactive_line.json");
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 2});
  auto emitter = system.add_stateless_emitter(line, {.seed = 3});
  ASSERT_TRUE(emitter.ok()) << emitter.error().to_string();
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  const uint32_t w = vm_particle_record_words(line.program);
  const std::vector<uint32_t> records = row_records(system, emitter->id(), w);
  ASSERT_EQ(records.size(), size_t(emitter->count()) * w);
  const uint32_t x_word = *line.program.particle_field_offset("position");
  const uint32_t size_word = *line.program.particle_field_offset("size");
  float lo = 0.0f, hi = -1e30f;
  uint32_t visible = 0;
  for (size_t at = 0; at < records.size(); at += w) {
    if (std::bit_cast<float>(records[at + size_word]) <= 0.0f) continue;
    ++visible;
    const float x = std::bit_cast<float>(records[at + x_word]);
    EXPECT_LE(x, 0.5f);  // x = 30 t_emit + the zone (0.5) + the launch's (at most 1.5 m/s)
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_GT(visible, emitter->count() / 4);
  EXPECT_LT(lo, -30.0f);  // emitted more than a second before t = 0
  EXPECT_GT(hi, -10.0f);  // and some just before
  auto ref = evaluate_stateless(line, {.seed = 3}, 0.0);
  ASSERT_TRUE(ref.ok());
  expect_near_reference(records, *ref);
}

TEST_F(StatelessTest, BadInputIsRefused) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  auto emitter = system.add_stateless_emitter(fountain_, desc_);
  ASSERT_TRUE(emitter.ok());
  ASSERT_TRUE(emitter->set_time(1.5).ok());
  ASSERT_TRUE(emitter->set_time_scale(-2.0).ok());
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity()}) {
    expect_refused(emitter->set_time(bad), ErrorCode::kInvalidArgument);
    expect_refused(emitter->set_time_scale(bad), ErrorCode::kInvalidArgument);
    expect_refused(evaluate_stateless(fountain_, desc_, bad), ErrorCode::kInvalidArgument);
  }
  EXPECT_EQ(emitter->time(), 1.5);  // unchanged
  EXPECT_EQ(emitter->time_scale(), -2.0);
  // What a stateless emitter does not take.
  EXPECT_FALSE(system.burst(emitter->id(), 5).ok());
  EXPECT_FALSE(system.manual_emitter(emitter->id()).ok());
  expect_refused(system.swap_effect(emitter->id(), load_effect("fire.json")), ErrorCode::kUnsupported);
  expect_refused(system.set_driver(emitter->id(), Driver::kGpu), ErrorCode::kUnsupported);
  expect_refused(system.detach_driver(emitter->id()), ErrorCode::kUnsupported);
  expect_refused(system.set_emitter_position(emitter->id(), {0, 0, 0}), ErrorCode::kUnsupported);
  // A stateful effect is not a stateless emitter's; the pool must hold the capacity.
  expect_refused(system.add_stateless_emitter(load_effect("fire.json")), ErrorCode::kUnsupported);
  ParticleSystem& small = make_system({.capacity = 1024, .max_emitters = 2});
  expect_refused(small.add_stateless_emitter(fountain_), ErrorCode::kInvalidArgument);
}

TEST_F(StatelessTest, AddEmitterRoutesAStatelessEffectAndRemovalFreesIt) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 2});
  auto id = system.add_emitter(fountain_, desc_);
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  auto handle = system.stateless_emitter(*id);
  ASSERT_TRUE(handle.ok());
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  EXPECT_EQ(system.read_alive_count(*id).value(), 4096u);
  ASSERT_TRUE(system.remove_emitter(*id).ok());
  expect_refused(handle->set_time(1.0), ErrorCode::kInvalidArgument);
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive, 0u);
  expect_pool_whole(system);
}

}  // namespace
}  // namespace mote
