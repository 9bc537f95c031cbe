// One row of the emitter table: what the GPU passes read about an emitter, and the one table
// the GPU frame reads (shaders/runtime/frame/*.comp). Written on the CPU by EmitterRegistry
// (write_emitter_record, src/runtime/emitter_registry.cpp) through one reusable staging record,
// uploaded as spans of rows. Offsets are relative to their section of the program heap
// (shaders/shared/program_heap.h), so a section's growth moves its base and no record. What the
// GPU integrates per emitter (accumulator, age, pending) is NOT here: restaging a row would
// overwrite it (shared/frame.h's FrameEmitterState).
#ifndef MOTE_SHADERS_SHARED_EMITTER_RECORD_H
#define MOTE_SHADERS_SHARED_EMITTER_RECORD_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// flags
MOTE_CONSTANT(uint, kEmitterFlagLive, 1u);  // the row holds an emitter (0 for a freed row)
MOTE_CONSTANT(uint, kEmitterFlagSoft, 2u);  // soft-depth fade
MOTE_CONSTANT(uint, kEmitterFlagLit, 4u);
MOTE_CONSTANT(uint, kEmitterFlagAdditive, 8u);  // blend "additive" (else alpha)
MOTE_CONSTANT(uint, kEmitterFlagFlipbookBlend, 16u);
MOTE_CONSTANT(uint, kEmitterFlagCull, 32u);            // spawning stops while the bounds are out of view
MOTE_CONSTANT(uint, kEmitterFlagProjectionShift, 8u);  // bits 8..11: projection index
MOTE_CONSTANT(uint, kEmitterFlagProjectionMask, 0xF00u);
// Runtime controls (docs/design/drivers.md, "Runtime controls"), set by the host per emitter:
// paused — no spawn, the clock stands, its particles are kept as they are (still listed, drawn and
// measured) without running UPDATE; stopped — the rate and the declared bursts spawn nothing while
// the clock runs on and the live particles finish their lives (burst() still spawns); inactive —
// no spawn, the clock stands, and its particles are freed at the next simulate like orphans, so
// it costs its tick row and nothing else.
MOTE_CONSTANT(uint, kEmitterFlagPaused, 64u);
MOTE_CONSTANT(uint, kEmitterFlagStopped, 128u);
MOTE_CONSTANT(uint, kEmitterFlagInactive, 0x1000u);
// The manual driver (docs/design/drivers.md, "The manual driver"): the row's particles are the
// host's records. The tick spawns only burst()-style commands for it (the host's upload count),
// the simulate keeps its particles unchanged, as paused ones; in the frame of an upload the row
// also carries kEmitterFlagReplace, and its listed particles are freed (the upload's newborns,
// written by manual_fill.comp after emit, replace them).
MOTE_CONSTANT(uint, kEmitterFlagManual, 0x2000u);
MOTE_CONSTANT(uint, kEmitterFlagReplace, 0x4000u);
MOTE_CONSTANT(uint, kEmitterControlFlags, 64u | 128u | 0x1000u | 0x2000u | 0x4000u);
// EmitterRecord::transform_row of an emitter that stands at its own constant pose.
MOTE_CONSTANT(uint, kEmitterNoTransform, 0xFFFFFFFFu);

