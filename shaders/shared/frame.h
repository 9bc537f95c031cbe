// The particle frame's shared layouts (C++: src/runtime/frame/, GLSL: shaders/runtime/frame/*):
// per-frame parameters, the counters block (with the indirect dispatch arguments it carries),
// the declared bursts and the GPU-owned emitter state. The emitter table's rows are
// shared/emitter_record.h's EmitterRecord (written by the EmitterRegistry). std430, 4-byte
// scalars and vec4s, named padding (shared/interop.h).
#ifndef MOTE_SHADERS_SHARED_FRAME_H
#define MOTE_SHADERS_SHARED_FRAME_H
#include "shared/emitter_record.h"
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// Written into the command buffer each frame (vkCmdUpdateBuffer), so no host-visible buffer is
// shared with a frame still in flight. The section bases say where the program heap's sections
// lie in the program buffer this frame (the records' offsets are relative to them, so a
// section's growth moves a base and restages no record).
struct FrameParams {
  float dt;
  uint row_count;           // emitter rows the tick walks (the table's high-water mark)
  uint command_count;       // spawn commands this frame ([row, count] pairs)
  uint capacity;            // pool records
  uint record_words;        // pool stride
  uint serial_word;         // record word that receives the birth serial (0 = none; tests read it)
  uint constants_base;      // program buffer word where the heap's constants section starts
  uint code_base;           // ... its code section
  uint field_base;          // ... its field section (emitter blocks with their global copies)
  float time;               // TIME: the system's clock after this frame's dt (f32 sums of the dts, as
                            // an emitter's age is summed, so a first-frame emitter's age equals it)
  uint cull_view;           // 1: the host set a camera and cull_planes hold its frustum (culling on)
  uint bounds_in_simulate;  // 1: simulate folds the survivors' bounds, the bounds pass the newborns';
                            // 0: the bounds pass folds the whole list (ParticleSystemOptions)
  // The camera's frustum as six planes (xyz normal pointing in, w offset: inside when
  // dot(xyz, p) + w >= 0), from its view-projection (Gribb and Hartmann, 2001).
  vec4 cull_planes[6];
  // What SAMPLE_WIND reads this frame (VmWindField's two vec4s: the uniform wind with its gust,
  // the turbulence with the time), from mote::wind_field_at at `time` (docs/design/wind.md).
  vec4 wind_base;
  vec4 wind_turbulence;
};
MOTE_ASSERT_SIZE(FrameParams, 176);
MOTE_ASSERT_OFFSET(FrameParams, dt, 0);
MOTE_ASSERT_OFFSET(FrameParams, row_count, 4);
MOTE_ASSERT_OFFSET(FrameParams, command_count, 8);
MOTE_ASSERT_OFFSET(FrameParams, capacity, 12);
MOTE_ASSERT_OFFSET(FrameParams, record_words, 16);
MOTE_ASSERT_OFFSET(FrameParams, serial_word, 20);
MOTE_ASSERT_OFFSET(FrameParams, constants_base, 24);
MOTE_ASSERT_OFFSET(FrameParams, code_base, 28);
MOTE_ASSERT_OFFSET(FrameParams, field_base, 32);
MOTE_ASSERT_OFFSET(FrameParams, time, 36);
MOTE_ASSERT_OFFSET(FrameParams, cull_view, 40);
MOTE_ASSERT_OFFSET(FrameParams, bounds_in_simulate, 44);
MOTE_ASSERT_OFFSET(FrameParams, cull_planes, 48);
MOTE_ASSERT_OFFSET(FrameParams, wind_base, 144);
MOTE_ASSERT_OFFSET(FrameParams, wind_turbulence, 160);

