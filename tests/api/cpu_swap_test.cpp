// Swaps to the cpu driver through the public API (docs/design/drivers.md, "Swapping drivers"): a
// batch-VM simulation adopts the emitter's live particles and clock, so a gpu emitter swapped to
// cpu goes on as the same effect would have on the GPU; a manual emitter's records start moving;
// the swap churn gpu -> cpu -> manual -> gpu keeps the pool whole every frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "api/api_fixture.hpp"
#include "mote/particle.hpp"
#include "mote/simulation.hpp"

namespace mote::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

std::vector<float> sorted_ages(const std::vector<Particle>& particles) {
  std::vector<float> ages;
  for (const Particle& p : particles) ages.push_back(p.age);
  std::sort(ages.begin(), ages.end());
  return ages;
}

bool same(const std::vector<Particle>& a, const std::vector<Particle>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Particle)) == 0);
}

// Two systems run fire from one seed; one emitter is swapped to the cpu driver after 40 frames.
// Counts stay equal every frame and the ages (sorted) within the GPU parity tolerance: the
// simulation went on from the GPU's particles, accumulator, serials and tick.
TEST_F(ApiTest, AGpuEmitterSwappedToCpuGoesOnAsOnTheGpu) {
  CompiledEffect fire = load_effect("fire.json");
  fire.emission.prewarm_seconds = 0.0f;
  auto reference_system = ParticleSystem::create(context(), {.capacity = 4096, .max_emitters = 2});
  ASSERT_TRUE(reference_system.ok());
  ParticleSystem& reference = **reference_system;
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 2});
  auto ref = reference.add_emitter(fire, {.seed = 7});
  auto id = system.add_emitter(fire, {.seed = 7});
  ASSERT_TRUE(ref.ok() && id.ok());
  for (int frame = 0; frame < 100; ++frame) {
    SCOPED_TRACE(frame);
    if (frame == 40) {
      const std::vector<Particle> before = drawn_particles(system, *id);
      ASSERT_TRUE(system.set_driver(*id, Driver::kCpu).ok());
      EXPECT_EQ(system.driver(*id).value(), Driver::kCpu);
      EXPECT_TRUE(system.cpu_emitter(*id).ok());
      EXPECT_TRUE(same(drawn_particles(system, *id), before)) << "the swap itself moves nothing";
    }
    ASSERT_TRUE(reference.execute(kDt).ok());
    ASSERT_TRUE(system.execute(kDt).ok());
    ASSERT_EQ(system.read_alive_count(*id).value(), reference.read_alive_count(*ref).value());
    if (frame % 10 != 9) continue;
    const std::vector<float> got = sorted_ages(drawn_particles(system, *id));
    const std::vector<float> want = sorted_ages(drawn_particles(reference, *ref));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4f + 1e-4f * std::fabs(want[i])) << i;
  }
  auto stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive + stats->free, system.capacity());
}

