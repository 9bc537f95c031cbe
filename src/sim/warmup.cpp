// The pre-warm schedule and its jitter, and the random stream bases (include/mote/simulation.hpp).
#include <algorithm>
#include <cmath>

#include "mote/simulation.hpp"
#include "shared/vm_semantics.h"

namespace mote {

uint32_t simulation_rng_base(uint32_t seed, uint32_t tick, uint32_t kind) {
  return shader::vm_hash3(seed, tick, kRngSalt + kind);
}

WarmupSchedule warmup_schedule(float prewarm_seconds) {
  if (!(prewarm_seconds > 0.0f) || !std::isfinite(prewarm_seconds)) return {};
  // The count is what a frame pays for, so it is capped and the tick stretches instead.
  const float wanted = std::ceil(prewarm_seconds / kWarmupTickSeconds);
  const uint32_t ticks = std::max(1u, uint32_t(std::min(wanted, float(kWarmupMaxTicks))));
  return {ticks, prewarm_seconds / float(ticks)};
}

uint32_t warmup_dt_bucket(uint32_t slot, uint32_t tick) {
  // A hash, not a draw: the program's own random stream is untouched.
  return shader::vm_hash3(slot, tick, 0x4A495454u /* "JITT" */) % kWarmupDtBuckets;
}

float warmup_particle_dt(float tick_seconds, uint32_t bucket) {
  // Bucket centres spread symmetrically over [1 - J, 1 + J]: the mean advance is the tick.
  const float u = (float(bucket) + 0.5f) / float(kWarmupDtBuckets);  // (0, 1)
  return tick_seconds * (1.0f + kWarmupDtJitter * (2.0f * u - 1.0f));
}

float warmup_start_accumulator(uint32_t seed) {
  return float(shader::vm_hash3(seed, 0x41434355u /* "ACCU" */, kRngSalt) >> 8) * (1.0f / 16777216.0f);
}

}  // namespace mote
