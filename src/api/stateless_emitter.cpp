// The public stateless driver (include/mote/particles.hpp's StatelessEmitter,
// docs/design/drivers.md "The stateless driver"): a handle over runtime::StatelessDrivers,
// refusing an emitter that is no longer the one it was given (a removed or reused row).
#include <fmt/format.h>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "mote/particles.hpp"

namespace mote {

using detail::ApiAccess;

namespace {

Status check_stateless(const ParticleSystem* system, EmitterId id) {
  if (system == nullptr) return make_error(ErrorCode::kInvalidArgument, "an empty StatelessEmitter handle");
  const runtime::ParticleSystem& s = ApiAccess::state(*const_cast<ParticleSystem*>(system)).system;
  if (!s.is_live(id.row) || s.generation(id.row) != id.generation || !s.stateless().is_stateless(id.row))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not a live stateless emitter", id.row, id.generation));
  return ok_status();
}

runtime::StatelessDrivers& drivers(ParticleSystem* system) { return ApiAccess::state(*system).system.stateless(); }

}  // namespace

Result<StatelessEmitter> ParticleSystem::add_stateless_emitter(const CompiledEffect& effect, const EmitterDesc& desc) {
  return core::guard_allocation("ParticleSystem::add_stateless_emitter", [&]() -> Result<StatelessEmitter> {
    runtime::ParticleSystem& system = state_->system;
    MOTE_TRY_ASSIGN(const uint32_t row, system.add_stateless_emitter(effect, desc));
    state_->row_changed(row, &effect);
    return StatelessEmitter(this, EmitterId{row, system.generation(row)});
  });
}

Result<StatelessEmitter> ParticleSystem::stateless_emitter(EmitterId id) {
  MOTE_TRY(check_stateless(this, id));
  return StatelessEmitter(this, id);
}

uint32_t StatelessEmitter::count() const {
  if (!check_stateless(system_, id_).ok()) return 0;
  return drivers(system_).count(id_.row);
}

Status StatelessEmitter::set_time(double time) {
  MOTE_TRY(check_stateless(system_, id_));
  return drivers(system_).set_time(id_.row, time);
}

Status StatelessEmitter::set_time_scale(double scale) {
  MOTE_TRY(check_stateless(system_, id_));
  return drivers(system_).set_time_scale(id_.row, scale);
}

double StatelessEmitter::time() const {
  if (!check_stateless(system_, id_).ok()) return 0.0;
  const Result<double> time = drivers(system_).time(id_.row);
  return time.ok() ? *time : 0.0;
}

double StatelessEmitter::time_scale() const {
  if (!check_stateless(system_, id_).ok()) return 0.0;
  const Result<double> scale = drivers(system_).time_scale(id_.row);
  return scale.ok() ? *scale : 0.0;
}

}  // namespace mote
