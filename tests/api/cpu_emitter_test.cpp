// The cpu driver through the public API (docs/design/drivers.md, "The cpu driver"): a cpu-driven
// emitter gives the particles a GPU-driven one of the same effect and seed gives, on every preset
// of the standard particle; it draws exactly what its bytecode computed; its custom forces attract
// and collide as stated; a non-finite force is not applied; bad input is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/particle.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

bool same_bytes(const Particle& a, const Particle& b) { return std::memcmp(&a, &b, sizeof(Particle)) == 0; }

std::vector<float> sorted_ages(const std::vector<Particle>& particles) {
  std::vector<float> ages;
  for (const Particle& p : particles) ages.push_back(p.age);
  std::sort(ages.begin(), ages.end());
  return ages;
}

CompiledEffect without_prewarm(CompiledEffect effect) {
  effect.emission.prewarm_seconds = 0.0f;  // the GPU pre-warm matches the reference in distribution only
  return effect;
}

// Every preset whose record is the standard particle, for 300 frames: the cpu-driven emitter's
// count equals the GPU-driven one's every frame, and every 50th frame their particles' ages agree
// (sorted) within the GPU parity tolerance (1e-4 + 1e-4 |ref|).
TEST_F(ApiTest, ACpuEmitterMatchesAGpuEmitterOnEveryStandardPreset) {
  const char* presets[] = {"fire.json",           "smoke.json",         "snow.json",          "rain.json",
                           "sparkles.json",       "water_jet.json",     "explosion.json",     "debris.json",
                           "bonfire_embers.json", "bonfire_flame.json", "bonfire_smoke.json", "bonfire_soot.json"};
  for (const char* name : presets) {
    SCOPED_TRACE(name);
    const CompiledEffect effect = without_prewarm(load_effect(name));
    const uint32_t hint = std::max(effect.emission.capacity_hint, 64u);
    auto gpu_system = ParticleSystem::create(context(), {.capacity = hint, .max_emitters = 2});
    auto cpu_system = ParticleSystem::create(context(), {.capacity = 2 * hint + 64, .max_emitters = 2});
    ASSERT_TRUE(gpu_system.ok() && cpu_system.ok());
    auto gpu = (*gpu_system)->add_emitter(effect, {.seed = 17});
    auto cpu = (*cpu_system)->add_cpu_emitter(effect, {.emitter = {.seed = 17}, .max_count = hint});
    ASSERT_TRUE(gpu.ok() && cpu.ok()) << (cpu.ok() ? "" : cpu.error().to_string());
    for (int f = 0; f < 300; ++f) {
      ASSERT_TRUE((*gpu_system)->execute(kDt).ok());
      ASSERT_TRUE((*cpu_system)->execute(kDt).ok());
      auto gpu_count = (*gpu_system)->read_alive_count(*gpu);
      auto cpu_count = (*cpu_system)->read_alive_count(cpu->id());
      ASSERT_TRUE(gpu_count.ok() && cpu_count.ok());
      ASSERT_EQ(cpu_count.value(), gpu_count.value()) << "frame " << f;
      if (f % 50 != 49) continue;
      const std::vector<float> a = sorted_ages(drawn_particles(**gpu_system, gpu->row));
      const std::vector<float> b = sorted_ages(drawn_particles(**cpu_system, cpu->id().row));
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(b[i], a[i], 1e-4f + 1e-4f * std::fabs(a[i])) << "frame " << f;
    }
  }
}

// What it draws is exactly what its bytecode computed: the live records of a reference
// simulation on the batch VM, of the same effect and seed, in its alive order, bit for bit.
TEST_F(ApiTest, ACpuEmitterDrawsExactlyWhatItsBytecodeComputed) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto cpu = system.add_cpu_emitter(fire, {.emitter = {.seed = 5}, .max_count = 1024});
  ASSERT_TRUE(cpu.ok()) << cpu.error().to_string();
  auto reference =
      Simulation::create(fire, {.emitter = {.seed = 5}, .capacity = 1024, .executor = SimulationExecutor::kBatch});
  ASSERT_TRUE(reference.ok());
  for (int f = 0; f < 60; ++f) {
    ASSERT_TRUE(system.execute(kDt).ok());
    ASSERT_TRUE(reference->step(kDt).ok());
    if (f % 10 != 9) continue;
    const std::vector<Particle> drawn = drawn_particles(system, cpu->id().row);
    ASSERT_EQ(drawn.size(), reference->alive_count());
    const uint32_t stride = reference->record_words();
    for (size_t i = 0; i < drawn.size(); ++i) {
      Particle want;
      std::memcpy(static_cast<void*>(&want),
                  reference->pool().data() + size_t(reference->alive_slots()[i]) * stride + kParticleFirstWord,
                  sizeof(Particle));
      ASSERT_TRUE(same_bytes(drawn[i], want)) << "frame " << f << " particle " << i;
    }
  }
  EXPECT_EQ(cpu->rejected_forces(), 0u);
}

