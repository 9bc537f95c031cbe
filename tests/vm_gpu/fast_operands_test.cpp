// The fast interpreter's operand form (src/vm_gpu/fast_operands.hpp): what the host writes, byte by
// byte, for each kind of source. The GPU parity suite checks that the interpreter reads it right;
// this pins the form itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_fast_operands.h"
#include "vm_gpu/fast_operands.hpp"

namespace mote {
namespace {

using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
using shader::kVmFastZeroSlot, shader::kVmFastFirstImmediateSlot;

uint32_t f2u(float f) { return std::bit_cast<uint32_t>(f); }
uint32_t word0(isa::Op op, uint32_t lanes, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t dst) {
  return uint32_t(op) | (lanes << 8) | (k0 << 16) | (k1 << 18) | (k2 << 20) | (dst << 24);
}
uint32_t swizzled(uint32_t base, uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
  return base | ((x | y << 2 | z << 4 | w << 6) << 8);
}
uint32_t bytes(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3) { return b0 | b1 << 8 | b2 << 16 | b3 << 24; }
uint32_t operand_class(uint32_t w0, uint32_t s) { return (w0 >> (shader::kVmFastClassShift + 2 * s)) & 3u; }
uint32_t written(uint32_t w0) { return (w0 >> shader::kVmFastWrittenShift) & 7u; }

TEST(FastOperands, SwizzlesWidthsAndImmediatesBecomeSlotBytes) {
  const std::vector<Instruction> code = {
      // FMA.3 r4 = r12.xyz * r7.xxx + 2.5
      {{word0(isa::Op::FMA, 3, kVmKindReg, kVmKindReg, kVmKindImm, 4), swizzled(12, 0, 1, 2, 3),
        swizzled(7, 0, 0, 0, 3), f2u(2.5f)}},
      // ADD.1 r9 = r8.y + 2.5 (the same immediate: the same slot)
      {{word0(isa::Op::ADD, 1, kVmKindReg, kVmKindImm, kVmKindNone, 9), swizzled(8, 1, 1, 2, 3), f2u(2.5f), 0}},
      // DOT.3 r10 = dot(r0.wzy, -1)
      {{word0(isa::Op::DOT, 3, kVmKindReg, kVmKindImm, kVmKindNone, 10), swizzled(0, 3, 2, 1, 0), f2u(-1.0f), 0}},
      // STORE_FIELD.2 word 5 = r62.xy: the raw field word stays; slots past 63 wrap as on the GPU
      {{word0(isa::Op::STORE_FIELD, 2, kVmKindNone, kVmKindReg, kVmKindNone, 0), 5, swizzled(62, 0, 1, 2, 3), 0}},
      // CMP.1 r11 = r9 > r10 (code 5, a raw third word)
      {{word0(isa::Op::CMP, 1, kVmKindReg, kVmKindReg, kVmKindNone, 11), swizzled(9, 0, 1, 2, 3),
        swizzled(10, 0, 1, 2, 3), shader::kVmCmpGt}},
  };
  auto rewritten = fast_operand_section(code);
  ASSERT_TRUE(rewritten.has_value());
  ASSERT_EQ(rewritten->code.size(), code.size() * 4);
  ASSERT_EQ(rewritten->immediates, (std::vector<uint32_t>{f2u(2.5f), f2u(-1.0f)}));
  const uint32_t imm0 = kVmFastFirstImmediateSlot, imm1 = kVmFastFirstImmediateSlot + 1, zero = kVmFastZeroSlot;
  auto at = [&](size_t i, size_t w) { return rewritten->code[i * 4 + w]; };

  // FMA: opcode, lanes and dst in their places; three vector operands, unused lanes on the zero slot.
  EXPECT_EQ(shader::vm_op(at(0, 0)), uint32_t(isa::Op::FMA));
  EXPECT_EQ(shader::vm_lanes(at(0, 0)), 3u);
  EXPECT_EQ(shader::vm_dst(at(0, 0)), 4u);
  EXPECT_EQ(written(at(0, 0)), 3u);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_EQ(operand_class(at(0, 0), s), shader::kVmOperandVector) << s;
  EXPECT_EQ(at(0, 1), bytes(12, 13, 14, zero));
  EXPECT_EQ(at(0, 2), bytes(7, 7, 7, zero));
  EXPECT_EQ(at(0, 3), bytes(imm0, imm0, imm0, zero));
  // ADD.1: scalar operands; the swizzle's x picks r8.y; the repeated immediate shares its slot.
  EXPECT_EQ(operand_class(at(1, 0), 0), shader::kVmOperandScalar);
  EXPECT_EQ(operand_class(at(1, 0), 1), shader::kVmOperandScalar);
  EXPECT_EQ(operand_class(at(1, 0), 2), shader::kVmOperandNone);
  EXPECT_EQ(at(1, 1), bytes(9, zero, zero, zero));
  EXPECT_EQ(at(1, 2), bytes(imm0, zero, zero, zero));
  // DOT.3: three components, the fourth zero (DOT sums all four: the padding must be a real
  // zero); a scalar result.
  EXPECT_EQ(written(at(2, 0)), 1u);
  EXPECT_EQ(at(2, 1), bytes(3, 2, 1, zero));
  EXPECT_EQ(at(2, 2), bytes(imm1, imm1, imm1, zero));
  // STORE_FIELD: the raw field word is kept for the opcode; slot 62 + 2 wraps to 0 as the
  // interpreter's mask does; no result.
  EXPECT_EQ(operand_class(at(3, 0), 0), shader::kVmOperandNone);
  EXPECT_EQ(at(3, 1), 5u);
  EXPECT_EQ(at(3, 2), bytes(62, 63, zero, zero));
  EXPECT_EQ(written(at(3, 0)), 0u);
  // CMP keeps its compare code.
  EXPECT_EQ(at(4, 3), shader::kVmCmpGt);
}

TEST(FastOperands, UnknownOpcodesAndOddLaneCountsReadAsTheInterpreterReadsThem) {
  const std::vector<Instruction> code = {
      {{0xFFu | (2u << 8) | (kVmKindReg << 16), swizzled(1, 0, 1, 2, 3), 0, 0}},  // opcode 255: a NOP
      {{word0(isa::Op::MOV, 0, kVmKindReg, kVmKindNone, kVmKindNone, 3), swizzled(1, 0, 1, 2, 3), 0,
        0}},  // lanes 0 -> 1
      {{word0(isa::Op::MOV, 7, kVmKindReg, kVmKindNone, kVmKindNone, 3), swizzled(1, 0, 1, 2, 3), 0,
        0}},  // lanes 7 -> 4
      {{word0(isa::Op::MOV, 1, kVmKindReg, kVmKindNone, kVmKindNone, 200), swizzled(200, 0, 1, 2, 3), 0,
        0}},  // slot 200 -> 8
      {{word0(isa::Op::MOV, 4, kVmKindReg, kVmKindNone, kVmKindNone, 62), swizzled(0, 0, 1, 2, 3), 0, 0}},  // r62..r65
  };
  auto rewritten = fast_operand_section(code);
  ASSERT_TRUE(rewritten.has_value());
  EXPECT_EQ(shader::vm_op(rewritten->code[0]), uint32_t(isa::Op::NOP));
  EXPECT_EQ(operand_class(rewritten->code[0], 0), shader::kVmOperandNone);
  EXPECT_EQ(written(rewritten->code[0]), 0u);
  EXPECT_EQ(shader::vm_lanes(rewritten->code[4]), 1u);
  EXPECT_EQ(operand_class(rewritten->code[4], 0), shader::kVmOperandScalar);
  EXPECT_EQ(written(rewritten->code[4]), 1u);
  EXPECT_EQ(shader::vm_lanes(rewritten->code[8]), 4u);
  EXPECT_EQ(written(rewritten->code[8]), 4u);
  // Slots are masked into the 64 registers, destination and sources alike, as the interpreter did.
  EXPECT_EQ(shader::vm_dst(rewritten->code[12]), 8u);
  EXPECT_EQ(rewritten->code[13], bytes(8, kVmFastZeroSlot, kVmFastZeroSlot, kVmFastZeroSlot));
  EXPECT_EQ(rewritten->code[9], bytes(1, 2, 3, 4));
  // A result run past the registers starts lower, so that all of it lands in them: the
  // interpreter's rule, resolved by the host (the GPU clamps to its file only).
  EXPECT_EQ(shader::vm_dst(rewritten->code[16]), 60u);
  EXPECT_EQ(written(rewritten->code[16]), 4u);
}

TEST(FastOperands, ImmediatesBeyondTheFileAreRefused) {
  Program p;
  p.register_count = 1;
  for (uint32_t i = 0; i <= shader::kVmFastMaxImmediates; ++i)
    p.update.push_back({{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 0), f2u(float(i)), 0, 0}});
  EXPECT_EQ(distinct_immediates(p.update), shader::kVmFastMaxImmediates + 1);
  EXPECT_FALSE(fast_operand_section(p.update).has_value());
  EXPECT_FALSE(fits_fast_interpreter(p));
  p.update.pop_back();
  EXPECT_TRUE(fast_operand_section(p.update).has_value());
  EXPECT_TRUE(fits_fast_interpreter(p));
  // -0.0 and +0.0 are different bit patterns: two slots, so a sign is never lost.
  const std::vector<Instruction> zeros = {
      {{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 0), f2u(0.0f), 0, 0}},
      {{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 0), f2u(-0.0f), 0, 0}},
  };
  EXPECT_EQ(distinct_immediates(zeros), 2u);
}

