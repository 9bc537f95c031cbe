// Every row of the ISA table (include/mote/isa/isa_table.inc) has a case in every executor:
// for each row, lane count (and compare code), a program of that one instruction between the
// loads of its inputs and the store of its result runs on the reference and on each executor of
// parity_executor_names() (test_vm: the batch executor; test_vm_gpu: the interpreters and the
// compiled kernels). The executor must count the row's executions as the reference does
// (where it counts) and compute the reference's value within the row's tolerance; and the
// reference's value must be one a missing case cannot produce (a case-less GPU switch writes
// zeros, a case-less store or kill leaves the record and the flag alone). NOP alone has nothing
// to tell apart: its count is all there is.
//
// The C++ side also checks this when it builds: isa.hpp asserts every row keeps its form's
// rules, and the executors name a handler for every special row (special_<NAME>, op_<NAME>,
// VM_SPECIAL_<NAME>()), so a special row without one does not compile.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/program_generator.hpp"
#include "support/depth_test_image.hpp"
#include "shared/vm_limits.h"
#include "test_executors.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
using isa::SrcRule;

// Record words: header, three 4-wide inputs, a 4-wide output.
constexpr uint32_t kFieldA = 1, kFieldB = 5, kFieldC = 9, kFieldOut = 13, kRecordWords = 17;
constexpr uint32_t kDstSlot = 12;
constexpr uint32_t kParticles = 64;
constexpr float kPoison = -7.0f;  // the output words before the run

// Inputs in [-1.4, 1.4] (inside every row's parity domain, tests/vm/parity_test.cpp), with exact
// zeros and ones among them, different per particle and word so that every row has particles
// whose result is not zero; every fourth particle's b is its a (for CMP's EQ and its kin).
float input_value(uint32_t particle, uint32_t word) {
  if (particle % 4 == 3 && word >= kFieldB && word < kFieldC) word -= kFieldB - kFieldA;
  const uint32_t h = (particle * 2654435761u) ^ (word * 40503u + 0x9E37u);
  if (h % 9 == 0) return 0.0f;
  if (h % 11 == 0) return 1.0f;
  return -1.4f + 2.8f * float((h >> 8) % 4096u) / 4095.0f;
}

struct CoverageCase {
  Program program;
  std::string where;
  uint32_t written = 0;  // result lanes stored to the output field
};

CoverageCase make_case(const isa::OpInfo& info, uint32_t lanes, uint32_t compare_code) {
  CoverageCase cc;
  cc.where = std::string(info.mnemonic) + "." + std::to_string(lanes);
  if (info.op == Op::CMP) cc.where += " code " + std::to_string(compare_code);
  Program& p = cc.program;
  p.register_count = 16;
  p.particle_fields = {{"a", 4}, {"b", 4}, {"c", 4}, {"out", 4}};
  p.emitter_fields = {{"e", 4}};
  p.constants = {f2u(0.75f), f2u(-2.5f), f2u(3.0f), f2u(0.125f)};
  std::vector<Instruction>& code = p.update;
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 0, raw(kFieldA)));
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 4, raw(kFieldB)));
  code.push_back(make_ins(Op::LOAD_FIELD, 4, 8, raw(kFieldC)));
  Src src[3];
  for (uint32_t s = 0; s < 3; ++s) {
    switch (info.src[s]) {
      case SrcRule::kVal:
      case SrcRule::kVal1:
      case SrcRule::kVal3:
      case SrcRule::kVal4: src[s] = reg(4 * s); break;
      case SrcRule::kField: src[s] = raw(info.op == Op::STORE_FIELD ? kFieldOut : kFieldA); break;
      case SrcRule::kConst: src[s] = raw(0); break;
      // The emitter's field block: 4 words, non-zero.
      case SrcRule::kBuiltin: src[s] = raw(builtin_word(shader::kVmSpaceEmitterField, 0)); break;
      case SrcRule::kDraw: src[s] = raw(7); break;
      case SrcRule::kCmp: src[s] = raw(compare_code); break;
      case SrcRule::kEvent: src[s] = raw(2); break;        // not output 0: the index must be honoured
      case SrcRule::kVectorField: src[s] = raw(2); break;  // slot 2: a field, not slot 0's
      case SrcRule::kUnused: break;
    }
  }
  cc.written = info.dst == isa::DstRule::kDstLanes ? lanes : info.dst == isa::DstRule::kDstScalar ? 1u : 0u;
  code.push_back(make_ins(info.op, lanes, cc.written > 0 ? kDstSlot : 0, src[0], src[1], src[2]));
  if (cc.written > 0) code.push_back(make_ins(Op::STORE_FIELD, cc.written, 0, raw(kFieldOut), reg(kDstSlot)));
  return cc;
}

RunInput make_input(const Program& p) {
  RunInput in;
  in.program = &p;
  in.section = Section::kUpdate;
  in.count = kParticles;
  in.records.resize(size_t(kParticles) * kRecordWords);
  for (uint32_t i = 0; i < kParticles; ++i) {
    in.records[i * kRecordWords] = generated_header(i);
    for (uint32_t w = 1; w < kRecordWords; ++w)
      in.records[i * kRecordWords + w] = f2u(w < kFieldOut ? input_value(i, w) : kPoison);
  }
  in.emitter.dt = 0.016f;
  in.emitter.time = 12.5f;
  in.emitter_fields = {f2u(1.5f), f2u(-2.0f), f2u(0.25f), f2u(8.0f)};
  in.wind.base_velocity = {1.0f, 0.5f, -2.0f, 0.0f};
  in.wind.turbulence = {2.0f, 0.3f, 1.5f, 7.0f};
  in.vector_fields = test_vector_fields();
  in.depth = &test_depth_image();
  in.rng_base = 0x5EEDu;
  in.first_particle_index = 100;
  return in;
}

