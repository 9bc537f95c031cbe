// Constant sources for the fast interpreter: a host pass over a section in the fast operand
// form, run after the move fold and the fusion (src/vm_gpu/fast_fold.hpp, src/vm_gpu/fast_fuse.hpp).
// A source whose every component is the zero slot or an immediate becomes class
// kVmOperandConstant (shared/vm_fast_operands.h): the interpreter reads it as one wave-uniform
// load of a vector from the section's constant vectors, where it took one private-memory load
// per component, each after its slot was extracted and turned into an address (4-5 issued
// instructions per component in the SASS the NVIDIA driver makes of the interpreter, and about
// 17 for a vector source: docs/PERFORMANCE.md, "Constants read as constants"). Immediates that
// no source reads any more leave the file, so they cost no per-particle fill either, and the
// ones left are renumbered from the first immediate slot.
// Like the fold and the fusion, the pass changes where values are read from, never what is
// computed: the section computes bit for bit what it did.
#pragma once

#include <span>

#include "vm_gpu/fast_operands.hpp"

namespace mote {

// `section` with its constant sources read as constants. `runtime_immediates` are the bit
// patterns of immediates the reader fills at run time (FastFoldContext::runtime_immediates, the
// GPU frame's DT stand-in): a source reading one stays a file read, and the reader finds the
// immediate's new index by its bit pattern.
FastOperandSection read_constants_as_constants(const FastOperandSection& section,
                                               std::span<const uint32_t> runtime_immediates = {});

}  // namespace mote
