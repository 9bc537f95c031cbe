#include "sim/emission.hpp"

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

namespace {

// The smallest k in [0, limit] whose firing time b.time + float(k) * b.interval is at or after
// `age`, or `limit` when none is. float(k), the product and the sum are each rounded and never
// decrease as k grows, so the predicate is monotone and a binary search is exact.
uint64_t first_firing_at_or_after(const Burst& b, float age, uint64_t limit) {
  uint64_t lo = 0, hi = limit;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const float offset = float(mid) * b.interval;
    const float t = b.time + offset;
    if (t >= age) hi = mid;
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
    const uint64_t limit = b.cycles != 0 ? b.cycles : kForeverBurstCycles;
    const uint64_t before = first_firing_at_or_after(b, age_before, limit);
    const uint64_t after = first_firing_at_or_after(b, age_after, limit);
    // Under 2^32 firings of under 2^32 particles: the product fits a u64, the sum saturates.
    const uint64_t due = (after - before) * b.count;
    total = due > UINT64_MAX - total ? UINT64_MAX : total + due;
  }
  return total;
}

}  // namespace mote::sim
