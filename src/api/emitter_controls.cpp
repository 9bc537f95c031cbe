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

Status check_live(const runtime::ParticleSystem& system, EmitterId id) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation));
  return ok_status();
}

Status set_control(runtime::ParticleSystem& system, EmitterId id, uint32_t flag, bool on) {
  MOTE_TRY(check_live(system, id));
  return system.set_emitter_control(id.row, flag, on);
}

// A cpu emitter's simulation takes the pose the row's record now holds.
void move_cpu_emitter(detail::ParticleSystemState& state, uint32_t row) {
  auto it = state.cpu_emitters.find(row);
  const runtime::EmitterLifecycle::Row* live = state.system.emitter_row(row);
  if (it == state.cpu_emitters.end() || live == nullptr) return;
  const float* p = live->emitter.position;
  const float* q = live->emitter.rotation;
  it->second->simulation.set_emitter_pose({p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]});
}

}  // namespace

Status ParticleSystem::set_paused(EmitterId id, bool paused) {
  return set_control(state_->system, id, shader::kEmitterFlagPaused, paused);
}

Status ParticleSystem::set_emitting(EmitterId id, bool emitting) {
  MOTE_TRY(check_live(state_->system, id));
  if (auto cpu = state_->cpu_emitters.find(id.row); cpu != state_->cpu_emitters.end())
    cpu->second->simulation.set_emitting(emitting);  // its steps spawn; the row's flag says so too
  return set_control(state_->system, id, shader::kEmitterFlagStopped, !emitting);
}

Status ParticleSystem::set_active(EmitterId id, bool active) {
  if (active && state_->detached.count(id.row) != 0 && check_live(state_->system, id).ok())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} has no driver: attach one with set_driver", id.row));
  return set_control(state_->system, id, shader::kEmitterFlagInactive, !active);
}

Status ParticleSystem::set_emitter_position(EmitterId id, const std::array<float, 3>& position) {
  MOTE_TRY(check_live(state_->system, id));
  MOTE_TRY(state_->system.set_emitter_pose(id.row, position, nullptr));
  move_cpu_emitter(*state_, id.row);
  return ok_status();
}

Status ParticleSystem::set_emitter_pose(EmitterId id, const std::array<float, 3>& position,
                                        const std::array<float, 4>& rotation) {
  MOTE_TRY(check_live(state_->system, id));
  MOTE_TRY(state_->system.set_emitter_pose(id.row, position, &rotation));
  move_cpu_emitter(*state_, id.row);
  return ok_status();
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

uint64_t ParticleSystem::driver_upload_bytes() const { return state_->system.manual().uploaded_bytes(); }

Status ParticleSystem::set_pool_full_policy(EmitterId id, PoolFullPolicy policy) {
  MOTE_TRY(check_live(state_->system, id));
  if (state_->cpu_emitters.count(id.row) != 0)
    return make_error(ErrorCode::kUnsupported, "the pool-full policy of a cpu emitter (its pool is its simulation's)");
  return state_->system.set_pool_full_policy(id.row, policy == PoolFullPolicy::kReplaceOldest
                                                         ? runtime::PoolFullPolicy::kReplaceOldest
                                                         : runtime::PoolFullPolicy::kDrop);
}

Result<PoolFullPolicy> ParticleSystem::pool_full_policy(EmitterId id) const {
  MOTE_TRY(check_live(state_->system, id));
  return state_->system.pool_full_policy(id.row) == runtime::PoolFullPolicy::kReplaceOldest
             ? PoolFullPolicy::kReplaceOldest
             : PoolFullPolicy::kDrop;
}

}  // namespace mote
