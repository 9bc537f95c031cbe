#include "sim/emission.hpp"

#include <cmath>

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

uint64_t bursts_due(const std::vector<Burst>& bursts, float age_before, float age_after) {
  uint64_t total = 0;
  for (const Burst& b : bursts) {
    if (b.count == 0) continue;
    if (!(b.interval > 0.0f)) {
      // All cycles at once (cycles == 0 with no interval would be infinite: treat it as one).
      if (b.time >= age_before && b.time < age_after) total += uint64_t(b.count) * (b.cycles == 0 ? 1 : b.cycles);
      continue;
    }
    // Start a cycle before the window so float rounding of (age - time) / interval never skips
    // one; each candidate is tested with the same f32 time the GPU computes.
    const float first = std::floor((age_before - b.time) / b.interval) - 1.0f;
    uint64_t k = first > 0.0f ? uint64_t(first) : 0;
    for (;; ++k) {
      if (b.cycles != 0 && k >= b.cycles) break;
      const float t = b.time + float(k) * b.interval;
      if (t >= age_after) break;
      if (t >= age_before) total += b.count;
    }
  }
  return total;
}

}  // namespace mote::sim
