// The particle frame's shared layouts (C++: src/runtime_frame/, GLSL: shaders/runtime/frame_*):
// per-frame parameters, the counters block (with the indirect dispatch arguments it carries),
// the host-written emitter record and the GPU-owned emitter state. std430, 4-byte scalars and
// vec4s, named padding (shared/interop.h).
#ifndef MOTE_SHADERS_SHARED_FRAME_H
#define MOTE_SHADERS_SHARED_FRAME_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// Written into the command buffer each frame (vkCmdUpdateBuffer), so no host-visible buffer is
// shared with a frame still in flight.
struct FrameParams {
  float dt;
  uint row_count;      // emitter rows the tick walks (the table's high-water mark)
  uint command_count;  // spawn commands this frame ([row, count] pairs)
  uint capacity;       // pool records
  uint record_words;   // pool stride
  uint serial_word;    // record word that receives the birth serial (0 = none; tests read it)
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(FrameParams, 32);
MOTE_ASSERT_OFFSET(FrameParams, dt, 0);
MOTE_ASSERT_OFFSET(FrameParams, row_count, 4);
MOTE_ASSERT_OFFSET(FrameParams, command_count, 8);
MOTE_ASSERT_OFFSET(FrameParams, capacity, 12);
MOTE_ASSERT_OFFSET(FrameParams, record_words, 16);
MOTE_ASSERT_OFFSET(FrameParams, serial_word, 20);
MOTE_ASSERT_OFFSET(FrameParams, pad0, 24);
MOTE_ASSERT_OFFSET(FrameParams, pad1, 28);

// The frame's atomics and the indirect arguments derived from them. Lives in one GPU buffer for
// the system's lifetime: nothing here is sized from a CPU readback.
struct FrameCounters {
  uint alive_in;      // last frame's alive list length: what simulate walks
  uint alive_out;     // this frame's alive list (newborns + survivors), appended atomically
  uint free_count;    // free-list stack height
  uint budget;        // spawn budget, seeded from free_count; the tick debits it
  uint newborns;      // this frame's spawn total (the scan's last inclusive sum)
  uint dropped;       // requested spawns the budget could not hold (this frame)
  uint killed;        // UPDATE kills this frame
  uint orphaned;      // particles of removed or restarted emitters freed this frame
  uint emit_groups_x;  // indirect dispatch of emit
  uint emit_groups_y;
  uint emit_groups_z;
  uint spawned_total;  // newborns since creation (wraps)
  uint simulate_groups_x;  // indirect dispatch of next frame's simulate
  uint simulate_groups_y;
  uint simulate_groups_z;
  uint frames;  // frames executed
};
MOTE_ASSERT_SIZE(FrameCounters, 64);
MOTE_ASSERT_OFFSET(FrameCounters, alive_in, 0);
MOTE_ASSERT_OFFSET(FrameCounters, alive_out, 4);
MOTE_ASSERT_OFFSET(FrameCounters, free_count, 8);
MOTE_ASSERT_OFFSET(FrameCounters, budget, 12);
MOTE_ASSERT_OFFSET(FrameCounters, newborns, 16);
MOTE_ASSERT_OFFSET(FrameCounters, dropped, 20);
MOTE_ASSERT_OFFSET(FrameCounters, killed, 24);
MOTE_ASSERT_OFFSET(FrameCounters, orphaned, 28);
MOTE_ASSERT_OFFSET(FrameCounters, emit_groups_x, 32);
MOTE_ASSERT_OFFSET(FrameCounters, emit_groups_y, 36);
MOTE_ASSERT_OFFSET(FrameCounters, emit_groups_z, 40);
MOTE_ASSERT_OFFSET(FrameCounters, spawned_total, 44);
MOTE_ASSERT_OFFSET(FrameCounters, simulate_groups_x, 48);
MOTE_ASSERT_OFFSET(FrameCounters, simulate_groups_y, 52);
MOTE_ASSERT_OFFSET(FrameCounters, simulate_groups_z, 56);
MOTE_ASSERT_OFFSET(FrameCounters, frames, 60);
// Byte offsets of the two indirect argument triples inside FrameCounters.
MOTE_CONSTANT(uint, kFrameEmitArgsOffset, 32u);
MOTE_CONSTANT(uint, kFrameSimulateArgsOffset, 48u);

// One emitter row as the host writes it (the frame's minimal record; offsets are absolute words
// of the program buffer). generation 0 = a free row. With a transform_row, emit and simulate read
// EMITTER_POSITION / DIRECTION / UP / ROTATION from that row's TransformChannels (composed this
// frame) instead of position / direction / up / rotation.
struct FrameEmitter {
  vec4 position;   // xyz
  vec4 rotation;   // quaternion xyzw
  vec4 direction;  // +Z turned by rotation, xyz
  vec4 up;         // +Y turned by rotation, xyz
  uint program;    // program id: emit and simulate run one dispatch per live program
  uint constants_offset;
  uint constants_words;
  uint init_offset;
  uint init_length;    // instructions
  uint update_offset;
  uint update_length;  // instructions
  uint fields_offset;
  uint fields_words;
  uint globals_offset;
  uint globals_words;
  uint seed;
  float rate;          // particles per second
  uint generation;     // header generation of this emitter's particles; 0 = free row
  uint register_count;
  uint transform_row;  // a TransformTable row whose channels place the emitter, or kFrameNoTransform
};
MOTE_ASSERT_SIZE(FrameEmitter, 128);
MOTE_ASSERT_OFFSET(FrameEmitter, position, 0);
MOTE_ASSERT_OFFSET(FrameEmitter, rotation, 16);
MOTE_ASSERT_OFFSET(FrameEmitter, direction, 32);
MOTE_ASSERT_OFFSET(FrameEmitter, up, 48);
MOTE_ASSERT_OFFSET(FrameEmitter, program, 64);
MOTE_ASSERT_OFFSET(FrameEmitter, constants_offset, 68);
MOTE_ASSERT_OFFSET(FrameEmitter, constants_words, 72);
MOTE_ASSERT_OFFSET(FrameEmitter, init_offset, 76);
MOTE_ASSERT_OFFSET(FrameEmitter, init_length, 80);
MOTE_ASSERT_OFFSET(FrameEmitter, update_offset, 84);
MOTE_ASSERT_OFFSET(FrameEmitter, update_length, 88);
MOTE_ASSERT_OFFSET(FrameEmitter, fields_offset, 92);
MOTE_ASSERT_OFFSET(FrameEmitter, fields_words, 96);
MOTE_ASSERT_OFFSET(FrameEmitter, globals_offset, 100);
MOTE_ASSERT_OFFSET(FrameEmitter, globals_words, 104);
MOTE_ASSERT_OFFSET(FrameEmitter, seed, 108);
MOTE_ASSERT_OFFSET(FrameEmitter, rate, 112);
MOTE_ASSERT_OFFSET(FrameEmitter, generation, 116);
MOTE_ASSERT_OFFSET(FrameEmitter, register_count, 120);
MOTE_ASSERT_OFFSET(FrameEmitter, transform_row, 124);

// One of the effect's declared bursts (EmissionSettings::bursts), host-written into a side table
// of kFrameMaxBursts entries per row (row * kFrameMaxBursts + i). The tick fires them against the
// row's own clock with src/sim/emission.cpp's bursts_due rule; count 0 = an unused entry.
struct FrameBurst {
  float time;      // seconds after the emitter starts
  uint count;      // particles per cycle
  uint cycles;     // how many times it fires (0 = forever)
  float interval;  // seconds between cycles (<= 0: every cycle at `time`)
};
MOTE_ASSERT_SIZE(FrameBurst, 16);
MOTE_ASSERT_OFFSET(FrameBurst, time, 0);
MOTE_ASSERT_OFFSET(FrameBurst, count, 4);
MOTE_ASSERT_OFFSET(FrameBurst, cycles, 8);
MOTE_ASSERT_OFFSET(FrameBurst, interval, 12);

// What the GPU integrates per row (meep "The emitter state"): not part of the record, so a
// restage of the record never overwrites it. The CPU only zero-fills it at creation; a row is
// recognised by generation and restarted on a mismatch.
struct FrameEmitterState {
  uint generation;   // the record generation this state belongs to
  float accumulator; // fractional spawns carried between frames
  float age;         // EMITTER_AGE / TIME after this frame's tick
  uint pending;      // host burst spawns queued by spawn commands, taken by the next tick
  uint spawned;      // birth serials handed out so far
  uint spawn_first;  // serial of this frame's first newborn
  uint tick;         // this frame's tick index for the row (0 on its first frame): the RNG's tick
  uint spawn_count;  // this frame's newborns
};
MOTE_ASSERT_SIZE(FrameEmitterState, 32);
MOTE_ASSERT_OFFSET(FrameEmitterState, generation, 0);
MOTE_ASSERT_OFFSET(FrameEmitterState, accumulator, 4);
MOTE_ASSERT_OFFSET(FrameEmitterState, age, 8);
MOTE_ASSERT_OFFSET(FrameEmitterState, pending, 12);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawned, 16);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawn_first, 20);
MOTE_ASSERT_OFFSET(FrameEmitterState, tick, 24);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawn_count, 28);

