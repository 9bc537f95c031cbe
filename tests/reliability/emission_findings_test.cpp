// Finding 3 of docs/design/reliability.md: a burst that repeats forever with a tiny interval.
// bursts_due walked every firing from k = 0, so `cycles: 0, interval: 1e-30` hung the reference
// simulation; the count is now closed-form and must equal the firing-time rule it replaces.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "sim/emission.hpp"

namespace {

using mote::Burst;
using mote::sim::bursts_due;

// The rule spelled out: firings k = 0, 1, ... (k < cycles, or k < 2^32 - 1 when cycles == 0) at
// f32 time + float(k) * interval, counted when in [before, after). Walks k until the firing time
// reaches `after`, so only for intervals that are not tiny against the window.
uint64_t walked(const Burst& b, float before, float after) {
  const uint64_t limit = b.cycles ? b.cycles : mote::sim::kForeverBurstCycles;
  uint64_t total = 0;
  for (uint64_t k = 0; k < limit; ++k) {
    const float offset = float(k) * b.interval;
    const float t = b.time + offset;
    if (t >= after) break;
    if (t >= before) total += b.count;
  }
  return total;
}

TEST(BurstsDueFinding3, ForeverBurstWithATinyIntervalIsCountedWithoutWalkingEveryFiring) {
  const std::vector<Burst> bursts{{.time = 0.0f, .count = 1, .cycles = 0, .interval = 1e-30f}};
  // Every candidate firing k * 1e-30 lies in the first frame: all 2^32 - 1 of them fire there...
  EXPECT_EQ(bursts_due(bursts, 0.0f, 1.0f / 60.0f), uint64_t(mote::sim::kForeverBurstCycles));
  // ...and none afterwards.
  EXPECT_EQ(bursts_due(bursts, 1.0f / 60.0f, 2.0f / 60.0f), 0u);
  // A later start: the firings before it never happen, all of them at once when it comes.
  const std::vector<Burst> later{{.time = 5.0f, .count = 3, .cycles = 0, .interval = 1e-30f}};
  EXPECT_EQ(bursts_due(later, 0.0f, 4.0f), 0u);
  EXPECT_EQ(bursts_due(later, 4.99f, 5.01f), 3ull * mote::sim::kForeverBurstCycles);
}

TEST(BurstsDueFinding3, ClosedFormEqualsTheFiringTimeRule) {
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (int trial = 0; trial < 400; ++trial) {
    Burst b;
    b.time = float(next() % 1000) / 100.0f;
    b.count = 1 + next() % 7;
    b.cycles = next() % 4 == 0 ? 0 : 1 + next() % 40;
    b.interval = 0.01f + float(next() % 1000) / 500.0f;
    const float dt = trial % 3 == 0 ? 1.0f / 60.0f : 0.05f + float(next() % 100) / 100.0f;
    float age = 0.0f;
    for (int tick = 0; tick < 400; ++tick) {
      const float before = age;
      age = age + dt;
      ASSERT_EQ(bursts_due({b}, before, age), walked(b, before, age))
          << "time " << b.time << " cycles " << b.cycles << " interval " << b.interval << " tick " << tick;
    }
  }
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(BurstsDueFinding3, ReferenceSimulationOfAForeverBurstFinishes) {
  nlohmann::json doc = nlohmann::json::parse(read_text(std::string(MOTE_EFFECTS_DIR) + "/explosion.json"));
  doc["emission"] = {{"capacity", 256}, {"bursts", {{{"time", 0}, {"count", 5}, {"cycles", 0}, {"interval", 1e-30}}}}};
  auto effect = mote::compile_effect(doc.dump());
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  auto sim = mote::Simulation::create(*effect, {});
  ASSERT_TRUE(sim.ok()) << sim.error().to_string();
  auto first = sim->step();
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  EXPECT_EQ(first->spawned, 256u);         // the pool fills
  EXPECT_EQ(first->dropped, 0xFFFFFFFFu);  // the rest is dropped, saturated to a u32
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(sim->step().ok());
}

}  // namespace
