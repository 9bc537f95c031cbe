// The fast interpreter's move fold (src/vm_gpu/fast_fold.hpp): which moves go, where the values then
// live, and the cases where a move has to stay. That the folded section computes bit for bit
// what the unfolded one does is checked on the GPU (test_vm_gpu_interpreter.cpp,
// FoldedSectionsComputeExactlyWhatTheUnfoldedOnesDo); this pins the rewrite itself.
#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "bench/update_program.hpp"
#include "mote/isa.hpp"
#include "shared/vm_fast_operands.h"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/record_window.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
using shader::kVmFastFirstImmediateSlot, shader::kVmFastFirstWindowSlot, shader::kVmFastZeroSlot;

uint32_t op_of(const FastOperandSection& s, size_t i) { return s.code[i * 4] & 0xFFu; }
uint32_t base_of(const FastOperandSection& s, size_t i) { return s.code[i * 4] >> 24; }
uint32_t operand(const FastOperandSection& s, size_t i, uint32_t source) { return s.code[i * 4 + 1 + source]; }
uint32_t bytes(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3) { return b0 | b1 << 8 | b2 << 16 | b3 << 24; }
std::vector<uint32_t> ops_of(const FastOperandSection& s) {
  std::vector<uint32_t> ops;
  for (size_t i = 0; i < s.code.size() / 4; ++i) ops.push_back(op_of(s, i));
  return ops;
}

FastOperandSection folded(const Program& p, uint32_t record_words, bool window = true) {
  auto fast = fast_operand_section(p.update);
  EXPECT_TRUE(fast.has_value());
  FastFoldContext context{.constants = p.constants, .record_words = record_words};
  if (window) context.window = record_window(p, Section::kUpdate, record_words);
  return fold_fast_moves(*fast, context);
}

TEST(FastFold, TheBenchmarkUpdateKeepsOnlyItsArithmetic) {
  const Program p = bench::make_update_program();
  ASSERT_EQ(p.update.size(), 25u);
  const FastOperandSection f = folded(p, 32);
  // Every field load, constant load and field store is gone; what is left computes.
  const std::vector<uint32_t> expected = {uint32_t(Op::LOAD_BUILTIN), uint32_t(Op::FMA),   uint32_t(Op::FMA),
                                          uint32_t(Op::MUL),          uint32_t(Op::FMA),   uint32_t(Op::ADD),
                                          uint32_t(Op::DIV),          uint32_t(Op::CLAMP), uint32_t(Op::SMOOTHSTEP),
                                          uint32_t(Op::MIX),          uint32_t(Op::MIX),   uint32_t(Op::CMP),
                                          uint32_t(Op::KILL)};
  EXPECT_EQ(ops_of(f), expected);
  // The window starts at record word 0, so field word w is window slot 128 + w.
  const uint32_t w = kVmFastFirstWindowSlot;
  // v += g dt reads the velocity where the window holds it, and gravity as immediates
  // (0.0 is the zero slot).
  EXPECT_EQ(operand(f, 1, 2), bytes(w + 4, w + 5, w + 6, kVmFastZeroSlot));
  EXPECT_EQ(operand(f, 1, 0) & 0xFFu, kVmFastZeroSlot);  // gravity.x = 0.0
  // v *= drag writes the velocity's window slots: its store is folded into it.
  EXPECT_EQ(base_of(f, 3), w + 4);
  // p += v dt reads that velocity and writes the position's slots.
  EXPECT_EQ(operand(f, 4, 0), bytes(w + 4, w + 5, w + 6, kVmFastZeroSlot));
  EXPECT_EQ(operand(f, 4, 2), bytes(w + 1, w + 2, w + 3, kVmFastZeroSlot));
  EXPECT_EQ(base_of(f, 4), w + 1);
  // age += dt in place; the age / life ratio and the kill test read the new age from the window.
  EXPECT_EQ(base_of(f, 5), w + 7);
  EXPECT_EQ(operand(f, 6, 0) & 0xFFu, w + 7);
  EXPECT_EQ(operand(f, 6, 1) & 0xFFu, w + 8);
  EXPECT_EQ(operand(f, 11, 0) & 0xFFu, w + 7);
  // size and colour over life land in their fields.
  EXPECT_EQ(base_of(f, 9), w + 9);
  EXPECT_EQ(base_of(f, 10), w + 10);
  // The colour constants are immediates now.
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t slot = (operand(f, 10, 0) >> (8 * c)) & 0xFFu;
    ASSERT_GE(slot, kVmFastFirstImmediateSlot);
    EXPECT_EQ(f.immediates[slot - kVmFastFirstImmediateSlot], p.constants[4 + c]);
  }
}

