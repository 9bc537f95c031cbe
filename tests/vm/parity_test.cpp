// The parity suite: every executor named by parity_executor_names() against the reference.
//   OpParity     every opcode x every legal lane count x source kinds, one instruction at a
//                time, held to that opcode's ISA-table tolerance;
//   ProgramParity  hundreds of generated programs, held to an accumulated tolerance, and the
//                run must execute every opcode of the table (a missing opcode fails);
//   VerifyGate   an executor refuses a program that does not verify.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <set>
#include <string>

#include "test_executors.hpp"
#include "support/program_generator.hpp"
#include "support/depth_test_image.hpp"
#include "shared/vm_limits.h"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
using isa::SrcRule;

// Fields of the single-instruction programs: three 4-wide inputs and a 4-wide output.
constexpr uint32_t kFieldA = 1, kFieldB = 5, kFieldC = 9, kFieldOut = 13;
constexpr uint32_t kDstSlot = 12;
constexpr uint32_t kParticles = 64;

class Rng {
 public:
  explicit Rng(uint64_t s) : s_(s) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + uint32_t(next() % (uint64_t(hi) - lo + 1)); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) * (1.0f / 16777216.0f); }

 private:
  uint64_t s_;
};

// Input range per opcode, so each is tested where the table's tolerance is meant to hold (the
// GPU's sin/cos bound, for one, is only specified on [-pi, pi]); `edges` adds 0, -0, +-1,
// +-1e6, 1e-6 on a quarter of the components.
struct Domain {
  float lo, hi;
  bool edges;
};
Domain domain_of(Op op) {
  const float pi = std::numbers::pi_v<float>;
  switch (op) {
    case Op::SIN:
    case Op::COS: return {-pi, pi, false};
    case Op::TAN: return {-1.4f, 1.4f, false};
    case Op::EXP: return {-60.0f, 60.0f, false};
    case Op::POW: return {-2.0f, 8.0f, false};
    case Op::ASIN:
    case Op::ACOS: return {-1.5f, 1.5f, false};
    case Op::NOISE3:
    case Op::CURL3:
    case Op::SAMPLE_WIND: return {-50.0f, 50.0f, false};
    // Inside both test fields' boxes and outside them (clamped).
    case Op::SAMPLE_FIELD: return {-40.0f, 45.0f, false};
    // Around the test depth's box and ground, in view and out of it (the thickness too: some
    // negative, no hit).
    case Op::SAMPLE_DEPTH: return {-3.0f, 3.0f, false};
    case Op::QMUL:
    case Op::QROTATE:
    case Op::QFROM_AXIS_ANGLE:
    case Op::QINTEGRATE: return {-3.0f, 3.0f, false};
    default: return {-100.0f, 100.0f, true};
  }
}

float draw_value(Rng& rng, const Domain& d) {
  static constexpr float kEdges[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e6f, -1e6f, 1e-6f, 0.5f};
  if (d.edges && rng.range(0, 3) == 0) return kEdges[rng.range(0, uint32_t(std::size(kEdges) - 1))];
  if (rng.range(0, 15) == 0) return 0.0f;
  return rng.uniform(d.lo, d.hi);
}

