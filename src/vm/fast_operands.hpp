// A section rewritten into the fast interpreter's operand form (shaders/shared/vm_fast_operands.h):
// swizzles, widths and immediates resolved on the host, once per run, into slot bytes the
// interpreter reads without decoding. The rewrite follows the GPU interpreter's own rules for
// anything the verifier would reject (an unknown opcode does nothing, lanes clamp to 1..4,
// register slots mask to the file), so an unverified program means the same thing in either form.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mote/program.hpp"

namespace mote {

struct FastOperandSection {
  std::vector<uint32_t> code;        // 4 words per instruction
  std::vector<uint32_t> immediates;  // f32 bit patterns; immediates[i] lives in slot kVmFastFirstImmediateSlot + i
  // Registers 0..registers_to_clear-1 hold every register the code reads before it writes it:
  // the ones the harness must zero per particle, as the reference's registers start (for a
  // verified program, none).
  uint32_t registers_to_clear = 0;
};

// 1 + the highest register that `code` (in the fast form) reads before writing it; 0 for none.
uint32_t registers_read_before_written(std::span<const uint32_t> code);

// How many distinct immediate bit patterns `code` holds (in sources that read them).
uint32_t distinct_immediates(std::span<const Instruction> code);

// The section in the fast operand form, or nothing when its immediates do not fit the file
// (more than kVmFastMaxImmediates distinct bit patterns).
std::optional<FastOperandSection> fast_operand_section(std::span<const Instruction> code);

// Whether the fast interpreter can run both sections of `program`: its registers and each
// section's immediates fit the private file.
bool fits_fast_interpreter(const Program& program);

}  // namespace mote
