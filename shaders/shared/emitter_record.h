// One row of the emitter table: what the GPU passes read about an emitter. Written on the CPU
// by EmitterRegistry (write_emitter_record, src/runtime/emitter_registry.cpp) through one
// reusable staging record, uploaded as a span of rows. Offsets are relative to their section
// of the program heap (shaders/shared/program_heap.h). What the GPU integrates per emitter
// (accumulator, age, pending) is NOT here: restaging a row would overwrite it.
#ifndef MOTE_SHADERS_SHARED_EMITTER_RECORD_H
#define MOTE_SHADERS_SHARED_EMITTER_RECORD_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// flags
MOTE_CONSTANT(uint, kEmitterFlagLive, 1u);            // the row holds an emitter (0 for a freed row)
MOTE_CONSTANT(uint, kEmitterFlagSoft, 2u);            // soft-depth fade
MOTE_CONSTANT(uint, kEmitterFlagLit, 4u);
MOTE_CONSTANT(uint, kEmitterFlagAdditive, 8u);        // blend "additive" (else alpha)
MOTE_CONSTANT(uint, kEmitterFlagFlipbookBlend, 16u);
MOTE_CONSTANT(uint, kEmitterFlagProjectionShift, 8u); // bits 8..11: projection index
MOTE_CONSTANT(uint, kEmitterFlagProjectionMask, 0xF00u);

struct EmitterRecord {
  uint program_id;        // the heap's program id (coherence buckets)
  uint constants_offset;  // words, in the constants section
  uint init_offset;       // words, in the code section
  uint init_length;       // words (4 per instruction)
  uint update_offset;     // words, in the code section
  uint update_length;     // words
  uint field_offset;      // words, in the field section (the emitter's block)
  uint seed;              // the author's, or the generation when the author left 0
  float spawn_rate;       // particles per second
  uint transform_row;     // the transforms row the emitter is placed at
  uint generation;        // never 0 for a live row; particles carry it in their header
  uint flags;             // kEmitterFlag*
  uint capacity_hint;     // particles the effect expects to hold at once
  uint register_count;    // the program's, to pick the fast or wide interpreter
  uint record_words;      // the program's particle record words (header included)
  uint pad0;
};
MOTE_ASSERT_SIZE(EmitterRecord, 64);
MOTE_ASSERT_OFFSET(EmitterRecord, program_id, 0);
MOTE_ASSERT_OFFSET(EmitterRecord, constants_offset, 4);
MOTE_ASSERT_OFFSET(EmitterRecord, init_offset, 8);
MOTE_ASSERT_OFFSET(EmitterRecord, init_length, 12);
MOTE_ASSERT_OFFSET(EmitterRecord, update_offset, 16);
MOTE_ASSERT_OFFSET(EmitterRecord, update_length, 20);
MOTE_ASSERT_OFFSET(EmitterRecord, field_offset, 24);
MOTE_ASSERT_OFFSET(EmitterRecord, seed, 28);
MOTE_ASSERT_OFFSET(EmitterRecord, spawn_rate, 32);
MOTE_ASSERT_OFFSET(EmitterRecord, transform_row, 36);
MOTE_ASSERT_OFFSET(EmitterRecord, generation, 40);
MOTE_ASSERT_OFFSET(EmitterRecord, flags, 44);
MOTE_ASSERT_OFFSET(EmitterRecord, capacity_hint, 48);
MOTE_ASSERT_OFFSET(EmitterRecord, register_count, 52);
MOTE_ASSERT_OFFSET(EmitterRecord, record_words, 56);
MOTE_ASSERT_OFFSET(EmitterRecord, pad0, 60);
MOTE_CONSTANT(uint, kEmitterRecordWords, 16u);

MOTE_SHARED_END
#endif
