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
#include "shared/emitter_record.h"
#include "shared/frame.h"

namespace mote {

namespace {

Status check_swappable(runtime::ParticleSystem& system, EmitterId id) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation));
  return ok_status();
}

// The row's live particles as the last frame left them: whole records of `words` words (the
// first `words` of each pool record), in alive-list order. Waits for the GPU.
Result<std::vector<uint32_t>> live_records(ParticleSystem& api, EmitterId id, uint32_t words) {
  MOTE_TRY_ASSIGN(const AliveRecords alive, api.read_alive_records());
  std::vector<uint32_t> out;
  for (size_t i = 0; i < alive.slots.size(); ++i) {
    const uint32_t* record = alive.records.data() + i * alive.record_words;
    if (header_row(record[0]) != id.row || header_generation(record[0]) != (id.generation & kHeaderGenerationMask))
      continue;
    out.insert(out.end(), record, record + std::min(words, alive.record_words));
    out.resize(out.size() + (words - std::min(words, alive.record_words)), 0u);
  }
  return out;
}

Particle particle_of(const uint32_t* record) {
  Particle p;
  std::memcpy(static_cast<void*>(&p), record + kParticleFirstWord, sizeof(Particle));
  return p;
}

// gpu or manual -> cpu: a batch-VM simulation of the row's effect adopts its live particles and
// its clock (the GPU tick's state), and the row's manual driver draws its uploads from the next
// frame, as an add_cpu_emitter row's.
Status swap_to_cpu(ParticleSystem& api, detail::ParticleSystemState& state, EmitterId id, Driver from) {
  runtime::ParticleSystem& system = state.system;
  const runtime::EmitterLifecycle::Row* row = system.emitter_row(id.row);
  const CompiledEffect& effect = row->emitter.effect;
  if (row->options.transform.valid())
    return make_error(ErrorCode::kInvalidArgument, "a cpu emitter stands at its own pose, not at a transform");
  MOTE_TRY(runtime::check_standard_particle(effect.program));
  const uint32_t words = effect.program.particle_record_words();
  std::vector<uint32_t> records;
  uint32_t max_count = 0;
  if (from == Driver::kNone) {
    max_count = std::min(std::max(effect.emission.capacity_hint, 1u), system.capacity());
  } else if (from == Driver::kManual) {
    const runtime::ManualDrivers& manual = system.manual();
    max_count = manual.max_count(id.row);
    for (uint32_t i = 0; i < manual.count(id.row); ++i) {
      MOTE_TRY_ASSIGN(const Particle p, manual.get(id.row, i));
      const size_t at = records.size();
      records.resize(at + words, 0u);
      std::memcpy(records.data() + at + kParticleFirstWord, &p, sizeof(Particle));
    }
  } else {
    MOTE_TRY_ASSIGN(records, live_records(api, id, words));
    const uint32_t hint = effect.emission.capacity_hint;
    max_count = std::min(std::max({hint, uint32_t(records.size() / words), 1u}), system.capacity());
  }
  MOTE_TRY_ASSIGN(const std::vector<shader::FrameEmitterState> states, system.read_emitter_states());
  const shader::FrameEmitterState& gpu = states.at(id.row);
  // The GPU's tick is the index of the last tick run (0xFFFFFFFF before the first).
  const SimulationClock clock{gpu.age, gpu.accumulator, gpu.spawned, gpu.tick + 1u};
  EmitterDesc desc = row->options;
  desc.position = {row->emitter.position[0], row->emitter.position[1], row->emitter.position[2]};
  desc.rotation = {row->emitter.rotation[0], row->emitter.rotation[1], row->emitter.rotation[2],
                   row->emitter.rotation[3]};
  MOTE_TRY_ASSIGN(Simulation simulation, Simulation::create(effect, {.emitter = desc,
                                                                     .capacity = max_count,
                                                                     .executor = SimulationExecutor::kBatch,
                                                                     .prewarm = false}));
  MOTE_TRY(simulation.adopt(records, clock));
  // A stopped emitter stays stopped (set_emitting): its steps spawn only its bursts.
  simulation.set_emitting((row->emitter.control_flags & shader::kEmitterFlagStopped) == 0u);
  if (from != Driver::kManual) {
    std::vector<Particle> particles;
    for (size_t at = 0; at < records.size(); at += words) particles.push_back(particle_of(records.data() + at));
    MOTE_TRY(system.make_manual(id.row, max_count, particles));
  }
  state.cpu_emitters.insert_or_assign(id.row,
                                      std::make_unique<detail::ParticleSystemState::CpuDriver>(
                                          detail::ParticleSystemState::CpuDriver{std::move(simulation), {}, {}, 0}));
  return ok_status();
}