// One instruction of `op` with `lanes` lanes wrapped in loads of its inputs and a store of its
// result. Value sources read the a/b/c registers through random swizzles, or (when `use_imm`
// picks them) immediates.
struct OpCase {
  Program program;
  uint32_t written = 0;  // result lanes stored to `out`
};
OpCase make_op_case(Op op, uint32_t lanes, Rng& rng, bool allow_imm) {
  const isa::OpInfo& info = isa::op_info(op);
  const Domain dom = domain_of(op);
  OpCase oc;
  Program& p = oc.program;
  p.register_count = 16;
  p.particle_fields = {{"a", 4}, {"b", 4}, {"c", 4}, {"out", 4}};
  p.emitter_fields = {{"e", 4}};
  p.global_imports = {{"g", 4}};
  for (int k = 0; k < 8; ++k) p.constants.push_back(f2u(draw_value(rng, dom)));
  std::vector<Instruction>& code = p.update;
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 0, raw(kFieldA)));
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 4, raw(kFieldB)));
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 8, raw(kFieldC)));
  Src src[3];
  for (uint32_t s = 0; s < 3; ++s) {
    const SrcRule rule = info.src[s];
    const uint32_t width = isa::source_width(rule, lanes);
    if (width > 0) {
      if (allow_imm && rng.range(0, 2) == 0) {
        src[s] = imm(draw_value(rng, dom));
      } else {
        std::array<uint32_t, 4> swz = {0, 1, 2, 3};
        for (uint32_t c = 0; c < width; ++c) swz[c] = rng.range(0, 3);
        src[s] = reg(4 * s, swz);
      }
      continue;
    }
    switch (rule) {
      case SrcRule::kField: src[s] = raw(kFieldA + rng.range(0, 4 - lanes)); break;
      case SrcRule::kConst: src[s] = raw(4 * rng.range(0, 1) + rng.range(0, 4 - lanes)); break;
      case SrcRule::kBuiltin: {
        const uint32_t space = rng.range(0, 2);
        if (space == 0) {
          std::vector<uint32_t> ids;
          for (const isa::BuiltinInfo& b : isa::all_builtins())
            if (b.width >= lanes) ids.push_back(b.id);
          src[s] = raw(builtin_word(shader::kVmSpaceEngine, ids[rng.range(0, uint32_t(ids.size() - 1))]));
        } else {
          src[s] = raw(builtin_word(space == 1 ? shader::kVmSpaceEmitterField : shader::kVmSpaceGlobalField,
                                    rng.range(0, 4 - lanes)));
        }
        break;
      }
      case SrcRule::kDraw: src[s] = raw(rng.range(0, 100000)); break;
      case SrcRule::kCmp: src[s] = raw(rng.range(0, 5)); break;
      case SrcRule::kEvent: src[s] = raw(rng.range(0, shader::kVmEventOutputs - 1)); break;
      case SrcRule::kVectorField: src[s] = raw(rng.range(0, shader::kVmVectorFields - 1)); break;
      default: break;
    }
  }
  if (op == Op::STORE_FIELD) src[0] = raw(kFieldOut + rng.range(0, 4 - lanes));
  oc.written = info.dst == isa::DstRule::kDstLanes ? lanes : info.dst == isa::DstRule::kDstScalar ? 1u : 0u;
  code.push_back(make_ins(op, lanes, oc.written > 0 ? kDstSlot : 0, src[0], src[1], src[2]));
  if (oc.written > 0) code.push_back(make_ins(Op::STORE_FIELD, oc.written, 0, raw(kFieldOut), reg(kDstSlot)));
  return oc;
}

RunInput make_op_input(const Program& p, Op op, Rng& rng) {
  const Domain dom = domain_of(op);
  RunInput in;
  in.program = &p;
  in.section = Section::kUpdate;
  in.count = kParticles;
  const uint32_t rw = 17;
  in.records.resize(kParticles * rw);
  for (uint32_t i = 0; i < kParticles; ++i) {
    in.records[i * rw] = generated_header(i);
    for (uint32_t w = 1; w < rw; ++w) in.records[i * rw + w] = f2u(w < kFieldOut ? draw_value(rng, dom) : -7.0f);
  }
  in.emitter.dt = 0.016f;
  in.emitter.time = 12.5f;
  in.emitter.emitter_age = 3.25f;
  in.emitter.seed = 0xABCDEF12u;
  in.emitter.position[0] = 1.0f;
  in.emitter_fields = {f2u(1.5f), f2u(-2.0f), f2u(0.25f), f2u(8.0f)};
  in.global_fields = {f2u(-3.0f), f2u(4.5f), f2u(100.0f), f2u(0.0f)};
  in.wind.base_velocity = {1.0f, 0.0f, -2.0f, 0.0f};
  in.wind.turbulence = {2.0f, 0.3f, 1.5f, 7.0f};
  in.vector_fields = test_vector_fields();
  in.depth = &test_depth_image();
  in.rng_base = uint32_t(rng.next());
  in.first_particle_index = rng.range(0, 100000);
  return in;
}

class OpParity : public ::testing::TestWithParam<std::string> {};

