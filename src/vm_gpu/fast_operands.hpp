// A section rewritten into the fast interpreter's operand form (shaders/shared/vm_fast_operands.h):
// swizzles, widths and immediates resolved on the host, once per run, into slot bytes the
// interpreter reads without decoding. The rewrite follows the GPU interpreter's own rules for
// anything the verifier would reject (an unknown opcode does nothing, lanes clamp to 1..4,
// register slots mask to the file), so an unverified program means the same thing in either form.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mote/program.hpp"
#include "vm_gpu/record_window.hpp"
#include "shared/vm_fast_operands.h"

namespace mote {

struct FastOperandSection {
  std::vector<uint32_t> code;        // 4 words per instruction
  std::vector<uint32_t> immediates;  // f32 bit patterns; immediates[i] lives in slot kVmFastFirstImmediateSlot + i
  // Registers 0..registers_to_clear-1 hold every register the code reads before it writes it:
  // the ones the harness must zero per particle, as the reference's registers start (for a
  // verified program, none).
  uint32_t registers_to_clear = 0;
  // The sources of class kVmOperandConstant read these (src/vm_gpu/fast_reads.hpp); empty until then.
  std::vector<std::array<uint32_t, 4>> constant_vectors;
};

// One instruction of the fast form, decoded: the fields of shared/vm_fast_operands.h.
struct FastInstruction {
  uint32_t op = 0, lanes = 1, written = 0, base = 0;
  bool saturate = false;  // kVmFastSaturateBit
  std::array<uint32_t, 3> operand_class{};
  std::array<std::array<uint32_t, 4>, 3> slots{};  // classes scalar and vector: the slot per component
  std::array<uint32_t, 3> word{};                  // classes none and constant: the word the interpreter reads
};
// `words`: the instruction's four words.
FastInstruction decode_fast_instruction(std::span<const uint32_t> words);
// Appends the instruction's four words to `out`.
void encode_fast_instruction(const FastInstruction& ins, std::vector<uint32_t>& out);
// Calls f(slot) for every slot the instruction's sources read, as the interpreter reads them
// (a scalar source reads component 0's slot only); through a non-const instruction, f may
// rename the slot.
template <class I, class F>
void for_each_fast_read(I& ins, F&& f) {
  for (uint32_t s = 0; s < 3; ++s) {
    // (kVmOperandConstant reads the section's constant vectors, no slot.)
    if (ins.operand_class[s] == shader::kVmOperandScalar) f(ins.slots[s][0]);
    else if (ins.operand_class[s] == shader::kVmOperandVector)
      for (uint32_t c = 0; c < 4; ++c) f(ins.slots[s][c]);
  }
}

// The f32 bits a slot holds for the whole section, when it holds a constant: the zero slot's, or
// immediate i's for slot kVmFastFirstImmediateSlot + i (`immediates` as the section lists them).
std::optional<uint32_t> fast_constant_slot_bits(uint32_t slot, std::span<const uint32_t> immediates);

// 1 + the highest register that `code` (in the fast form) reads before writing it; 0 for none.
uint32_t registers_read_before_written(std::span<const uint32_t> code);

// How many distinct immediate bit patterns `code` holds (in sources that read them).
uint32_t distinct_immediates(std::span<const Instruction> code);

// The section in the fast operand form, or nothing when its immediates do not fit the file
// (more than kVmFastMaxImmediates distinct bit patterns).
std::optional<FastOperandSection> fast_operand_section(std::span<const Instruction> code);

// The section as one run of words, its immediates and constant vectors in front
// (kVmFastImageHeaderWords), with the record window its code was folded against
// (src/vm_gpu/fast_fold.hpp; none by default) and the immediate that holds DT (its index in
// section.immediates; none by default), which the reader fills when it runs the section.
std::vector<uint32_t> fast_section_image(const FastOperandSection& section, const RecordWindow& window = {},
                                         std::optional<uint32_t> dt_immediate = std::nullopt);

// Whether the fast interpreter can run both sections of `program`: its registers and each
// section's immediates fit the private file.
bool fits_fast_interpreter(const Program& program);

}  // namespace mote