struct EmitterRecord {
  vec4 position;          // the constant pose (xyz), used when transform_row is kEmitterNoTransform
  vec4 rotation;          // quaternion xyzw
  vec4 direction;         // +Z turned by rotation (xyz): EMITTER_DIRECTION
  vec4 up;                // +Y turned by rotation (xyz): EMITTER_UP
  uint program_id;        // the heap's program id (one emit/simulate dispatch per live id)
  uint constants_offset;  // words, in the constants section
  uint constants_length;  // words (4 per constant vec4)
  uint init_offset;       // words, in the code section
  uint init_length;       // words (4 per instruction)
  uint update_offset;     // words, in the code section
  uint update_length;     // words
  uint field_offset;      // words, in the field section: the emitter's block
  uint field_words;       // the emitter fields' words at the block's start
  uint global_offset;     // words, in the field section: where LOAD_BUILTIN global:0 reads
  uint global_words;      // words readable there (the shared globals, or the emitter's own copies)
  uint seed;              // the author's (or the generation, when the registry resolves a 0)
  float spawn_rate;       // particles per second (a width-1 emitter field "rate" overrides the effect's)
  uint transform_row;     // the transforms row the emitter stands at, or kEmitterNoTransform
  uint generation;        // never 0 for a live row; particles carry it in their header
  uint flags;             // kEmitterFlag*
  uint capacity_hint;     // particles the effect expects to hold at once
  uint register_count;    // the program's, to pick the fast or wide interpreter
  uint record_words;      // the program's particle record words (header included)
  // What the bounds pass reads of a particle (shaders/runtime/frame/bounds_accumulate.comp): the
  // record words of the fields the effect draws with (its render settings), as the renderer
  // binds them, and how far the drawn shape reaches from the position per unit of size.
  uint bounds_position_word;   // vec3; 0: none (the box is unknown)
  uint bounds_size_word;       // float; 0: unbound (size 1)
  uint bounds_velocity_word;   // vec3; 0: unbound (no stretch)
  float bounds_reach;          // quads 0.5 (times sqrt(1 + stretch^2)), a mesh its radius; 0: unknown
  float cull_catchup_seconds;  // kEmitterFlagCull: the most sleep a wake pays back in rate
};
MOTE_ASSERT_SIZE(EmitterRecord, 160);
MOTE_ASSERT_OFFSET(EmitterRecord, position, 0);
MOTE_ASSERT_OFFSET(EmitterRecord, rotation, 16);
MOTE_ASSERT_OFFSET(EmitterRecord, direction, 32);
MOTE_ASSERT_OFFSET(EmitterRecord, up, 48);
MOTE_ASSERT_OFFSET(EmitterRecord, program_id, 64);
MOTE_ASSERT_OFFSET(EmitterRecord, constants_offset, 68);
MOTE_ASSERT_OFFSET(EmitterRecord, constants_length, 72);
MOTE_ASSERT_OFFSET(EmitterRecord, init_offset, 76);
MOTE_ASSERT_OFFSET(EmitterRecord, init_length, 80);
MOTE_ASSERT_OFFSET(EmitterRecord, update_offset, 84);
MOTE_ASSERT_OFFSET(EmitterRecord, update_length, 88);
MOTE_ASSERT_OFFSET(EmitterRecord, field_offset, 92);
MOTE_ASSERT_OFFSET(EmitterRecord, field_words, 96);
MOTE_ASSERT_OFFSET(EmitterRecord, global_offset, 100);
MOTE_ASSERT_OFFSET(EmitterRecord, global_words, 104);
MOTE_ASSERT_OFFSET(EmitterRecord, seed, 108);
MOTE_ASSERT_OFFSET(EmitterRecord, spawn_rate, 112);
MOTE_ASSERT_OFFSET(EmitterRecord, transform_row, 116);
MOTE_ASSERT_OFFSET(EmitterRecord, generation, 120);
MOTE_ASSERT_OFFSET(EmitterRecord, flags, 124);
MOTE_ASSERT_OFFSET(EmitterRecord, capacity_hint, 128);
MOTE_ASSERT_OFFSET(EmitterRecord, register_count, 132);
MOTE_ASSERT_OFFSET(EmitterRecord, record_words, 136);
MOTE_ASSERT_OFFSET(EmitterRecord, bounds_position_word, 140);
MOTE_ASSERT_OFFSET(EmitterRecord, bounds_size_word, 144);
MOTE_ASSERT_OFFSET(EmitterRecord, bounds_velocity_word, 148);
MOTE_ASSERT_OFFSET(EmitterRecord, bounds_reach, 152);
MOTE_ASSERT_OFFSET(EmitterRecord, cull_catchup_seconds, 156);
MOTE_CONSTANT(uint, kEmitterRecordWords, 40u);

MOTE_SHARED_END
#endif
