// The pool's bookkeeping, read back and checked: the invariants every frame must keep
// (docs/design/runtime_frame.md, "Pool invariants"). For tests, the soak (bench/soak.cpp) and
// the public ParticleSystem::check_consistency; it waits for the GPU, so never per frame.
#pragma once

#include <cstdint>

#include "mote/result.hpp"

namespace mote::runtime {

class ParticleSystem;

struct PoolCensus {
  uint32_t alive = 0;
  uint32_t free = 0;
};

// Reads the last completed frame's counters, lists and pool and checks: alive + free ==
// capacity; each list as long as its counter says; every slot below the capacity and in one list
// once; every alive slot's header names a live row with that row's generation; every free slot's
// record zero, header and payload. The first violation is a kInternal error whose message names
// the slot and what was wrong (a Mote bug); readback failures pass through.
Result<PoolCensus> check_pool_invariants(ParticleSystem& system);

}  // namespace mote::runtime