float mean_distance(const std::vector<Particle>& particles, const std::array<float, 3>& point) {
  double sum = 0.0;
  for (const Particle& p : particles)
    sum += std::hypot(p.position[0] - point[0], p.position[1] - point[1], p.position[2] - point[2]);
  return particles.empty() ? 0.0f : float(sum / double(particles.size()));
}

// An attractor (a critically damped spring to a point) pulls the swarm in: after 2 s its mean
// distance to the point is under half the free swarm's (the same effect and seed, no force).
TEST_F(ApiTest, AnAttractorForcePullsACpuSwarmIn) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect smoke = without_prewarm(load_effect("smoke.json"));
  const std::array<float, 3> point{3.0f, 1.0f, 0.0f};
  const CustomForce attract = [point](const Particle& p, const SceneView&) {
    std::array<float, 3> f{};
    for (int c = 0; c < 3; ++c) f[c] = 16.0f * (point[c] - p.position[c]) - 8.0f * p.velocity[c];
    return f;
  };
  auto pulled = system.add_cpu_emitter(smoke, {.emitter = {.seed = 8}, .max_count = 1024, .forces = {attract}});
  auto free = system.add_cpu_emitter(smoke, {.emitter = {.seed = 8}, .max_count = 1024});
  ASSERT_TRUE(pulled.ok() && free.ok());
  for (int f = 0; f < 120; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  const std::vector<Particle> a = drawn_particles(system, pulled->id().row);
  const std::vector<Particle> b = drawn_particles(system, free->id().row);
  ASSERT_GT(a.size(), 40u);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_LT(mean_distance(a, point), 0.5f * mean_distance(b, point));
}

// A plane collision at y = 0: a force that puts a particle below the plane back on it and stops
// its fall. Every frame, no particle of the water jet with it is below the plane; without it,
// some fall through.
TEST_F(ApiTest, APlaneCollisionForceKeepsACpuJetAboveThePlane) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 4});
  const CompiledEffect jet = load_effect("water_jet.json");
  const CustomForce plane = [](const Particle& p, const SceneView& view) {
    std::array<float, 3> f{};
    if (p.position[1] < 0.0f) f[1] = -p.position[1] / (view.dt * view.dt) - std::min(p.velocity[1], 0.0f) / view.dt;
    return f;
  };
  auto held = system.add_cpu_emitter(jet, {.emitter = {.seed = 4}, .max_count = 2048, .forces = {plane}});
  auto falling = system.add_cpu_emitter(jet, {.emitter = {.seed = 4}, .max_count = 2048});
  ASSERT_TRUE(held.ok() && falling.ok());
  float lowest_free = 0.0f;
  for (int f = 0; f < 120; ++f) {
    ASSERT_TRUE(system.execute(kDt).ok());
    if (f % 4 != 3) continue;
    for (const Particle& p : drawn_particles(system, held->id().row)) ASSERT_GE(p.position[1], -1e-4f) << "frame " << f;
    for (const Particle& p : drawn_particles(system, falling->id().row))
      lowest_free = std::min(lowest_free, p.position[1]);
  }
  EXPECT_LT(lowest_free, -0.1f) << "the jet never fell below the plane: the test shows nothing";
}

// A force returning NaN is not applied: the particles are those of the force-free emitter of the
// same effect and seed, bit for bit, and every call was counted.
TEST_F(ApiTest, ANonFiniteCustomForceIsNotApplied) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  const CustomForce broken = [](const Particle&, const SceneView&) {
    return std::array<float, 3>{std::numeric_limits<float>::quiet_NaN(), 0.0f, std::numeric_limits<float>::infinity()};
  };
  auto bad = system.add_cpu_emitter(fire, {.emitter = {.seed = 3}, .max_count = 1024, .forces = {broken}});
  auto good = system.add_cpu_emitter(fire, {.emitter = {.seed = 3}, .max_count = 1024});
  ASSERT_TRUE(bad.ok() && good.ok());
  uint64_t calls = 0;
  for (int f = 0; f < 30; ++f) {
    ASSERT_TRUE(system.execute(kDt).ok());
    const std::vector<Particle> a = drawn_particles(system, bad->id().row);
    const std::vector<Particle> b = drawn_particles(system, good->id().row);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bytes(a[i], b[i])) << "frame " << f;
    calls += a.size();
  }
  EXPECT_EQ(bad->rejected_forces(), calls);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

