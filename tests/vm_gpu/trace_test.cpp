// Trace-replay parity of the GPU executors (the interpreters and the compiled kernels) on
// randomly generated programs: the GPU records every instruction's result per particle; the
// test replays the program in the reference semantics, feeding each instruction the GPU's own
// register values, and checks that instruction's result within the ISA table's tolerance for
// its opcode. Error cannot compound, so the check is as strict on instruction 40 as on
// instruction 1, and every opcode the generator reaches is proven on the GPU (the coverage
// assertion fails otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "test_executors.hpp"
#include "vm/executor_common.hpp"
#include "vm_gpu/gpu_executor.hpp"
#include "support/program_generator.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using vm_detail::ReferenceParticle;

class TraceParity : public ::testing::TestWithParam<std::string> {};

bool fused_rounding(isa::Op op, float got, float ref) {
  if (op != isa::Op::ADD && op != isa::Op::SUB && op != isa::Op::MUL) return false;
  if (!std::isfinite(got) || !std::isfinite(ref)) return false;
  return std::fabs(double(got) - double(ref)) <= std::ldexp(1.0, std::ilogb(std::max(std::fabs(ref), 1e-38f)) - 23);
}

TEST_P(TraceParity, EveryInstructionOfGeneratedProgramsMatchesTheReference) {
  auto executor = make_executor_for_test(GetParam());
  // A compiled kernel is one shader: its driver may contract an instruction's arithmetic with the
  // one before it (docs/design/vm.md, "The compiled kernels"), so an ADD, SUB or MUL can see its
  // operand unrounded where the trace shows it rounded (lavapipe: a SUB of an ACOS's result came
  // out an ulp off on a rounding tie). Those three get one ulp of the result there.
  const bool fuses_across = GetParam() == "gpu-compiled";
  ASSERT_NE(executor, nullptr);
  std::array<uint64_t, 256> checked{};
  const uint32_t programs = trace_parity_program_count(GetParam());
  for (uint32_t k = 0; k < programs; ++k) {
    GeneratorOptions options;
    if (k % 8 == 7) options.max_registers = 256;  // the wide register file too
    const Program stateful = generate_random_program(1000 + k, options);
    const Program stateless = generate_random_eval_program(1000 + k, options);  // EVAL (docs/design/isa.md)
    for (Section section : kAllSections) {
      // EVAL on every fourth program: enough for every opcode EVAL has, at a quarter of the cost.
      if (section == Section::kEval && k % 4 != 0) continue;
      const Program& program = section == Section::kEval ? stateless : stateful;
      const uint32_t count = 1 + (k * 29) % 70;
      const RunInput in = make_random_input(program, section, count, 7000 + k * 2 + uint32_t(section));
      const std::string where = "program " + std::to_string(1000 + k) + " " + section_name(section);
      auto traced = run_gpu_traced(*executor, in);
      ASSERT_TRUE(traced.ok()) << where << ": " << traced.error().to_string();
      const auto& code = program.code(section);
      const uint32_t rw = effective_record_words(in);
      ASSERT_EQ(traced->trace.size(), size_t(count) * code.size() * 4);
      for (uint32_t i = 0; i < count; ++i) {
        ReferenceParticle p;
        std::vector<uint32_t> record(in.records.begin() + size_t(i) * rw, in.records.begin() + size_t(i + 1) * rw);
        p.record = record.data();
        p.index = i;
        p.seed = shader::vm_particle_seed(in.rng_base, in.first_particle_index + i);
        for (size_t pc = 0; pc < code.size(); ++pc) {
          const Instruction& ins = code[pc];
          const uint32_t op = shader::vm_op(ins.words[0]);
          const uint32_t lanes = shader::vm_lanes(ins.words[0]);
          const isa::OpInfo& info = *isa::op_info(op);
          // The instruction's operands as the GPU saw them (the replayed registers are the GPU's).
          float src[3][4];
          read_source_values(ins, p.regs.data(), src);
          shader::vec4 ref(0.0f);
          ASSERT_TRUE(vm_detail::reference_execute(in, ins, p, &ref)) << where;
          const uint32_t written = info.dst == isa::DstRule::kDstLanes    ? lanes
                                   : info.dst == isa::DstRule::kDstScalar ? 1u
                                                                          : 0u;
          const uint32_t* gpu = &traced->trace[(size_t(i) * code.size() + pc) * 4];
          for (uint32_t c = 0; c < written; ++c) {
            const float g = u2f(gpu[c]);
            ASSERT_TRUE(within_op_tolerance(info, g, ref[int(c)], src[0], src[1], src[2], c) ||
                        (fuses_across && fused_rounding(info.op, g, ref[int(c)])))
                << where << " particle " << i << " " << info.mnemonic << " at [" << pc << "] lane " << c << ": gpu "
                << g << " reference " << ref[int(c)] << " operands (" << src[0][0] << "," << src[0][1] << ","
                << src[0][2] << "," << src[0][3] << ") (" << src[1][0] << "," << src[1][1] << "," << src[1][2] << ","
                << src[1][3] << ") (" << src[2][0] << "," << src[2][1] << "," << src[2][2] << "," << src[2][3] << ")";
            // Continue from the GPU's value, so the next instruction is checked on the GPU's operands.
            p.regs[shader::vm_dst(ins.words[0]) + c] = g;
          }
          ++checked[op];
        }
        EXPECT_EQ(traced->output.killed[i], p.killed ? 1 : 0) << where << " particle " << i;
        for (uint32_t w = 0; w < rw; ++w)
          ASSERT_EQ(traced->output.records[size_t(i) * rw + w], record[w])
              << where << " particle " << i << " word " << w;
      }
    }
  }
  for (const isa::OpInfo& info : isa::all_ops())
    EXPECT_GT(checked[info.number], 0u) << info.mnemonic << " was never checked on " << GetParam();
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Executors, TraceParity, ::testing::ValuesIn(trace_parity_executor_names()), param_name);

}  // namespace
}  // namespace mote::test