TEST(FastFold, BuiltinsTheRunSharesBecomeImmediatesAndPerParticleOnesStay) {
  const Program p = bench::make_update_program();
  auto fast = fast_operand_section(p.update);
  ASSERT_TRUE(fast.has_value());
  FastFoldContext context{.constants = p.constants,
                          .record_words = 32,
                          .window = record_window(p, Section::kUpdate, 32)};
  const uint32_t dt = f2u(1.0f / 60.0f);
  std::vector<uint32_t> asked;
  context.uniform_builtin = [&](uint32_t id) -> std::optional<std::array<uint32_t, 4>> {
    asked.push_back(id);
    return std::array<uint32_t, 4>{dt, 1u, 2u, 3u};  // lanes past the load's one must not leak
  };
  const FastOperandSection f = fold_fast_moves(*fast, context);
  EXPECT_EQ(asked, (std::vector<uint32_t>{uint32_t(isa::Builtin::DT)}));
  // With dt an immediate, the drag factor 1 - 0.5 dt is computed here too (dt * -0.5 is exact).
  ASSERT_EQ(f.code.size() / 4, 11u);
  EXPECT_EQ(op_of(f, 0), uint32_t(Op::FMA));
  EXPECT_EQ(op_of(f, 1), uint32_t(Op::MUL));
  const uint32_t drag_slot = operand(f, 1, 1) & 0xFFu;
  ASSERT_GE(drag_slot, kVmFastFirstImmediateSlot);
  EXPECT_EQ(f.immediates[drag_slot - kVmFastFirstImmediateSlot], f2u(1.0f / 60.0f * -0.5f + 1.0f));
  // v += g * dt: dt is an immediate now, its splat across three lanes.
  const uint32_t dt_slot = operand(f, 0, 1) & 0xFFu;
  ASSERT_GE(dt_slot, kVmFastFirstImmediateSlot);
  EXPECT_EQ(f.immediates[dt_slot - kVmFastFirstImmediateSlot], dt);
  EXPECT_EQ(operand(f, 0, 1), bytes(dt_slot, dt_slot, dt_slot, kVmFastZeroSlot));
  for (uint32_t bits : f.immediates) EXPECT_TRUE(bits != 1u && bits != 2u && bits != 3u);

  // A builtin the resolver does not give (a per-particle one) stays an instruction.
  context.uniform_builtin = [](uint32_t) -> std::optional<std::array<uint32_t, 4>> { return std::nullopt; };
  EXPECT_EQ(fold_fast_moves(*fast, context).code.size() / 4, 13u);
}

TEST(FastFold, OnlyRegistersReadBeforeWrittenAreCleared) {
  const Program p = bench::make_update_program();
  EXPECT_EQ(folded(p, 32).registers_to_clear, 0u);  // a verified program reads nothing unwritten
  Program q;
  q.register_count = 8;
  q.particle_fields = {{"x", 1}};
  q.update = {
      make_ins(Op::MOV, 1, 1, imm(2.0f)),
      make_ins(Op::ADD, 1, 2, reg(1), reg(5)),  // r5 is never written: it must read 0
      make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(2)),
  };
  EXPECT_EQ(fast_operand_section(q.update)->registers_to_clear, 6u);
  EXPECT_EQ(folded(q, 4).registers_to_clear, 6u);
}

