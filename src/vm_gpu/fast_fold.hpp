// Move folding for the fast interpreter: a host pass over a section already in the fast operand
// form (src/vm_gpu/fast_operands.hpp) that removes the instructions which only move values, because
// in the fast form every operand is a slot of one file that also holds the immediates and the
// particle's record window (shaders/shared/vm_fast_operands.h):
//   - LOAD_FIELD of words the window holds: its readers name the window slots instead;
//   - LOAD_CONST, and LOAD_BUILTIN of a value the whole run shares (DT, an emitter field...):
//     the values become immediates, and its readers name their slots;
//   - STORE_FIELD of a value that one earlier instruction computed into exactly those registers:
//     that instruction writes the window slots itself (when nothing in between touches them);
//   - an instruction whose every source is an immediate (or the zero slot), of an opcode whose
//     result the GPU computes exactly (the ISA table's gpu_exact rows: ADD, SUB, MUL, MIN, MAX,
//     CLAMP, ABS, SIGN, FLOOR, CEIL, STEP, CMP, SELECT, AND, OR, NOT, MOV, and FMA where the
//     product is exact, so that fusing it or not rounds alike): computed here, through the
//     table's own evaluation (isa/evaluate.hpp, the shared/vm_semantics.h functions), and its
//     registers name immediates. Not where a value is NaN or
//     subnormal (a GPU may flush those) or a -0.0 meets MIN, MAX or CLAMP (its min and max may
//     order the zeros differently), nor for any immediate the reader fills at run time;
//   - then every instruction whose registers nobody reads is dropped.
// An interpreted instruction costs the same whatever it does, so a move costs as much as an FMA:
// the benchmark UPDATE program (bench/update_program.hpp) goes from 25 instructions to 12.
// This is Lua 5's "RK" operand (a register or a constant, Ierusalimschy et al., "The
// Implementation of Lua 5.0", 2005) taken one step further, to the particle's fields.
//
// The folded section computes bit for bit what the unfolded one computes (the same opcodes on
// the same values; only copies are gone), for any program, verified or not: every rule of the
// interpreter that the fast form already resolved (clamped field words and constant indices,
// masked registers) is applied here the same way. What it cannot keep is the per-instruction
// record: the section no longer has the program's instructions, so a run that counts opcodes or
// traces results runs the unfolded form.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "vm_gpu/fast_operands.hpp"
#include "vm_gpu/record_window.hpp"

namespace mote {

struct FastFoldContext {
  std::span<const uint32_t> constants;  // the program's constant pool (f32 bits)
  uint32_t record_words = 1;            // the run's record stride (field words clamp to it)
  RecordWindow window;                  // the window the pipeline keeps in the file (chunks 0: none)
  // LOAD_BUILTIN `id`'s four components (f32 bits, before the lane count masks them) when every
  // particle of the run reads the same value; nothing for a per-particle builtin. Unset: no
  // builtin folds.
  std::function<std::optional<std::array<uint32_t, 4>>(uint32_t id)> uniform_builtin;
  // Immediates that stand for values the reader fills at run time (the GPU frame's DT): no
  // instruction that reads one is computed here.
  std::vector<uint32_t> runtime_immediates;
};

// `section` (as fast_operand_section writes it; anything else comes back unchanged) with its
// moves folded. The result's immediates extend `section`'s (constants and
// builtins join them while they fit in kVmFastMaxImmediates; a load that would not fit stays),
// and its registers_to_clear counts the registers the folded code reads before writing.
FastOperandSection fold_fast_moves(const FastOperandSection& section, const FastFoldContext& context);

}  // namespace mote
