// Field accessors for the instruction words (shaders/shared/isa_encoding.h) and the
// context-free "is this instruction well formed" check shared by the verifier and the
// disassembler (which prints anything not well formed as raw `.word`s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mote/isa.hpp"
#include "mote/program.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"

namespace mote::isa {

// Bits 11..15 and 22..23 of word 0.
inline constexpr uint32_t kWord0ReservedMask = (0x1Fu << 11) | (0x3u << 22);
inline constexpr uint32_t kCmpCodeCount = 6;
inline constexpr const char* kCmpNames[kCmpCodeCount] = {"LT", "LE", "EQ", "NE", "GE", "GT"};
inline constexpr char kSwizzleLetters[4] = {'x', 'y', 'z', 'w'};

inline uint32_t word_op(const Instruction& inst) { return shader::vm_op(inst.words[0]); }
inline uint32_t word_lanes(const Instruction& inst) { return shader::vm_lanes(inst.words[0]); }
inline uint32_t word_dst(const Instruction& inst) { return shader::vm_dst(inst.words[0]); }
inline uint32_t word_kind(const Instruction& inst, uint32_t src) { return shader::vm_kind(inst.words[0], src); }
inline uint32_t src_word(const Instruction& inst, uint32_t src) { return inst.words[1 + src]; }

inline uint32_t reg_base(uint32_t word) { return word & 0xFFu; }
inline uint32_t reg_component(uint32_t word, uint32_t i) { return (word >> (8 + 2 * i)) & 0x3u; }
inline uint32_t builtin_space(uint32_t word) { return (word >> shader::kVmBuiltinSpaceShift) & 0x3u; }
inline uint32_t builtin_index(uint32_t word) { return word & shader::kVmBuiltinIndexMask; }

inline uint32_t make_word0(uint32_t op, uint32_t lanes, const uint32_t kinds[3], uint32_t dst) {
  return (op & 0xFFu) | ((lanes & 0x7u) << 8) | ((kinds[0] & 3u) << 16) | ((kinds[1] & 3u) << 18) |
         ((kinds[2] & 3u) << 20) | ((dst & 0xFFu) << 24);
}
inline uint32_t make_reg(uint32_t base, const uint32_t components[4]) {
  uint32_t w = base & 0xFFu;
  for (uint32_t i = 0; i < 4; ++i) w |= (components[i] & 3u) << (8 + 2 * i);
  return w;
}
inline uint32_t make_builtin(uint32_t space, uint32_t index) {
  return (space << shader::kVmBuiltinSpaceShift) | (index & shader::kVmBuiltinIndexMask);
}

inline bool is_value_rule(SrcRule rule) {
  return rule == SrcRule::kVal || rule == SrcRule::kVal1 || rule == SrcRule::kVal3 || rule == SrcRule::kVal4;
}

// Why an instruction is malformed regardless of the program around it.
struct FormError {
  int src = -1;  // -1: the instruction as a whole (or its dst, see on_dst); else the source
  bool on_dst = false;
  std::string message;
};

// Checks: known opcode, reserved bits, lane range, kDstNone dst byte, each source's kind
// against its rule, REG high bits and unused swizzle components, kUnused words, compare codes
// and the builtin word's space/index shape (space 0: a known builtin id).
std::optional<FormError> check_form(const Instruction& inst);

// Identifiers name fields and imports: [A-Za-z_][A-Za-z0-9_]*, so the assembler can read
// them back.
bool is_identifier(std::string_view name);

}  // namespace mote::isa