TEST(FastFold, WithoutAWindowFieldMovesStayAndConstantsStillFold) {
  const Program p = bench::make_update_program();
  const FastOperandSection f = folded(p, 32, /*window=*/false);
  uint32_t loads = 0, stores = 0, constants = 0;
  for (uint32_t op : ops_of(f)) {
    loads += op == uint32_t(Op::LOAD_FIELD);
    stores += op == uint32_t(Op::STORE_FIELD);
    constants += op == uint32_t(Op::LOAD_CONST);
  }
  EXPECT_EQ(loads, 4u);
  EXPECT_EQ(stores, 5u);
  EXPECT_EQ(constants, 0u);
  EXPECT_EQ(f.code.size() / 4, 25u - 3u);
}

TEST(FastFold, ACopyOfAFieldStillReadAfterTheFieldIsStoredIsMadeReal) {
  // r0 = a; r1 = r0 + 1; a = r1; b = r0  ->  b must get the old a.
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 1}, {"b", 1}};
  p.update = {
      make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),
      make_ins(Op::ADD, 1, 1, reg(0), imm(1.0f)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(1)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(2), reg(0)),
  };
  const FastOperandSection f = folded(p, 4);
  const uint32_t a = kVmFastFirstWindowSlot + 1, b = kVmFastFirstWindowSlot + 2;
  // The add cannot write a's slot early (r0 still stands for the old a), so the old a is copied
  // into b's slot first, straight from a's slot, and then the store of a runs.
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::ADD), uint32_t(Op::MOV), uint32_t(Op::STORE_FIELD)}));
  EXPECT_EQ(operand(f, 0, 0) & 0xFFu, a);
  EXPECT_EQ(base_of(f, 0), 1u);
  EXPECT_EQ(operand(f, 1, 0) & 0xFFu, a);
  EXPECT_EQ(base_of(f, 1), b);
  EXPECT_EQ(operand(f, 2, 1) & 0xFFu, 1u);
}

TEST(FastFold, AStoreStaysWhenTheFieldIsReadBetweenTheValueAndTheStore) {
  // r1 = 2c; r2 = a + 0 (reads the old a after r1 is computed); a = r1; b = r2.
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 1}, {"b", 1}, {"c", 1}};
  p.update = {
      make_ins(Op::LOAD_FIELD, 1, 3, raw(3)),          make_ins(Op::MUL, 1, 1, reg(3), imm(2.0f)),
      make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),          make_ins(Op::ADD, 1, 2, reg(0), imm(0.0f)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(1)), make_ins(Op::STORE_FIELD, 1, 0, raw(2), reg(2)),
  };
  const FastOperandSection f = folded(p, 4);
  // The MUL may not write a's slot: the ADD reads the old a after it. The ADD's own result can
  // go straight to b.
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::MUL), uint32_t(Op::ADD), uint32_t(Op::STORE_FIELD)}));
  EXPECT_EQ(base_of(f, 0), 1u);
  EXPECT_EQ(base_of(f, 1), kVmFastFirstWindowSlot + 2);
}

TEST(FastFold, AStoreOfPartOfAResultStays) {
  // r0.xyz = v * 2 (3 lanes); store only r0.xy: the MUL writes a third register the store
  // does not cover, so it keeps its registers and the store stays.
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"v", 3}, {"w", 2}};
  p.update = {
      make_ins(Op::LOAD_FIELD, 3, 0, raw(1)),
      make_ins(Op::MUL, 3, 0, reg(0), imm(2.0f)),
      make_ins(Op::STORE_FIELD, 2, 0, raw(4), reg(0)),
  };
  const FastOperandSection f = folded(p, 8);
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::MUL), uint32_t(Op::STORE_FIELD)}));
  EXPECT_EQ(base_of(f, 0), 0u);
  EXPECT_EQ(operand(f, 0, 0),
            bytes(kVmFastFirstWindowSlot + 1, kVmFastFirstWindowSlot + 2, kVmFastFirstWindowSlot + 3, kVmFastZeroSlot));
}

