// The VM glue of the frame's emit and simulate passes: supplies what shaders/vm_gpu/interpreter.glsl
// asks of its host shader from the frame's buffers. The including shader declares
//   uniform Params { FrameParams params; }          -- this frame's parameters and section bases
//   buffer Emitters { EmitterRecord emitters[]; }   -- the emitter rows
//   buffer State { FrameEmitterState states[]; }    -- this frame's state of each row
//   buffer ProgramWords { uint program_words[]; }  -- the program buffer: the opcode shapes,
//                                                     then the program heap's image
//   buffer Pool { uint pool[]; }                    -- the particle records
//   buffer Transforms { TransformChannels transform_channels[]; }  -- the TransformTable's channels
// and sets, per particle, vm_row (its emitter's row, checked against params.row_count),
// vm_record_base, vm_particle_index and, for INIT, vm_spawn_index / vm_spawn_count;
// once, at the top of main, frame_section_begin(FramePush.section_offset, .section_words), and
// then runs vm_run(vm_section_instructions). Every dispatch runs one program (FramePush.program)
// and takes its section from the push constants, so the fetched instruction words are uniform
// and visibly so: the interpreter fetches without broadcasting (VM_FETCH_IS_UNIFORM). The includer enables GL_KHR_shader_subgroup_ballot and
// GL_EXT_control_flow_attributes first.
//
// Built twice (docs/design/runtime_frame.md, the fast and the wide interpreter): the fast register file in private memory
// (vm/fast_register_file.glsl, running the fast operand form; programs it cannot hold are
// dispatched to the other build), and with
// FRAME_REGISTERS_WIDE the wide file in a storage buffer at binding 10, slot-major
// (slot * lanes + lane) over the lanes the dispatch launched, which walk their work with a
// grid stride: the buffer is kVmMaxRegisters * lanes floats whatever the particle count.
#include "generated/vm_isa.glsl"
#include "shared/frame.h"
#include "shared/isa_encoding.h"
#include "shared/transform.h"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"
#include "shared/vm_semantics.h"
#include "shared/vm_vector_field.h"

// The particle's emitter row. Its record and state are read where a builtin, a constant or
// the wide file needs them, not copied per particle: the interpreter's switch can reach every
// builtin, so a copy kept all 44 words live in registers across the section.
uint vm_row;
uint vm_record_base;
uint vm_particle_index;  // PARTICLE_INDEX: birth serial in INIT, slot in UPDATE
uint vm_spawn_index;
uint vm_spawn_count;
uint vm_code_offset;  // the dispatch section's first word in the program buffer (uniform)
float vm_dt;

uint vm_program_word(uint index) { return program_words[min(index, uint(program_words.length()) - 1u)]; }

uint vm_section_instructions;  // the dispatch section's instruction count (frame_section_begin)

