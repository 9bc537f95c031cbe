// The cpu driver's pieces of the reference simulation (docs/design/drivers.md, "The cpu driver"):
// UPDATE on worker threads gives the same particles, kills and events bit for bit as on one
// thread; adopt() takes over a live emitter's records and clock, so a simulation that adopts
// another's state goes on exactly as the other does; bad input is refused with nothing changed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"

namespace mote {
namespace {

CompiledEffect preset(const std::string& name) {
  std::ifstream f(std::string(MOTE_EFFECTS_DIR) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  auto effect = compile_effect(text.str());
  EXPECT_TRUE(effect.ok()) << name << ": " << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
}

// A high rate (when the effect exposes one) so thousands live, in many runs of the pool.
SimulationOptions options_for(const CompiledEffect& effect, uint32_t threads) {
  SimulationOptions o{.capacity = 8192, .executor = SimulationExecutor::kBatch, .prewarm = false, .threads = threads};
  o.emitter.seed = 9;
  if (effect.program.emitter_field_offset("rate")) o.emitter.fields = {{"rate", {4000.0f}}};
  return o;
}

// Fire at a high rate (thousands alive, split into many runs) and the fireworks spark, whose
// UPDATE sends events: every step's pool, alive list and sent events equal the one-thread run's.
TEST(SimulationThreads, UpdateOnWorkerThreadsGivesTheSameParticles) {
  for (const char* name : {"fire.json", "fireworks_spark.json"}) {
    SCOPED_TRACE(name);
    const CompiledEffect effect = preset(name);
    auto one = Simulation::create(effect, options_for(effect, 1));
    auto many = Simulation::create(effect, options_for(effect, 4));
    auto all = Simulation::create(effect, options_for(effect, 0));
    ASSERT_TRUE(one.ok() && many.ok() && all.ok());
    size_t events = 0;
    for (int step = 0; step < 120; ++step) {
      SCOPED_TRACE(step);
      auto a = one->step();
      auto b = many->step();
      auto c = all->step();
      ASSERT_TRUE(a.ok() && b.ok() && c.ok());
      ASSERT_EQ(a->alive, b->alive);
      ASSERT_EQ(a->killed, b->killed);
      ASSERT_EQ(one->alive_slots(), many->alive_slots());
      ASSERT_EQ(one->pool(), many->pool());
      ASSERT_EQ(one->pool(), all->pool());
      ASSERT_EQ(one->sent_events().size(), many->sent_events().size());
      for (size_t i = 0; i < one->sent_events().size(); ++i) {
        ASSERT_EQ(one->sent_events()[i].output, many->sent_events()[i].output);
        ASSERT_EQ(one->sent_events()[i].count, many->sent_events()[i].count);
        ASSERT_EQ(one->sent_events()[i].payload, many->sent_events()[i].payload);
      }
      events += one->sent_events().size();
    }
    if (effect.program.emitter_field_offset("rate")) {
      EXPECT_GT(one->alive_count(), 500u);
    }
    if (std::string(name) == "fireworks_spark.json") {
      EXPECT_GT(events, 0u) << "the sparks' events were compared";
    }
  }
}

// A simulation that adopts another's live records (in its alive order) and clock after 50 steps
// goes on exactly as that one does: same alive count, records bit for bit in order.
TEST(SimulationAdopt, AnAdoptedEmitterGoesOnAsTheOriginal) {
  const CompiledEffect effect = preset("smoke.json");
  SimulationOptions options = options_for(effect, 1);
  options.emitter.fields.clear();
  auto original = Simulation::create(effect, options);
  auto adopter = Simulation::create(effect, options);
  ASSERT_TRUE(original.ok() && adopter.ok());
  for (int step = 0; step < 50; ++step) ASSERT_TRUE(original->step().ok());
  const uint32_t words = original->record_words();
  std::vector<uint32_t> records;
  for (uint32_t slot : original->alive_slots())
    records.insert(records.end(), original->pool().begin() + ptrdiff_t(size_t(slot) * words),
                   original->pool().begin() + ptrdiff_t(size_t(slot + 1) * words));
  ASSERT_FALSE(records.empty());
  const SimulationClock clock = original->clock();
  EXPECT_EQ(clock.ticks, 50u);
  ASSERT_TRUE(adopter->adopt(records, clock).ok());
  EXPECT_EQ(adopter->alive_count(), original->alive_count());
  EXPECT_EQ(adopter->clock().born, clock.born);
  EXPECT_EQ(adopter->emitter_age(), original->emitter_age());
  for (int step = 0; step < 60; ++step) {
    SCOPED_TRACE(step);
    auto a = original->step();
    auto b = adopter->step();
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->alive, b->alive);
    ASSERT_EQ(a->spawned, b->spawned);
    // Records in alive-list order (the slots differ: the adopter packed them from 0).
    ASSERT_EQ(original->field("position").value(), adopter->field("position").value());
    ASSERT_EQ(original->field("age").value(), adopter->field("age").value());
    ASSERT_EQ(original->field("color").value(), adopter->field("color").value());
  }
}

TEST(SimulationAdopt, BadRecordsAreRefusedAndNothingChanges) {
  const CompiledEffect effect = preset("fire.json");
  auto sim = Simulation::create(effect, {.capacity = 4, .executor = SimulationExecutor::kBatch, .prewarm = false});
  ASSERT_TRUE(sim.ok());
  ASSERT_TRUE(sim->step().ok());
  const std::vector<uint32_t> pool = sim->pool();
  const uint32_t words = sim->record_words();
  EXPECT_EQ(sim->adopt(std::vector<uint32_t>(words + 1, 0u), {}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(sim->adopt(std::vector<uint32_t>(5 * words, 0u), {}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(sim->pool(), pool);
  // An empty adoption empties the pool and sets the clock.
  ASSERT_TRUE(sim->adopt({}, {.age = 2.0f, .accumulator = 0.5f, .born = 77, .ticks = 120}).ok());
  EXPECT_EQ(sim->alive_count(), 0u);
  EXPECT_EQ(sim->free_count(), 4u);
  EXPECT_EQ(sim->clock().born, 77u);
  EXPECT_EQ(sim->emitter_age(), 2.0f);
}

}  // namespace
}  // namespace mote