// The frame's atomics and the indirect arguments derived from them. Lives in one GPU buffer for
// the system's lifetime: nothing here is sized from a CPU readback.
struct FrameCounters {
  uint alive_in;    // last frame's alive list length: what simulate walks
  uint alive_out;   // this frame's alive list: emit's newborns (atomic appends), then frame_finish adds the survivors
  uint free_count;  // free-list stack height
  uint budget;      // spawn budget, seeded from free_count; the tick debits it
  uint newborns;    // this frame's spawn total (the scan's last inclusive sum)
  uint dropped;     // requested spawns the budget could not hold (this frame)
  uint killed;      // UPDATE kills this frame
  uint orphaned;    // particles of removed or restarted emitters freed this frame
  uint emit_groups_x;  // indirect dispatch of emit
  uint emit_groups_y;
  uint emit_groups_z;
  uint spawned_total;      // newborns since creation (wraps)
  uint simulate_groups_x;  // indirect dispatch of next frame's simulate
  uint simulate_groups_y;
  uint simulate_groups_z;
  uint frames;           // frames executed
  uint walk_tiles;       // tiles of 64 entries of the list this frame's simulate walks: ceil(alive_in / 64)
                         // (set by the reset; the keep flags' scan, compact and finish are sized by it)
  uint prewarmed;        // particles a GPU pre-warm moved into the pool this frame (frame_migrate.comp)
  uint bounds_groups_x;  // indirect dispatch of the bounds pass over this frame's list (finish):
  uint bounds_groups_y;  // kFrameBoundsEntriesPerLane entries a lane
  uint bounds_groups_z;
  uint bounds_entries;  // the entries at the head of this frame's list the bounds pass folds (finish):
                        // emit's newborns when simulate folded the survivors, else the whole list
  uint reserved;        // free slots the host reserved for this frame's replace-oldest bursts
                        // (kFrameReservedCommand; written by the host's upload, taken by the reset)
  uint pad2;
};
MOTE_ASSERT_SIZE(FrameCounters, 96);
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
MOTE_ASSERT_OFFSET(FrameCounters, walk_tiles, 64);
MOTE_ASSERT_OFFSET(FrameCounters, prewarmed, 68);
MOTE_ASSERT_OFFSET(FrameCounters, bounds_groups_x, 72);
MOTE_ASSERT_OFFSET(FrameCounters, bounds_groups_y, 76);
MOTE_ASSERT_OFFSET(FrameCounters, bounds_groups_z, 80);
MOTE_ASSERT_OFFSET(FrameCounters, bounds_entries, 84);
MOTE_ASSERT_OFFSET(FrameCounters, reserved, 88);
MOTE_ASSERT_OFFSET(FrameCounters, pad2, 92);
// Byte offsets of the indirect argument triples inside FrameCounters.
MOTE_CONSTANT(uint, kFrameEmitArgsOffset, 32u);
MOTE_CONSTANT(uint, kFrameSimulateArgsOffset, 48u);
MOTE_CONSTANT(uint, kFrameBoundsArgsOffset, 72u);

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

// What the GPU integrates per row (docs/design/runtime_frame.md): not part of the record, so a
// restage of the record never overwrites it. The CPU only zero-fills it at creation; a row is
// recognised by generation and restarted on a mismatch.
struct FrameEmitterState {
  uint generation;    // the record generation this state belongs to
  float accumulator;  // fractional spawns carried between frames
  float age;          // EMITTER_AGE / TIME after this frame's tick
  uint pending;       // host burst spawns queued by spawn commands, taken by the next tick
  uint spawned;       // birth serials handed out so far
  uint spawn_first;   // serial of this frame's first newborn
  uint tick;          // this frame's tick index for the row (0 on its first frame): the RNG's tick
  uint spawn_count;   // this frame's newborns
  float asleep;       // seconds the emitter has been culled since it was last seen (kEmitterFlagCull)
  uint culled;        // 1 when this frame's tick found the emitter out of view
  uint reserved;      // replace-oldest burst spawns with slots reserved for them (kFrameReservedCommand)
  uint pad1;
};
MOTE_ASSERT_SIZE(FrameEmitterState, 48);
MOTE_ASSERT_OFFSET(FrameEmitterState, generation, 0);
MOTE_ASSERT_OFFSET(FrameEmitterState, accumulator, 4);
MOTE_ASSERT_OFFSET(FrameEmitterState, age, 8);
MOTE_ASSERT_OFFSET(FrameEmitterState, pending, 12);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawned, 16);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawn_first, 20);
MOTE_ASSERT_OFFSET(FrameEmitterState, tick, 24);
MOTE_ASSERT_OFFSET(FrameEmitterState, spawn_count, 28);
MOTE_ASSERT_OFFSET(FrameEmitterState, asleep, 32);
MOTE_ASSERT_OFFSET(FrameEmitterState, culled, 36);
MOTE_ASSERT_OFFSET(FrameEmitterState, reserved, 40);
MOTE_ASSERT_OFFSET(FrameEmitterState, pad1, 44);

