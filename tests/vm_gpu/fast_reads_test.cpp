// Constant sources read as constants (src/vm_gpu/fast_reads.hpp): which sources become class
// kVmOperandConstant, which stay file reads, how the immediates left in the file are renumbered,
// and the image the GPU frame reads them from. That the rewritten section computes bit for bit
// what the unfused one does is checked on the GPU (test_vm_gpu_interpreter.cpp,
// FoldedSectionsComputeExactlyWhatTheUnfoldedOnesDo, and the frame's interpreted runs).
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <vector>

#include "bench/update_program.hpp"
#include "mote/isa.hpp"
#include "shared/vm_fast_operands.h"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/fast_fuse.hpp"
#include "vm_gpu/fast_reads.hpp"
#include "vm_gpu/record_window.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
using shader::kVmFastFirstImmediateSlot, shader::kVmFastFirstWindowSlot, shader::kVmFastZeroSlot;
using shader::kVmOperandConstant, shader::kVmOperandScalar, shader::kVmOperandVector;
constexpr uint32_t kZ = kVmFastZeroSlot;

std::vector<FastInstruction> decoded(const FastOperandSection& s) {
  std::vector<FastInstruction> out;
  for (size_t i = 0; i + 4 <= s.code.size(); i += 4)
    out.push_back(decode_fast_instruction(std::span(s.code).subspan(i, 4)));
  return out;
}

FastInstruction scalar_op(Op op, uint32_t dst, uint32_t slot_a, uint32_t slot_b) {
  FastInstruction u;
  u.op = uint32_t(op);
  u.lanes = 1;
  u.written = 1;
  u.base = dst;
  u.operand_class = {kVmOperandScalar, kVmOperandScalar, shader::kVmOperandNone};
  u.slots[0] = {slot_a, kZ, kZ, kZ};
  u.slots[1] = {slot_b, kZ, kZ, kZ};
  return u;
}

FastOperandSection section_of(std::vector<uint32_t> immediates, const std::vector<FastInstruction>& code) {
  FastOperandSection s;
  s.immediates = std::move(immediates);
  for (const FastInstruction& u : code) encode_fast_instruction(u, s.code);
  return s;
}

