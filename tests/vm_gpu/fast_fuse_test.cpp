// The fast interpreter's instruction fusion (src/vm_gpu/fast_fuse.hpp): which CMP-KILL and
// CLAMP(x, 0, 1) pairs become one instruction, and the cases where both have to stay. That a
// fused section computes bit for bit what the unfused one does is checked on the GPU
// (test_vm_gpu_interpreter.cpp, FoldedSectionsComputeExactlyWhatTheUnfoldedOnesDo).
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <vector>

#include "bench/update_program.hpp"
#include "mote/isa.hpp"
#include "shared/vm_fast_operands.h"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/fast_fuse.hpp"
#include "vm_gpu/record_window.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
using shader::kVmFastFirstWindowSlot, shader::kVmFastZeroSlot;

std::vector<FastInstruction> decoded(const FastOperandSection& s) {
  std::vector<FastInstruction> out;
  for (size_t i = 0; i + 4 <= s.code.size(); i += 4)
    out.push_back(decode_fast_instruction(std::span(s.code).subspan(i, 4)));
  return out;
}
std::vector<uint32_t> ops_of(const FastOperandSection& s) {
  std::vector<uint32_t> ops;
  for (const FastInstruction& u : decoded(s)) ops.push_back(u.op);
  return ops;
}
std::vector<uint32_t> ops(std::initializer_list<Op> list) {
  std::vector<uint32_t> out;
  for (Op op : list) out.push_back(uint32_t(op));
  return out;
}

// The section folded (its fields in the window, DT the run's 1/60 when `dt`) and then fused.
FastOperandSection fused(const Program& p, uint32_t record_words, bool dt = false) {
  auto fast = fast_operand_section(p.update);
  EXPECT_TRUE(fast.has_value());
  FastFoldContext context{.constants = p.constants,
                          .record_words = record_words,
                          .window = record_window(p, Section::kUpdate, record_words)};
  if (dt)
    context.uniform_builtin = [](uint32_t id) -> std::optional<std::array<uint32_t, 4>> {
      if (id != uint32_t(isa::Builtin::DT)) return std::nullopt;
      return std::array<uint32_t, 4>{f2u(1.0f / 60.0f), 0u, 0u, 0u};
    };
  return fuse_fast_instructions(fold_fast_moves(*fast, context));
}

// A one-field program around `body` (the field x at word 1 is stored from r7 at the end).
Program with_body(std::vector<Instruction> body) {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"x", 1}, {"y", 1}, {"z", 1}};
  p.update = {make_ins(Op::LOAD_FIELD, 1, 0, raw(1)), make_ins(Op::LOAD_FIELD, 1, 1, raw(2))};
  p.update.insert(p.update.end(), body.begin(), body.end());
  return p;
}

TEST(FastFuse, TheBenchmarkUpdateRunsNineInstructions) {
  const FastOperandSection f = fused(bench::make_update_program(), 32, /*dt=*/true);
  ASSERT_EQ(ops_of(f), ops({Op::FMA, Op::MUL, Op::FMA, Op::ADD, Op::DIV, Op::SMOOTHSTEP, Op::MIX, Op::MIX, Op::KILL}));
  const std::vector<FastInstruction> u = decoded(f);
  // t = clamp(age / life, 0, 1) is one saturating DIV, into t's register (r11).
  EXPECT_TRUE(u[4].saturate);
  EXPECT_EQ(u[4].base, 11u);
  for (size_t i = 0; i < u.size(); ++i)
    if (i != 4) {
      EXPECT_FALSE(u[i].saturate) << i;
    }
  // KILL age > life compares the window's age and life itself.
  const uint32_t w = kVmFastFirstWindowSlot;
  EXPECT_EQ(u[8].slots[0][0], w + 7);
  EXPECT_EQ(u[8].slots[1][0], w + 8);
  EXPECT_EQ(u[8].word[2], shader::kVmCmpGt);
  EXPECT_EQ(f.registers_to_clear, 0u);
}

TEST(FastFuse, APlainKillComparesWithZero) {
  const FastOperandSection f = fused(with_body({make_ins(Op::KILL, 1, 0, reg(0))}), 4);
  const std::vector<FastInstruction> u = decoded(f);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].op, uint32_t(Op::KILL));
  EXPECT_EQ(u[0].operand_class[1], shader::kVmOperandScalar);
  EXPECT_EQ(u[0].slots[1][0], kVmFastZeroSlot);
  EXPECT_EQ(u[0].word[2], shader::kVmCmpNe);
}