TEST(FastFold, ConstantsFoldOnlyWhileTheImmediatesFit) {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"x", 1}};
  // 62 distinct immediates in the section, then two constant loads of two new values each.
  for (uint32_t i = 0; i < 62; ++i) p.update.push_back(make_ins(Op::MOV, 1, 0, imm(float(i + 1))));
  p.constants = {f2u(100.0f), f2u(200.0f), f2u(300.0f), f2u(0.0f)};
  p.update.push_back(make_ins(Op::LOAD_CONST, 2, 1, raw(0)));  // 100, 200: only one slot left
  p.update.push_back(make_ins(Op::LOAD_CONST, 1, 3, raw(3)));  // +0.0: the zero slot, always
  p.update.push_back(make_ins(Op::ADD, 1, 4, reg(1), reg(2)));
  p.update.push_back(make_ins(Op::ADD, 1, 4, reg(4), reg(3)));
  p.update.push_back(make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(4)));
  const FastOperandSection f = folded(p, 4);
  EXPECT_EQ(f.immediates.size(), 62u);  // the half-fitting load added nothing
  // The 62 MOVs write r0, which nobody reads: dead. The two-lane load stays; the zero one folds.
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::LOAD_CONST), uint32_t(Op::ADD), uint32_t(Op::ADD)}));
  EXPECT_EQ(operand(f, 2, 1) & 0xFFu, kVmFastZeroSlot);
  EXPECT_EQ(base_of(f, 2), kVmFastFirstWindowSlot + 1);  // the last ADD writes x itself
}

TEST(FastFold, ClampedFieldWordsAndConstantIndicesFoldAsTheInterpreterReadsThem) {
  // A 4-word record: LOAD_FIELD.2 of word 3 reads words 3 and 3 (clamped); LOAD_CONST.2 of
  // index 1 in a one-constant pool reads constant 0 twice.
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 3}};
  p.constants = {f2u(5.0f)};
  p.update = {
      make_ins(Op::LOAD_FIELD, 2, 0, raw(3)),
      make_ins(Op::LOAD_CONST, 2, 2, raw(1)),
      make_ins(Op::ADD, 2, 0, reg(0), reg(2)),
      make_ins(Op::STORE_FIELD, 2, 0, raw(1), reg(0)),
  };
  const FastOperandSection f = folded(p, 4);
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::ADD)}));
  const uint32_t w3 = kVmFastFirstWindowSlot + 3, five = kVmFastFirstImmediateSlot;
  ASSERT_EQ(f.immediates, (std::vector<uint32_t>{f2u(5.0f)}));
  EXPECT_EQ(operand(f, 0, 0), bytes(w3, w3, kVmFastZeroSlot, kVmFastZeroSlot));
  EXPECT_EQ(operand(f, 0, 1), bytes(five, five, kVmFastZeroSlot, kVmFastZeroSlot));
  EXPECT_EQ(base_of(f, 0), kVmFastFirstWindowSlot + 1);
}

TEST(FastFold, ASectionNotInTheFastFormComesBackUnchanged) {
  const Program p = bench::make_update_program();
  const FastFoldContext context{.constants = p.constants,
                                .record_words = 32,
                                .window = record_window(p, Section::kUpdate, 32)};
  FastOperandSection section = *fast_operand_section(p.update);
  // A result run past the registers (base 62, 4 slots), then a source class the form never uses,
  // then a torn instruction.
  for (auto mutate : {+[](FastOperandSection& s) { s.code[4 * 6] = (s.code[4 * 6] & 0x00FFFFFFu) | (62u << 24); },
                      +[](FastOperandSection& s) { s.code[4 * 7] |= 3u << shader::kVmFastClassShift; },
                      +[](FastOperandSection& s) { s.code.pop_back(); }}) {
    FastOperandSection bad = section;
    mutate(bad);
    const FastOperandSection out = fold_fast_moves(bad, context);
    EXPECT_EQ(out.code, bad.code);
    EXPECT_EQ(out.immediates, bad.immediates);
  }
  EXPECT_LT(fold_fast_moves(section, context).code.size(), section.code.size());  // the intact one folds
}

