#version 460
// Simulate: one invocation per entry of LAST frame's alive list (indirect dispatch written by
// last frame's finish pass, bound-checked against the alive_in snapshot), so newborns are not
// advanced in their birth frame. A particle whose header generation is not its row's current
// one is an orphan (removed or replaced emitter) and is freed without running. Otherwise UPDATE
// runs with PARTICLE_INDEX = slot and the frame-UPDATE random stream; a KILL zeroes the record.
// Survivors are counted and flagged per tile of 64 entries; frame_compact.comp places them in
// this frame's alive list and pushes every other entry's slot on the free list, both in the
// order of last frame's list.
// One dispatch per live program (the wide build for programs over the fast register file). With
// one live program (push.bucketed 0) it walks last frame's list whole, and the first dispatch
// frees the orphans. With two or more, the list was counting-sorted by program into the
// coherence list (frame_bucket_*.comp, which freed the orphans) and each program's dispatch walks
// its own bucket only (push.bucketed 1: its indirect arguments and range in FrameBucket), so a
// frame of P programs costs one walk of the list, not P (docs/design/runtime_frame.md, "Two
// orderings").
//
// Built with FRAME_WARMUP (the pre-warm's advance, docs/design/runtime_frame.md "Pre-warm"), each
// particle's DT is the warm-up tick jittered by src/sim/warmup.cpp's rule, hashed from (slot,
// tick), so a pre-warmed population does not arrive in bands; the main builds do not change.
//
// Built three ways: the fast interpreter (shaders/CMakeLists.txt; its record window staged
// through the workgroup into the register file, the code folded against it), the wide
// interpreter (FRAME_REGISTERS_WIDE), and, at run time, with FRAME_COMPILED and one program's UPDATE
// section translated in (src/vm_gpu/kernels/, KernelHarness::kFrameSimulate): the straight-line kernel,
// its record window staged in registers (frame_vm.glsl). The run-time compiler embeds this
// file and replaces the compiled_section include below.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/frame.h"
#include "shared/frame_events.h"
#include "shared/transform.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingStates) readonly buffer State { FrameEmitterState states[]; };
layout(std430, binding = kFrameBindingAliveIn) readonly buffer AliveIn { uint alive_in[]; };
// Survivors are not appended and freed slots not pushed here: each tile of 64 entries of last
// frame's list gets its survivor count and a bit per survivor (kFrameKeepWordsPerTile: counts in
// [0, T), masks in [T, 3T); cleared before simulate; each program's dispatch adds its own
// survivors with a few atomics per subgroup), and frame_compact.comp places the survivors after
// this frame's newborns and pushes the others' slots, both in the order of last frame's list (a
// scan of the tile counts and the bits within a tile): the list keeps the order the records were
// born in, the free list the order they died in, the next newborns take their slots in that
// order, and simulate walks memory in runs.
layout(std430, binding = kFrameBindingKeep) buffer Keep { uint keep_words[]; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
// The same records as 16-byte chunks: freed records are zeroed a chunk at a time, and the
// compiled build's record window moves through them.
layout(std430, binding = kFrameBindingPool) buffer PoolChunks { uvec4 pool_chunks[]; };
layout(std430, binding = kFrameBindingProgram) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = kFrameBindingTransformChannels) readonly buffer Transforms { TransformChannels transform_channels[]; };
layout(std430, binding = kFrameBindingBuckets) readonly buffer Buckets { FrameBucket buckets[]; };
layout(std430, binding = kFrameBindingCoherence) readonly buffer Coherence { uint coherence[]; };
#ifndef FRAME_WARMUP
// The bounds of every survivor, folded here where its record is at hand (the pre-warm's
// population has no bounds; its survivors are folded by the frame that takes them in).
layout(std430, binding = kFrameBindingBoundsAccumulators) buffer Accumulators { uint accumulators[]; };
#define BOUNDS_READ_BEFORE_MAX 1
#include "runtime/frame/bounds_fold.glsl"
#endif

// The fast build stages each record's UPDATE window in its register file (frame_vm.glsl).
#define FRAME_STAGES_WINDOW 1
#include "runtime/frame/vm.glsl"
#ifdef FRAME_COMPILED
// bool vm_compiled_run(): the UPDATE section, translated.
#include "vm_gpu/compiled_section.glsl"
#endif

layout(push_constant) uniform Push { FramePush push; };
// The events UPDATE sends (frame_send_events): a KILLed particle's included, its payload read
// before its record is zeroed (an on-death event carries the death state).
#include "runtime/frame/events.glsl"

// Zeroes the record of a slot this step frees (an orphan or a KILL). Its keep flag stays 0, and
// frame_compact.comp pushes it on the free list in the order of last frame's list. Called by
// every invocation of the subgroup that frees at this point; returns how many did (for the
// counters).
uint free_slot(uint slot) {
  uint base = slot * params.record_words;
  if (params.record_words % 4u == 0u) {
    for (uint c = 0u; c < params.record_words / 4u; ++c) pool_chunks[base / 4u + c] = uvec4(0u);
  } else {
    for (uint w = 0u; w < params.record_words; ++w) pool[base + w] = 0u;
  }
  return subgroupBallotBitCount(subgroupBallot(true));
}