TEST_F(ApiTest, CpuEmittersRefuseBadInput) {
  ParticleSystem& system = make_system({.capacity = 1024, .max_emitters = 4, .max_transforms = 4});
  const CompiledEffect fire = load_effect("fire.json");
  EXPECT_FALSE(system.add_cpu_emitter(load_effect("fireworks_rocket.json"), {.max_count = 10}).ok());
  EXPECT_FALSE(system.add_cpu_emitter(fire, {.max_count = 1025}).ok());
  auto transform = system.add_transform();
  ASSERT_TRUE(transform.ok());
  EXPECT_FALSE(system.add_cpu_emitter(fire, {.emitter = {.transform = *transform}, .max_count = 10}).ok());
  auto cpu = system.add_cpu_emitter(fire, {.max_count = 100});
  ASSERT_TRUE(cpu.ok());
  EXPECT_FALSE(system.swap_effect(cpu->id(), fire).ok());
  EXPECT_FALSE(system.manual_emitter(cpu->id()).ok()) << "the cpu driver owns its records";
  ASSERT_TRUE(system.execute(kDt).ok());
  ASSERT_TRUE(system.remove_emitter(cpu->id()).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  EXPECT_EQ(cpu->rejected_forces(), 0u);
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive, 0u);
}

// burst() and set_emitting on a cpu emitter do what they do on a gpu emitter of the same effect
// and seed: the counts agree every frame through bursts, a stop (the rate gives nothing, a burst
// still spawns, the clock runs), a resume without catch-up, and a burst past the pool (dropped,
// counted alike).
TEST_F(ApiTest, ACpuEmitterBurstsAndStopsAsAGpuEmitterDoes) {
  const CompiledEffect effect = without_prewarm(load_effect("fire.json"));
  constexpr uint32_t kHold = 400;
  auto gpu_system = ParticleSystem::create(context(), {.capacity = kHold, .max_emitters = 2});
  auto cpu_system = ParticleSystem::create(context(), {.capacity = 2 * kHold + 64, .max_emitters = 2});
  ASSERT_TRUE(gpu_system.ok() && cpu_system.ok());
  auto gpu = (*gpu_system)->add_emitter(effect, {.seed = 5});
  auto cpu = (*cpu_system)->add_cpu_emitter(effect, {.emitter = {.seed = 5}, .max_count = kHold});
  ASSERT_TRUE(gpu.ok() && cpu.ok()) << (cpu.ok() ? "" : cpu.error().to_string());
  for (int f = 0; f < 160; ++f) {
    auto both = [&](auto&& act) {
      ASSERT_TRUE(act(**gpu_system, *gpu).ok()) << "frame " << f;
      ASSERT_TRUE(act(**cpu_system, cpu->id()).ok()) << "frame " << f;
    };
    if (f == 10 || f == 70) both([](ParticleSystem& s, EmitterId id) { return s.burst(id, 25); });
    if (f == 40) both([](ParticleSystem& s, EmitterId id) { return s.set_emitting(id, false); });
    if (f == 100) both([](ParticleSystem& s, EmitterId id) { return s.set_emitting(id, true); });
    if (f == 130) both([](ParticleSystem& s, EmitterId id) { return s.burst(id, 2 * kHold); });  // past the pool
    ASSERT_TRUE((*gpu_system)->execute(kDt).ok());
    ASSERT_TRUE((*cpu_system)->execute(kDt).ok());
    auto gpu_count = (*gpu_system)->read_alive_count(*gpu);
    auto cpu_count = (*cpu_system)->read_alive_count(cpu->id());
    ASSERT_TRUE(gpu_count.ok() && cpu_count.ok());
    ASSERT_EQ(cpu_count.value(), gpu_count.value()) << "frame " << f;
    if (f > 40 && f < 100) {
      // Stopped: nothing from the rate, the burst of frame 70 whole (the gpu emitter's newborns; a
      // cpu emitter's frame places all its uploaded records as newborns, so its count, equal to
      // the gpu one's every frame above, is what shows its simulation stopped).
      auto stats = (*gpu_system)->read_stats();
      ASSERT_TRUE(stats.ok());
      EXPECT_EQ(stats->newborns, f == 70 ? 25u : 0u) << "frame " << f;
    }
  }
}

}  // namespace
}  // namespace mote::test
