#include "vm/executor_common.hpp"

#include <string>

#include "mote/verifier.hpp"
#include "shared/vm_limits.h"
#include "vm/depth_sampling.hpp"
#include "vm/vector_field_sampling.hpp"

namespace mote {

Executor::~Executor() = default;

Status Executor::run_into(const RunInput& input, RunOutput& out) {
  MOTE_TRY_ASSIGN(out, run(input));
  return ok_status();
}

uint32_t vm_particle_record_words(const Program& program) {
  uint32_t words = 1;
  for (const FieldDecl& f : program.particle_fields) words += f.width;
  return words;
}

uint32_t vm_emitter_field_words(const Program& program) {
  uint32_t words = 0;
  for (const FieldDecl& f : program.emitter_fields) words += f.width;
  return words;
}

uint32_t effective_record_words(const RunInput& input) {
  if (input.record_words != 0) return input.record_words;
  return input.program ? vm_particle_record_words(*input.program) : 0;
}

namespace vm_detail {
namespace {

std::string at(Section section, size_t index) {
  return std::string(section_name_of(section)) + "[" + std::to_string(index) + "]";
}

}  // namespace

const char* section_name_of(Section section) { return section_name(section); }

Result<uint32_t> validate_run_input(const RunInput& input) {
  if (input.program == nullptr) return make_error(ErrorCode::kInvalidArgument, "RunInput.program is null");
  const Program& program = *input.program;
  const uint32_t record_words = effective_record_words(input);
  VerifyOptions options;
  options.linked = true;
  options.global_field_words = uint32_t(input.global_fields.size());
  options.record_words = record_words;
  MOTE_TRY(verify_program(program, options));

  if (record_words == 0 || record_words > shader::kVmMaxRecordWords)
    return make_error(ErrorCode::kInvalidArgument, "record stride out of range");
  if (input.records.size() != size_t(input.count) * record_words)
    return make_error(ErrorCode::kInvalidArgument, "records holds " + std::to_string(input.records.size()) +
                                                       " words, expected count * record_words = " +
                                                       std::to_string(size_t(input.count) * record_words));
  if (!input.event_payloads.empty() &&
      input.event_payloads.size() != size_t(input.count) * shader::kVmEventPayloadWords)
    return make_error(ErrorCode::kInvalidArgument,
                      "event_payloads holds " + std::to_string(input.event_payloads.size()) + " floats; a run of " +
                          std::to_string(input.count) + " particles needs none or " +
                          std::to_string(size_t(input.count) * shader::kVmEventPayloadWords));
  MOTE_TRY(check_vector_field_shapes(input.vector_fields));
  MOTE_TRY(check_depth_image_shape(input.depth));
  if (input.emitter_fields.size() < vm_emitter_field_words(program))
    return make_error(ErrorCode::kInvalidArgument, "emitter_fields is smaller than the program's emitter field block");

  // Defence in depth: bounds of every raw index against the buffers of this run.
  const auto& code = program.code(input.section);
  for (size_t k = 0; k < code.size(); ++k) {
    const auto& w = code[k].words;
    const uint32_t op = shader::vm_op(w[0]);
    const uint32_t lanes = shader::vm_lanes(w[0]);
    const isa::OpInfo* info = isa::op_info(op);
    if (info == nullptr || lanes < 1 || lanes > 4)
      return make_error(ErrorCode::kInternal, "verified program holds an unknown opcode or lane count",
                        at(input.section, k));
    for (uint32_t s = 0; s < 3; ++s) {
      const uint32_t word = w[1 + s];
      bool ok = true;
      switch (info->src[s]) {
        case isa::SrcRule::kField: ok = size_t(word) + lanes <= record_words && word >= 1; break;
        case isa::SrcRule::kConst: ok = size_t(word) + lanes <= program.constants.size(); break;
        case isa::SrcRule::kBuiltin: {
          const uint32_t space = word >> shader::kVmBuiltinSpaceShift;
          const uint32_t index = word & shader::kVmBuiltinIndexMask;
          if (space == shader::kVmSpaceEngine) {
            const isa::BuiltinInfo* b = isa::builtin_info(index);
            ok = b != nullptr && lanes <= b->width;
          } else if (space == shader::kVmSpaceEmitterField) {
            ok = size_t(index) + lanes <= input.emitter_fields.size();
          } else if (space == shader::kVmSpaceGlobalField) {
            ok = size_t(index) + lanes <= input.global_fields.size();
          } else {
            ok = false;
          }
          break;
        }
        default: break;
      }
      if (!ok)
        return make_error(ErrorCode::kInvalidArgument,
                          "source " + std::to_string(s) + " indexes past the run's buffers", at(input.section, k));
    }
  }
  return record_words;
}

vec4 sample_run_depth(const RunInput& input, vec3 p, float thickness) {
  if (input.depth == nullptr) return vec4(0.0f);
  return sample_depth_values(depth_view(input.depth), input.depth->depths, p, thickness);
}

vec3 sample_run_field(const RunInput& input, uint32_t slot, vec3 p) {
  if (slot >= input.vector_fields.size() || input.vector_fields[slot] == nullptr) return vec3(0.0f);
  const VectorField& field = *input.vector_fields[slot];
  const std::array<float, 3> v = sample_vector_field_values(vector_field_header(field, 0), field.vectors.data(),
                                                            {p.x, p.y, p.z});
  return vec3(v[0], v[1], v[2]);
}

vec4 load_builtin(const RunInput& input, uint32_t id, uint32_t lanes, uint32_t i) {
  const uint32_t space = id >> shader::kVmBuiltinSpaceShift;
  const uint32_t index = id & shader::kVmBuiltinIndexMask;
  vec4 v(0.0f);
  if (space == shader::kVmSpaceEmitterField || space == shader::kVmSpaceGlobalField) {
    const auto& words = space == shader::kVmSpaceEmitterField ? input.emitter_fields : input.global_fields;
    for (uint32_t c = 0; c < lanes; ++c) v[int(c)] = as_float(words[index + c]);
    return v;
  }
  const VmEmitterContext& e = input.emitter;
  switch (isa::Builtin(index)) {
    case isa::Builtin::DT: v.x = e.dt; break;
    case isa::Builtin::TIME: v.x = e.time; break;
    case isa::Builtin::EMITTER_AGE: v.x = e.emitter_age; break;
    case isa::Builtin::EMITTER_POSITION: v = vec4(e.position[0], e.position[1], e.position[2], 0.0f); break;
    case isa::Builtin::EMITTER_DIRECTION: v = vec4(e.direction[0], e.direction[1], e.direction[2], 0.0f); break;
    case isa::Builtin::EMITTER_UP: v = vec4(e.up[0], e.up[1], e.up[2], 0.0f); break;
    case isa::Builtin::EMITTER_ROTATION: v = vec4(e.rotation[0], e.rotation[1], e.rotation[2], e.rotation[3]); break;
    case isa::Builtin::PARTICLE_INDEX: v.x = float(input.first_particle_index + i); break;
    case isa::Builtin::SPAWN_INDEX: v.x = float(i); break;
    // (i + 0.5) / count, in float, in this order (the GPU interpreters do the same).
    case isa::Builtin::SPAWN_FRACTION: v.x = (float(i) + 0.5f) / float(input.count); break;
    case isa::Builtin::SPAWN_COUNT: v.x = float(input.count); break;
    case isa::Builtin::EMITTER_SEED: v.x = float(e.seed & 0xFFFFFFu); break;
    case isa::Builtin::EVENT_POSITION:
    case isa::Builtin::EVENT_VELOCITY:
    case isa::Builtin::EVENT_COLOR:
      if (!input.event_payloads.empty()) {
        const float* p = input.event_payloads.data() + size_t(i) * shader::kVmEventPayloadWords +
                         4u * (index - uint32_t(isa::Builtin::EVENT_POSITION));
        v = vec4(p[0], p[1], p[2], p[3]);
      }
      break;
    case isa::Builtin::EVENT_ID:  // the sender's trail_id: the position part's spare lane
      if (!input.event_payloads.empty()) v.x = input.event_payloads[size_t(i) * shader::kVmEventPayloadWords + 3];
      break;
  }
  for (uint32_t c = lanes; c < 4; ++c) v[int(c)] = 0.0f;
  return v;
}

}  // namespace vm_detail
}  // namespace mote