TEST_P(OpParity, EveryOpcodeEveryLaneCountWithinTableTolerance) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr) << GetParam();
  auto reference = make_reference_executor();
  Rng rng(0x5EED0001u);
  for (const isa::OpInfo& info : isa::all_ops()) {
    for (uint32_t lanes = info.lanes_min; lanes <= info.lanes_max; ++lanes) {
      for (int variant = 0; variant < 4; ++variant) {
        OpCase oc = make_op_case(info.op, lanes, rng, /*allow_imm=*/variant >= 2);
        const RunInput in = make_op_input(oc.program, info.op, rng);
        const std::string where = std::string(info.mnemonic) + " lanes=" + std::to_string(lanes) +
                                  " variant=" + std::to_string(variant);
        auto ref = reference->run(in);
        ASSERT_TRUE(ref.ok()) << where << ": " << ref.error().to_string();
        auto got = executor->run(in);
        ASSERT_TRUE(got.ok()) << where << ": " << got.error().to_string();
        ASSERT_EQ(got->killed, ref->killed) << where;
        ASSERT_EQ(got->events, ref->events) << where;
        const uint32_t rw = 17;
        for (uint32_t i = 0; i < in.count; ++i) {
          for (uint32_t w = 0; w < rw; ++w) {
            const uint32_t g = got->records[i * rw + w], r = ref->records[i * rw + w];
            if (w < kFieldOut) {
              ASSERT_EQ(g, r) << where << " particle " << i << " word " << w << " (not written by the op)";
            } else {
              // The op's operands: registers r0..r11 hold fields A, B, C (the program loads them).
              const Instruction& op_ins = oc.program.update[3];
              float regs[12];
              for (uint32_t q = 0; q < 12; ++q) regs[q] = u2f(in.records[i * rw + 1 + q]);
              float src[3][4];
              read_source_values(op_ins, regs, src);
              ASSERT_TRUE(within_op_tolerance(info, u2f(g), u2f(r), src[0], src[1], src[2], w - kFieldOut))
                  << where << " particle " << i << " lane " << (w - kFieldOut) << ": got " << u2f(g) << " ref "
                  << u2f(r) << " fields a=(" << u2f(in.records[i * rw + 1]) << "," << u2f(in.records[i * rw + 2]) << ","
                  << u2f(in.records[i * rw + 3]) << "," << u2f(in.records[i * rw + 4]) << ") b=("
                  << u2f(in.records[i * rw + 5]) << "," << u2f(in.records[i * rw + 6]) << ","
                  << u2f(in.records[i * rw + 7]) << "," << u2f(in.records[i * rw + 8]) << ") c=("
                  << u2f(in.records[i * rw + 9]) << "," << u2f(in.records[i * rw + 10]) << ","
                  << u2f(in.records[i * rw + 11]) << "," << u2f(in.records[i * rw + 12]) << ") instruction " << std::hex
                  << op_ins.words[0] << " " << op_ins.words[1] << " " << op_ins.words[2] << " " << op_ins.words[3]
                  << std::dec;
            }
          }
        }
      }
    }
  }
}

class ProgramParity : public ::testing::TestWithParam<std::string> {};

// Accumulated tolerance over a whole generated program (tens of dependent ops, each within its
// own table bound): |got - ref| <= 1e-3 + 1e-3 * |ref|. CPU executors are bit-exact anyway.
constexpr double kProgramAbs = 1e-3, kProgramRel = 1e-3;
constexpr uint32_t kPrograms = 300;