// Particle i's operands of the row, each as wide as its rule says (zero past it): the fields
// a, b, c the program loaded, read through the identity swizzle.
void row_operands(const isa::OpInfo& info, uint32_t lanes, const RunInput& in, uint32_t i, float out[3][4]) {
  for (uint32_t s = 0; s < 3; ++s)
    for (uint32_t k = 0; k < 4; ++k)
      out[s][k] = k < isa::source_width(info.src[s], lanes) ? u2f(in.records[i * kRecordWords + 1 + 4 * s + k]) : 0.0f;
}

// Whether an executor without the row's case (its result zeros, its record, kill flag and event
// counts left alone) would produce something other than `ref` on some particle.
bool missing_case_shows(const isa::OpInfo& info, uint32_t lanes, const CoverageCase& cc, const RunInput& in,
                        const RunOutput& ref) {
  for (uint32_t i = 0; i < in.count; ++i) {
    if (ref.killed[i] != 0) return true;
    for (uint32_t e = 0; e < shader::kVmEventOutputs; ++e)
      if (ref.events[i * shader::kVmEventOutputs + e] != 0) return true;
    float operands[3][4];
    row_operands(info, lanes, in, i, operands);
    for (uint32_t k = 0; k < 4; ++k) {
      const float value = u2f(ref.records[i * kRecordWords + kFieldOut + k]);
      if (info.op == Op::STORE_FIELD && value != kPoison) return true;
      if (k < cc.written && !within_op_tolerance(info, 0.0f, value, operands[0], operands[1], operands[2], k))
        return true;
    }
  }
  return false;
}

class RowCoverage : public ::testing::TestWithParam<std::string> {};

TEST_P(RowCoverage, EveryRowRunsItsOwnCaseInEveryExecutor) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr) << GetParam();
  auto reference = make_reference_executor();
  uint32_t cases = 0;
  for (const isa::OpInfo& info : isa::all_ops()) {
    const uint32_t codes = info.op == Op::CMP ? 6u : 1u;
    for (uint32_t lanes = info.lanes_min; lanes <= info.lanes_max; ++lanes) {
      for (uint32_t compare_code = 0; compare_code < codes; ++compare_code) {
        const CoverageCase cc = make_case(info, lanes, compare_code);
        const RunInput in = make_input(cc.program);
        auto ref = reference->run(in);
        ASSERT_TRUE(ref.ok()) << cc.where << ": " << ref.error().to_string();
        // The row ran once per particle, besides the loads and the store around it.
        uint64_t instances = 0;
        for (const Instruction& ins : cc.program.update)
          instances += shader::vm_op(ins.words[0]) == info.number ? 1 : 0;
        ASSERT_EQ(ref->op_executions[info.number], instances * kParticles) << cc.where;
        if (info.op != Op::NOP) {
          ASSERT_TRUE(missing_case_shows(info, lanes, cc, in, *ref)) << cc.where << ": inputs that prove nothing";
        }

        auto got = executor->run(in);
        ASSERT_TRUE(got.ok()) << cc.where << ": " << got.error().to_string();
        uint64_t reported = 0;
        for (uint64_t n : got->op_executions) reported += n;
        if (reported > 0) {
          ASSERT_EQ(got->op_executions, ref->op_executions) << cc.where;
        }
        ASSERT_EQ(got->killed, ref->killed) << cc.where;
        ASSERT_EQ(got->events, ref->events) << cc.where;
        for (uint32_t i = 0; i < kParticles; ++i) {
          float operands[3][4];
          row_operands(info, lanes, in, i, operands);
          for (uint32_t w = 0; w < kRecordWords; ++w) {
            const uint32_t g = got->records[i * kRecordWords + w], r = ref->records[i * kRecordWords + w];
            if (w < kFieldOut || info.op == Op::STORE_FIELD) {
              ASSERT_EQ(g, r) << cc.where << " particle " << i << " word " << w;
            } else {
              ASSERT_TRUE(within_op_tolerance(info, u2f(g), u2f(r), operands[0], operands[1], operands[2],
                                              w - kFieldOut))
                  << cc.where << " particle " << i << " lane " << (w - kFieldOut) << ": got " << u2f(g)
                  << ", reference " << u2f(r);
            }
          }
        }
        ++cases;
      }
    }
  }
  // Every row at every lane count it allows, CMP at each of its six codes.
  uint32_t expected = 0;
  for (const isa::OpInfo& info : isa::all_ops())
    expected += (info.lanes_max - info.lanes_min + 1) * (info.op == Op::CMP ? 6 : 1);
  EXPECT_EQ(cases, expected);
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Executors, RowCoverage, ::testing::ValuesIn(parity_executor_names()), param_name);

}  // namespace
}  // namespace mote::test
