// What the CPU executors share: input validation (the verifier gate plus the size checks a
// RunInput needs), instruction decoding helpers and LOAD_BUILTIN's value lookup.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "mote/isa.hpp"
#include "mote/vm.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_semantics.h"
#include "vm/wind_field.hpp"

namespace mote::vm_detail {

using shader::vec3;
using shader::vec4;

inline float as_float(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t as_bits(float value) { return std::bit_cast<uint32_t>(value); }

using isa::source_width;

// Register slot read by component `c` of a REG source word.
inline uint32_t reg_slot(uint32_t word, uint32_t c) { return (word & 0xFFu) + ((word >> (8u + 2u * c)) & 3u); }

// Verifies the program (linked, against this input's global section and record stride), then
// checks the input's own sizes and, defensively, every index the code uses against the
// buffers actually passed (so an executor never reads out of bounds even if a program slipped
// past a weaker verifier). Returns the record stride.
Result<uint32_t> validate_run_input(const RunInput& input);

// LOAD_BUILTIN's value for particle `i` of the run: `lanes` components, the rest 0.
vec4 load_builtin(const RunInput& input, uint32_t id, uint32_t lanes, uint32_t i);

const char* section_name_of(Section section);

// SAMPLE_FIELD: field slot `slot` of the run at p (0 for an empty slot or one past the list).
vec3 sample_run_field(const RunInput& input, uint32_t slot, vec3 p);

// SAMPLE_DEPTH: the run's depth at p with `thickness` (0 without a depth).
vec4 sample_run_depth(const RunInput& input, vec3 p, float thickness);

// Register file size every executor allocates: all 8-bit slots plus the 3 a swizzle can add.
inline constexpr uint32_t kRegisterFileSlots = 256u + 3u;

// One particle's machine state while the reference runs its section.
struct ReferenceParticle {
  std::array<float, kRegisterFileSlots> regs{};
  uint32_t* record = nullptr;
  uint32_t index = 0;  // in the run (SPAWN_INDEX)
  uint32_t seed = 0;
  bool killed = false;
  std::array<uint32_t, shader::kVmEventOutputs> events{};  // EMIT_EVENT's count per output
};

// The reference semantics of one instruction: reads p's registers and record, writes its
// destination registers (and record, for STORE_FIELD), sets p.killed on KILL,
// adds to p.events on EMIT_EVENT, and stores the
// result vec4 before the write-back in *result when given (what the GPU trace records). False
// for an opcode the reference does not know. Used by the reference executor and by the
// trace-replay parity check of the GPU interpreters.
bool reference_execute(const RunInput& in, const Instruction& ins, ReferenceParticle& p, vec4* result);

}  // namespace mote::vm_detail