TEST_P(ProgramParity, GeneratedProgramsMatchReferenceAndCoverEveryOpcode) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr) << GetParam();
  auto reference = make_reference_executor();
  std::array<uint64_t, 256> executed{};
  std::set<std::pair<uint32_t, uint32_t>> op_lanes_seen;
  std::set<std::pair<uint32_t, uint32_t>> op_kind_seen;  // (op, kind) of value sources
  for (uint32_t k = 0; k < kPrograms; ++k) {
    GeneratorOptions options;
    if (k % 10 == 9) options.max_registers = 256;  // some programs need the wide register file
    const Program stateful = generate_random_program(k, options);
    const Program stateless = generate_random_eval_program(k, options);  // EVAL (docs/design/isa.md)
    for (Section section : kAllSections) {
      const Program& program = section == Section::kEval ? stateless : stateful;
      for (const Instruction& ins : program.code(section)) {
        const uint32_t op = shader::vm_op(ins.words[0]);
        op_lanes_seen.insert({op, shader::vm_lanes(ins.words[0])});
        for (uint32_t s = 0; s < 3; ++s) op_kind_seen.insert({op, shader::vm_kind(ins.words[0], s)});
      }
      const uint32_t count = 1 + (k * 37) % 150;  // odd sizes hit partial blocks
      const RunInput in = make_random_input(program, section, count, k * 2 + uint32_t(section));
      const std::string where = "program " + std::to_string(k) + " " + section_name(section);
      auto ref = reference->run(in);
      ASSERT_TRUE(ref.ok()) << where << ": " << ref.error().to_string();
      auto got = executor->run(in);
      ASSERT_TRUE(got.ok()) << where << ": " << got.error().to_string();
      ASSERT_EQ(got->killed, ref->killed) << where;
      ASSERT_EQ(got->events, ref->events) << where;
      ASSERT_EQ(got->records.size(), ref->records.size());
      const uint32_t rw = effective_record_words(in);
      for (size_t w = 0; w < ref->records.size(); ++w) {
        const uint32_t g = got->records[w], r = ref->records[w];
        if (w % rw == 0) {
          ASSERT_EQ(g, generated_header(uint32_t(w / rw))) << where << ": header changed";
          continue;
        }
        const float gf = u2f(g), rf = u2f(r);
        const bool ok = (std::isnan(gf) && std::isnan(rf)) || gf == rf ||
                        std::fabs(double(gf) - double(rf)) <= kProgramAbs + kProgramRel * std::fabs(double(rf));
        ASSERT_TRUE(ok) << where << " word " << w << ": got " << gf << " ref " << rf;
      }
      uint64_t reported = 0;
      for (uint64_t n : got->op_executions) reported += n;
      if (reported > 0) {
        ASSERT_EQ(got->op_executions, ref->op_executions) << where;
      }
      for (size_t op = 0; op < executed.size(); ++op) executed[op] += ref->op_executions[op];
    }
  }
  // Coverage: a generator or executor change that stops exercising an opcode fails here.
  for (const isa::OpInfo& info : isa::all_ops()) {
    EXPECT_GT(executed[info.number], 0u) << info.mnemonic << " was never executed";
    for (uint32_t lanes = info.lanes_min; lanes <= info.lanes_max; ++lanes)
      EXPECT_TRUE(op_lanes_seen.count({info.number, lanes}))
          << info.mnemonic << " never ran with " << lanes << " lanes";
    for (uint32_t s = 0; s < 3; ++s) {
      if (!(info.src[s] == SrcRule::kVal || info.src[s] == SrcRule::kVal1 || info.src[s] == SrcRule::kVal3 ||
            info.src[s] == SrcRule::kVal4))
        continue;
      EXPECT_TRUE(op_kind_seen.count({info.number, shader::kVmKindReg})) << info.mnemonic << " never read a REG";
      EXPECT_TRUE(op_kind_seen.count({info.number, shader::kVmKindImm})) << info.mnemonic << " never read an IMM";
    }
  }
}

class VerifyGate : public ::testing::TestWithParam<std::string> {};

TEST_P(VerifyGate, UnverifiedProgramNeverRuns) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr);
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"x", 1}};
  p.update = {make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(2))};  // r2 read before written
  RunInput in;
  in.program = &p;
  in.count = 2;
  in.records.assign(4, 0);
  auto result = executor->run(in);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kVerify) << result.error().to_string();

  // Linked programs only: an unlinked global import (space 2) is refused too.
  Program q;
  q.register_count = 4;
  q.particle_fields = {{"x", 1}};
  q.global_imports = {{"g", 1}};
  q.update = {make_ins(Op::LOAD_BUILTIN, 1, 0, raw(builtin_word(shader::kVmSpaceGlobalImport, 0))),
              make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(0))};
  in.program = &q;
  in.global_fields = {0};
  auto unlinked = executor->run(in);
  ASSERT_FALSE(unlinked.ok());
  EXPECT_EQ(unlinked.error().code, ErrorCode::kVerify);

  // A record buffer of the wrong size is an invalid argument, not a crash.
  in.program = &p;
  p.update = {make_ins(Op::MOV, 1, 0, imm(1.0f)), make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(0))};
  in.records.assign(3, 0);
  auto sized = executor->run(in);
  ASSERT_FALSE(sized.ok());
  EXPECT_EQ(sized.error().code, ErrorCode::kInvalidArgument);
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Executors, OpParity, ::testing::ValuesIn(parity_executor_names()), param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ProgramParity);
INSTANTIATE_TEST_SUITE_P(Executors, ProgramParity, ::testing::ValuesIn(program_parity_executor_names()), param_name);
INSTANTIATE_TEST_SUITE_P(Executors, VerifyGate, ::testing::ValuesIn(parity_executor_names()), param_name);

}  // namespace
}  // namespace mote::test
