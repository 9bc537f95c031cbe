// The public cpu driver (include/mote/particles.hpp's CpuEmitter, docs/design/drivers.md "The cpu
// driver"): each cpu emitter is a reference simulation of its effect on the batch VM
// (mote/simulation.hpp, SimulationExecutor::kBatch) stepped on the host with the frame's dt, its
// custom forces applied to every live particle after UPDATE, and its live records drawn through
// the manual driver (one upload a frame).
#include <cmath>
#include <cstring>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "mote/particles.hpp"
#include "shared/emitter_record.h"

namespace mote {

using detail::ApiAccess;

namespace detail {

namespace {

bool finite3(const std::array<float, 3>& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

}  // namespace

// One frame of every cpu emitter, before the GPU frame that draws them: the step, the forces
// (velocity += force dt, position += force dt^2: the force integrated with UPDATE's own step,
// semi-implicit Euler), the live records into the manual driver and an upload.
Status step_cpu_emitters(ParticleSystemState& state, float dt) {
  if (!(dt > 0.0f) || !std::isfinite(dt)) return ok_status();  // the frame reports it
  runtime::ParticleSystem& system = state.system;
  const float time = system.time() + dt;
  for (auto& [row, cpu] : state.cpu_emitters) {
    // Paused or inactive, its simulation holds too (the GPU side keeps or frees its records).
    const runtime::EmitterLifecycle::Row* live = system.emitter_row(row);
    if (live == nullptr ||
        (live->emitter.control_flags & (shader::kEmitterFlagPaused | shader::kEmitterFlagInactive)) != 0)
      continue;
    MOTE_TRY(cpu->simulation.step(dt));
    const uint32_t stride = cpu->simulation.record_words();
    std::span<uint32_t> pool = cpu->simulation.mutable_pool();
    const std::vector<uint32_t>& slots = cpu->simulation.alive_slots();
    cpu->records.resize(slots.size());
    const SceneView view{time, dt};
    for (size_t i = 0; i < slots.size(); ++i) {
      uint32_t* record = pool.data() + size_t(slots[i]) * stride + kParticleFirstWord;
      Particle p;
      std::memcpy(static_cast<void*>(&p), record, sizeof(Particle));
      for (const CustomForce& force : cpu->forces) {
        const std::array<float, 3> f = force(p, view);
        if (!finite3(f)) {
          ++cpu->rejected_forces;  // not applied: the particle keeps what UPDATE gave it
          continue;
        }
        for (int c = 0; c < 3; ++c) {
          p.velocity[c] += f[c] * dt;
          p.position[c] += f[c] * dt * dt;
        }
      }
      if (!cpu->forces.empty()) std::memcpy(record, &p, sizeof(Particle));
      cpu->records[i] = p;
    }
    runtime::ManualDrivers& manual = system.manual();
    MOTE_TRY(manual.write_range(row, 0, cpu->records));
    MOTE_TRY(manual.set_count(row, uint32_t(cpu->records.size())));
    MOTE_TRY(manual.upload(row));
  }
  return ok_status();
}

}  // namespace detail

Result<CpuEmitter> ParticleSystem::add_cpu_emitter(const CompiledEffect& effect, const CpuEmitterDesc& desc) {
  return core::guard_allocation("ParticleSystem::add_cpu_emitter", [&]() -> Result<CpuEmitter> {
    runtime::ParticleSystem& system = state_->system;
    if (desc.emitter.transform.valid())
      return make_error(ErrorCode::kInvalidArgument, "a cpu emitter stands at its own pose, not at a transform");
    const uint32_t max_count = desc.max_count != 0 ? desc.max_count : effect.emission.capacity_hint;
    // The simulation is made first: what it refuses (a bad effect or override) adds nothing.
    MOTE_TRY_ASSIGN(Simulation simulation, Simulation::create(effect, {.emitter = desc.emitter,
                                                                       .capacity = max_count,
                                                                       .executor = SimulationExecutor::kBatch,
                                                                       .threads = desc.threads}));
    MOTE_TRY_ASSIGN(const uint32_t row, system.add_manual_emitter(effect, max_count, desc.emitter));
    auto driver = std::make_unique<detail::ParticleSystemState::CpuDriver>(
        detail::ParticleSystemState::CpuDriver{std::move(simulation), desc.forces, {}, 0});
    state_->cpu_emitters.insert_or_assign(row, std::move(driver));
    state_->row_changed(row, &effect);
    return CpuEmitter(this, EmitterId{row, system.generation(row)});
  });
}

uint64_t CpuEmitter::rejected_forces() const {
  if (system_ == nullptr) return 0;
  detail::ParticleSystemState& state = ApiAccess::state(*system_);
  if (!state.system.is_live(id_.row) || state.system.generation(id_.row) != id_.generation) return 0;
  auto it = state.cpu_emitters.find(id_.row);
  return it == state.cpu_emitters.end() ? 0 : it->second->rejected_forces;
}

Status CpuEmitter::set_forces(std::vector<CustomForce> forces) {
  if (system_ == nullptr) return make_error(ErrorCode::kInvalidArgument, "an empty cpu emitter handle");
  detail::ParticleSystemState& state = ApiAccess::state(*system_);
  auto it = state.cpu_emitters.find(id_.row);
  if (!state.system.is_live(id_.row) || state.system.generation(id_.row) != id_.generation ||
      it == state.cpu_emitters.end())
    return make_error(ErrorCode::kInvalidArgument, "emitter " + std::to_string(id_.row) + " is no live cpu emitter");
  it->second->forces = std::move(forces);
  return ok_status();
}

Result<CpuEmitter> ParticleSystem::cpu_emitter(EmitterId id) {
  if (!state_->system.is_live(id.row) || state_->system.generation(id.row) != id.generation ||
      state_->cpu_emitters.count(id.row) == 0)
    return make_error(ErrorCode::kInvalidArgument, "emitter " + std::to_string(id.row) + " is no live cpu emitter");
  return CpuEmitter(this, id);
}

}  // namespace mote