TEST(FastReads, TheBenchmarkUpdateReadsEveryConstantAsAConstant) {
  const Program p = bench::make_update_program();
  auto fast = fast_operand_section(p.update);
  ASSERT_TRUE(fast.has_value());
  FastFoldContext context{.constants = p.constants,
                          .record_words = 32,
                          .window = record_window(p, Section::kUpdate, 32)};
  context.uniform_builtin = [](uint32_t id) -> std::optional<std::array<uint32_t, 4>> {
    if (id != uint32_t(isa::Builtin::DT)) return std::nullopt;
    return std::array<uint32_t, 4>{f2u(1.0f / 60.0f), 0u, 0u, 0u};
  };
  const FastOperandSection before = fuse_fast_instructions(fold_fast_moves(*fast, context));
  ASSERT_EQ(before.immediates.size(), 12u);
  const FastOperandSection after = read_constants_as_constants(before);
  // Every immediate was read only by sources that are all constants: none is left to fill.
  EXPECT_TRUE(after.immediates.empty());
  const std::vector<FastInstruction> u = decoded(after);
  ASSERT_EQ(u.size(), 9u);
  uint32_t constants = 0;
  for (const FastInstruction& ins : u)
    for (uint32_t s = 0; s < 3; ++s) constants += ins.operand_class[s] == kVmOperandConstant;
  EXPECT_EQ(constants, 11u);
  // v += g * dt: gravity and the splatted DT are constant vectors, v stays in the window.
  ASSERT_EQ(u[0].op, uint32_t(Op::FMA));
  ASSERT_EQ(u[0].operand_class[0], kVmOperandConstant);
  EXPECT_EQ(after.constant_vectors[u[0].word[0]], (std::array<uint32_t, 4>{0u, f2u(-9.81f), 0u, 0u}));
  ASSERT_EQ(u[0].operand_class[1], kVmOperandConstant);
  const uint32_t dt = f2u(1.0f / 60.0f);
  EXPECT_EQ(after.constant_vectors[u[0].word[1]], (std::array<uint32_t, 4>{dt, dt, dt, 0u}));
  EXPECT_EQ(u[0].operand_class[2], kVmOperandVector);
  EXPECT_EQ(u[0].slots[2][0], kVmFastFirstWindowSlot + 4);
  // age += dt reads DT as a scalar constant, its other lanes zero.
  ASSERT_EQ(u[3].op, uint32_t(Op::ADD));
  ASSERT_EQ(u[3].operand_class[1], kVmOperandConstant);
  EXPECT_EQ(after.constant_vectors[u[3].word[1]], (std::array<uint32_t, 4>{dt, 0u, 0u, 0u}));
  // The colour's MIX reads both colours as constants; t.xxxx stays a register read.
  ASSERT_EQ(u[7].op, uint32_t(Op::MIX));
  EXPECT_EQ(after.constant_vectors[u[7].word[0]],
            (std::array<uint32_t, 4>{f2u(1.0f), f2u(0.9f), f2u(0.2f), f2u(1.0f)}));
  EXPECT_EQ(after.constant_vectors[u[7].word[1]], (std::array<uint32_t, 4>{f2u(0.3f), f2u(0.1f), f2u(0.1f), 0u}));
  EXPECT_EQ(u[7].operand_class[2], kVmOperandVector);
  // Shared vectors are stored once.
  for (size_t i = 0; i < after.constant_vectors.size(); ++i)
    for (size_t j = 0; j < i; ++j) EXPECT_NE(after.constant_vectors[i], after.constant_vectors[j]);
  // Nothing else changed: the same opcodes, destinations and saturate bits.
  const std::vector<FastInstruction> v = decoded(before);
  for (size_t i = 0; i < u.size(); ++i) {
    EXPECT_EQ(u[i].op, v[i].op);
    EXPECT_EQ(u[i].base, v[i].base);
    EXPECT_EQ(u[i].written, v[i].written);
    EXPECT_EQ(u[i].saturate, v[i].saturate);
  }
}

TEST(FastReads, ASourceMixingRegistersAndImmediatesStaysInTheFileRenumbered) {
  const uint32_t first = kVmFastFirstImmediateSlot;
  FastInstruction mixed;
  mixed.op = uint32_t(Op::ADD);
  mixed.lanes = 2;
  mixed.written = 2;
  mixed.base = 4;
  mixed.operand_class = {kVmOperandVector, kVmOperandScalar, shader::kVmOperandNone};
  mixed.slots[0] = {first + 1, 3, kZ, kZ};   // (immediate 1, r3)
  mixed.slots[1] = {first + 0, kZ, kZ, kZ};  // immediate 0: a constant
  const FastOperandSection in = section_of({f2u(2.0f), f2u(5.0f)}, {mixed});
  const FastOperandSection out = read_constants_as_constants(in);
  const FastInstruction u = decoded(out).at(0);
  EXPECT_EQ(u.operand_class[1], kVmOperandConstant);
  EXPECT_EQ(out.constant_vectors.at(u.word[1]), (std::array<uint32_t, 4>{f2u(2.0f), 0u, 0u, 0u}));
  // Immediate 0 is read by no slot any more; immediate 1 moves to the first immediate slot.
  ASSERT_EQ(out.immediates, (std::vector<uint32_t>{f2u(5.0f)}));
  EXPECT_EQ(u.operand_class[0], kVmOperandVector);
  EXPECT_EQ(u.slots[0], (std::array<uint32_t, 4>{first, 3, kZ, kZ}));
}

