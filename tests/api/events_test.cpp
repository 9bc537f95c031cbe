// Events through the public API (mote/particle_events.hpp, docs/design/events.md): the fireworks
// presets bound by output name burst every rocket into its 60 sparks on the GPU, the sparks'
// deaths crackle; unbound the same rockets spawn nothing; errors name the argument; a removed
// target takes its bindings with it.
#include <gtest/gtest.h>

#include "api_fixture.hpp"
#include "mote/particle_events.hpp"
#include "mote/particles.hpp"

namespace mote {
namespace {

using test::ApiTest;
using test::load_effect;

TEST_F(ApiTest, FireworksBurstIntoSparksThroughBoundEvents) {
  ParticleSystem& system = make_system({.capacity = 8192, .record_words = 32, .max_emitters = 4});
  auto rocket = system.add_emitter(load_effect("fireworks_rocket.json"), {.seed = 5});
  auto spark = system.add_emitter(load_effect("fireworks_spark.json"), {.seed = 6});
  auto crackle = system.add_emitter(load_effect("fireworks_crackle.json"), {.seed = 7});
  ASSERT_TRUE(rocket.ok() && spark.ok() && crackle.ok());
  ASSERT_TRUE(bind_event(system, *rocket, "burst", *spark).ok());
  ASSERT_TRUE(bind_event(system, *spark, "crackle", *crackle).ok());
  uint64_t bursts = 0, sparks = 0, crackle_events = 0, crackles = 0, dropped = 0;
  for (int frame = 0; frame < 480; ++frame) {
    ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
    auto r = read_emitter_events(system, *rocket);
    auto s = read_emitter_events(system, *spark);
    auto c = read_emitter_events(system, *crackle);
    auto queue = read_event_queue(system);
    ASSERT_TRUE(r.ok() && s.ok() && c.ok() && queue.ok());
    bursts += r->sent;
    sparks += s->spawned;
    crackle_events += s->sent;
    crackles += c->spawned;
    dropped += s->spawns_dropped + c->spawns_dropped + queue->dropped;
    EXPECT_EQ(queue->capacity, 8192u);
  }
  EXPECT_EQ(bursts, 12u);  // every rocket once, at its apex
  EXPECT_EQ(sparks, 60u * bursts);
  EXPECT_GT(crackle_events, sparks / 4);
  EXPECT_LT(crackle_events, sparks * 3 / 4);
  EXPECT_EQ(crackles, crackle_events);
  EXPECT_EQ(dropped, 0u);
}

TEST_F(ApiTest, UnboundOutputsAreInertAndBadBindingsNameTheArgument) {
  ParticleSystem& system = make_system({.capacity = 4096, .record_words = 32, .max_emitters = 4});
  auto rocket = system.add_emitter(load_effect("fireworks_rocket.json"), {.seed = 5});
  auto spark = system.add_emitter(load_effect("fireworks_spark.json"), {.seed = 6});
  ASSERT_TRUE(rocket.ok() && spark.ok());
  for (int frame = 0; frame < 240; ++frame) ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  for (const auto& [id, bounds] : stats->emitters) {
    if (id.row == spark->row) {
      EXPECT_EQ(bounds.alive, 0u) << "no binding: no sparks";
    }
  }
  auto unrouted = read_emitter_events(system, *spark);
  ASSERT_TRUE(unrouted.ok());
  EXPECT_EQ(unrouted->received, 0u);

  EXPECT_EQ(bind_event(system, *rocket, "nope", *spark).error().where, "output");
  EXPECT_EQ(bind_event(system, *rocket, 1u, *spark).error().where, "output");  // it declares one
  ASSERT_TRUE(bind_event(system, *rocket, 0u, *spark).ok());
  EXPECT_EQ(bind_event(system, *rocket, "burst", *spark).error().where, "target");  // bound already
  EXPECT_TRUE(unbind_event(system, *rocket, 0u, *spark).ok());
  EXPECT_FALSE(unbind_event(system, *rocket, 0u, *spark).ok());
  ASSERT_TRUE(bind_event(system, *rocket, 0u, *spark).ok());
  ASSERT_TRUE(system.remove_emitter(*spark).ok());
  EXPECT_EQ(bind_event(system, *rocket, 0u, *spark).error().where, "target");  // stale id
  EXPECT_EQ(bind_event(system, *spark, 0u, *rocket).error().where, "source");
  auto again = system.add_emitter(load_effect("fireworks_spark.json"), {.seed = 6});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(unbind_event(system, *rocket, 0u, *again).ok()) << "the removal took the binding with it";
}

}  // namespace
}  // namespace mote
