// The public manual driver (include/mote/particles.hpp's ManualEmitter, docs/design/drivers.md):
// a handle over runtime::ManualDrivers, refusing an emitter that is no longer the one it was
// given (a removed or reused row).
#include <fmt/format.h>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "mote/particles.hpp"

namespace mote {

using detail::ApiAccess;

namespace {

Status check_manual(ParticleSystem* system, EmitterId id) {
  if (system == nullptr) return make_error(ErrorCode::kInvalidArgument, "an empty ManualEmitter handle");
  runtime::ParticleSystem& s = ApiAccess::state(*system).system;
  if (!s.is_live(id.row) || s.generation(id.row) != id.generation || !s.manual().is_manual(id.row) ||
      s.stateless().is_stateless(id.row))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not a live manual emitter", id.row, id.generation));
  return ok_status();
}

}  // namespace

Result<ManualEmitter> ParticleSystem::add_manual_emitter(const CompiledEffect& effect, uint32_t max_count,
                                                         const EmitterDesc& desc) {
  return core::guard_allocation("ParticleSystem::add_manual_emitter", [&]() -> Result<ManualEmitter> {
    runtime::ParticleSystem& system = state_->system;
    if (desc.transform.valid() && (!state_->has_transforms || !state_->transforms.is_live(desc.transform.row)))
      return make_error(ErrorCode::kInvalidArgument, "the emitter's transform is not a live row");
    MOTE_TRY_ASSIGN(const uint32_t row, system.add_manual_emitter(effect, max_count, desc));
    state_->row_changed(row, &effect);
    return ManualEmitter(this, EmitterId{row, system.generation(row)});
  });
}

Result<ManualEmitter> ParticleSystem::manual_emitter(EmitterId id) {
  MOTE_TRY(check_manual(this, id));
  if (state_->cpu_emitters.count(id.row) != 0)
    return make_error(ErrorCode::kInvalidArgument,
                      "emitter " + std::to_string(id.row) + " is cpu-driven: its driver writes its records");
  return ManualEmitter(this, id);
}

uint32_t ManualEmitter::max_count() const {
  if (!check_manual(system_, id_).ok()) return 0;
  return ApiAccess::state(*system_).system.manual().max_count(id_.row);
}

uint32_t ManualEmitter::count() const {
  if (!check_manual(system_, id_).ok()) return 0;
  return ApiAccess::state(*system_).system.manual().count(id_.row);
}

Result<Particle> ManualEmitter::get(uint32_t index) const {
  MOTE_TRY(check_manual(system_, id_));
  return ApiAccess::state(*system_).system.manual().get(id_.row, index);
}

Status ManualEmitter::set(uint32_t index, const Particle& particle) {
  MOTE_TRY(check_manual(system_, id_));
  return ApiAccess::state(*system_).system.manual().set(id_.row, index, particle);
}

Status ManualEmitter::write_range(uint32_t first, std::span<const Particle> particles) {
  MOTE_TRY(check_manual(system_, id_));
  return ApiAccess::state(*system_).system.manual().write_range(id_.row, first, particles);
}

Status ManualEmitter::set_count(uint32_t count) {
  MOTE_TRY(check_manual(system_, id_));
  return ApiAccess::state(*system_).system.manual().set_count(id_.row, count);
}

Status ManualEmitter::upload() {
  MOTE_TRY(check_manual(system_, id_));
  return ApiAccess::state(*system_).system.manual().upload(id_.row);
}

}  // namespace mote
