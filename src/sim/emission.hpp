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

// The rate of an emitter that culls (EmissionSettings::cull), as the GPU tick takes it: out of
// view it spawns nothing and `asleep` grows by dt (f32); seen again, it first adds to the
// accumulator at most `max_catchup` seconds of the rate it slept through, then takes this frame's
// rate as take_rate_spawns does.
uint32_t take_culled_rate_spawns(float& accumulator, float& asleep, float rate, float dt, bool in_view,
                                 float max_catchup);

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
