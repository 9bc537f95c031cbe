// Declared bursts counted in closed form (sim::bursts_due): the same cycles a walk over every
// candidate fires, and a bounded cost for any interval.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/emission.hpp"

namespace mote::sim {
namespace {

// Every cycle k < cycles tested one by one with the same f32 firing time: the definition.
uint64_t walk_every_cycle(const std::vector<Burst>& bursts, float age_before, float age_after) {
  uint64_t total = 0;
  for (const Burst& b : bursts) {
    if (b.count == 0) continue;
    if (!(b.interval > 0.0f)) {
      if (b.time >= age_before && b.time < age_after) total += uint64_t(b.count) * (b.cycles == 0 ? 1 : b.cycles);
      continue;
    }
    for (uint32_t k = 0; k < b.cycles; ++k) {
      const float t = b.time + float(k) * b.interval;
      if (t >= age_before && t < age_after) total += b.count;
    }
  }
  return total;
}

TEST(BurstsDue, MatchesAWalkOverEveryCycleForRandomBurstsAndWindows) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> time(-1.0f, 4.0f), interval(1e-4f, 0.5f), age(0.0f, 5.0f), dt(0.0f, 0.2f);
  std::uniform_int_distribution<uint32_t> cycles(1, 20000), count(1, 9);
  for (int i = 0; i < 400; ++i) {
    const std::vector<Burst> bursts = {{time(rng), count(rng), cycles(rng), interval(rng)},
                                       {time(rng), count(rng), cycles(rng), i % 3 == 0 ? 0.0f : interval(rng)}};
    const float before = age(rng);
    const float after = before + dt(rng);
    ASSERT_EQ(bursts_due(bursts, before, after), walk_every_cycle(bursts, before, after)) << "case " << i;
  }
}

TEST(BurstsDue, ConsecutiveWindowsCountEveryCycleOnce) {
  const std::vector<Burst> bursts = {{.time = 0.013f, .count = 3, .cycles = 5000, .interval = 0.00037f}};
  uint64_t total = 0;
  float age = 0.0f;
  for (int f = 0; f < 240; ++f) {  // 4 s at 60 Hz: past the last cycle (1.86 s)
    const float before = age;
    age = age + 1.0f / 60.0f;
    total += bursts_due(bursts, before, age);
  }
  EXPECT_EQ(total, 3u * 5000u);
}

TEST(BurstsDue, ATinyIntervalIsCountedAtOnceNotWalked) {
  // A walk over the candidates ran for ages / interval steps here (for ever); the bisection takes
  // at most 32 steps per end. cycles == 0 fires every cycle a u32 counts whose time is in the
  // window: at 1e-30 s apart, float(k) * 1e-30 stays below the window's width for all of them.
  const std::vector<Burst> endless = {{.time = 0.0f, .count = 1, .cycles = 0, .interval = 1e-30f}};
  EXPECT_EQ(bursts_due(endless, 0.0f, 1.0f / 60.0f), 0xFFFFFFFFull);
  EXPECT_EQ(bursts_due(endless, 1.0f / 60.0f, 2.0f / 60.0f), 0u);  // every cycle fired at time 0
  const std::vector<Burst> many = {{.time = 0.01f, .count = 2, .cycles = 100000, .interval = 1e-6f}};
  EXPECT_EQ(bursts_due(many, 0.0f, 1.0f / 60.0f), walk_every_cycle(many, 0.0f, 1.0f / 60.0f));
  EXPECT_EQ(bursts_due(many, 0.0f, 1.0f), 200000u);
}

TEST(BurstsDue, AnEmptyOrBackwardWindowFiresNothing) {
  const std::vector<Burst> bursts = {{.time = 0.5f, .count = 4, .cycles = 10, .interval = 0.1f}};
  EXPECT_EQ(bursts_due(bursts, 0.7f, 0.7f), 0u);
  EXPECT_EQ(bursts_due(bursts, 0.9f, 0.6f), 0u);
}

}  // namespace
}  // namespace mote::sim