// A detached row gets `to`: active again, and for a host driver its (empty) host side.
Status attach_driver(ParticleSystem& api, detail::ParticleSystemState& state, EmitterId id, Driver to) {
  runtime::ParticleSystem& system = state.system;
  if (to == Driver::kManual) {
    const uint32_t hint = system.emitter_row(id.row)->emitter.effect.emission.capacity_hint;
    MOTE_TRY(system.make_manual(id.row, std::min(std::max(hint, 1u), system.capacity()), {}));
  } else if (to == Driver::kCpu) {
    MOTE_TRY(swap_to_cpu(api, state, id, Driver::kNone));
  }
  state.detached.erase(id.row);
  return system.set_emitter_control(id.row, shader::kEmitterFlagInactive, false);
}

}  // namespace

Status ParticleSystem::detach_driver(EmitterId id) {
  MOTE_TRY_ASSIGN(const Driver from, driver(id));
  if (from == Driver::kNone) return ok_status();
  if (from == Driver::kStateless)
    return make_error(ErrorCode::kUnsupported, "a stateless emitter keeps its driver: remove it instead");
  runtime::ParticleSystem& system = state_->system;
  state_->cpu_emitters.erase(id.row);
  if (from != Driver::kGpu) MOTE_TRY(system.make_gpu_driven(id.row));
  MOTE_TRY(system.set_emitter_control(id.row, shader::kEmitterFlagInactive, true));
  state_->detached.insert(id.row);
  return ok_status();
}

Result<Driver> ParticleSystem::driver(EmitterId id) {
  MOTE_TRY(check_swappable(state_->system, id));
  if (state_->detached.count(id.row) != 0) return Driver::kNone;
  if (state_->cpu_emitters.count(id.row) != 0) return Driver::kCpu;
  if (state_->system.stateless().is_stateless(id.row)) return Driver::kStateless;
  return state_->system.manual().is_manual(id.row) ? Driver::kManual : Driver::kGpu;
}

Status ParticleSystem::set_driver(EmitterId id, Driver to) {
  return core::guard_allocation("ParticleSystem::set_driver", [&]() -> Status {
    MOTE_TRY_ASSIGN(const Driver from, driver(id));
    if (from == to) return ok_status();
    if (from == Driver::kStateless || to == Driver::kStateless)
      return make_error(ErrorCode::kUnsupported,
                        "a stateless emitter keeps its driver, and no other emitter takes it: add or remove one");
    runtime::ParticleSystem& system = state_->system;
    if (to == Driver::kNone) return detach_driver(id);
    if (from == Driver::kNone) return attach_driver(*this, *state_, id, to);
    if (to == Driver::kCpu) return swap_to_cpu(*this, *state_, id, from);
    if (from == Driver::kCpu) state_->cpu_emitters.erase(id.row);  // its records are the manual driver's already
    if (to == Driver::kGpu) return system.make_gpu_driven(id.row);
    if (from == Driver::kCpu) return ok_status();  // cpu -> manual: the last upload's records stay
    // gpu -> manual: the live particles as the last frame left them become the records.
    MOTE_TRY(runtime::check_standard_particle(system.emitter_row(id.row)->emitter.effect.program));
    const uint32_t words = kParticleFirstWord + kParticleWords;
    MOTE_TRY_ASSIGN(const std::vector<uint32_t> live, live_records(*this, id, words));
    std::vector<Particle> records;
    for (size_t at = 0; at < live.size(); at += words) records.push_back(particle_of(live.data() + at));
    const uint32_t hint = system.emitter_row(id.row)->emitter.effect.emission.capacity_hint;
    const uint32_t max_count = std::min(std::max({hint, uint32_t(records.size()), 1u}), system.capacity());
    return system.make_manual(id.row, max_count, records);
  });
}

}  // namespace mote