// Push constants of emit and simulate: which program this dispatch runs (one per live program,
// so every wave runs one program: the interpreter's decode is wave-uniform) and whether it is
// the first dispatch (the one that frees orphans) and the only one (every listed particle then
// runs this program or is an orphan, so compiled simulate loads each record's window before
// reading its header from it). The interpreters also take the dispatch's section from here
// (emit: INIT, simulate: UPDATE; the program's placement in the heap, as its emitters' records
// hold it): read from push constants, its code is visibly the same for every invocation, so the
// fetch and decode need no broadcast from the first lane.
struct FramePush {
  uint program;
  uint first_dispatch;
  uint only_dispatch;
  uint section_offset;  // program-buffer word of the section's first instruction
  uint section_words;   // its length in words (4 per instruction)
  uint bucketed;        // simulate: 1 = walk the program's bucket of the coherence list (FrameBucket),
                        // 0 = walk last frame's alive list whole
  uint warmup_tick;     // the pre-warm's advance (simulate built with FRAME_WARMUP): the tick's index
  uint events;          // 1: queue the events this dispatch's particles send, hand children their
                        // payloads (shared/frame_events.h); 0 in the pre-warm and with no binding
};
MOTE_ASSERT_SIZE(FramePush, 32);
MOTE_ASSERT_OFFSET(FramePush, program, 0);
MOTE_ASSERT_OFFSET(FramePush, first_dispatch, 4);
MOTE_ASSERT_OFFSET(FramePush, only_dispatch, 8);
MOTE_ASSERT_OFFSET(FramePush, section_offset, 12);
MOTE_ASSERT_OFFSET(FramePush, section_words, 16);
MOTE_ASSERT_OFFSET(FramePush, bucketed, 20);
MOTE_ASSERT_OFFSET(FramePush, warmup_tick, 24);
MOTE_ASSERT_OFFSET(FramePush, events, 28);

// The coherence buckets (docs/design/runtime_frame.md, "Two orderings"): with two or more live
// programs, last frame's alive list is counting-sorted by program id into the coherence list, each
// program's bucket padded to kFrameWorkgroupSize entries with kFrameBucketPadEntry, so every
// workgroup of simulate runs one program. One FrameBucket per program id, written on the GPU each
// bucketed frame: the first three words are the program's indirect simulate dispatch.
struct FrameBucket {
  uint groups_x;  // min(entries / kFrameWorkgroupSize, kFrameMaxGroups); simulate strides past it
  uint groups_y;
  uint groups_z;
  uint first;    // the bucket's first entry in the coherence list
  uint entries;  // its length: count rounded up to kFrameWorkgroupSize
  uint count;    // the program's particles in last frame's alive list (orphans not counted)
  uint cursor;   // the scatter's next free entry (first + placed so far)
  uint pad0;
};
MOTE_ASSERT_SIZE(FrameBucket, 32);
MOTE_ASSERT_OFFSET(FrameBucket, groups_x, 0);
MOTE_ASSERT_OFFSET(FrameBucket, groups_y, 4);
MOTE_ASSERT_OFFSET(FrameBucket, groups_z, 8);
MOTE_ASSERT_OFFSET(FrameBucket, first, 12);
MOTE_ASSERT_OFFSET(FrameBucket, entries, 16);
MOTE_ASSERT_OFFSET(FrameBucket, count, 20);
MOTE_ASSERT_OFFSET(FrameBucket, cursor, 24);
MOTE_ASSERT_OFFSET(FrameBucket, pad0, 28);
// A coherence-list entry that stands for no particle (a bucket's padding). Real entries are
// indices into last frame's alive list (< capacity).
MOTE_CONSTANT(uint, kFrameBucketPadEntry, 0xFFFFFFFFu);
// An entry-program word of an entry freed as an orphan by the bucket count (in no bucket).
MOTE_CONSTANT(uint, kFrameNoProgram, 0xFFFFFFFFu);

