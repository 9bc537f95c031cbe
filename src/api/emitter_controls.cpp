// The public runtime controls of an emitter (include/mote/particles.hpp, docs/design/drivers.md):
// each checks the id's generation and forwards to the runtime, which edits the emitter's record
// for the next frame.
#include <fmt/format.h>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "mote/particles.hpp"
#include "shared/emitter_record.h"

namespace mote {

namespace {

Status check_live(runtime::ParticleSystem& system, EmitterId id) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation));
  return ok_status();
}

Status set_control(runtime::ParticleSystem& system, EmitterId id, uint32_t flag, bool on) {
  MOTE_TRY(check_live(system, id));
  return system.set_emitter_control(id.row, flag, on);
}

}  // namespace

Status ParticleSystem::set_paused(EmitterId id, bool paused) {
  return set_control(state_->system, id, shader::kEmitterFlagPaused, paused);
}

Status ParticleSystem::set_emitting(EmitterId id, bool emitting) {
  return set_control(state_->system, id, shader::kEmitterFlagStopped, !emitting);
}

Status ParticleSystem::set_active(EmitterId id, bool active) {
  return set_control(state_->system, id, shader::kEmitterFlagInactive, !active);
}

Status ParticleSystem::set_emitter_position(EmitterId id, const std::array<float, 3>& position) {
  MOTE_TRY(check_live(state_->system, id));
  return state_->system.set_emitter_pose(id.row, position, nullptr);
}

Status ParticleSystem::set_emitter_pose(EmitterId id, const std::array<float, 3>& position,
                                        const std::array<float, 4>& rotation) {
  MOTE_TRY(check_live(state_->system, id));
  return state_->system.set_emitter_pose(id.row, position, &rotation);
}

Result<uint32_t> ParticleSystem::read_alive_count(EmitterId id) {
  return core::guard_allocation("ParticleSystem::read_alive_count", [&]() -> Result<uint32_t> {
    MOTE_TRY(check_live(state_->system, id));
    MOTE_TRY_ASSIGN(const std::vector<shader::FrameEmitterBounds> bounds, state_->system.read_emitter_bounds());
    // Bounds of another generation are the row's previous tenant's: this emitter has none yet.
    if (id.row >= bounds.size() || bounds[id.row].generation != id.generation) return 0u;
    return bounds[id.row].alive;
  });
}

}  // namespace mote
