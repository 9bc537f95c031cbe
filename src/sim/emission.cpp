#include "sim/emission.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace mote::sim {

uint32_t take_rate_spawns(float& accumulator, float rate, float dt) {
  if (!(rate > 0.0f) || !(dt > 0.0f)) return 0;
  accumulator += rate * dt;
  // Keep the whole part from growing past what a count can hold (a rate of 1e12/s is a bug
  // upstream; the budget clamps the spawn anyway).
  const float whole = std::floor(accumulator);
  accumulator -= whole;
  return whole >= 4294967295.0f ? 0xFFFFFFFFu : uint32_t(whole);
}

uint32_t take_culled_rate_spawns(float& accumulator, float& asleep, float rate, float dt, bool in_view,
                                 float max_catchup) {
  if (!in_view) {
    asleep += dt;
    return 0;
  }
  if (asleep > 0.0f) {
    const float owed = rate > 0.0f ? rate * std::min(asleep, max_catchup) : 0.0f;
    accumulator += owed;
    asleep = 0.0f;
  }
  return take_rate_spawns(accumulator, rate, dt);
}

namespace {

// The firing time of cycle k, as the GPU tick computes it (f32, unfused: -ffp-contract=off).
float firing_time(const Burst& b, uint32_t k) { return b.time + float(k) * b.interval; }

// How many of the cycles k in [0, last) fire before `age`. Firing times never decrease with k
// (each step of time + float(k) * interval is a monotone rounding), so that is the first k whose
// time reaches `age`, found by bisection: at most 32 steps however small the interval is (a loop
// over the candidates ran for ages / interval steps, for ever at an interval of 1e-30).
uint32_t cycles_fired_before(const Burst& b, uint32_t last, float age) {
  uint32_t lo = 0, hi = last;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (firing_time(b, mid) >= age) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace

uint64_t bursts_due(const std::vector<Burst>& bursts, float age_before, float age_after) {
  uint64_t total = 0;
  for (const Burst& b : bursts) {
    if (b.count == 0) continue;
    if (!(b.interval > 0.0f)) {
      // All cycles at once (cycles == 0 with no interval would be infinite: treat it as one).
      if (b.time >= age_before && b.time < age_after) total += uint64_t(b.count) * (b.cycles == 0 ? 1 : b.cycles);
      continue;
    }
    // cycles == 0 repeats for ever: the cycles a u32 counts (more than any clock in f32 reaches).
    const uint32_t last = b.cycles == 0 ? kForeverBurstCycles : b.cycles;
    if (!(age_after > age_before)) continue;
    const uint32_t fired = cycles_fired_before(b, last, age_after) - cycles_fired_before(b, last, age_before);
    // Each product fits a u64 (both factors are u32); the sum over bursts saturates.
    const uint64_t due = uint64_t(b.count) * fired;
    total = due > UINT64_MAX - total ? UINT64_MAX : total + due;
  }
  return total;
}

}  // namespace mote::sim
