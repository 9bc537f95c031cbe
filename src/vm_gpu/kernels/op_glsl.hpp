// Each opcode of the ISA as GLSL: what the run-time compiler writes for one instruction. Rows
// of the ISA table (include/mote/isa/isa_table.inc) that are lane-wise or vector are translated
// from their form and semantics function; special rows have a translation each, named through an
// X-macro over the table, so a special row added without one fails to compile. Every
// translation calls the same shaders/shared/vm_semantics.h function the interpreters and the
// CPU executors call: the semantics are written once.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "mote/isa.hpp"

namespace mote::vm_kernels {

// What an opcode's translation sees of its instruction. The generated block around it has
// already declared the value sources `a`, `b`, `c` (vec4: read through their swizzles,
// immediates splatted, zero past the source's width: exactly the interpreter's reads) and the
// result `vec4 r = vec4(0.0f)`; the block writes r's first lanes to the destination registers
// afterwards, by the opcode's destination rule.
struct OpSite {
  uint32_t lanes = 1;                   // 1..4 (clamped, as the interpreter clamps)
  std::array<uint32_t, 4> words{};      // the instruction; words[1..3] are the raw source words
  std::span<const uint32_t> constants;  // the program's constant pool (f32 bits)
};

// GLSL statements for `op` at `site`. Besides a, b, c and r they may use `vm_killed` (the
// section's kill flag), `vm_event_counts` (its event counts) and the host contract of glsl_translator.hpp:
// vm_record_read, vm_record_write, vm_load_builtin, vm_wind, vm_sample_vector_field_slot,
// vm_sample_depth, vm_seed.
std::string translate_op(isa::Op op, const OpSite& site);

// An f32 bit pattern as an exact GLSL expression (NaN, infinities and -0 included).
std::string glsl_float_bits(uint32_t bits);

}  // namespace mote::vm_kernels