TEST(FastReads, ImmediatesTheReaderFillsStayInTheFile) {
  // The frame's DT stand-in: filled per dispatch, so never a constant; the reader finds it by
  // its bit pattern after the renumbering.
  const uint32_t first = kVmFastFirstImmediateSlot;
  const uint32_t dt = 0x7FB5D700u;
  const FastOperandSection in = section_of({f2u(3.0f), dt}, {scalar_op(Op::MUL, 0, first, first + 1)});
  const FastOperandSection out = read_constants_as_constants(in, std::vector<uint32_t>{dt});
  const FastInstruction u = decoded(out).at(0);
  EXPECT_EQ(u.operand_class[0], kVmOperandConstant);
  EXPECT_EQ(u.operand_class[1], kVmOperandScalar);
  ASSERT_EQ(out.immediates, (std::vector<uint32_t>{dt}));
  EXPECT_EQ(u.slots[1][0], first);
}

TEST(FastReads, TheZeroSlotIsAConstantAndRegistersAreNot) {
  const FastOperandSection out = read_constants_as_constants(section_of({}, {scalar_op(Op::SUB, 1, 0, kZ)}));
  const FastInstruction u = decoded(out).at(0);
  EXPECT_EQ(u.operand_class[0], kVmOperandScalar);
  EXPECT_EQ(u.operand_class[1], kVmOperandConstant);
  EXPECT_EQ(out.constant_vectors.at(u.word[1]), (std::array<uint32_t, 4>{}));
  EXPECT_EQ(u.slots[0][0], 0u);
}

TEST(FastReads, ConstantsPastTheTableStayInTheFile) {
  // More distinct constants than kVmFastMaxConstantVectors: the first ones fill the table, the
  // rest keep their (renumbered) immediate slots.
  const uint32_t extra = 8, n = shader::kVmFastMaxConstantVectors + extra;
  std::vector<uint32_t> immediates;
  std::vector<FastInstruction> code;
  for (uint32_t i = 0; i < n; ++i) {
    immediates.push_back(f2u(float(i) + 0.5f));
    code.push_back(scalar_op(Op::ADD, i % 8, i % 8, kVmFastFirstImmediateSlot + i));
  }
  const FastOperandSection out = read_constants_as_constants(section_of(immediates, code));
  EXPECT_EQ(out.constant_vectors.size(), shader::kVmFastMaxConstantVectors);
  ASSERT_EQ(out.immediates.size(), extra);
  const std::vector<FastInstruction> u = decoded(out);
  for (uint32_t i = 0; i < n; ++i) {
    if (i < shader::kVmFastMaxConstantVectors) {
      EXPECT_EQ(u[i].operand_class[1], kVmOperandConstant) << i;
    } else {
      EXPECT_EQ(u[i].operand_class[1], kVmOperandScalar) << i;
      const uint32_t k = i - shader::kVmFastMaxConstantVectors;
      EXPECT_EQ(u[i].slots[1][0], kVmFastFirstImmediateSlot + k) << i;
      EXPECT_EQ(out.immediates[k], f2u(float(i) + 0.5f)) << i;
    }
  }
}

TEST(FastReads, TheSectionImageCarriesTheConstantVectors) {
  FastOperandSection s = section_of({f2u(7.0f)}, {scalar_op(Op::ADD, 0, 0, kVmFastFirstImmediateSlot)});
  s.constant_vectors = {{1u, 2u, 3u, 4u}, {5u, 6u, 7u, 8u}};
  const std::vector<uint32_t> image = fast_section_image(s);
  ASSERT_EQ(image.size(), shader::kVmFastImageHeaderWords + 4u + 8u + 4u);
  EXPECT_EQ(image[0], 1u | (2u << shader::kVmFastImageConstantsShift));
  const uint32_t vectors_at = shader::kVmFastImageHeaderWords + 4u;  // the one immediate, padded to 4
  EXPECT_EQ(image[shader::kVmFastImageHeaderWords], f2u(7.0f));
  EXPECT_EQ(std::vector<uint32_t>(image.begin() + vectors_at, image.begin() + vectors_at + 8),
            (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(std::vector<uint32_t>(image.begin() + vectors_at + 8, image.end()), s.code);
}

}  // namespace
}  // namespace mote::test
