// The public runtime API (include/mote/particles.hpp) end to end on lavapipe with validation:
// only public headers drive the system; tests/support captures validation messages.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "api_fixture.hpp"
#include "mote/effect.hpp"
#include "mote/particles.hpp"
#include "mote/simulation.hpp"  // header_row, header_generation
#include "mote/vulkan_interop.hpp"

namespace mote {
namespace {

using test::ApiTest;
using test::load_effect;

TEST_F(ApiTest, EmittersSpawnDieAndAreRemovedThroughThePublicApi) {
  ParticleSystem& system = make_system({.capacity = 4096, .record_words = 32, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto id = system.add_emitter(fire, {.seed = 7});
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  for (int f = 0; f < 30; ++f) ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_GT(stats.value().alive, 0u);
  EXPECT_EQ(stats.value().alive + stats.value().free, system.capacity());
  EXPECT_EQ(stats.value().frames, 30u);

  const uint32_t alive_before = stats.value().alive;
  ASSERT_TRUE(system.remove_emitter(id.value()).ok());
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats.value().alive, 0u);
  EXPECT_EQ(stats.value().orphaned, alive_before);
  // The id is stale now: refused, not applied to whatever takes the row next.
  EXPECT_FALSE(system.burst(id.value(), 10).ok());
  auto again = system.add_emitter(fire, {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().row, id.value().row);
  EXPECT_NE(again.value().generation, id.value().generation);
  EXPECT_FALSE(system.remove_emitter(id.value()).ok());
  EXPECT_TRUE(system.remove_emitter(again.value()).ok());
}

// The smoke preset pre-warms 4 s: through the public API its first frame already holds the
// population (the GPU pre-warm), its emitter's clock reads the pre-warm, and its box is measured;
// with a camera looking away and culling on, a fresh emitter still pre-warms (culling is for
// spawning in frames), and clearing the camera culls nothing.
TEST_F(ApiTest, PrewarmBoundsAndTheCameraThroughThePublicApi) {
  ParticleSystem& system = make_system({.capacity = 8192, .record_words = 32, .max_emitters = 4});
  const CompiledEffect smoke = load_effect("smoke.json");
  ASSERT_GT(smoke.emission.prewarm_seconds, 0.0f);
  auto id = system.add_emitter(smoke, {.seed = 5});
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_GT(stats->prewarmed, 50u);
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
  ASSERT_EQ(stats->emitters.size(), 1u);
  EXPECT_EQ(stats->emitters[0].first.row, id->row);
  const EmitterBounds& box = stats->emitters[0].second;
  EXPECT_EQ(box.alive, stats->alive);
  EXPECT_FALSE(box.empty());
  EXPECT_LT(box.min[1], box.max[1]);
  auto state = system.read_emitter_state(id.value());
  ASSERT_TRUE(state.ok());
  EXPECT_GE(state->age, smoke.emission.prewarm_seconds);
  EXPECT_EQ(state->bounds.alive, stats->alive);
  // A camera far below looking down culls nothing here (smoke does not opt in), and clears.
  system.set_camera({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5f, 1, 0, 0, 0.5f, 1});
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  system.clear_camera();
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->prewarmed, 0u);
  EXPECT_GT(stats->newborns, 0u);
}

TEST_F(ApiTest, BurstsGoThroughTheBudget) {
  ParticleSystem& system = make_system({.capacity = 256, .record_words = 32, .max_emitters = 2, .max_transforms = 0});
  const CompiledEffect debris = load_effect("debris.json");  // bursts only, no rate
  auto id = system.add_emitter(debris, {});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  ASSERT_TRUE(system.burst(id.value(), 1000).ok());  // more than the pool holds
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_LE(stats.value().alive, 256u);
  EXPECT_GT(stats.value().dropped, 0u);
  EXPECT_EQ(stats.value().alive + stats.value().free, 256u);
}

TEST_F(ApiTest, EmittersStandAtTransformsAndDrawBuffersAreExposed) {
  ParticleSystem& system = make_system({.capacity = 2048, .record_words = 32, .max_emitters = 2, .max_transforms = 8});
  auto parent = system.add_transform();
  ASSERT_TRUE(parent.ok());
  auto child = system.add_transform(parent.value());
  ASSERT_TRUE(child.ok());
  ASSERT_TRUE(system.set_transform(parent.value(), {10.0f, 0.0f, 0.0f}, {0, 0, 0, 1}).ok());
  ASSERT_TRUE(system.set_transform(child.value(), {0.0f, 2.0f, 0.0f}, {0, 0, 0, 1}).ok());
  auto id = system.add_emitter(load_effect("sparkles.json"), {.transform = child.value()});
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  EXPECT_FALSE(system.add_emitter(load_effect("sparkles.json"), {.transform = TransformId{7}}).ok());
  for (int f = 0; f < 10; ++f) ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  ASSERT_TRUE(system.wait_idle().ok());
  const ParticleDrawBuffers buffers = draw_buffers(system);
  EXPECT_NE(buffers.pool, VK_NULL_HANDLE);
  EXPECT_NE(buffers.alive, VK_NULL_HANDLE);
  EXPECT_NE(buffers.counters, VK_NULL_HANDLE);
  EXPECT_EQ(buffers.record_words, 32u);
  EXPECT_EQ(buffers.capacity, 2048u);
  EXPECT_GT(buffers.frame_serial, 0u);
  const VulkanContext vk = vulkan_context(*context_);
  EXPECT_NE(vk.device, VK_NULL_HANDLE);
  EXPECT_NE(vk.timeline, VK_NULL_HANDLE);
  uint64_t reached = 0;
  ASSERT_EQ(vkGetSemaphoreCounterValue(vk.device, vk.timeline, &reached), VK_SUCCESS);
  EXPECT_GE(reached, buffers.frame_serial);
  EXPECT_FALSE(system.remove_transform(parent.value()).ok());  // it still has a child
  // The child is where the emitter stands: refused, with the reason, until the emitter goes.
  auto refused = system.remove_transform(child.value());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("stands"), std::string::npos) << refused.error().message;
  ASSERT_TRUE(system.remove_emitter(id.value()).ok());
  EXPECT_TRUE(system.remove_transform(child.value()).ok());
  EXPECT_TRUE(system.remove_transform(parent.value()).ok());
  EXPECT_TRUE(system.execute(1.0f / 60.0f).ok());
}

TEST_F(ApiTest, BadDescriptionsAreErrors) {
  EXPECT_FALSE(ParticleSystem::create(*context_, {.capacity = 0}).ok());
  EXPECT_FALSE(ParticleSystem::create(*context_, {.capacity = 16, .record_words = 1}).ok());
  ParticleSystem& system = make_system({.capacity = 64, .record_words = 32, .max_emitters = 1, .max_transforms = 0});
  EXPECT_FALSE(system.add_transform().ok());
  EXPECT_FALSE(system.burst(EmitterId{}, 1).ok());
  const CompiledEffect fire = load_effect("fire.json");
  ASSERT_TRUE(system.add_emitter(fire, {}).ok());
  auto full = system.add_emitter(fire, {});
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().code, ErrorCode::kOutOfMemory);
}

TEST_F(ApiTest, ReadbacksGiveTheAliveRecordsTheirBirthSerialsAndTheEmitterClock) {
  const CompiledEffect fire = load_effect("fire.json");
  const uint32_t own = fire.program.particle_record_words();
  ParticleSystem& system = make_system(
      {.capacity = 2048, .record_words = own + 1, .max_emitters = 2, .max_transforms = 0, .serial_word = own});
  auto id = system.add_emitter(fire, {.seed = 3});
  ASSERT_TRUE(id.ok()) << id.error().to_string();
  auto before = system.read_emitter_state(id.value());  // no frame yet: the emitter has not started
  ASSERT_TRUE(before.ok()) << before.error().to_string();
  EXPECT_EQ(before.value().age, 0.0f);
  EXPECT_EQ(before.value().spawned, 0u);

  uint64_t born = 0;
  ParticleStats last;
  for (int f = 0; f < 20; ++f) {
    ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    born += stats.value().newborns;
    last = stats.value();
  }
  ASSERT_GT(last.alive, 0u);
  auto state = system.read_emitter_state(id.value());
  ASSERT_TRUE(state.ok()) << state.error().to_string();
  EXPECT_NEAR(state.value().age, 20.0f / 60.0f, 1e-5f);
  EXPECT_EQ(state.value().spawned, born);
  EXPECT_EQ(state.value().newborns, last.newborns);

  auto alive = system.read_alive_records();
  ASSERT_TRUE(alive.ok()) << alive.error().to_string();
  const AliveRecords& r = alive.value();
  EXPECT_EQ(r.record_words, own + 1);
  ASSERT_EQ(r.slots.size(), last.alive);
  ASSERT_EQ(r.records.size(), size_t(last.alive) * r.record_words);
  std::set<uint32_t> slots, serials;
  for (size_t i = 0; i < r.slots.size(); ++i) {
    const uint32_t* record = r.records.data() + i * r.record_words;
    EXPECT_EQ(header_row(record[0]), id.value().row);
    EXPECT_EQ(header_generation(record[0]), id.value().generation);
    EXPECT_LT(record[own], born);  // a serial the emitter handed out
    slots.insert(r.slots[i]);
    serials.insert(record[own]);
    EXPECT_LT(r.slots[i], system.capacity());
  }
  EXPECT_EQ(slots.size(), r.slots.size()) << "a slot appears twice in the alive list";
  EXPECT_EQ(serials.size(), r.slots.size()) << "two live particles share a birth serial";

  ASSERT_TRUE(system.remove_emitter(id.value()).ok());
  auto stale = system.read_emitter_state(id.value());
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, ErrorCode::kInvalidArgument);
}

