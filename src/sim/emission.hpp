// How many particles an emitter asks for on one tick: the rate accumulator and the bursts.
// The same arithmetic, in f32 and in this order, is what the GPU emitter tick runs.
#pragma once

#include <cstdint>
#include <vector>

#include "mote/effect.hpp"

namespace mote::sim {

// accumulator += rate * dt; returns its whole part and keeps the fraction. A negative or NaN
// rate asks for nothing.
uint32_t take_rate_spawns(float& accumulator, float rate, float dt);

// A burst that repeats forever (cycles == 0) has this many candidate firings, k < it: the most a
// u32 counter on the GPU can walk, and far past any clock an f32 age reaches.
inline constexpr uint32_t kForeverBurstCycles = 0xFFFFFFFFu;

// Particles of the bursts whose firing times (time + k * interval in f32, unfused; k < cycles, or
// k < kForeverBurstCycles when cycles == 0) fall in [age_before, age_after). An interval <= 0
// fires every cycle at `time`. Counted in closed form: a firing time never decreases as k grows,
// so the firings in the window are the k between two binary searches (docs/design/reliability.md,
// finding 3), whatever the interval; a tick costs at most 2 x 32 firing times per burst.
uint64_t bursts_due(const std::vector<Burst>& bursts, float age_before, float age_after);

}  // namespace mote::sim
