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

// Particles of the bursts whose firing times (time + k * interval, k < cycles or any k when
// cycles == 0) fall in [age_before, age_after). An interval <= 0 fires every cycle at `time`.
uint64_t bursts_due(const std::vector<Burst>& bursts, float age_before, float age_after);

}  // namespace mote::sim
