// The reference executor: one particle at a time, one instruction at a time. It is written to
// be read, not to be fast: it *is* the VM's semantics (with vm_semantics.h and the ISA table's
// evaluation of its pure rows, isa/evaluate.hpp), and every other executor is tested against it.
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "core/alloc_guard.hpp"
#include "isa/evaluate.hpp"
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
  // A failed allocation (a run sized within every limit can still exceed the machine) is
  // kOutOfMemory, not an exception (docs/design/reliability.md, "Memory").
  Status run_into(const RunInput& input, RunOutput& out) override {
    return core::guard_allocation("the reference executor's run", [&] { return run_unguarded(input, out); });
  }

 private:
  Status run_unguarded(const RunInput& input, RunOutput& out);
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

// What a special row's handler sees of its instruction: the run, the particle, the decoded
// value sources and the result it may write.
struct Site {
  const RunInput& in;
  const Instruction& ins;
  Particle& p;
  uint32_t lanes;
  const vec4& a;
  const vec4& b;
  vec4& r;
};

// ---- The special rows of the ISA table (form kSpecial), one handler each, named after the row:
// the dispatch below names special_<NAME> for every special row, so one without a handler does
// not compile. Every other row is the table's own evaluation (isa/evaluate.hpp).
void special_NOP(Site&) {}
void special_CMP(Site& s) { s.r = shader::vm_cmp(s.a, s.b, s.ins.words[3]); }
void special_LOAD_FIELD(Site& s) {
  for (uint32_t k = 0; k < s.lanes; ++k) s.r[int(k)] = as_float(s.p.record[s.ins.words[1] + k]);
}
void special_STORE_FIELD(Site& s) {
  for (uint32_t k = 0; k < s.lanes; ++k) s.p.record[s.ins.words[1] + k] = as_bits(s.b[int(k)]);
}
void special_LOAD_CONST(Site& s) {
  for (uint32_t k = 0; k < s.lanes; ++k) s.r[int(k)] = as_float(s.in.program->constants[s.ins.words[1] + k]);
}
void special_LOAD_BUILTIN(Site& s) { s.r = load_builtin(s.in, s.ins.words[1], s.lanes, s.p.index); }
void special_RAND(Site& s) {
  for (uint32_t k = 0; k < s.lanes; ++k) s.r[int(k)] = shader::vm_rand(s.p.seed, s.ins.words[1], k);
}
void special_SAMPLE_WIND(Site& s) { s.r = vec4(shader::vm_sample_wind(s.in.wind, vec3(s.a)), 0.0f); }
// The slot is src1's raw word (< kVmVectorFields: check_form).
void special_SAMPLE_FIELD(Site& s) { s.r = vec4(sample_run_field(s.in, s.ins.words[2], vec3(s.a)), 0.0f); }
void special_SAMPLE_DEPTH(Site& s) { s.r = sample_run_depth(s.in, vec3(s.a), s.b.x); }
void special_KILL(Site& s) { s.p.killed = s.p.killed || s.a.x != 0.0f; }
void special_EMIT_EVENT(Site& s) {
  uint32_t& total = s.p.events[s.ins.words[2]];  // < kVmEventOutputs: the verifier's check_form
  total = shader::vm_event_add(total, s.a.x);
}

// The special row `op`'s handler; false for a row that is not special.
bool run_special(isa::Op op, Site& site) {
  switch (op) {
#define MOTE_REFERENCE_kLane1(NAME)
#define MOTE_REFERENCE_kLane2(NAME)
#define MOTE_REFERENCE_kLane3(NAME)
#define MOTE_REFERENCE_kVector(NAME)
#define MOTE_REFERENCE_kSpecial(NAME) \
  case isa::Op::NAME:                 \
    special_##NAME(site);             \
    return true;
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) \
  MOTE_REFERENCE_##FORM(NAME)
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
#undef MOTE_REFERENCE_kLane1
#undef MOTE_REFERENCE_kLane2
#undef MOTE_REFERENCE_kLane3
#undef MOTE_REFERENCE_kVector
#undef MOTE_REFERENCE_kSpecial
    default: return false;
  }
}

}  // namespace

// Runs one instruction; false for an opcode the reference does not know (never for a verified
// program: every row of the table is either evaluated or special, and the coverage test runs
// each one).
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
  if (info->form == isa::OpForm::kSpecial) {
    Site site{in, ins, p, lanes, a, b, r};
    if (!run_special(info->op, site)) return false;
  } else {
    const std::optional<vec4> value = isa::evaluate_pure(info->op, a, b, c, ins.words[3]);
    if (!value) return false;
    r = *value;
  }

  if (result) *result = r;
  const uint32_t dst = vm_dst(w0);
  const uint32_t written = info->dst == isa::DstRule::kDstLanes    ? lanes
                           : info->dst == isa::DstRule::kDstScalar ? 1u
                                                                   : 0u;
  for (uint32_t k = 0; k < written; ++k) p.regs[dst + k] = r[int(k)];
  return true;
}

namespace {

Status ReferenceExecutor::run_unguarded(const RunInput& input, RunOutput& out) {
  MOTE_TRY_ASSIGN(const uint32_t record_words, validate_run_input(input));
  const auto& code = input.program->code(input.section);
  out.records.assign(input.records.begin(), input.records.end());
  out.killed.assign(input.count, 0);
  out.events.assign(size_t(input.count) * shader::kVmEventOutputs, 0);
  out.op_executions.fill(0);
  Particle p;
  for (uint32_t i = 0; i < input.count; ++i) {
    p.regs.fill(0.0f);  // every particle starts from zeroed registers
    p.record = out.records.data() + size_t(i) * record_words;
    p.index = i;
    p.seed = shader::vm_particle_seed(input.rng_base, input.first_particle_index + i);
    p.killed = false;
    p.events.fill(0);
    for (size_t k = 0; k < code.size(); ++k) {
      if (!reference_execute(input, code[k], p, nullptr))
        return make_error(ErrorCode::kInternal,
                          "reference executor has no case for opcode " + std::to_string(vm_op(code[k].words[0])),
                          std::string(section_name_of(input.section)) + "[" + std::to_string(k) + "]");
      ++out.op_executions[vm_op(code[k].words[0])];
    }
    out.killed[i] = p.killed ? 1 : 0;
    std::copy(p.events.begin(), p.events.end(), out.events.begin() + size_t(i) * shader::kVmEventOutputs);
  }
  return ok_status();
}

}  // namespace

std::unique_ptr<Executor> make_reference_executor() { return std::make_unique<ReferenceExecutor>(); }

}  // namespace mote
