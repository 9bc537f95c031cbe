#include "vm_gpu/fast_operands.hpp"

#include <algorithm>
#include <array>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_fast_operands.h"
#include "shared/vm_limits.h"

namespace mote {
namespace {

// The file's regions, in slot order, each inside a slot byte's reach.
static_assert(shader::kVmFastZeroSlot == shader::kVmFastRegisterSlots);
static_assert(shader::kVmFastFirstImmediateSlot + shader::kVmFastMaxImmediates <= shader::kVmFastFirstWindowSlot);
static_assert(shader::kVmFastFirstWindowSlot + shader::kVmMaxWindowChunks * 4 <= shader::kVmFastFileSlots);
static_assert(shader::kVmFastFileSlots == 256, "a slot is one byte");

// What the GPU interpreter makes of an instruction word before it reads a source: the opcode
// (an unknown one is NOP), the lane count clamped to 1..4 and the opcode's operand rules.
struct Decoded {
  const isa::OpInfo* op;
  uint32_t lanes;
};
Decoded decode(uint32_t w0) {
  const isa::OpInfo* op = isa::op_info(shader::vm_op(w0));
  if (!op) op = &isa::op_info(isa::Op::NOP);
  return {op, std::clamp(shader::vm_lanes(w0), 1u, 4u)};
}

// The components source `s` reads, 0 when it reads none (a raw field, an unused source, or a
// kind the interpreter reads as zero).
uint32_t source_width(const Decoded& d, uint32_t w0, uint32_t s) {
  uint32_t kind = shader::vm_kind(w0, s);
  if (kind != shader::kVmKindReg && kind != shader::kVmKindImm) return 0;
  return isa::source_width(d.op->src[s], d.lanes);
}

// The section's distinct immediate bit patterns, in order of first use: immediate i lives in
// slot kVmFastFirstImmediateSlot + i.
std::vector<uint32_t> section_immediates(std::span<const Instruction> code) {
  std::vector<uint32_t> seen;
  for (const Instruction& ins : code) {
    Decoded d = decode(ins.words[0]);
    for (uint32_t s = 0; s < 3; ++s)
      if (shader::vm_kind(ins.words[0], s) == shader::kVmKindImm && source_width(d, ins.words[0], s) > 0 &&
          std::find(seen.begin(), seen.end(), ins.words[1 + s]) == seen.end())
        seen.push_back(ins.words[1 + s]);
  }
  return seen;
}

}  // namespace

uint32_t distinct_immediates(std::span<const Instruction> code) { return uint32_t(section_immediates(code).size()); }

FastInstruction decode_fast_instruction(std::span<const uint32_t> words) {
  FastInstruction u;
  u.op = words[0] & 0xFFu;
  u.lanes = (words[0] >> 8) & 7u;
  u.written = (words[0] >> shader::kVmFastWrittenShift) & 7u;
  u.saturate = (words[0] & shader::kVmFastSaturateBit) != 0;
  u.base = words[0] >> 24;
  for (uint32_t s = 0; s < 3; ++s) {
    u.operand_class[s] = (words[0] >> (shader::kVmFastClassShift + 2 * s)) & 3u;
    u.word[s] = words[1 + s];
    for (uint32_t c = 0; c < 4; ++c) u.slots[s][c] = (words[1 + s] >> (8 * c)) & 0xFFu;
  }
  return u;
}

void encode_fast_instruction(const FastInstruction& u, std::vector<uint32_t>& out) {
  uint32_t w0 = u.op | (u.lanes << 8) | (u.written << shader::kVmFastWrittenShift) | (u.base << 24) |
                (u.saturate ? shader::kVmFastSaturateBit : 0u);
  for (uint32_t s = 0; s < 3; ++s) w0 |= u.operand_class[s] << (shader::kVmFastClassShift + 2 * s);
  out.push_back(w0);
  for (uint32_t s = 0; s < 3; ++s) {
    const bool reads = u.operand_class[s] == shader::kVmOperandScalar || u.operand_class[s] == shader::kVmOperandVector;
    uint32_t word = u.word[s];
    if (reads) {
      word = 0;
      for (uint32_t c = 0; c < 4; ++c) word |= u.slots[s][c] << (8 * c);
    }
    out.push_back(word);
  }
}

std::optional<FastOperandSection> fast_operand_section(std::span<const Instruction> code) {
  FastOperandSection out;
  out.immediates = section_immediates(code);
  if (out.immediates.size() > shader::kVmFastMaxImmediates) return std::nullopt;
  out.code.reserve(code.size() * 4);
  for (const Instruction& ins : code) {
    const uint32_t w0 = ins.words[0];
    const Decoded d = decode(w0);
    FastInstruction f;
    f.op = d.op->number;
    f.lanes = d.lanes;
    f.written = d.op->dst == isa::DstRule::kDstLanes ? d.lanes : d.op->dst == isa::DstRule::kDstScalar ? 1u : 0u;
    // The destination as the interpreter always treated it: masked to the registers, and the
    // run's base moved down so that every written lane lands in them.
    const uint32_t dst = shader::vm_dst(w0) & (shader::kVmFastRegisterSlots - 1u);
    f.base = f.written > 0 ? std::min(dst, shader::kVmFastRegisterSlots - f.written) : dst;
    for (uint32_t s = 0; s < 3; ++s) {
      const uint32_t width = source_width(d, w0, s);
      const uint32_t word = ins.words[1 + s];
      f.word[s] = word;
      if (width == 0) continue;  // class kVmOperandNone: the word stays, for the opcode to read
      uint32_t slots[4];
      if (shader::vm_kind(w0, s) == shader::kVmKindReg) {
        for (uint32_t c = 0; c < 4; ++c)
          slots[c] = ((word & 0xFFu) + ((word >> (8 + 2 * c)) & 3u)) & (shader::kVmFastRegisterSlots - 1u);
      } else {
        const auto found = std::find(out.immediates.begin(), out.immediates.end(), word);
        const uint32_t slot = shader::kVmFastFirstImmediateSlot + uint32_t(found - out.immediates.begin());
        std::fill(std::begin(slots), std::end(slots), slot);
      }
      for (uint32_t c = 0; c < 4; ++c) f.slots[s][c] = c < width ? slots[c] : shader::kVmFastZeroSlot;
      f.operand_class[s] = width == 1 ? shader::kVmOperandScalar : shader::kVmOperandVector;
    }
    if (f.op == uint32_t(isa::Op::KILL)) {
      // KILL x as the comparison x != 0.0 (shared/vm_fast_operands.h): the same test, in the
      // form a fused CMP takes.
      f.operand_class[1] = shader::kVmOperandScalar;
      f.slots[1] = {shader::kVmFastZeroSlot, shader::kVmFastZeroSlot, shader::kVmFastZeroSlot, shader::kVmFastZeroSlot};
      f.operand_class[2] = shader::kVmOperandNone;
      f.word[2] = shader::kVmCmpNe;
    }
    encode_fast_instruction(f, out.code);
  }
  out.registers_to_clear = registers_read_before_written(out.code);
  return out;
}

std::optional<uint32_t> fast_constant_slot_bits(uint32_t slot, std::span<const uint32_t> immediates) {
  if (slot == shader::kVmFastZeroSlot) return 0u;
  if (slot < shader::kVmFastFirstImmediateSlot || slot - shader::kVmFastFirstImmediateSlot >= immediates.size())
    return std::nullopt;
  return immediates[slot - shader::kVmFastFirstImmediateSlot];
}

uint32_t registers_read_before_written(std::span<const uint32_t> code) {
  std::array<bool, shader::kVmFastRegisterSlots> written{};
  uint32_t bound = 0;
  for (size_t i = 0; i + 4 <= code.size(); i += 4) {
    const FastInstruction u = decode_fast_instruction(code.subspan(i, 4));
    for_each_fast_read(u, [&](uint32_t slot) {
      if (slot < shader::kVmFastRegisterSlots && !written[slot]) bound = std::max(bound, slot + 1);
    });
    for (uint32_t c = 0; c < std::min(u.written, 4u); ++c)
      if (u.base + c < shader::kVmFastRegisterSlots) written[u.base + c] = true;
  }
  return bound;
}

std::vector<uint32_t> fast_section_image(const FastOperandSection& section, const RecordWindow& window,
                                         std::optional<uint32_t> dt_immediate) {
  const uint32_t immediates = uint32_t(section.immediates.size());
  const uint32_t vectors = uint32_t(section.constant_vectors.size());
  const uint32_t dt = dt_immediate && *dt_immediate < immediates ? *dt_immediate + 1 : 0;
  std::vector<uint32_t> image{immediates | (vectors << shader::kVmFastImageConstantsShift),
                              section.registers_to_clear | (dt << shader::kVmFastImageDtShift),
                              window.first_chunk | (window.chunks << shader::kVmFastImageWindowChunksShift),
                              window.dirty_mask};
  image.insert(image.end(), section.immediates.begin(), section.immediates.end());
  image.resize(shader::kVmFastImageHeaderWords + (immediates + 3u) / 4u * 4u, 0u);
  for (const std::array<uint32_t, 4>& v : section.constant_vectors) image.insert(image.end(), v.begin(), v.end());
  image.insert(image.end(), section.code.begin(), section.code.end());
  return image;
}

bool fits_fast_interpreter(const Program& program) {
  return program.register_count <= shader::kVmFastRegisterSlots &&
         distinct_immediates(program.init) <= shader::kVmFastMaxImmediates &&
         distinct_immediates(program.update) <= shader::kVmFastMaxImmediates;
}

}  // namespace mote
