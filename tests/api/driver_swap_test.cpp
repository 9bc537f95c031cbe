// Live driver swaps through the public API (docs/design/drivers.md, "Swapping drivers"): the row,
// the id and the particles stay. gpu -> manual freezes exactly the live particles into the manual
// records; manual -> gpu and cpu -> gpu hand them back to the frame's UPDATE; cpu -> manual keeps
// the last upload (swaps to cpu: cpu_swap_test.cpp). A churn of swaps keeps the pool's invariants.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/particle.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

bool same(const std::vector<Particle>& a, const std::vector<Particle>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Particle)) == 0);
}

void run(ParticleSystem& system, int frames) {
  for (int f = 0; f < frames; ++f) ASSERT_TRUE(system.execute(kDt).ok());
}

TEST_F(ApiTest, DriverSwapsKeepTheRowTheIdAndTheParticles) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 8});
  const CompiledEffect fire = load_effect("fire.json");
  auto gpu = system.add_emitter(fire, {.seed = 1});
  auto cpu = system.add_cpu_emitter(fire, {.emitter = {.seed = 2, .position = {2.0f, 0.0f, 0.0f}}, .max_count = 1024});
  ASSERT_TRUE(gpu.ok() && cpu.ok());
  run(system, 20);
  EXPECT_EQ(system.driver(*gpu).value(), Driver::kGpu);
  EXPECT_EQ(system.driver(cpu->id()).value(), Driver::kCpu);

  // gpu -> manual: exactly the live particles, frozen, now the manual records.
  const std::vector<Particle> live = drawn_particles(system, *gpu);
  ASSERT_FALSE(live.empty());
  ASSERT_TRUE(system.set_driver(*gpu, Driver::kManual).ok());
  EXPECT_EQ(system.driver(*gpu).value(), Driver::kManual);
  run(system, 5);
  EXPECT_TRUE(same(drawn_particles(system, *gpu), live));
  auto handle = system.manual_emitter(*gpu);
  ASSERT_TRUE(handle.ok());
  ASSERT_EQ(handle->count(), live.size());
  auto first = handle->get(0);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(std::memcmp(&first.value(), &live[0], sizeof(Particle)), 0);

  // manual -> gpu: the frame's UPDATE ages them again and the rate spawns; same id.
  ASSERT_TRUE(system.set_driver(*gpu, Driver::kGpu).ok());
  run(system, 1);
  const std::vector<Particle> moving = drawn_particles(system, *gpu);
  ASSERT_FALSE(moving.empty());
  EXPECT_FALSE(same(moving, live));
  auto state = system.read_emitter_state(*gpu);
  ASSERT_TRUE(state.ok());
  EXPECT_GT(state->newborns, 0u);
  EXPECT_FALSE(system.manual_emitter(*gpu).ok());

  // cpu -> manual keeps the last upload; manual -> gpu hands it to the frame.
  const std::vector<Particle> uploaded = drawn_particles(system, cpu->id());
  ASSERT_TRUE(system.set_driver(cpu->id(), Driver::kManual).ok());
  run(system, 3);
  EXPECT_TRUE(same(drawn_particles(system, cpu->id()), uploaded));
  ASSERT_TRUE(system.set_driver(cpu->id(), Driver::kGpu).ok());
  run(system, 2);
  EXPECT_FALSE(same(drawn_particles(system, cpu->id()), uploaded));
  EXPECT_EQ(system.driver(cpu->id()).value(), Driver::kGpu);
  // A swap to a non-standard effect's record is refused for the manual driver.
  auto rocket = system.add_emitter(load_effect("fireworks_rocket.json"));
  ASSERT_TRUE(rocket.ok());
  run(system, 2);
  EXPECT_EQ(system.set_driver(*rocket, Driver::kManual).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.driver(*rocket).value(), Driver::kGpu);
}

// 240 frames of random swaps among four fire emitters (gpu <-> manual, and one cpu emitter that
// goes cpu -> manual -> gpu): every frame the pool is whole, the emitters' counts add up to the
// alive count, and every manual emitter draws exactly its records.
TEST_F(ApiTest, DriverSwapChurnKeepsThePoolWhole) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 8});
  const CompiledEffect fire = load_effect("fire.json");
  std::vector<EmitterId> ids;
  for (uint32_t i = 0; i < 3; ++i) {
    auto id = system.add_emitter(fire, {.seed = 10 + i, .position = {float(i), 0.0f, 0.0f}});
    ASSERT_TRUE(id.ok());
    ids.push_back(*id);
  }
  auto cpu = system.add_cpu_emitter(fire, {.emitter = {.seed = 20}, .max_count = 1024});
  ASSERT_TRUE(cpu.ok());
  ids.push_back(cpu->id());
  std::mt19937 rng(99);
  for (int frame = 0; frame < 240; ++frame) {
    if (frame % 6 == 5) {
      const EmitterId id = ids[rng() % ids.size()];
      const Driver now = system.driver(id).value();
      const Driver next = now == Driver::kGpu ? Driver::kManual : Driver::kGpu;
      ASSERT_TRUE(system.set_driver(id, next).ok()) << "frame " << frame;
    }
    ASSERT_TRUE(system.execute(kDt).ok());
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    ASSERT_EQ(stats->alive + stats->free, system.capacity()) << "frame " << frame;
    uint32_t counted = 0;
    for (const EmitterId& id : ids) {
      auto count = system.read_alive_count(id);
      ASSERT_TRUE(count.ok());
      counted += count.value();
      if (system.driver(id).value() != Driver::kManual) continue;
      auto handle = system.manual_emitter(id);
      ASSERT_TRUE(handle.ok());
      std::vector<Particle> records;
      for (uint32_t i = 0; i < handle->count(); ++i) records.push_back(handle->get(i).value());
      ASSERT_TRUE(same(drawn_particles(system, id), records)) << "frame " << frame << " row " << id.row;
    }
    ASSERT_EQ(counted, stats->alive) << "frame " << frame;
  }
}

}  // namespace
}  // namespace mote::test