TEST_F(ApiTest, ASerialWordInsideTheFieldsIsRefused) {
  ParticleSystem& system =
      make_system({.capacity = 64, .record_words = 32, .max_emitters = 1, .max_transforms = 0, .serial_word = 1});
  auto refused = system.add_emitter(load_effect("fire.json"), {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(ParticleSystem::create(*context_, {.capacity = 64, .record_words = 32, .serial_word = 32}).ok());
}

// A stateless effect runs on the stateless driver only (docs/design/drivers.md): add_emitter
// routes it there; the manual and cpu emitters, swap_effect and mote::Simulation, which have no
// way to run it, refuse it rather than drawing nothing.
TEST_F(ApiTest, AStatelessEffectIsRefusedWhereNoDriverRunsIt) {
  Result<CompiledEffect> stateless = compile_effect(R"({"name": "s", "stateless": true,
    "particle_fields": [{"name": "position", "width": 3}], "emission": {"capacity": 64},
    "eval": {"nodes": [{"id": "t", "type": "builtin", "params": {"name": "time"}},
      {"id": "p", "type": "combine", "inputs": {"x": "t", "y": 0, "z": 0}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "p"}}]}})");
  ASSERT_TRUE(stateless.ok()) << stateless.error().to_string();
  ParticleSystem& system = make_system({.capacity = 1024, .max_emitters = 4});
  auto added = system.add_emitter(stateless.value());
  ASSERT_TRUE(added.ok()) << added.error().to_string();
  auto driver = system.driver(*added);
  ASSERT_TRUE(driver.ok()) << driver.error().to_string();
  EXPECT_EQ(*driver, Driver::kStateless);
  EXPECT_FALSE(system.add_manual_emitter(stateless.value(), 16).ok());
  EXPECT_FALSE(system.add_cpu_emitter(stateless.value()).ok());
  auto fire = system.add_emitter(load_effect("fire.json"));
  ASSERT_TRUE(fire.ok());
  auto swapped = system.swap_effect(*fire, stateless.value());
  ASSERT_FALSE(swapped.ok());
  EXPECT_EQ(swapped.error().code, ErrorCode::kUnsupported);
  auto simulation = Simulation::create(stateless.value(), {});
  ASSERT_FALSE(simulation.ok());
  EXPECT_EQ(simulation.error().code, ErrorCode::kUnsupported);
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());  // the fire is untouched; the stateless one draws its 64
  auto count = system.read_alive_count(*added);
  ASSERT_TRUE(count.ok()) << count.error().to_string();
  EXPECT_EQ(*count, 64u);
}

}  // namespace
}  // namespace mote