// The spawn order (docs/design/runtime_frame.md, "Two orderings"): the tick writes a row's count
// at the row's place in an order that puts every program's rows together (host-kept,
// src/runtime/frame/spawn_order.cpp), so the scan leaves each program's newborns one run and its
// emit dispatch walks that run only, not the frame's every newborn. One FrameSpawnRange per
// program id: the host writes the places its rows take, [first_place, end_place); emit_args
// writes the rest each frame: the run of newborns and the program's indirect emit dispatch.
struct FrameSpawnRange {
  uint groups_x;  // min(ceil(count / kFrameWorkgroupSize), kFrameMaxGroups); emit strides past it
  uint groups_y;
  uint groups_z;
  uint first_place;  // host: the program's rows' places in the spawn order
  uint end_place;
  uint begin;  // the program's first newborn: the inclusive sum before first_place
  uint count;  // its newborns this frame
  uint pad0;
};
MOTE_ASSERT_SIZE(FrameSpawnRange, 32);
MOTE_ASSERT_OFFSET(FrameSpawnRange, groups_x, 0);
MOTE_ASSERT_OFFSET(FrameSpawnRange, groups_y, 4);
MOTE_ASSERT_OFFSET(FrameSpawnRange, groups_z, 8);
MOTE_ASSERT_OFFSET(FrameSpawnRange, first_place, 12);
MOTE_ASSERT_OFFSET(FrameSpawnRange, end_place, 16);
MOTE_ASSERT_OFFSET(FrameSpawnRange, begin, 20);
MOTE_ASSERT_OFFSET(FrameSpawnRange, count, 24);
MOTE_ASSERT_OFFSET(FrameSpawnRange, pad0, 28);

// Push constants of the bucket passes: the program ids the buckets cover this frame (the heap's
// id capacity, host-known).
struct FrameBucketPush {
  uint program_count;
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(FrameBucketPush, 16);
MOTE_ASSERT_OFFSET(FrameBucketPush, program_count, 0);
MOTE_ASSERT_OFFSET(FrameBucketPush, pad0, 4);
MOTE_ASSERT_OFFSET(FrameBucketPush, pad1, 8);
MOTE_ASSERT_OFFSET(FrameBucketPush, pad2, 12);

// One row of the field-bindings table (docs/design/runtime_frame.md, "Field bindings"): the bind
// pass copies `width` words of the transform row's channel into the program buffer at absolute word
// `word` (an emitter's field, or one live row's copy of a global). Host-built from the emitters'
// and the globals' bindings; rebuilt whenever a bound block moves (a repack, a section's growth).
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

// An emitter's measured bounds (docs/design/runtime_frame.md, "Bounds"), published per row at
// the end of every frame by frame_bounds_publish.comp from the alive list the frame wrote: the
// world box of every alive particle's drawn shape (the quad dilated by the most its size, stretch
// and any view's projection can turn it, or the mesh's reach), and how many are alive. Empty
// (nothing alive): min = +inf, max = -inf. Unknown (no drawn position, or a shape whose extent
// the frame does not know): min = -inf, max = +inf. Compared by bits, never by value.
struct FrameEmitterBounds {
  vec4 bounds_min;  // xyz; w unused
  vec4 bounds_max;
  uint alive;       // the row's particles in the frame's alive list
  uint generation;  // the row's generation the box was measured for (0: a free row)
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(FrameEmitterBounds, 48);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, bounds_min, 0);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, bounds_max, 16);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, alive, 32);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, generation, 36);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, pad0, 40);
MOTE_ASSERT_OFFSET(FrameEmitterBounds, pad1, 44);
// The bounds pass's accumulators per row (kFrameBoundsAccumulatorWords words): atomicMax of
// ~order(min) for x, y, z, atomicMax of order(max), the alive count, the bounded count (finite
// positions); zero is empty for every word, and the publish pass zeroes them again.
MOTE_CONSTANT(uint, kFrameBoundsAccumulatorWords, 8u);
// Entries of the alive list one bounds lane folds into registers before its atomics: one atomic
// per subgroup, component and row in a run, not one per 32 particles (docs/design/runtime_frame.md,
// "Bounds").
MOTE_CONSTANT(uint, kFrameBoundsEntriesPerLane, 32u);
// The fewest bounds workgroups a list with as many tiles gets (fewer entries a lane instead).
MOTE_CONSTANT(uint, kFrameBoundsMinGroups, 2048u);