#if defined(FRAME_COMPILED)
// The compiled section (src/vm_gpu/kernels/, KernelHarness::kFrameSimulate) keeps its registers in
// local variables: there is no register file. What the interpreter would declare for it:
uint vm_seed;
uint vm_record_words;
void frame_wide_begin() {}
void frame_section_begin(uint offset, uint words) {}
#elif defined(FRAME_REGISTERS_WIDE)
layout(std430, binding = kFrameBindingWideRegisters) buffer WideRegisters { float wide_registers[]; };
uint vm_wide_lane;   // gl_GlobalInvocationID.x
uint vm_wide_lanes;  // the launch: gl_NumWorkGroups.x * kFrameWorkgroupSize
uint vm_wide_slot(uint slot) {
  return min((slot & (kVmMaxRegisters - 1u)) * vm_wide_lanes + vm_wide_lane, uint(wide_registers.length()) - 1u);
}
float vm_reg_read(uint slot) { return wide_registers[vm_wide_slot(slot)]; }
void vm_reg_write(uint slot, float v) { wide_registers[vm_wide_slot(slot)] = v; }
// Registers start at zero as in the fast file and the reference (a verified program writes
// before it reads, so this only keeps a lane's run independent of the previous one).
void vm_clear_registers() {
  uint n = min(emitters[vm_row].register_count, kVmMaxRegisters);
  for (uint i = 0u; i < n; ++i) wide_registers[vm_wide_slot(i)] = 0.0f;
}
void frame_wide_begin() {
  vm_wide_lane = gl_GlobalInvocationID.x;
  vm_wide_lanes = gl_NumWorkGroups.x * kFrameWorkgroupSize;
}
// The wide build reads the instructions as written.
void frame_section_begin(uint offset, uint words) {
  vm_code_offset = offset;
  vm_section_instructions = words / 4u;
}
#else
// The fast register file (private memory), running the section's fast operand image
// (shared/vm_fast_operands.h: its immediates, then its code with every operand already a slot),
// which the program heap holds for every program this build runs (ParticleSystem's
// frame_section_code; the others run in the wide build).
#include "vm_gpu/fast_register_file.glsl"
#define FRAME_FAST_FILE 1
uint vm_immediates_at;  // the image's first immediate, a program-buffer word
uint vm_immediate_count;
uint vm_constants_at;  // the image's first constant vector, a program-buffer word
uint vm_constant_count;
uint vm_registers_to_clear;
uint vm_dt_immediate;  // 1 + the immediate that holds DT (0: none), from the image's header
// The record window the code was folded against (the image's header): the words from record
// word vm_window_first * 4 on live in the file from kVmFastFirstWindowSlot. Simulate loads it
// through the workgroup (frame_window_load_group); emit builds a newborn's in the file. Both
// store it through the workgroup (frame_window_store_group).
uint vm_window_first;
uint vm_window_chunks;  // 0: none; at most kFrameWindowCapacity
uint vm_window_dirty;   // the chunks written back
#ifdef FRAME_STAGES_WINDOW
// The chunks of a record the workgroup's staging holds: kFrameFastWindowChunks, or, in the
// pipeline the host specialises for programs with wider windows, kVmMaxWindowChunks
// (ParticleSystem picks the pipeline by the program's window). Staging sized for the widest
// window would cost every program the warps (shared/frame.h).
layout(constant_id = 10) const uint kFrameWindowCapacity = 4u;
#else
const uint kFrameWindowCapacity = 0u;  // an includer that stages no window
#endif
// The image's header, once per dispatch in uniform control flow: every value here is uniform.
// Counts are clamped to the file's regions and the code to the section, so even a corrupt
// image cannot make the loop read past it or write past the file.
void frame_section_begin(uint offset, uint words) {
  bool has_header = words >= kVmFastImageHeaderWords;
  uint counts_of_values = has_header ? vm_program_word(offset) : 0u;
  vm_immediate_count = min(counts_of_values & ((1u << kVmFastImageConstantsShift) - 1u), kVmFastMaxImmediates);
  vm_constant_count = min(counts_of_values >> kVmFastImageConstantsShift, kVmFastMaxConstantVectors);
  uint counts = has_header ? vm_program_word(offset + 1u) : 0u;
  vm_registers_to_clear = min(counts & ((1u << kVmFastImageDtShift) - 1u), kVmFastRegisterSlots);
  uint window = has_header ? vm_program_word(offset + 2u) : 0u;
  vm_window_first = window & ((1u << kVmFastImageWindowChunksShift) - 1u);
  vm_window_chunks = min(window >> kVmFastImageWindowChunksShift, kFrameWindowCapacity);
  vm_window_dirty = has_header ? vm_program_word(offset + 3u) : 0u;
  vm_immediates_at = offset + kVmFastImageHeaderWords;
  uint head = has_header ? kVmFastImageHeaderWords + (vm_immediate_count + 3u) / 4u * 4u : words;
  vm_constants_at = offset + head;
  head += vm_constant_count * 4u;
  // A corrupt image whose counts overrun it reads no value and runs no code.
  if (head > words) {
    vm_immediate_count = 0u;
    vm_constant_count = 0u;
    head = words;
  }
  vm_dt_immediate = min(counts >> kVmFastImageDtShift, vm_immediate_count);  // inside the image's immediates
  vm_code_offset = offset + head;
  vm_section_instructions = words > head ? (words - head) / 4u : 0u;
}
// Before each particle's section: the registers it reads before writing them at zero, as in
// the reference (none for a verified program), the zero slot, and the immediates.
void vm_clear_registers() {
  for (uint i = 0u; i < vm_registers_to_clear; ++i) vm_fast_registers[i] = 0.0f;
  vm_fast_registers[kVmFastZeroSlot] = 0.0f;
  for (uint i = 0u; i < vm_immediate_count; ++i)
    vm_fast_registers[kVmFastFirstImmediateSlot + i] = uintBitsToFloat(vm_program_word(vm_immediates_at + i));
  if (vm_dt_immediate != 0u) vm_fast_registers[kVmFastFirstImmediateSlot + vm_dt_immediate - 1u] = vm_dt;
}
// A source of class kVmOperandConstant: the image's constant vector `index` (clamped to the
// image's; zero when it has none), read at a wave-uniform address.
vec4 vm_fast_constant(uint index) {
  if (vm_constant_count == 0u) return vec4(0.0f);
  uint at = vm_constants_at + min(index, vm_constant_count - 1u) * 4u;
  return uintBitsToFloat(uvec4(vm_program_word(at), vm_program_word(at + 1u), vm_program_word(at + 2u), vm_program_word(at + 3u)));
}
void frame_wide_begin() {}
#endif

