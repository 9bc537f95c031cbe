#include "sim/stateless_eval.hpp"

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "isa/emitter_values.hpp"
#include "mote/link.hpp"
#include "mote/simulation.hpp"

namespace mote::sim {

namespace {

// v' = v + w t + q x t, t = 2 (q x v): the VM's QROTATE (as the reference simulation turns +Z
// and +Y into EMITTER_DIRECTION and EMITTER_UP).
void rotate(const std::array<float, 4>& q, const float v[3], float out[3]) {
  const float tx = 2.0f * (q[1] * v[2] - q[2] * v[1]);
  const float ty = 2.0f * (q[2] * v[0] - q[0] * v[2]);
  const float tz = 2.0f * (q[0] * v[1] - q[1] * v[0]);
  out[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
  out[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
  out[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

}  // namespace

RunInput StatelessEvaluation::input(float time) const {
  RunInput in;
  in.program = &linked;
  in.section = Section::kEval;
  in.count = count;
  in.record_words = record_words;
  in.records.assign(size_t(count) * record_words, 0u);
  in.emitter = emitter;
  in.emitter.time = time;
  in.emitter_fields = emitter_fields;
  in.global_fields = global_fields;
  in.rng_base = rng_base;
  in.first_particle_index = 0;
  return in;
}

Result<StatelessEvaluation> make_stateless_evaluation(const CompiledEffect& effect, const EmitterDesc& desc) {
  const Program& program = effect.program;
  if (program.eval.empty())
    return make_error(ErrorCode::kUnsupported, "a stateful effect (no EVAL section) is stepped, not evaluated");
  if (desc.transform.valid())
    return make_error(ErrorCode::kInvalidArgument,
                      "a stateless emitter stands at its own pose in this build, not at a transform");
  if (effect.emission.capacity_hint == 0 || effect.emission.capacity_hint > (1u << 24))
    return make_error(ErrorCode::kInvalidArgument,
                      "a stateless effect evaluates emission.capacity particles: 1 .. 2^24, " +
                          std::to_string(effect.emission.capacity_hint) + " given",
                      "/emission/capacity");
  StatelessEvaluation e;
  e.count = effect.emission.capacity_hint;
  e.record_words = vm_particle_record_words(program);
  MOTE_TRY_ASSIGN(e.emitter_fields, initial_emitter_fields(effect, desc.fields));
  e.global_fields = initial_global_values(effect);
  MOTE_TRY(apply_field_values(program.global_imports, desc.globals, e.global_fields, "global field"));
  MOTE_TRY_ASSIGN(e.linked, link_globals(program, global_import_offsets(program)));
  for (int i = 0; i < 3; ++i) e.emitter.position[i] = desc.position[size_t(i)];
  for (int i = 0; i < 4; ++i) e.emitter.rotation[i] = desc.rotation[size_t(i)];
  const float z[3] = {0.0f, 0.0f, 1.0f}, y[3] = {0.0f, 1.0f, 0.0f};
  rotate(desc.rotation, z, e.emitter.direction);
  rotate(desc.rotation, y, e.emitter.up);
  e.emitter.seed = desc.seed;
  e.rng_base = simulation_rng_base(desc.seed, 0, kStatelessRngKind);
  return e;
}

}  // namespace mote::sim

namespace mote {

Result<StatelessRecords> evaluate_stateless(const CompiledEffect& effect, const EmitterDesc& emitter, double time) {
  if (!std::isfinite(time))
    return make_error(ErrorCode::kInvalidArgument, "a stateless effect's time must be a finite number of seconds");
  MOTE_TRY_ASSIGN(const sim::StatelessEvaluation eval, sim::make_stateless_evaluation(effect, emitter));
  const std::unique_ptr<Executor> executor = make_reference_executor();
  MOTE_TRY_ASSIGN(RunOutput out, executor->run(eval.input(float(time))));
  return StatelessRecords{eval.count, eval.record_words, std::move(out.records)};
}

}  // namespace mote
