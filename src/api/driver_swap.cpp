// Live driver swaps (include/mote/particles.hpp's set_driver, docs/design/drivers.md "Swapping
// drivers"): the row, its generation and its particles stay; only what moves them changes.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "mote/particles.hpp"
#include "mote/simulation.hpp"

namespace mote {

namespace {

Status check_swappable(runtime::ParticleSystem& system, EmitterId id) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation));
  return ok_status();
}

}  // namespace

Result<Driver> ParticleSystem::driver(EmitterId id) {
  MOTE_TRY(check_swappable(state_->system, id));
  if (state_->cpu_emitters.count(id.row) != 0) return Driver::kCpu;
  return state_->system.manual().is_manual(id.row) ? Driver::kManual : Driver::kGpu;
}

Status ParticleSystem::set_driver(EmitterId id, Driver to) {
  return core::guard_allocation("ParticleSystem::set_driver", [&]() -> Status {
    MOTE_TRY_ASSIGN(const Driver from, driver(id));
    if (from == to) return ok_status();
    runtime::ParticleSystem& system = state_->system;
    if (to == Driver::kCpu)
      return make_error(ErrorCode::kUnsupported,
                        "a swap to the cpu driver (its simulation cannot start from records yet)");
    if (from == Driver::kCpu) state_->cpu_emitters.erase(id.row);  // its records are the manual driver's already
    if (to == Driver::kGpu) return system.make_gpu_driven(id.row);
    if (from == Driver::kCpu) return ok_status();  // cpu -> manual: the last upload's records stay
    // gpu -> manual: the live particles as the last frame left them become the records.
    MOTE_TRY_ASSIGN(const AliveRecords alive, read_alive_records());
    std::vector<Particle> records;
    for (size_t i = 0; i < alive.slots.size(); ++i) {
      const uint32_t* record = alive.records.data() + i * alive.record_words;
      if (header_row(record[0]) != id.row || header_generation(record[0]) != (id.generation & kHeaderGenerationMask))
        continue;
      Particle p;
      if (alive.record_words >= kParticleFirstWord + kParticleWords)
        std::memcpy(static_cast<void*>(&p), record + kParticleFirstWord, sizeof(Particle));
      records.push_back(p);
    }
    const uint32_t hint = system.emitter_row(id.row)->emitter.effect.emission.capacity_hint;
    const uint32_t max_count = std::min(std::max({hint, uint32_t(records.size()), 1u}), system.capacity());
    return system.make_manual(id.row, max_count, records);
  });
}

}  // namespace mote
