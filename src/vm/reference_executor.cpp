// The reference executor: one particle at a time, one instruction at a time, one switch. It is
// written to be read, not to be fast: it *is* the VM's semantics (with vm_semantics.h), and
// every other executor is tested against it.
#include <array>
#include <string>

#include "vm/executor_common.hpp"

namespace mote {
namespace {

using namespace vm_detail;
using shader::vm_lanes;
using shader::vm_op;
using shader::vm_dst;
using shader::vm_kind;

class ReferenceExecutor final : public Executor {
 public:
  std::string_view name() const override { return "reference"; }
  Result<RunOutput> run(const RunInput& input) override {
    RunOutput out;
    MOTE_TRY(run_into(input, out));
    return out;
  }
  Status run_into(const RunInput& input, RunOutput& out) override;
};

using Particle = ReferenceParticle;

// Source s of instruction `ins`, `width` components wide (the rest 0): REG through the
// swizzle, IMM splatted, NONE reads as 0 (raw words are read by the opcode itself).
vec4 read_source(const Particle& p, const Instruction& ins, uint32_t s, uint32_t width) {
  const uint32_t kind = vm_kind(ins.words[0], s);
  const uint32_t word = ins.words[1 + s];
  vec4 v(0.0f);
  for (uint32_t c = 0; c < width; ++c) {
    if (kind == shader::kVmKindReg) v[int(c)] = p.regs[reg_slot(word, c)];
    if (kind == shader::kVmKindImm) v[int(c)] = as_float(word);
  }
  return v;
}

}  // namespace

// Runs one instruction; false for an opcode the switch does not know (never for a verified
// program: the meta-test checks every table opcode reaches a case).
bool vm_detail::reference_execute(const RunInput& in, const Instruction& ins, ReferenceParticle& p, vec4* result) {
  const uint32_t w0 = ins.words[0];
  const uint32_t op = vm_op(w0);
  const uint32_t lanes = vm_lanes(w0);
  const isa::OpInfo* info = isa::op_info(op);
  if (info == nullptr) return false;
  const vec4 a = read_source(p, ins, 0, source_width(info->src[0], lanes));
  const vec4 b = read_source(p, ins, 1, source_width(info->src[1], lanes));
  const vec4 c = read_source(p, ins, 2, source_width(info->src[2], lanes));
  vec4 r(0.0f);
  using shader::vec3;
  namespace s = shader;

  switch (isa::Op(op)) {
    case isa::Op::NOP: break;
    case isa::Op::MOV: r = a; break;
    case isa::Op::ADD: r = s::vm_add(a, b); break;
    case isa::Op::SUB: r = s::vm_sub(a, b); break;
    case isa::Op::MUL: r = s::vm_mul(a, b); break;
    case isa::Op::DIV: r = s::vm_div(a, b); break;
    case isa::Op::FMA: r = s::vm_fma(a, b, c); break;
    case isa::Op::MIN: r = s::vm_min(a, b); break;
    case isa::Op::MAX: r = s::vm_max(a, b); break;
    case isa::Op::CLAMP: r = s::vm_clamp(a, b, c); break;
    case isa::Op::ABS: r = s::vm_abs(a); break;
    case isa::Op::SIGN: r = s::vm_sign(a); break;
    case isa::Op::FLOOR: r = s::vm_floor(a); break;
    case isa::Op::CEIL: r = s::vm_ceil(a); break;
    case isa::Op::FRACT: r = s::vm_fract(a); break;
    case isa::Op::MOD: r = s::vm_mod(a, b); break;
    case isa::Op::SQRT: r = s::vm_sqrt(a); break;
    case isa::Op::RSQRT: r = s::vm_rsqrt(a); break;
    case isa::Op::EXP: r = s::vm_exp(a); break;
    case isa::Op::LOG: r = s::vm_log(a); break;
    case isa::Op::POW: r = s::vm_pow(a, b); break;
    case isa::Op::SIN: r = s::vm_sin(a); break;
    case isa::Op::COS: r = s::vm_cos(a); break;
    case isa::Op::TAN: r = s::vm_tan(a); break;
    case isa::Op::ASIN: r = s::vm_asin(a); break;
    case isa::Op::ACOS: r = s::vm_acos(a); break;
    case isa::Op::ATAN2: r = s::vm_atan2(a, b); break;
    case isa::Op::DOT: r.x = s::vm_dot(a, b); break;
    case isa::Op::CROSS: r = s::vm_cross(a, b); break;
    case isa::Op::LENGTH: r.x = s::vm_length(a); break;
    case isa::Op::NORMALIZE: r = s::vm_normalize(a); break;
    case isa::Op::DISTANCE: r.x = s::vm_distance(a, b); break;
    case isa::Op::MIX: r = s::vm_mix(a, b, c); break;
    case isa::Op::STEP: r = s::vm_step(a, b); break;
    case isa::Op::SMOOTHSTEP: r = s::vm_smoothstep(a, b, c); break;
    case isa::Op::CMP: r = s::vm_cmp(a, b, ins.words[3]); break;
    case isa::Op::SELECT: r = s::vm_select(a, b, c); break;
    case isa::Op::AND: r = s::vm_and(a, b); break;
    case isa::Op::OR: r = s::vm_or(a, b); break;
    case isa::Op::NOT: r = s::vm_not(a); break;
    case isa::Op::LOAD_FIELD:
      for (uint32_t k = 0; k < lanes; ++k) r[int(k)] = as_float(p.record[ins.words[1] + k]);
      break;
    case isa::Op::STORE_FIELD:
      for (uint32_t k = 0; k < lanes; ++k) p.record[ins.words[1] + k] = as_bits(b[int(k)]);
      break;
    case isa::Op::LOAD_CONST:
      for (uint32_t k = 0; k < lanes; ++k) r[int(k)] = as_float(in.program->constants[ins.words[1] + k]);
      break;
    case isa::Op::LOAD_BUILTIN: r = load_builtin(in, ins.words[1], lanes, p.index); break;
    case isa::Op::RAND:
      for (uint32_t k = 0; k < lanes; ++k) r[int(k)] = s::vm_rand(p.seed, ins.words[1], k);
      break;
    case isa::Op::QMUL: r = s::vm_qmul(a, b); break;
    case isa::Op::QROTATE: r = vec4(s::vm_qrotate(a, vec3(b)), 0.0f); break;
    case isa::Op::QFROM_AXIS_ANGLE: r = s::vm_qfrom_axis_angle(vec3(a), b.x); break;
    case isa::Op::QINTEGRATE: r = s::vm_qintegrate(a, vec3(b), c.x); break;
    case isa::Op::NOISE3: r.x = s::vm_noise3(vec3(a)); break;
    case isa::Op::CURL3: r = vec4(s::vm_curl3(vec3(a)), 0.0f); break;
    case isa::Op::SAMPLE_WIND: r = vec4(s::vm_sample_wind(in.wind, vec3(a)), 0.0f); break;
    case isa::Op::KILL: p.killed = p.killed || a.x != 0.0f; break;
    default: return false;
  }

  if (result) *result = r;
  const uint32_t dst = vm_dst(w0);
  const uint32_t written = info->dst == isa::DstRule::kDstLanes ? lanes : info->dst == isa::DstRule::kDstScalar ? 1u : 0u;
  for (uint32_t k = 0; k < written; ++k) p.regs[dst + k] = r[int(k)];
  return true;
}

namespace {

Status ReferenceExecutor::run_into(const RunInput& input, RunOutput& out) {
  MOTE_TRY_ASSIGN(const uint32_t record_words, validate_run_input(input));
  const auto& code = input.program->code(input.section);
  out.records.assign(input.records.begin(), input.records.end());
  out.killed.assign(input.count, 0);
  out.op_executions.fill(0);
  Particle p;
  for (uint32_t i = 0; i < input.count; ++i) {
    p.regs.fill(0.0f);  // every particle starts from zeroed registers
    p.record = out.records.data() + size_t(i) * record_words;
    p.index = i;
    p.seed = shader::vm_particle_seed(input.rng_base, input.first_particle_index + i);
    p.killed = false;
    for (size_t k = 0; k < code.size(); ++k) {
      if (!reference_execute(input, code[k], p, nullptr))
        return make_error(ErrorCode::kInternal, "reference executor has no case for opcode " +
                                                    std::to_string(vm_op(code[k].words[0])),
                          std::string(section_name_of(input.section)) + "[" + std::to_string(k) + "]");
      ++out.op_executions[vm_op(code[k].words[0])];
    }
    out.killed[i] = p.killed ? 1 : 0;
  }
  return ok_status();
}

}  // namespace

std::unique_ptr<Executor> make_reference_executor() { return std::make_unique<ReferenceExecutor>(); }

}  // namespace mote
