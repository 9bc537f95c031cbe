// Instruction fusion for the fast interpreter: a host pass over a section in the fast operand
// form (after the move fold, src/vm_gpu/fast_fold.hpp) that merges two patterns every particle
// program is full of into the instruction before them, because an interpreted instruction costs
// about the same whatever it computes, and the instructions are most of a section's time
// (docs/PERFORMANCE.md, "Lane-wise bodies for the lanes they have, and five designs dropped",
// has the cost per interpreted instruction):
//   - CMP m = a <op> b, then KILL m, where only the KILL reads m: the KILL compares a and b
//     itself (the fast form's KILL is a comparison, shared/vm_fast_operands.h) and the CMP goes;
//   - P r = ..., then CLAMP d = r, 0.0, 1.0, where only the CLAMP reads r: P writes d with its
//     saturate bit set (kVmFastSaturateBit: the interpreter clamps P's result with the same
//     vm_clamp) and the CLAMP goes.
// Like the move fold, the fused section computes bit for bit what the unfused one does: the
// same functions on the same values, only one write and one read of the file fewer. A fusion
// is made only where no instruction between the two touches the slots involved and the
// removed instruction's result is read by nobody else.
#pragma once

#include "vm_gpu/fast_operands.hpp"

namespace mote {

// `section` (in the fast form) with the patterns above fused; anything it does not recognise
// stays as it is, and so do its immediates (registers_to_clear is counted again).
FastOperandSection fuse_fast_instructions(const FastOperandSection& section);

}  // namespace mote