// GPU pre-warm (docs/design/runtime_frame.md, "Pre-warm"): one entry per emitter the warm-up
// runs forward, host-written. The warm-up's tick (tick.comp built with FRAME_WARMUP) runs entry i
// from tick first_tick on, so emitters of different pre-warms each end having run their own.
struct FrameWarmupEntry {
  uint row;
  uint generation;  // the emitter's: a row that changed hands since it was queued is skipped
  uint first_tick;
  uint pad0;
};
MOTE_ASSERT_SIZE(FrameWarmupEntry, 16);
MOTE_ASSERT_OFFSET(FrameWarmupEntry, row, 0);
MOTE_ASSERT_OFFSET(FrameWarmupEntry, generation, 4);
MOTE_ASSERT_OFFSET(FrameWarmupEntry, first_tick, 8);
MOTE_ASSERT_OFFSET(FrameWarmupEntry, pad0, 12);

// Push constants of the warm-up's tick and migrate.
struct FrameWarmupPush {
  uint tick;           // this warm-up tick's index (0 .. ticks - 1)
  uint entry_count;    // FrameWarmupEntry rows
  uint warm_capacity;  // migrate: the warm-up pool's records
  uint pad1;
};
MOTE_ASSERT_SIZE(FrameWarmupPush, 16);
MOTE_ASSERT_OFFSET(FrameWarmupPush, tick, 0);
MOTE_ASSERT_OFFSET(FrameWarmupPush, entry_count, 4);
MOTE_ASSERT_OFFSET(FrameWarmupPush, warm_capacity, 8);
MOTE_ASSERT_OFFSET(FrameWarmupPush, pad1, 12);
// The warm-up's per-particle advance (include/mote/simulation.hpp's kWarmupDtJitter and
// kWarmupDtBuckets, src/sim/warmup.cpp): a particle's tick is jittered by +-kFrameWarmupDtJitter
// of the tick, at one of kFrameWarmupDtBuckets levels hashed from (slot, tick).
MOTE_CONSTANT(float, kFrameWarmupDtJitter, 0.5f);
MOTE_CONSTANT(uint, kFrameWarmupDtBuckets, 8u);
MOTE_CONSTANT(uint, kFrameWarmupJitterSalt, 0x4A495454u);       // "JITT"
MOTE_CONSTANT(uint, kFrameWarmupAccumulatorSalt, 0x41434355u);  // "ACCU"

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