// Arithmetic on immediates only is computed on the host, with the interpreter's functions, and
// its readers name the result's slot.
TEST(FastFold, ArithmeticOnImmediatesBecomesAnImmediate) {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"x", 1}, {"y", 2}};
  p.update = {
      make_ins(Op::ADD, 1, 0, imm(2.0f), imm(3.5f)),
      make_ins(Op::CLAMP, 2, 1, imm(7.0f), imm(-1.0f), imm(4.0f)),
      make_ins(Op::FMA, 1, 3, reg(0), imm(0.5f), imm(1.0f)),  // 5.5 * 0.5 is exact: folds
      make_ins(Op::CMP, 1, 4, reg(3), imm(3.0f), raw(shader::kVmCmpGt)),
      make_ins(Op::MUL, 1, 5, reg(4), reg(3)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(5)),
      make_ins(Op::STORE_FIELD, 2, 0, raw(2), reg(1)),
  };
  const FastOperandSection f = folded(p, 4);
  // Every value is known: only the stores remain, of immediates.
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::STORE_FIELD), uint32_t(Op::STORE_FIELD)}));
  auto immediate = [&](uint32_t slot) { return u2f(f.immediates.at(slot - kVmFastFirstImmediateSlot)); };
  EXPECT_EQ(immediate(operand(f, 0, 1) & 0xFFu), 3.75f);  // (5.5 * 0.5 + 1 > 3) * 3.75
  EXPECT_EQ(immediate(operand(f, 1, 1) & 0xFFu), 4.0f);
  EXPECT_EQ(immediate((operand(f, 1, 1) >> 8) & 0xFFu), 4.0f);
}

// What could round or order differently on a GPU stays an instruction: an FMA whose product is
// inexact, a NaN or subnormal, a -0.0 into MIN, MAX or CLAMP, and an immediate the reader fills
// at run time (the frame's DT).
TEST(FastFold, ArithmeticThatAGpuMayComputeOtherwiseStays) {
  const float subnormal = std::numeric_limits<float>::denorm_min() * 8.0f;
  const uint32_t quiet_nan = 0x7FC00000u;
  const uint32_t filled = 0x7FB5D700u;
  const std::vector<std::pair<Instruction, const char*>> cases = {
      {make_ins(Op::FMA, 1, 0, imm(0.1f), imm(0.3f), imm(1.0f)), "inexact product"},
      {make_ins(Op::ADD, 1, 0, imm(subnormal), imm(1.0f)), "subnormal input"},
      {make_ins(Op::MUL, 1, 0, imm(1e-20f), imm(1e-20f)), "subnormal or zero result"},
      {make_ins(Op::ADD, 1, 0, Src{shader::kVmKindImm, quiet_nan}, imm(1.0f)), "NaN input"},
      {make_ins(Op::MIN, 1, 0, imm(-0.0f), imm(2.0f)), "-0.0 into MIN"},
      {make_ins(Op::ADD, 1, 0, Src{shader::kVmKindImm, filled}, imm(1.0f)), "run-time immediate"},
      {make_ins(Op::DIV, 1, 0, imm(1.0f), imm(3.0f)), "DIV (not exact on every GPU)"},
  };
  for (const auto& [ins, what] : cases) {
    Program p;
    p.register_count = 2;
    p.particle_fields = {{"x", 1}};
    p.update = {ins, make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(0))};
    auto fast = fast_operand_section(p.update);
    ASSERT_TRUE(fast.has_value());
    FastFoldContext context{.constants = p.constants,
                            .record_words = 4,
                            .window = record_window(p, Section::kUpdate, 4)};
    context.runtime_immediates = {filled};
    const FastOperandSection f = fold_fast_moves(*fast, context);
    ASSERT_EQ(f.code.size() / 4, 1u) << what;  // the instruction, writing the field's slot
    EXPECT_EQ(op_of(f, 0), p.update[0].words[0] & 0xFFu) << what;
  }
}

TEST(FastFold, KillsAndStoresOutsideTheWindowStay) {
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 1}};
  p.update = {
      make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),
      make_ins(Op::CMP, 1, 1, reg(0), imm(3.0f), raw(shader::kVmCmpGt)),
      make_ins(Op::KILL, 1, 0, reg(1)),
      make_ins(Op::NOP, 1, 0),
  };
  const FastOperandSection f = folded(p, 4, /*window=*/false);
  ASSERT_EQ(ops_of(f), (std::vector<uint32_t>{uint32_t(Op::LOAD_FIELD), uint32_t(Op::CMP), uint32_t(Op::KILL)}));
}

}  // namespace
}  // namespace mote::test
