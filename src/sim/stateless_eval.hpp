// A stateless effect's evaluation (docs/design/drivers.md, "The stateless driver"): everything an
// EVAL run of its particles at time t reads besides t — the program linked to the emitter's own
// global copy, the emitter-field block, the pose, the seed and the random stream — built once from
// the effect and the emitter's description. The GPU driver (src/runtime/drivers/stateless_driver)
// builds its interpreter image from it; evaluate_stateless (mote/simulation.hpp) runs it on the
// CPU reference VM, so both see the same inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "mote/effect.hpp"
#include "mote/emitter.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "mote/vm.hpp"

namespace mote::sim {

// The random stream of a stateless emitter's EVAL: simulation_rng_base(seed, 0, kStatelessRngKind)
// (mote/simulation.hpp's kinds 0..3 are the stateful loops'). The seed is the EmitterDesc's as
// given (0 stays 0), so one description gives the same particles in any system.
inline constexpr uint32_t kStatelessRngKind = 4;

struct StatelessEvaluation {
  Program linked;              // the effect's program, its global imports linked to `global_fields`
  uint32_t count = 0;          // emission.capacity: the particles evaluated every frame
  uint32_t record_words = 0;   // the program's record (header included)
  VmEmitterContext emitter{};  // the pose and seed (time set per run)
  std::vector<uint32_t> emitter_fields;
  std::vector<uint32_t> global_fields;
  uint32_t rng_base = 0;

  // The run of every particle at `time` (records zeroed: EVAL reads none it did not write).
  RunInput input(float time) const;
};

// kUnsupported for a stateful effect; kInvalidArgument for a transform (the pose is the
// description's), a capacity of 0, or overrides the effect does not declare.
Result<StatelessEvaluation> make_stateless_evaluation(const CompiledEffect& effect, const EmitterDesc& desc);

}  // namespace mote::sim