// Push constants of emit and simulate: which program this dispatch runs (one per live program,
// so every wave runs one program: the interpreter's decode is wave-uniform) and whether it is
// the first dispatch (the one that frees orphans).
struct FramePush {
  uint program;
  uint first_dispatch;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(FramePush, 16);
MOTE_ASSERT_OFFSET(FramePush, program, 0);
MOTE_ASSERT_OFFSET(FramePush, first_dispatch, 4);
MOTE_ASSERT_OFFSET(FramePush, pad0, 8);
MOTE_ASSERT_OFFSET(FramePush, pad1, 12);

// One row of the field-bindings table (the seed's `field_bindings`): the bind pass copies
// `width` words of the transform row's channel into the program image at absolute word `word`
// (an emitter's field, or one live row's copy of a global). Host-built from the emitters' and
// the globals' bindings; rebuilt whenever the image is laid out again.
struct FrameFieldBinding {
  uint word;           // absolute word of the program buffer
  uint width;          // words written: 3 (POSITION, DIRECTION, UP) or 4 (ORIENTATION)
  uint transform_row;  // a TransformTable row
  uint channel;        // kFrameChannelPosition .. kFrameChannelOrientation
};
MOTE_ASSERT_SIZE(FrameFieldBinding, 16);
MOTE_ASSERT_OFFSET(FrameFieldBinding, word, 0);
MOTE_ASSERT_OFFSET(FrameFieldBinding, width, 4);
MOTE_ASSERT_OFFSET(FrameFieldBinding, transform_row, 8);
MOTE_ASSERT_OFFSET(FrameFieldBinding, channel, 12);

// Push constants of frame_field_bind: how many rows of the bindings table are live.
struct FrameFieldBindPush {
  uint binding_count;
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(FrameFieldBindPush, 16);
MOTE_ASSERT_OFFSET(FrameFieldBindPush, binding_count, 0);
MOTE_ASSERT_OFFSET(FrameFieldBindPush, pad0, 4);
MOTE_ASSERT_OFFSET(FrameFieldBindPush, pad1, 8);
MOTE_ASSERT_OFFSET(FrameFieldBindPush, pad2, 12);

// FrameFieldBinding::channel: which TransformChannels member is copied.
MOTE_CONSTANT(uint, kFrameChannelPosition, 0u);
MOTE_CONSTANT(uint, kFrameChannelDirection, 1u);
MOTE_CONSTANT(uint, kFrameChannelUp, 2u);
MOTE_CONSTANT(uint, kFrameChannelOrientation, 3u);

MOTE_CONSTANT(uint, kFrameWorkgroupSize, 64u);
// FrameEmitter::transform_row of an emitter placed by its own constant pose.
MOTE_CONSTANT(uint, kFrameNoTransform, 0xFFFFFFFFu);
// Indirect dispatches stay within the guaranteed maxComputeWorkGroupCount[0]; the passes walk
// the rest with a grid stride.
MOTE_CONSTANT(uint, kFrameMaxGroups, 65535u);
// Spawn commands per frame (vkCmdUpdateBuffer writes at most 65536 bytes; two words each).
MOTE_CONSTANT(uint, kFrameMaxCommands, 8192u);
// Declared bursts per emitter the tick schedules (FrameBurst side table); add_emitter refuses more.
MOTE_CONSTANT(uint, kFrameMaxBursts, 4u);
// The record header (include/mote/simulation.hpp): row | generation << 20.
MOTE_CONSTANT(uint, kFrameHeaderRowBits, 20u);
MOTE_CONSTANT(uint, kFrameHeaderRowMask, 0xFFFFFu);
MOTE_CONSTANT(uint, kFrameHeaderGenerationMask, 0xFFFu);
// simulation_rng_base's salt and the kinds of the frame loop.
MOTE_CONSTANT(uint, kFrameRngSalt, 0x53494D00u);
MOTE_CONSTANT(uint, kFrameRngInit, 0u);
MOTE_CONSTANT(uint, kFrameRngUpdate, 1u);

MOTE_SHARED_END
#endif