// The emitter's pose builtin (EMITTER_POSITION / DIRECTION / UP, xyz, or ROTATION). An emitter
// at a transforms row stands where that row's composed world pose puts it this frame (the
// channels are written by the TransformTable's compose pass earlier in the submission), not at
// the record's constant pose. The host refuses rows past the table, so the clamp only guards
// memory.
vec4 frame_emitter_pose(uint builtin) {
  uint row = emitters[vm_row].transform_row;
  if (row == kFrameNoTransform) {
    if (builtin == VM_BUILTIN_EMITTER_POSITION) return vec4(emitters[vm_row].position.xyz, 0.0f);
    if (builtin == VM_BUILTIN_EMITTER_DIRECTION) return vec4(emitters[vm_row].direction.xyz, 0.0f);
    if (builtin == VM_BUILTIN_EMITTER_UP) return vec4(emitters[vm_row].up.xyz, 0.0f);
    return emitters[vm_row].rotation;
  }
  uint at = min(row, uint(transform_channels.length()) - 1u);
  if (builtin == VM_BUILTIN_EMITTER_POSITION) return vec4(transform_channels[at].position.xyz, 0.0f);
  if (builtin == VM_BUILTIN_EMITTER_DIRECTION) return vec4(transform_channels[at].direction.xyz, 0.0f);
  if (builtin == VM_BUILTIN_EMITTER_UP) return vec4(transform_channels[at].up.xyz, 0.0f);
  return transform_channels[at].orientation;
}