// Descriptor binding slots of the frame's buffers: one slot per buffer across every frame shader
// (shaders/runtime/frame/*) and the passes that bind them (src/runtime/frame/*_pass.cpp), so a
// buffer is bound and declared by the same name. Push descriptors take sparse slots.
MOTE_CONSTANT(uint, kFrameBindingParams, 0u);               // FrameParams (uniform)
MOTE_CONSTANT(uint, kFrameBindingCounters, 1u);             // FrameCounters
MOTE_CONSTANT(uint, kFrameBindingEmitters, 2u);             // EmitterRecord per row
MOTE_CONSTANT(uint, kFrameBindingStates, 3u);               // FrameEmitterState per row
MOTE_CONSTANT(uint, kFrameBindingAliveIn, 4u);              // last frame's alive list (simulate walks it)
MOTE_CONSTANT(uint, kFrameBindingFreeList, 5u);             // the free-slot stack
MOTE_CONSTANT(uint, kFrameBindingAliveOut, 6u);             // this frame's alive list
MOTE_CONSTANT(uint, kFrameBindingPool, 7u);                 // the records (as u32 words and as uvec4 chunks)
MOTE_CONSTANT(uint, kFrameBindingProgram, 8u);              // opcode shapes, then the program heap's image
MOTE_CONSTANT(uint, kFrameBindingTransformChannels, 9u);    // TransformChannels per transform row
MOTE_CONSTANT(uint, kFrameBindingWideRegisters, 10u);       // the wide interpreter's register file
MOTE_CONSTANT(uint, kFrameBindingKeep, 11u);                // survivor counts and masks per tile
MOTE_CONSTANT(uint, kFrameBindingSpawnCounts, 12u);         // the tick's spawns per row
MOTE_CONSTANT(uint, kFrameBindingSpawnSums, 13u);           // their inclusive scan
MOTE_CONSTANT(uint, kFrameBindingBursts, 14u);              // FrameBurst, kFrameMaxBursts per row
MOTE_CONSTANT(uint, kFrameBindingCommands, 15u);            // the host's [row, count] spawn commands
MOTE_CONSTANT(uint, kFrameBindingFieldBindings, 16u);       // FrameFieldBinding rows
MOTE_CONSTANT(uint, kFrameBindingBuckets, 17u);             // FrameBucket per program id
MOTE_CONSTANT(uint, kFrameBindingBucketSizes, 18u);         // u32 per program id: the bucket count's atomics
MOTE_CONSTANT(uint, kFrameBindingBucketOffsets, 19u);       // u32 per program id: padded sizes, scanned in place
MOTE_CONSTANT(uint, kFrameBindingEntryPrograms, 20u);       // u32 per entry of last frame's list: its program
MOTE_CONSTANT(uint, kFrameBindingCoherence, 21u);           // the coherence list (simulation order)
MOTE_CONSTANT(uint, kFrameBindingBoundsAccumulators, 22u);  // kFrameBoundsAccumulatorWords per row
MOTE_CONSTANT(uint, kFrameBindingEmitterBounds, 23u);       // FrameEmitterBounds per row
MOTE_CONSTANT(uint, kFrameBindingWarmupQueue, 24u);         // FrameWarmupEntry rows
MOTE_CONSTANT(uint, kFrameBindingWarmupCounters, 25u);      // migrate: the warm-up's FrameCounters
MOTE_CONSTANT(uint, kFrameBindingWarmupPool, 26u);          // migrate: the warm-up's records
MOTE_CONSTANT(uint, kFrameBindingWarmupAlive, 27u);         // migrate: the warm-up's last alive list
MOTE_CONSTANT(uint, kFrameBindingSpawnPlaces, 28u);         // per row: its place in the spawn order
MOTE_CONSTANT(uint, kFrameBindingSpawnRows, 29u);           // per place in the spawn order: its row
MOTE_CONSTANT(uint, kFrameBindingSpawnRanges, 30u);         // FrameSpawnRange per program id
// Events (shared/frame_events.h, docs/design/events.md "On the GPU").
MOTE_CONSTANT(uint, kFrameBindingEventRoutes, 31u);    // FrameEventRoutes per row (host-written)
MOTE_CONSTANT(uint, kFrameBindingEventRows, 32u);      // FrameEventRow per row (this frame's counts)
MOTE_CONSTANT(uint, kFrameBindingEventsIn, 33u);       // last frame's queue: delivered this frame
MOTE_CONSTANT(uint, kFrameBindingEventsOut, 34u);      // this frame's queue: emit and simulate append
MOTE_CONSTANT(uint, kFrameBindingEventChildren, 35u);  // per newborn: its event in EventsIn (~0u: none)
MOTE_CONSTANT(uint, kFrameBindingEventKeys, 36u);      // the delivery's sort keys, then its counts' scan
MOTE_CONSTANT(uint, kFrameBindingEventOrder, 37u);     // the sort's values: the events in delivery order
// SAMPLE_FIELD's table (shared/vm_vector_field.h; emit and simulate bind it).
MOTE_CONSTANT(uint, kFrameBindingVectorFieldHeaders, 38u);  // VmVectorFieldHeader per slot
MOTE_CONSTANT(uint, kFrameBindingVectorFieldValues, 39u);   // every field's vectors
// SAMPLE_DEPTH's depth (shared/vm_depth.h: the view, then the depths; emit and simulate bind it).
MOTE_CONSTANT(uint, kFrameBindingCollisionDepth, 40u);