// manual -> cpu: the manual records become the simulation's particles: one frame later each has
// run one UPDATE (aged by dt) and the rate spawned beside them; a custom force set afterwards
// applies. A non-standard effect and an emitter at a transform are refused.
TEST_F(ApiTest, AManualEmitterSwappedToCpuRunsItsRecords) {
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4, .max_transforms = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto manual = system.add_manual_emitter(fire, 100, {.seed = 4});
  ASSERT_TRUE(manual.ok());
  std::vector<Particle> records(50);
  for (size_t i = 0; i < records.size(); ++i) {
    records[i].position = {float(i) * 0.1f, 1.0f, 0.0f};
    records[i].lifetime = 10.0f;
  }
  ASSERT_TRUE(manual->write_range(0, records).ok());
  ASSERT_TRUE(manual->set_count(50).ok());
  ASSERT_TRUE(manual->upload().ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  ASSERT_TRUE(system.set_driver(manual->id(), Driver::kCpu).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  std::vector<Particle> now = drawn_particles(system, manual->id());
  ASSERT_GT(now.size(), 50u) << "the rate spawns beside the adopted records";
  // The simulation's list: this frame's newborns, then the adopted records in their order.
  const size_t first = now.size() - 50;
  for (size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(now[first + i].age, kDt) << i;
    EXPECT_EQ(now[first + i].lifetime, 10.0f) << i;
  }
  // A force set on the swapped emitter moves its particles.
  auto cpu = system.cpu_emitter(manual->id());
  ASSERT_TRUE(cpu.ok());
  ASSERT_TRUE(cpu->set_forces({[](const Particle&, const SceneView&) {
                   return std::array<float, 3>{0.0f, 600.0f, 0.0f};
                 }})
                  .ok());
  const float y_before = drawn_particles(system, manual->id()).back().position[1];
  ASSERT_TRUE(system.execute(kDt).ok());
  now = drawn_particles(system, manual->id());
  EXPECT_GT(now.back().position[1], y_before + 0.1f);

  auto rocket = system.add_emitter(load_effect("fireworks_rocket.json"));
  auto transform = system.add_transform();
  ASSERT_TRUE(rocket.ok() && transform.ok());
  auto placed = system.add_emitter(fire, {.transform = *transform});
  ASSERT_TRUE(placed.ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  EXPECT_EQ(system.set_driver(*rocket, Driver::kCpu).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.set_driver(*placed, Driver::kCpu).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.driver(*rocket).value(), Driver::kGpu);
  EXPECT_EQ(system.driver(*placed).value(), Driver::kGpu);
  EXPECT_FALSE(system.cpu_emitter(*rocket).ok());
}

// 240 frames of swaps, each chosen emitter moving gpu -> cpu -> manual -> gpu: every frame the
// pool is whole, the emitters' counts add up to the alive count, every manual emitter draws
// exactly its records and every cpu emitter draws its count.
TEST_F(ApiTest, DriverSwapChurnThroughEveryDriverKeepsThePoolWhole) {
  ParticleSystem& system = make_system({.capacity = 16384, .max_emitters = 8});
  const CompiledEffect fire = load_effect("fire.json");
  std::vector<EmitterId> ids;
  for (uint32_t i = 0; i < 4; ++i) {
    auto id = system.add_emitter(fire, {.seed = 10 + i, .position = {float(i), 0.0f, 0.0f}});
    ASSERT_TRUE(id.ok());
    ids.push_back(*id);
  }
  std::mt19937 rng(7);
  uint32_t swaps[3] = {0, 0, 0};  // to cpu, to manual, to gpu
  for (int frame = 0; frame < 240; ++frame) {
    SCOPED_TRACE(frame);
    if (frame % 5 == 4) {
      const EmitterId id = ids[rng() % ids.size()];
      const Driver now = system.driver(id).value();
      const Driver next = now == Driver::kGpu ? Driver::kCpu : now == Driver::kCpu ? Driver::kManual : Driver::kGpu;
      ASSERT_TRUE(system.set_driver(id, next).ok());
      ++swaps[next == Driver::kCpu ? 0 : next == Driver::kManual ? 1 : 2];
    }
    ASSERT_TRUE(system.execute(kDt).ok());
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    ASSERT_EQ(stats->alive + stats->free, system.capacity());
    uint32_t counted = 0;
    for (const EmitterId& id : ids) {
      const uint32_t count = system.read_alive_count(id).value();
      counted += count;
      const Driver driver = system.driver(id).value();
      if (driver == Driver::kCpu) {
        ASSERT_EQ(drawn_particles(system, id).size(), count);
      }
      if (driver != Driver::kManual) continue;
      auto handle = system.manual_emitter(id);
      ASSERT_TRUE(handle.ok());
      std::vector<Particle> records;
      for (uint32_t i = 0; i < handle->count(); ++i) records.push_back(handle->get(i).value());
      ASSERT_TRUE(same(drawn_particles(system, id), records)) << "row " << id.row;
    }
    ASSERT_EQ(counted, stats->alive);
  }
  EXPECT_GT(swaps[0], 3u);
  EXPECT_GT(swaps[1], 3u);
  EXPECT_GT(swaps[2], 3u);
}

// detach_driver: the emitter keeps its row and id and costs nothing (its particles freed, nothing
// spawned or drawn) until set_driver attaches a driver again, of any kind.
TEST_F(ApiTest, ADetachedEmitterHoldsNothingUntilADriverIsAttached) {
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 4});
  const CompiledEffect fire = load_effect("fire.json");
  auto id = system.add_emitter(fire, {.seed = 3});
  ASSERT_TRUE(id.ok());
  for (int f = 0; f < 20; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  const uint32_t held = system.read_alive_count(*id).value();
  ASSERT_GT(held, 0u);
  for (const Driver attach : {Driver::kGpu, Driver::kCpu, Driver::kManual}) {
    SCOPED_TRACE(int(attach));
    const uint32_t before = system.read_alive_count(*id).value();
    ASSERT_TRUE(system.detach_driver(*id).ok());
    EXPECT_EQ(system.driver(*id).value(), Driver::kNone);
    EXPECT_TRUE(system.detach_driver(*id).ok()) << "detaching twice does nothing";
    EXPECT_EQ(system.set_active(*id, true).error().code, ErrorCode::kInvalidArgument);
    ASSERT_TRUE(system.execute(kDt).ok());
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->orphaned, before) << "its particles are freed";
    for (int f = 0; f < 5; ++f) {
      ASSERT_TRUE(system.execute(kDt).ok());
      EXPECT_EQ(system.read_alive_count(*id).value(), 0u);
      EXPECT_EQ(system.read_stats()->newborns, 0u);
    }
    ASSERT_TRUE(system.set_driver(*id, attach).ok());
    EXPECT_EQ(system.driver(*id).value(), attach);
    for (int f = 0; f < 10; ++f) ASSERT_TRUE(system.execute(kDt).ok());
    const uint32_t count = system.read_alive_count(*id).value();
    if (attach == Driver::kManual) {
      EXPECT_EQ(count, 0u) << "a manual driver draws only what it uploads";
      auto handle = system.manual_emitter(*id);
      ASSERT_TRUE(handle.ok());
      ASSERT_TRUE(handle->set_count(5).ok());
      ASSERT_TRUE(handle->upload().ok());
      ASSERT_TRUE(system.execute(kDt).ok());
      EXPECT_EQ(system.read_alive_count(*id).value(), 5u);
    } else {
      EXPECT_GT(count, 0u) << "it spawns again";
      EXPECT_EQ(drawn_particles(system, *id).size(), count);
    }
    stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->alive + stats->free, system.capacity());
  }
}

}  // namespace
}  // namespace mote::test