uvec4 vm_instruction(uint pc) {
  uint base = vm_code_offset + min(pc, kVmMaxSectionInstructions - 1u) * 4u;
  return uvec4(vm_program_word(base), vm_program_word(base + 1u), vm_program_word(base + 2u),
               vm_program_word(base + 3u));
}
// The opcode shape table opens the program buffer: one uvec4 per opcode, the shape in .x.
uint vm_op_shape(uint op) { return vm_program_word((op & 63u) * 4u); }
#ifdef FRAME_COMPILED
// The record window in registers, over the pool (the includer declares PoolChunks, the pool as
// uvec4, at the pool's binding).
#define VM_WINDOW_WORDS pool
#define VM_WINDOW_CHUNKS pool_chunks
#define VM_WINDOW_RECORD_COUNT params.capacity
#include "vm_gpu/record_window_registers.glsl"
void vm_count_ops(uint op, uint times) {}
#elif defined(FRAME_FAST_FILE)
// A word of the window is its file slot (where the folded code reads and writes it too);
// any other goes to the record.
float vm_record_read(uint word) {
  uint rel = word - vm_window_first * 4u;
  if (rel < vm_window_chunks * 4u) return vm_fast_registers[kVmFastFirstWindowSlot + rel];
  return uintBitsToFloat(pool[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  uint rel = word - vm_window_first * 4u;
  if (rel < vm_window_chunks * 4u) vm_fast_registers[kVmFastFirstWindowSlot + rel] = v;
  else pool[vm_record_base + word] = floatBitsToUint(v);
}
#ifdef FRAME_STAGES_WINDOW
// The window moves through the workgroup, as the compiled build's (vm/record_window_registers.glsl)
// and the harness's do: the workgroup's windows as one run of 16-byte chunks, consecutive
// invocations on consecutive chunks (each record's chunks from its own slot, which the list
// gives), staged in rows an odd number of words apart so that the invocations' reads of one
// word fall in different banks, then copied into each invocation's file; after the section the
// written chunks go back the same way. The includer declares PoolChunks (the pool as uvec4).
const uint kFrameWindowRow = kFrameWindowCapacity * 4u + 1u;
shared uint frame_window_staged[kFrameWorkgroupSize * kFrameWindowRow];
// Record p's first chunk in the pool (~0u: no record to move) lives in its row's last word, the
// padding that the window never fills: a separate array would take the workgroup over the
// 4,352 bytes the harness's interpreter stages in, and the driver leaves a pipeline about
// 48 KiB of workgroup memory per SM (docs/PERFORMANCE.md), so one workgroup fewer per SM.
uint frame_window_pad(uint p) { return p * kFrameWindowRow + kFrameWindowRow - 1u; }
// The k-th chunk this invocation moves: chunk c of the run's record p, staged from word
// `staged`; its index in the pool (clamped to it), or ~0u when record p does not move.
uint frame_window_run_chunk(uint k, out uint staged, out uint c) {
  uint j = k * kFrameWorkgroupSize + gl_LocalInvocationIndex;
  uint p = j / vm_window_chunks;
  c = j - p * vm_window_chunks;
  staged = p * kFrameWindowRow + c * 4u;
  uint first = p < kFrameWorkgroupSize ? frame_window_staged[frame_window_pad(p)] : ~0u;
  return first == ~0u ? ~0u : min(first + c, params.capacity * (params.record_words / 4u) - 1u);
}
// Every invocation of the workgroup calls these, in uniform control flow (barriers): `present`
// says whether this invocation's record (at vm_record_base) runs the section. Each invocation
// issues all its loads before it stages any.
void frame_window_load_group(bool present) {
  if (vm_window_chunks == 0u) return;  // uniform: the dispatch's image
  uint me = gl_LocalInvocationIndex;
  frame_window_staged[frame_window_pad(me)] = present ? vm_record_base / 4u + vm_window_first : ~0u;
  barrier();
  uvec4 loaded[kFrameWindowCapacity];
  uint at[kFrameWindowCapacity];
  [[unroll]] for (uint k = 0u; k < kFrameWindowCapacity; ++k) {
    if (k >= vm_window_chunks) break;
    uint c;
    uint chunk = frame_window_run_chunk(k, at[k], c);
    loaded[k] = chunk != ~0u ? pool_chunks[chunk] : uvec4(0u);
  }
  [[unroll]] for (uint k = 0u; k < kFrameWindowCapacity; ++k) {
    if (k >= vm_window_chunks) break;
    frame_window_staged[at[k]] = loaded[k].x;
    frame_window_staged[at[k] + 1u] = loaded[k].y;
    frame_window_staged[at[k] + 2u] = loaded[k].z;
    frame_window_staged[at[k] + 3u] = loaded[k].w;
  }
  barrier();
  if (present) {
    uint row = me * kFrameWindowRow;
    [[unroll]] for (uint w = 0u; w < kFrameWindowCapacity * 4u; ++w)
      if (w < vm_window_chunks * 4u) vm_fast_registers[kVmFastFirstWindowSlot + w] = uintBitsToFloat(frame_window_staged[row + w]);
  }
}
// Writes the window chunks in `chunks` (a mask: the section's written ones, vm_window_dirty, or
// every one for a newborn's new record) of every invocation with `store` set to its record.
// Ends with a barrier, so the staging can be reused by the next load.
void frame_window_store_group(bool store, uint chunks) {
  if (vm_window_chunks == 0u) return;
  uint me = gl_LocalInvocationIndex;
  frame_window_staged[frame_window_pad(me)] = store ? vm_record_base / 4u + vm_window_first : ~0u;
  if (store) {
    uint row = me * kFrameWindowRow;
    [[unroll]] for (uint w = 0u; w < kFrameWindowCapacity * 4u; ++w)
      if (w < vm_window_chunks * 4u && (chunks & (1u << (w >> 2u))) != 0u)
        frame_window_staged[row + w] = floatBitsToUint(vm_fast_registers[kVmFastFirstWindowSlot + w]);
  }
  barrier();
  [[unroll]] for (uint k = 0u; k < kFrameWindowCapacity; ++k) {
    if (k >= vm_window_chunks) break;
    uint staged, c;
    uint chunk = frame_window_run_chunk(k, staged, c);
    if (chunk != ~0u && (chunks & (1u << c)) != 0u)
      pool_chunks[chunk] = uvec4(frame_window_staged[staged], frame_window_staged[staged + 1u],
                                 frame_window_staged[staged + 2u], frame_window_staged[staged + 3u]);
  }
  barrier();
}
#endif
#else
float vm_record_read(uint word) { return uintBitsToFloat(pool[vm_record_base + word]); }
void vm_record_write(uint word, float v) { pool[vm_record_base + word] = floatBitsToUint(v); }
#endif
float vm_load_constant(uint index) {
  uint length = emitters[vm_row].constants_length;
  if (length == 0u) return 0.0f;
  return uintBitsToFloat(vm_program_word(params.constants_base + emitters[vm_row].constants_offset + min(index, length - 1u)));
}
// The system's wind this frame (ParticleSystem::set_wind; still air by default).
VmWindField vm_wind() { return VmWindField(params.wind_base, params.wind_turbulence); }
// The system's vector fields (ParticleSystem::set_vector_field, src/runtime/frame/frame_vector_fields.hpp:
// a header per slot, then every field's vectors; a stand-in of empty slots when none is set),
// sampled by SAMPLE_FIELD through vm_gpu/vector_field_fetch.glsl.
layout(std430, binding = kFrameBindingVectorFieldHeaders) readonly buffer VectorFieldHeaders {
  VmVectorFieldHeader vector_field_headers[];
};
layout(std430, binding = kFrameBindingVectorFieldValues) readonly buffer VectorFieldValues { float vector_field_values[]; };
#include "vm_gpu/vector_field_fetch.glsl"
// The collision depth (ParticleSystem::set_collision_depth, src/runtime/frame/frame_depth.hpp: the
// view, then the depths; a stand-in with no depth when none is set), sampled by SAMPLE_DEPTH
// through vm_gpu/depth_fetch.glsl.
#include "shared/vm_depth.h"
layout(std430, binding = kFrameBindingCollisionDepth) readonly buffer CollisionDepth {
  VmDepthView depth_view;
  float depth_values[];
};
#include "vm_gpu/depth_fetch.glsl"
void vm_count_op(uint op) {}
void vm_trace(uint pc, vec4 r) {}

#include "vm_gpu/field_builtins.glsl"

vec4 vm_load_builtin(uint id, uint lanes) {
  uint space = id >> kVmBuiltinSpaceShift;
  uint index = id & kVmBuiltinIndexMask;
  vec4 v = vec4(0.0f);
  if (space == kVmSpaceEmitterField || space == kVmSpaceGlobalField) {
    bool emitter = space == kVmSpaceEmitterField;
    uint offset = params.field_base + (emitter ? emitters[vm_row].field_offset : emitters[vm_row].global_offset);
    uint words = emitter ? emitters[vm_row].field_words : emitters[vm_row].global_words;
    return vm_field_lanes(offset, words, index, lanes);
  }
  if (space != kVmSpaceEngine) return v;
  if (index == VM_BUILTIN_DT) v.x = vm_dt;
  else if (index == VM_BUILTIN_TIME) v.x = params.time;
  else if (index == VM_BUILTIN_EMITTER_AGE) v.x = states[vm_row].age;
  else if (index == VM_BUILTIN_EMITTER_POSITION || index == VM_BUILTIN_EMITTER_DIRECTION ||
           index == VM_BUILTIN_EMITTER_UP || index == VM_BUILTIN_EMITTER_ROTATION)
    v = frame_emitter_pose(index);
  else if (index == VM_BUILTIN_PARTICLE_INDEX) v.x = float(vm_particle_index);
  else if (index == VM_BUILTIN_SPAWN_INDEX) v.x = float(vm_spawn_index);
  else if (index == VM_BUILTIN_SPAWN_FRACTION) v.x = (float(vm_spawn_index) + 0.5f) / float(max(vm_spawn_count, 1u));
  else if (index == VM_BUILTIN_SPAWN_COUNT) v.x = float(vm_spawn_count);
  else if (index == VM_BUILTIN_EMITTER_SEED) v.x = float(emitters[vm_row].seed & 0xFFFFFFu);
#ifdef FRAME_EVENT_PAYLOADS
  // An event's child reads its event's payload (emit.comp); everything else reads 0.
  else if (index == VM_BUILTIN_EVENT_POSITION || index == VM_BUILTIN_EVENT_VELOCITY || index == VM_BUILTIN_EVENT_COLOR ||
           index == VM_BUILTIN_EVENT_ID)
    v = frame_event_payload(index);
#endif
  return vec4(v.x, lanes > 1u ? v.y : 0.0f, lanes > 2u ? v.z : 0.0f, lanes > 3u ? v.w : 0.0f);
}

// The compiled build's section comes in the includer (frame_simulate.comp), where the run-time
// compiler puts it.
#ifndef FRAME_COMPILED
// The code is read at the push constants' offset and the loop counter: the compiler sees the
// words are uniform, and a broadcast from the first lane would only add shuffles (6% of the
// run-one-program harness's time on the H200, docs/PERFORMANCE.md).
#define VM_FETCH_IS_UNIFORM
#include "vm_gpu/interpreter.glsl"
#endif

// simulation_rng_base (include/mote/simulation.hpp): vm_hash3(seed, tick, salt + kind).
uint frame_rng_base(uint seed, uint tick, uint kind) { return vm_hash3(seed, tick, kFrameRngSalt + kind); }