MOTE_CONSTANT(uint, kFrameWorkgroupSize, 64u);
// The interpreted simulate's record window (shaders/runtime/frame/vm.glsl): the most chunks of a
// record the default pipeline's workgroup stages, 64 B, which a small record's fields (position,
// velocity, age, life, size, colour after the header) fit. Its staging is sized by it (4,352 B
// a workgroup, as the run-one-program harness's for such a record): the NVIDIA driver leaves a
// pipeline about 48 KiB of workgroup memory per SM (docs/PERFORMANCE.md), and the interpreter
// needs the warps. A program whose UPDATE window is wider runs on a second specialisation,
// whose staging holds kVmMaxWindowChunks (8,448 B).
MOTE_CONSTANT(uint, kFrameFastWindowChunks, 4u);
// Simulate's keep flags, per tile of kFrameWorkgroupSize entries of last frame's list: the keep
// buffer holds, for T = ceil(capacity / 64) tiles, the tiles' survivor counts in words [0, T)
// (scanned in place into inclusive sums for frame_compact) and two 32-bit survivor masks per
// tile in words [T, 3T). Cleared before simulate each frame.
MOTE_CONSTANT(uint, kFrameKeepWordsPerTile, 3u);
// EmitterRecord::transform_row of an emitter placed by its own constant pose.
MOTE_CONSTANT(uint, kFrameNoTransform, kEmitterNoTransform);
// The program buffer opens with the opcode shape table (64 uvec4s, the shape in .x: what
// shaders/runtime/frame/vm.glsl's vm_op_shape reads); the program heap's image follows.
MOTE_CONSTANT(uint, kFrameShapeWords, 256u);
// Indirect dispatches stay within the guaranteed maxComputeWorkGroupCount[0]; the passes walk
// the rest with a grid stride.
MOTE_CONSTANT(uint, kFrameMaxGroups, 65535u);
// The most workgroups simulate (and the passes sized by its arguments: the keep flags' clear,
// the bucket count, compact) launches over one frame's list when it folds the bounds
// (FrameParams::bounds_in_simulate); past it each lane strides. Simulate folds each survivor's bounds into a running
// box per lane and hands it on with atomics once per subgroup at the end: a grid of one workgroup per 64 entries would
// put 16M particles' half a million subgroups on one emitter's eight accumulator words (docs/PERFORMANCE.md, "Bounds
// folded into simulate"). A few times what the largest GPU holds at once, so striding costs no occupancy.
MOTE_CONSTANT(uint, kFrameSimulateMaxGroups, 8192u);
// Spawn commands per frame (vkCmdUpdateBuffer writes at most 65536 bytes; two words each).
MOTE_CONSTANT(uint, kFrameMaxCommands, 8192u);
// A spawn command whose row has this bit is a replace-oldest burst (docs/design/drivers.md,
// "Pool-full policies"): its count goes to the row's `reserved`, which the tick spawns outside
// the budget, on slots the host made room for (FrameCounters::reserved, kept out of the budget).
MOTE_CONSTANT(uint, kFrameReservedCommand, 0x80000000u);
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