TEST(FastFuse, ACompareStaysWhenItsMaskIsReadElsewhereOrItsSourcesChange) {
  // The mask is stored as well.
  FastOperandSection f = fused(with_body({make_ins(Op::CMP, 1, 2, reg(0), reg(1), raw(shader::kVmCmpLt)),
                                          make_ins(Op::KILL, 1, 0, reg(2)),
                                          make_ins(Op::STORE_FIELD, 1, 0, raw(3), reg(2))}),
                               4);
  EXPECT_EQ(ops_of(f), ops({Op::CMP, Op::KILL}));  // the store folded into the CMP
  // The mask is read after the kill.
  f = fused(with_body({make_ins(Op::CMP, 1, 2, reg(0), reg(1), raw(shader::kVmCmpLt)), make_ins(Op::KILL, 1, 0, reg(2)),
                       make_ins(Op::ADD, 1, 3, reg(2), reg(0)), make_ins(Op::STORE_FIELD, 1, 0, raw(3), reg(3))}),
            4);
  EXPECT_EQ(ops_of(f), ops({Op::CMP, Op::KILL, Op::ADD}));
  // x changes between the comparison and the kill.
  f = fused(with_body({make_ins(Op::CMP, 1, 2, reg(0), reg(1), raw(shader::kVmCmpLt)),
                       make_ins(Op::ADD, 1, 0, reg(0), imm(1.0f)), make_ins(Op::KILL, 1, 0, reg(2)),
                       make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(0))}),
            4);
  EXPECT_EQ(ops_of(f), ops({Op::CMP, Op::ADD, Op::KILL}));
  // The same without the change fuses.
  f = fused(with_body({make_ins(Op::CMP, 1, 2, reg(0), reg(1), raw(shader::kVmCmpLt)),
                       make_ins(Op::ADD, 1, 3, reg(0), imm(1.0f)), make_ins(Op::KILL, 1, 0, reg(2)),
                       make_ins(Op::STORE_FIELD, 1, 0, raw(3), reg(3))}),
            4);
  EXPECT_EQ(ops_of(f), ops({Op::ADD, Op::KILL}));
  EXPECT_EQ(decoded(f)[1].word[2], shader::kVmCmpLt);
}

TEST(FastFuse, AClampToTheUnitRangeSaturatesTheInstructionBefore) {
  // Three lanes wide, into other registers: the fold first sends the CLAMP's result to v's
  // window slots (the store folds into it), and the fusion hands those slots to the MUL,
  // saturated.
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"v", 3}};
  p.update = {make_ins(Op::LOAD_FIELD, 3, 0, raw(1)), make_ins(Op::MUL, 3, 0, reg(0), imm(0.5f)),
              make_ins(Op::CLAMP, 3, 4, reg(0), imm(0.0f), imm(1.0f)), make_ins(Op::STORE_FIELD, 3, 0, raw(1), reg(4))};
  const FastOperandSection f = fused(p, 4);
  const std::vector<FastInstruction> u = decoded(f);
  ASSERT_EQ(ops_of(f), ops({Op::MUL}));
  EXPECT_TRUE(u[0].saturate);
  EXPECT_EQ(u[0].base, kVmFastFirstWindowSlot + 1);  // the CLAMP's destination: v's slots
}

TEST(FastFuse, AClampStaysWhereItIsNotExactlyASaturation) {
  struct Case {
    Instruction clamp;
    std::vector<Instruction> after;
    const char* what;
  };
  const std::vector<Case> cases = {
      {make_ins(Op::CLAMP, 1, 3, reg(2), imm(-0.0f), imm(1.0f)), {}, "-0.0 as the low bound"},
      {make_ins(Op::CLAMP, 1, 3, reg(2), imm(0.0f), imm(2.0f)), {}, "2.0 as the high bound"},
      {make_ins(Op::CLAMP, 1, 3, reg(2), reg(1), imm(1.0f)), {}, "a register as a bound"},
      {make_ins(Op::CLAMP, 1, 3, reg(2), imm(0.0f), imm(1.0f)),
       {make_ins(Op::ADD, 1, 3, reg(3), reg(2))},
       "the unclamped value read after"},
  };
  for (const Case& c : cases) {
    std::vector<Instruction> body = {make_ins(Op::DIV, 1, 2, reg(0), reg(1)), c.clamp};
    body.insert(body.end(), c.after.begin(), c.after.end());
    body.push_back(make_ins(Op::STORE_FIELD, 1, 0, raw(3), reg(3)));
    const FastOperandSection f = fused(with_body(body), 4);
    std::vector<uint32_t> want = ops({Op::DIV, Op::CLAMP});
    if (!c.after.empty()) want.push_back(uint32_t(Op::ADD));
    EXPECT_EQ(ops_of(f), want) << c.what;
    for (const FastInstruction& u : decoded(f)) EXPECT_FALSE(u.saturate) << c.what;
  }
  // A read of the unclamped value between the two keeps them apart as well.
  const FastOperandSection f =
      fused(with_body({make_ins(Op::DIV, 1, 2, reg(0), reg(1)), make_ins(Op::ADD, 1, 4, reg(2), imm(1.0f)),
                       make_ins(Op::CLAMP, 1, 3, reg(2), imm(0.0f), imm(1.0f)), make_ins(Op::ADD, 1, 5, reg(3), reg(4)),
                       make_ins(Op::STORE_FIELD, 1, 0, raw(3), reg(5))}),
            4);
  EXPECT_EQ(ops_of(f), ops({Op::DIV, Op::ADD, Op::CLAMP, Op::ADD}));
}

TEST(FastFuse, ASectionNotInTheFastFormComesBackUnchanged) {
  FastOperandSection odd;
  odd.code = {1u, 2u, 3u};
  EXPECT_EQ(fuse_fast_instructions(odd).code, odd.code);
}

}  // namespace
}  // namespace mote::test