// The image the GPU frame's program heap holds: a header with the counts, the immediates padded
// to whole 16-byte groups, then the code, word for word.
TEST(FastOperands, TheImageHoldsTheImmediatesBeforeTheCode) {
  FastOperandSection section;
  section.immediates = {f2u(1.0f), f2u(2.0f), f2u(-3.0f), f2u(4.0f), f2u(5.0f)};
  section.registers_to_clear = 3;
  section.code = {11, 12, 13, 14, 21, 22, 23, 24};
  const std::vector<uint32_t> image = fast_section_image(section);
  ASSERT_EQ(image.size(), shader::kVmFastImageHeaderWords + 8 + 8);
  EXPECT_EQ(image[0], 5u);
  EXPECT_EQ(image[1], 3u);
  EXPECT_EQ(image[2], 0u);
  EXPECT_EQ(image[3], 0u);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(image[shader::kVmFastImageHeaderWords + i], section.immediates[i]);
  for (uint32_t i = 5; i < 8; ++i) EXPECT_EQ(image[shader::kVmFastImageHeaderWords + i], 0u);  // the padding
  EXPECT_TRUE(std::equal(section.code.begin(), section.code.end(),
                         image.begin() + shader::kVmFastImageHeaderWords + 8));
  // The window the code was folded against: first chunk and count in word 2, written chunks in 3.
  const std::vector<uint32_t> windowed = fast_section_image(section, {.first_chunk = 2, .chunks = 3, .dirty_mask = 5});
  EXPECT_EQ(windowed[2], 2u | (3u << shader::kVmFastImageWindowChunksShift));
  EXPECT_EQ(windowed[3], 5u);
  EXPECT_TRUE(std::equal(windowed.begin() + 4, windowed.end(), image.begin() + 4));
  // The immediate the reader fills with DT: 1 + its index above the registers to clear.
  EXPECT_EQ(fast_section_image(section, {}, 2u)[1], 3u | (3u << shader::kVmFastImageDtShift));
  EXPECT_EQ(fast_section_image(section, {}, 5u)[1], 3u) << "an index past the immediates is none";
  // No immediates: the code follows the header directly; an empty section is the header alone.
  section.immediates.clear();
  EXPECT_EQ(fast_section_image(section).size(), shader::kVmFastImageHeaderWords + 8);
  EXPECT_EQ(fast_section_image(FastOperandSection{}), (std::vector<uint32_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace mote
