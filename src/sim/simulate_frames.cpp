// mote::simulate (include/mote/simulation.hpp): a simulation created and stepped `frames` times.
#include "mote/simulation.hpp"

namespace mote {

Result<std::vector<FrameReport>> simulate(const CompiledEffect& effect, const SimulationOptions& options,
                                          uint32_t frames) {
  MOTE_TRY_ASSIGN(Simulation sim, Simulation::create(effect, options));
  std::vector<FrameReport> reports;
  reports.reserve(frames);
  for (uint32_t f = 0; f < frames; ++f) {
    MOTE_TRY_ASSIGN(FrameReport r, sim.step());
    reports.push_back(r);
  }
  return reports;
}

}  // namespace mote
