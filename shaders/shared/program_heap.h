// The packed program buffer's header, shared by the CPU heap (src/runtime/program_heap.cpp)
// and the GPU passes that read it. The buffer is
//   [header: kHeapHeaderWords][constants][code][fields]
// and every offset a placement or an emitter record holds is relative to its own section's
// base, read from this header. That way growing one section shifts the bases (one header
// rewrite) without moving any placement, so no emitter record needs restaging for it.
#ifndef MOTE_SHADERS_SHARED_PROGRAM_HEAP_H
#define MOTE_SHADERS_SHARED_PROGRAM_HEAP_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

MOTE_CONSTANT(uint, kHeapHeaderWords, 8u);
MOTE_CONSTANT(uint, kHeapWordConstantsBase, 0u);      // image word where the constants section starts
MOTE_CONSTANT(uint, kHeapWordCodeBase, 1u);           // image word where the code section starts
MOTE_CONSTANT(uint, kHeapWordFieldBase, 2u);          // image word where the field section starts
MOTE_CONSTANT(uint, kHeapWordConstantsCapacity, 3u);  // constants section size, words
MOTE_CONSTANT(uint, kHeapWordCodeCapacity, 4u);       // code section size, words
MOTE_CONSTANT(uint, kHeapWordFieldCapacity, 5u);      // field section size, words (globals included)
MOTE_CONSTANT(uint, kHeapWordGlobalWords, 6u);        // words reserved for globals at the field base
MOTE_CONSTANT(uint, kHeapWordPlacementVersion, 7u);   // low 32 bits of placement_version (diagnostics)

MOTE_SHARED_END
#endif