// Adds the survivor of list entry t (if it lives on) to its tile's count and mask. Call in
// uniform control flow; t is ~0u for a lane that stands for no entry. When the subgroup's entries
// share a tile — always in a walk of the list, and in a bucket wherever a run of the list fell
// into one subgroup — it costs one atomic per word per subgroup (the masks reduced with
// subgroupOr, each lane setting its own entry's bit); otherwise each survivor adds its own.
void record_survivors(uint t, bool lives) {
  uint tiles = (params.capacity + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  bool has = t != ~0u;
  uint tile = has ? min(t / kFrameWorkgroupSize, tiles - 1u) : ~0u;
  uint lowest = subgroupMin(tile);
  if (lowest == ~0u) return;  // no entry in the subgroup
  uint highest = subgroupMax(has ? tile : 0u);
  uint lane = has ? t % kFrameWorkgroupSize : 0u;
  uint bit = lives ? 1u << (lane & 31u) : 0u;
  if (lowest == highest) {
    uint low = subgroupOr(lane < 32u ? bit : 0u);
    uint high = subgroupOr(lane >= 32u ? bit : 0u);
    uint count = subgroupAdd(lives ? 1u : 0u);
    if (subgroupElect()) {
      if (count != 0u) atomicAdd(keep_words[lowest], count);
      if (low != 0u) atomicOr(keep_words[tiles + 2u * lowest], low);
      if (high != 0u) atomicOr(keep_words[tiles + 2u * lowest + 1u], high);
    }
  } else if (lives) {
    atomicAdd(keep_words[tile], 1u);
    atomicOr(keep_words[tiles + 2u * tile + (lane < 32u ? 0u : 1u)], bit);
  }
}

uint vm_entry;  // the particle's entry of last frame's list: its events' place in the delivery's order

// Everything before UPDATE for a listed slot of last frame's list, given its header:
// the orphan check (an orphan is freed here; so is a particle of an inactive emitter), the program
// check and the VM's per-particle state (so is one a manual upload replaces). True when UPDATE is
// to run for it in this dispatch; `frozen` when its program's dispatch keeps it unchanged instead
// (a paused or manual emitter's particle).
bool prepare_entry(uint slot, uint header, out bool frozen) {
  frozen = false;
  uint row = header & kFrameHeaderRowMask;
  uint generation = header >> kFrameHeaderRowBits;
  bool orphan = row >= params.row_count;
  // What the checks and the seed read of the row, loaded together: one trip to memory (with
  // many emitters, each lane its own row), not one per check.
  uint at = orphan ? 0u : row;
  uint live = emitters[at].generation, program = emitters[at].program_id, seed = emitters[at].seed,
       tick = states[at].tick, flags = emitters[at].flags;
#ifdef FRAME_WARMUP
  flags = 0u;  // the pre-warm advances its own population whatever the controls say
#endif
  orphan = orphan || live == 0u || (live & kFrameHeaderGenerationMask) != generation ||
           (flags & (kEmitterFlagInactive | kEmitterFlagReplace)) != 0u;
  if (orphan) {
    if (push.first_dispatch != 0u) {
      uint freed = free_slot(slot);
      if (subgroupElect()) atomicAdd(counters.orphaned, freed);
    }
    return false;
  }
  if (program != push.program) return false;
  if ((flags & (kEmitterFlagPaused | kEmitterFlagManual)) != 0u) {
    frozen = true;
    return false;
  }
  vm_row = row;
  vm_record_base = slot * params.record_words;
  vm_particle_index = slot;
  vm_spawn_index = 0u;
  vm_spawn_count = 0u;
  vm_seed = vm_particle_seed(frame_rng_base(seed, tick, kFrameRngUpdate), slot);
  return true;
}

// UPDATE for a prepared entry; a KILL frees the slot. True when it lives on.
bool update_entry() {
#ifdef FRAME_COMPILED
  bool dead = vm_compiled_run();
#else
  vm_clear_registers();
  bool dead = vm_run(vm_section_instructions);
#endif
  frame_send_events(vm_row, 1u, vm_entry);
  if (dead) {
    uint freed = free_slot(vm_particle_index);
    if (subgroupElect()) atomicAdd(counters.killed, freed);
  }
  return !dead;
}

#ifndef FRAME_WARMUP
// A word of a survivor's record as the frame leaves it: an updated one's as UPDATE wrote it (the
// compiled build's window staged in the workgroup, the interpreters' window in the file or the
// record), a frozen one's in the pool.
float survivor_word(bool updated, uint slot, uint word) {
#ifdef FRAME_COMPILED
  if (updated) return vm_window_staged_read(word);
#else
  if (updated) return vm_record_read(word);
#endif
  return uintBitsToFloat(pool[slot * params.record_words + word]);
}

// Folds the survivor at `slot` of `row` (kBoundsNoRow: this lane has none) into the bounds.
// Called in uniform control flow, after UPDATE and before the window is stored.
void fold_bounds(uint row, bool updated, uint slot) {
  bool bounded = false;
  vec3 lo = vec3(0.0f), hi = vec3(0.0f);
  if (row != kBoundsNoRow) {
    BoundsFields f = bounds_fields(row, params.record_words);
    uint pw = f.position_word;
    vec3 p = pw != 0u ? vec3(survivor_word(updated, slot, pw), survivor_word(updated, slot, pw + 1u),
                             survivor_word(updated, slot, pw + 2u))
                      : vec3(0.0f);
    float size = f.size_word != 0u ? survivor_word(updated, slot, f.size_word) : 1.0f;
    uint vw = f.velocity_word;
    vec3 v = f.stretched ? vec3(survivor_word(updated, slot, vw), survivor_word(updated, slot, vw + 1u),
                                survivor_word(updated, slot, vw + 2u))
                         : vec3(0.0f);
    bounded = bounds_box(f, p, size, v, lo, hi);
  }
  bounds_add(row, bounded, lo, hi);
}
#endif

void main() {
  uint n = min(counters.alive_in, params.capacity);
  bool bucketed = push.bucketed != 0u;
  // What the dispatch walks: the program's bucket of the coherence list, or the list whole.
  uint bucket_first = bucketed ? buckets[push.program].first : 0u;
  uint walked = bucketed ? buckets[push.program].entries : n;
  vm_record_words = max(params.record_words, 1u);
  vm_dt = params.dt;
  frame_section_begin(push.section_offset, push.section_words);  // the program's UPDATE
  frame_wide_begin();
  // The workgroup walks 64 entries at a time, all its invocations together (the bounds and the
  // stride are the same for all of them), so the compiled build's record window moves through
  // the group load and store (vm/record_window_registers.glsl) in uniform control flow.
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint first = gl_WorkGroupID.x * kFrameWorkgroupSize; first < walked; first += stride) {
    uint i = first + gl_LocalInvocationIndex;
    // t: the entry of last frame's list (a bucket's padding stands for none).
    uint t = !bucketed ? i : i < walked ? coherence[bucket_first + i] : kFrameBucketPadEntry;
    uint slot = t < n ? alive_in[t] : ~0u;
    bool listed = slot < params.capacity;
#ifdef FRAME_COMPILED
    // When every listed particle runs this program (a bucket, or the only program: orphans
    // count as not run) and the window starts at the header, the window is loaded first and the
    // header read from it: one trip to memory per particle. Otherwise the header decides whose
    // window is loaded.
    const bool header_in_window = kWindowChunks > 0u && kWindowFirstChunk == 0u && push.only_dispatch != 0u;
    if (header_in_window) {
      vm_record_base = listed ? slot * params.record_words : 0u;
      vm_window_load_group(listed);
    }
    uint header = !listed ? 0u : header_in_window ? vm_window[0].x : pool[slot * params.record_words];
#else
    uint header = listed ? pool[slot * params.record_words] : 0u;
#endif
    bool frozen = false;
    bool run = listed && prepare_entry(slot, header, frozen);
    vm_entry = t;
#ifdef FRAME_WARMUP
    // warmup_particle_dt(tick, warmup_dt_bucket(slot, tick)): bucket centres over [1 - J, 1 + J].
    uint level = vm_hash3(slot, push.warmup_tick, kFrameWarmupJitterSalt) % kFrameWarmupDtBuckets;
    float u = (float(level) + 0.5f) / float(kFrameWarmupDtBuckets);
    precise float spread = kFrameWarmupDtJitter * (2.0f * u - 1.0f);
    precise float scale = 1.0f + spread;
    precise float jittered = params.dt * scale;
    vm_dt = jittered;
#endif
#ifdef FRAME_COMPILED
    if (kWindowChunks > 0u && !header_in_window) vm_window_load_group(run);
#elif defined(FRAME_FAST_FILE)
    frame_window_load_group(run);  // into the file; nothing when the program's image has no window
#endif
    bool updated = run && update_entry();
#ifdef FRAME_COMPILED
    // The window into the workgroup's staging first, where the bounds read it by word.
    if (kWindowChunks > 0u) vm_window_stage_group(updated);
#endif
    bool lives = updated || frozen;  // a frozen particle stays listed, its record untouched
#ifndef FRAME_WARMUP
    if (params.bounds_in_simulate != 0u) fold_bounds(lives ? header & kFrameHeaderRowMask : kBoundsNoRow, updated, slot);
#endif
#ifdef FRAME_COMPILED
    if (kWindowChunks > 0u) vm_window_store_staged(kWindowDirtyMask);
#elif defined(FRAME_FAST_FILE)
    frame_window_store_group(updated, vm_window_dirty);  // a killed particle's record is already zeroed
#endif
    record_survivors(bucketed ? (t < n ? t : ~0u) : t, lives);
  }
#ifndef FRAME_WARMUP
  if (params.bounds_in_simulate != 0u) bounds_finish();
#endif
}
