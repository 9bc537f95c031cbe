// The GPU frame beside the reference simulation (mote/compare.hpp) on lavapipe with validation:
// what `mote simulate --gpu` and `--compare` use.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api_fixture.hpp"
#include "mote/compare.hpp"
#include "mote/simulation.hpp"

namespace mote {
namespace {

using test::ApiTest;
using test::load_effect;

TEST_F(ApiTest, TheGpuSimulationReportsFramesAsTheReferenceDoes) {
  const CompiledEffect fire = load_effect("fire.json");
  auto gpu = GpuSimulation::create(context(), fire, {.emitter = {.seed = 5}});
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  GpuSimulation& g = *gpu.value();
  EXPECT_EQ(g.capacity(), fire.emission.capacity_hint);
  EXPECT_EQ(g.record_words(), fire.program.particle_record_words());
  EXPECT_EQ(g.serial_word(), 0u);
  auto reference = Simulation::create(fire, {.emitter = {.seed = 5}, .prewarm = false});
  ASSERT_TRUE(reference.ok()) << reference.error().to_string();
  for (uint32_t f = 0; f < 20; ++f) {
    auto a = g.step();
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    auto b = reference.value().step();
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(a.value().frame, f);
    EXPECT_EQ(a.value().alive, b.value().alive) << "frame " << f;
    EXPECT_EQ(a.value().spawned, b.value().spawned) << "frame " << f;
    EXPECT_EQ(a.value().killed, b.value().killed) << "frame " << f;
    EXPECT_NEAR(a.value().emitter_age, b.value().emitter_age, 1e-5f);
    ASSERT_EQ(a.value().has_bounds, b.value().has_bounds) << "frame " << f;
    // The bounds are measured from the records read back (keep_records is off: only for them).
    EXPECT_EQ(g.records().slots.size(), a.value().has_bounds ? a.value().alive : 0u);
    for (int c = 0; c < 3 && a.value().has_bounds; ++c) {
      EXPECT_NEAR(a.value().bounds_min[c], b.value().bounds_min[c], 1e-4f);
      EXPECT_NEAR(a.value().bounds_max[c], b.value().bounds_max[c], 1e-4f);
    }
  }
  EXPECT_EQ(g.frames(), 20u);
}

TEST_F(ApiTest, TheComparisonMatchesEveryParticleOfThePresets) {
  for (const char* name : {"fire.json", "explosion.json"}) {
    SCOPED_TRACE(name);
    const CompiledEffect effect = load_effect(name);
    auto gpu = GpuSimulation::create(context(), effect, {.birth_serials = true, .keep_records = true});
    ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
    EXPECT_EQ(gpu.value()->serial_word(), effect.program.particle_record_words());
    auto comparison = ReferenceComparison::create(std::move(gpu).value());
    ASSERT_TRUE(comparison.ok()) << comparison.error().to_string();
    uint64_t gpu_particles = 0;
    for (uint32_t f = 0; f < 30; ++f) {
      auto c = comparison.value()->step();
      ASSERT_TRUE(c.ok()) << c.error().to_string();
      EXPECT_EQ(c.value().frame, f);
      EXPECT_FALSE(c.value().differences.any()) << "frame " << f;
      gpu_particles += c.value().gpu.alive;
    }
    const ComparisonSummary& s = comparison.value()->summary();
    EXPECT_TRUE(s.agrees());
    EXPECT_EQ(s.frames, 30u);
    EXPECT_EQ(s.records_compared, gpu_particles);  // every GPU particle found its twin
    EXPECT_GT(s.records_compared, 0u);
    ASSERT_EQ(s.max_deviation.size(), effect.program.particle_fields.size());
    for (const FieldDeviation& d : s.max_deviation) {
      EXPECT_LT(d.relative, 1e-3) << d.field;
      EXPECT_FALSE(d.nan_mismatch) << d.field;
    }
  }
}

// The wind (ParticleSystem::set_wind, docs/design/wind.md) reaches the GPU frame's SAMPLE_WIND as
// it reaches the reference's: particles that follow a gusty, turbulent wind match particle by
// particle, and they did move with it.
TEST_F(ApiTest, TheWindMovesGpuParticlesAsItMovesTheReference) {
  auto effect = compile_effect(R"({"name": "w",
    "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3}],
    "emission": {"rate": 120, "capacity": 256},
    "init": {"nodes": [{"id": "e", "type": "emit_sphere", "inputs": {"radius": 0.5}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "e.position"}}]},
    "update": {"nodes": [
      {"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "w", "type": "wind", "inputs": {"position": "p"}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "w"}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "m.position"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "m.velocity"}}]}})");
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  const Wind wind{.velocity = {3.0f, 0.0f, 1.0f},
                  .gust_strength = 0.5f,
                  .gust_period = 0.25f,
                  .turbulence_amplitude = 1.5f,
                  .turbulence_frequency = 2.0f,
                  .turbulence_scroll = 0.5f};
  auto gpu = GpuSimulation::create(context(), *effect, {.birth_serials = true, .keep_records = true, .wind = wind});
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  auto comparison = ReferenceComparison::create(std::move(gpu).value());
  ASSERT_TRUE(comparison.ok()) << comparison.error().to_string();
  FrameReport last;
  for (uint32_t f = 0; f < 30; ++f) {
    auto c = comparison.value()->step();
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_FALSE(c.value().differences.any()) << "frame " << f;
    last = c.value().gpu;
  }
  const ComparisonSummary& s = comparison.value()->summary();
  EXPECT_TRUE(s.agrees());
  EXPECT_GT(s.records_compared, 0u);
  for (const FieldDeviation& d : s.max_deviation) EXPECT_LT(d.relative, 1e-3) << d.field;
  // Half a second of a 3 m/s wind along +X carried the oldest particles well past the sphere.
  ASSERT_TRUE(last.has_bounds);
  EXPECT_GT(last.bounds_max[0], 1.0f);
  // A bad wind is refused by name before anything runs.
  auto bad = GpuSimulation::create(context(), *effect, {.wind = {.gust_strength = 2.0f}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("gust_strength"), std::string::npos) << bad.error().message;
}

// An authored vector field (ParticleSystem::set_vector_field, docs/design/vector_field.md) moves the
// GPU frame's particles as it moves the reference's: a swirl about the y axis with a drift along
// +X, sampled by a vector_field node and integrated; the particles match one for one, and the
// drift carried them. Five fields are refused by name.
TEST_F(ApiTest, AVectorFieldMovesGpuParticlesAsItMovesTheReference) {
  auto effect = compile_effect(R"({"name": "f", "vector_fields": ["flow"],
    "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3}],
    "emission": {"rate": 120, "capacity": 256},
    "init": {"nodes": [{"id": "e", "type": "emit_sphere", "inputs": {"radius": 0.5}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "e.position"}}]},
    "update": {"nodes": [
      {"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "w", "type": "vector_field", "params": {"field": "flow"}, "inputs": {"position": "p"}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "w"}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "m.position"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "m.velocity"}}]}})");
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  VectorField flow{.size = {6, 5, 6}, .box_min = {-3, -2, -3}, .box_max = {4, 2, 3}, .vectors = {}};
  for (uint32_t k = 0; k < 6; ++k)
    for (uint32_t j = 0; j < 5; ++j)
      for (uint32_t i = 0; i < 6; ++i) {
        const float x = -3.0f + 7.0f * float(i) / 5.0f, z = -3.0f + 6.0f * float(k) / 5.0f;
        flow.vectors.insert(flow.vectors.end(), {3.0f - z, 0.25f * float(j), 1.0f + x});
      }
  auto gpu = GpuSimulation::create(context(), *effect,
                                   {.birth_serials = true, .keep_records = true, .vector_fields = {flow}});
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  auto comparison = ReferenceComparison::create(std::move(gpu).value());
  ASSERT_TRUE(comparison.ok()) << comparison.error().to_string();
  FrameReport last;
  for (uint32_t f = 0; f < 30; ++f) {
    auto c = comparison.value()->step();
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_FALSE(c.value().differences.any()) << "frame " << f;
    last = c.value().gpu;
  }
  const ComparisonSummary& s = comparison.value()->summary();
  EXPECT_TRUE(s.agrees());
  EXPECT_GT(s.records_compared, 0u);
  for (const FieldDeviation& d : s.max_deviation) EXPECT_LT(d.relative, 1e-3) << d.field;
  ASSERT_TRUE(last.has_bounds);
  EXPECT_GT(last.bounds_max[0], 1.0f);  // half a second at about 3 m/s along +X
  auto five = GpuSimulation::create(context(), *effect, {.vector_fields = std::vector<VectorField>(5, flow)});
  ASSERT_FALSE(five.ok());
  EXPECT_EQ(five.error().where, "vector_fields");
}

// The GPU frame runs programs that send events (docs/design/events.md) as the reference runs
// them: a GpuSimulation binds none of its outputs, so every output is inert on both sides, and
// the particles agree one for one while the reference counts what was sent. (Bound events:
// events_test.cpp.)
TEST_F(ApiTest, AnEffectThatSendsEventsRunsOnTheGpuAsTheReferenceRunsIt) {
  auto effect = compile_effect(R"({"name": "sender", "event_outputs": ["born", "died"],
    "particle_fields": [{"name": "position", "width": 3}, {"name": "age", "width": 1}],
    "emission": {"rate": 240, "capacity": 512},
    "init": {"nodes": [{"id": "e", "type": "emit_sphere", "inputs": {"radius": 0.5}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "e.position"}},
      {"id": "b", "type": "send_event", "params": {"output": "born"}, "inputs": {"count": 2}}]},
    "update": {"nodes": [
      {"id": "a", "type": "get_field", "params": {"field": "age"}},
      {"id": "o", "type": "age_step", "inputs": {"age": "a"}},
      {"id": "d", "type": "compare", "params": {"op": "ge"}, "inputs": {"a": "o", "b": 0.1}},
      {"id": "n", "type": "mul", "inputs": {"a": "d", "b": 3}},
      {"id": "sa", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "o"}},
      {"id": "k", "type": "kill_if", "inputs": {"condition": "d"}},
      {"id": "x", "type": "send_event", "params": {"output": "died"}, "inputs": {"count": "n"}}]}})");
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  ASSERT_EQ(effect->event_outputs.size(), 2u);
  auto gpu = GpuSimulation::create(context(), *effect, {.birth_serials = true, .keep_records = true});
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  auto comparison = ReferenceComparison::create(std::move(gpu).value());
  ASSERT_TRUE(comparison.ok()) << comparison.error().to_string();
  uint32_t sent = 0, killed = 0;
  for (uint32_t f = 0; f < 20; ++f) {
    auto c = comparison.value()->step();
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_FALSE(c.value().differences.any()) << "frame " << f;
    sent += c.value().reference.events_sent;
    killed += c.value().gpu.killed;
  }
  EXPECT_TRUE(comparison.value()->summary().agrees());
  EXPECT_GT(killed, 0u);
  EXPECT_GT(sent, killed);  // a "born" event per newborn, a "died" one per death
}

TEST_F(ApiTest, TheComparisonNeedsBirthSerialsRecordsAndAFreshStart) {
  const CompiledEffect fire = load_effect("fire.json");
  auto plain = GpuSimulation::create(context(), fire, {.keep_records = true});
  ASSERT_TRUE(plain.ok());
  auto no_serials = ReferenceComparison::create(std::move(plain).value());
  ASSERT_FALSE(no_serials.ok());
  EXPECT_EQ(no_serials.error().code, ErrorCode::kInvalidArgument);

  auto stepped = GpuSimulation::create(context(), fire, {.birth_serials = true, .keep_records = true});
  ASSERT_TRUE(stepped.ok());
  ASSERT_TRUE(stepped.value()->step().ok());
  auto late = ReferenceComparison::create(std::move(stepped).value());
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, ErrorCode::kInvalidArgument);

  EXPECT_FALSE(ReferenceComparison::create(nullptr).ok());
  auto bad_override = GpuSimulation::create(context(), fire, {.emitter = {.fields = {{"no_such_field", {1.0f}}}}});
  EXPECT_FALSE(bad_override.ok());
}

}  // namespace
}  // namespace mote
