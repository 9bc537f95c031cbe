#version 460
// Runs one section of one program over `count` particle records: the GPU executor behind the
// parity suite, `mote run-program --executor gpu-fast|gpu-wide` and bench/vm_gpu. Built twice:
//   VM_REGISTERS_FAST  register file in private memory (kVmFastRegisterSlots, plus the zero slot,
//                      the section's immediates and the particle's record window), one particle
//                      per invocation of a grid-stride launch, running code the host rewrote
//                      into the fast operand form (shared/vm_fast_operands.h,
//                      src/vm_gpu/fast_operands.hpp), with its moves folded away when the run is
//                      not instrumented (src/vm_gpu/fast_fold.hpp);
//   VM_REGISTERS_WIDE  register file in a storage buffer, slot-major (slot * lanes + lane),
//                      kVmWideLaunchLanes invocations walking the work (docs/design/vm.md,
//                      "The GPU interpreters").
// (Other designs were measured and dropped; docs/design/vm.md, "The GPU interpreters", says why
// and docs/PERFORMANCE.md has the figures: the file in workgroup shared memory, slower than the
// private one because the driver leaves a pipeline about 48 KiB of it per SM; in 64 named
// registers behind wave-uniform switches on the slot; several particles per invocation sharing
// each decode, slower at every batch size tried; the common arithmetic taken out of the switch;
// the windows moved without workgroup memory (each invocation its own, invocation pairs through
// a subgroup shuffle, or a subgroup's transposition through shuffles) or staged in smaller
// phases, which buy warps but lose more in moving the records; the next block's loads issued
// before the section; blocks of 128; the records' buffer coherent, no gain worth asking every
// driver for it; the windows of blocks ahead touched so that they start for L2, slower the
// further ahead.)
// The workgroup runs a block of 64 consecutive records at a time, the whole workgroup together.
// Specialization constant 1 is the record window's chunk count: with it, the block's windows
// (src/vm_gpu/record_window.hpp, VmRunParams.window_*) are staged in shared memory by the whole
// workgroup, consecutive lanes on consecutive 16-byte chunks, before the section, and the
// written chunks go back the same way after; 0 sends every field access straight to the
// record. Each invocation's loads of a block all go out before any of them is waited for.
// Constants 2 and 3 are the opcodes the build runs (bits 0-31 and 32-63; every one by
// default): the others' bodies drop out of the switch (GpuInterpreterSpecialization). Constant 5
// compiles in the per-opcode counts and the trace (the executor's runs; benchmarks leave them out).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_ballot : require
#include "generated/vm_isa.glsl"
#include "shared/isa_encoding.h"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"

layout(local_size_x = 64) in;  // kVmWorkgroupSize

layout(std430, binding = 0) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = 1) buffer Records { uint records[]; };
// The same records as 16-byte chunks (the window's loads and stores; record_words % 4 == 0).
layout(std430, binding = 1) buffer RecordChunks { uvec4 record_chunks[]; };
// kVmRunOutcomeWords per particle: the kill flag, then the event counts.
layout(std430, binding = 2) buffer Killed { uint killed[]; };
layout(std430, binding = 3) buffer OpCounts { uint op_counts[]; };
// A uniform buffer: read-only by definition, so the compiler may keep what it loaded in
// registers across the records' stores (a storage buffer might alias them and be reloaded
// after each), and the loads are wave-uniform, through the constant cache.
layout(std140, binding = 4) uniform Params { VmRunParams params; };
layout(std430, binding = 6) writeonly buffer Trace { uint trace[]; };
#ifdef VM_REGISTERS_WIDE
layout(std430, binding = 5) buffer WideRegisters { float wide_registers[]; };
#endif
// The section's code and the opcode shape table, also bound as uniform buffers: instruction
// fetch is wave-uniform, so the constant cache serves it without competing with the record
// and register traffic for L1 (faster than storage-buffer fetch; docs/PERFORMANCE.md, "GPU
// interpreters — bench/vm_gpu", has what was measured and what was not the bottleneck).
layout(std140, binding = 7) uniform SectionCode { uvec4 section_code[kVmMaxSectionInstructions]; };
#ifndef VM_REGISTERS_FAST  // the fast interpreter's code comes with its operand shapes resolved
layout(std140, binding = 8) uniform OpShapes { uvec4 op_shapes[64]; };
#endif

uint vm_record_base;
bool vm_present;  // this invocation's particle is in the run (the last block's tail may not be)

// The block's windows: record p of the block at row p, an odd number of words apart, so the
// invocations' reads of one word fall in different banks.
layout(constant_id = 1) const uint kWindowChunks = 0u;
const uint kWindowRow = kWindowChunks * 4u + 1u;
shared uint vm_window[kVmWorkgroupSize * kWindowRow];

#ifdef VM_REGISTERS_FAST
// The fast file (shared/vm_fast_operands.h): the program's registers, the zero slot, the
// section's immediates, which the host lists in binding 9, and the particle's record window.
// Operands name any slot; results go to the registers or, where the host folded a field store
// into the instruction that computed it, to the window.
#include "vm_gpu/fast_register_file.glsl"
layout(std140, binding = 9) uniform Immediates {
  uvec4 vm_immediate_count;  // .x
  uvec4 vm_immediates[kVmFastMaxImmediates / 4u + 1u];
  uvec4 vm_constant_vectors[kVmFastMaxConstantVectors];  // the sources of class kVmOperandConstant
};
vec4 vm_fast_constant(uint index) { return uintBitsToFloat(vm_constant_vectors[min(index, kVmFastMaxConstantVectors - 1u)]); }
// Registers start at zero, as in the reference: only the program's own slots need it. Then the
// zero slot and the immediates.
void vm_clear_registers() {
  uint n = min(params.register_count, kVmFastRegisterSlots);
  for (uint i = 0u; i < n; ++i) vm_fast_registers[i] = 0.0f;
  vm_fast_registers[kVmFastZeroSlot] = 0.0f;
  // Four at a time, as the block holds them (a last group's spare slots get the block's zero
  // padding; past slot 127 that is the window's first slot, which is filled after this).
  uint groups = (min(vm_immediate_count.x, kVmFastMaxImmediates) + 3u) / 4u;
  for (uint q = 0u; q < groups; ++q) {
    uvec4 four = vm_immediates[q];
    uint slot = kVmFastFirstImmediateSlot + q * 4u;
    vm_fast_registers[slot] = uintBitsToFloat(four.x);
    vm_fast_registers[slot + 1u] = uintBitsToFloat(four.y);
    vm_fast_registers[slot + 2u] = uintBitsToFloat(four.z);
    vm_fast_registers[slot + 3u] = uintBitsToFloat(four.w);
  }
}
#else
uint vm_lane;
float vm_reg_read(uint slot) { return wide_registers[(slot & (kVmMaxRegisters - 1u)) * kVmWideLaunchLanes + vm_lane]; }
void vm_reg_write(uint slot, float v) { wide_registers[(slot & (kVmMaxRegisters - 1u)) * kVmWideLaunchLanes + vm_lane] = v; }
// The wide file is never cleared (a verified program writes before it reads); the harness
// clears it anyway so a run's result never depends on the previous one.
void vm_clear_registers() {
  uint n = min(params.register_count, kVmMaxRegisters);
  for (uint i = 0u; i < n; ++i) wide_registers[i * kVmWideLaunchLanes + vm_lane] = 0.0f;
}
#endif

uint vm_program_word(uint index) { return program_words[min(index, uint(program_words.length()) - 1u)]; }
// A word inside the staged window is read and written there; any other goes to the record (the
// window holds every word the section can name, so that is only a guard). A particle past the
// run's end reads zeros from its staged window and writes nowhere.
uint vm_window_word(uint word) {
  uint rel = word - params.window_first_chunk * 4u;
  return (kWindowChunks > 0u && rel < kWindowChunks * 4u) ? gl_LocalInvocationIndex * kWindowRow + rel : ~0u;
}
#ifdef VM_REGISTERS_FAST
// The fast interpreter keeps the particle's window in its file (vm_window_to_file before the
// section, vm_window_from_file after), so a field access and an operand naming a window slot
// see the same word.
float vm_record_read(uint word) {
  uint rel = word - params.window_first_chunk * 4u;
  if (kWindowChunks > 0u && rel < kWindowChunks * 4u) return vm_fast_registers[kVmFastFirstWindowSlot + rel];
  return uintBitsToFloat(records[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  uint rel = word - params.window_first_chunk * 4u;
  if (kWindowChunks > 0u && rel < kWindowChunks * 4u) vm_fast_registers[kVmFastFirstWindowSlot + rel] = v;
  else if (vm_present) records[vm_record_base + word] = floatBitsToUint(v);
}
void vm_window_to_file() {
  uint row = gl_LocalInvocationIndex * kWindowRow;
  [[unroll]] for (uint w = 0u; w < kWindowChunks * 4u; ++w)
    vm_fast_registers[kVmFastFirstWindowSlot + w] = uintBitsToFloat(vm_window[row + w]);
}
// Only the chunks the section may write go back (the others were never written in the file).
void vm_window_from_file() {
  uint row = gl_LocalInvocationIndex * kWindowRow;
  [[unroll]] for (uint w = 0u; w < kWindowChunks * 4u; ++w)
    if ((params.window_dirty_mask & (1u << (w >> 2u))) != 0u)
      vm_window[row + w] = floatBitsToUint(vm_fast_registers[kVmFastFirstWindowSlot + w]);
}
#else
float vm_record_read(uint word) {
  uint at = vm_window_word(word);
  if (at != ~0u) return uintBitsToFloat(vm_window[at]);
  return uintBitsToFloat(records[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  uint at = vm_window_word(word);
  if (at != ~0u) vm_window[at] = floatBitsToUint(v);
  else if (vm_present) records[vm_record_base + word] = floatBitsToUint(v);
}
#endif
// The block's windows move as one run of chunks: the j-th chunk of the run is chunk j % chunks of
// block record j / chunks, consecutive lanes on consecutive chunks (docs/design/vm.md, "The
// window moves through the workgroup"). Returns the chunk's index in the records (clamped to the
// bound ones) and its first staged word; ~0u past the run's end.
uint vm_block_chunk(uint first, uint count, uint j, out uint staged, out uint c) {
  uint p = j / kWindowChunks;
  c = j - p * kWindowChunks;
  staged = p * kWindowRow + c * 4u;
  uint i = first + p;
  uint chunks_per_record = params.record_words / 4u;
  uint last = params.record_capacity * chunks_per_record - 1u;
  return i < count ? min(i * chunks_per_record + params.window_first_chunk + c, last) : ~0u;
}
// Both are called by every invocation, in uniform control flow: they contain barriers. Each
// invocation moves kWindowChunks chunks of the block (the loops unroll against the
// specialisation constant), and issues all of its loads before it waits for any of them: a loop
// that stored each chunk before loading the next left one DRAM round trip in flight per
// invocation, and the fast interpreter was slower that way (docs/PERFORMANCE.md, "The block's
// loads in flight together", has the figures).
void vm_window_load_block(uint first, uint count) {
  uvec4 loaded[kVmMaxWindowChunks];
  [[unroll]] for (uint q = 0u; q < kVmMaxWindowChunks; ++q) {
    if (q >= kWindowChunks) break;
    uint staged, c;
    uint chunk = vm_block_chunk(first, count, gl_LocalInvocationIndex + q * kVmWorkgroupSize, staged, c);
    loaded[q] = chunk != ~0u ? record_chunks[chunk] : uvec4(0u);
  }
  [[unroll]] for (uint q = 0u; q < kVmMaxWindowChunks; ++q) {
    if (q >= kWindowChunks) break;
    uint staged, c;
    vm_block_chunk(first, count, gl_LocalInvocationIndex + q * kVmWorkgroupSize, staged, c);
    vm_window[staged] = loaded[q].x;
    vm_window[staged + 1u] = loaded[q].y;
    vm_window[staged + 2u] = loaded[q].z;
    vm_window[staged + 3u] = loaded[q].w;
  }
  barrier();
}
void vm_window_store_block(uint first, uint count) {
  barrier();
  [[unroll]] for (uint q = 0u; q < kVmMaxWindowChunks; ++q) {
    if (q >= kWindowChunks) break;
    uint staged, c;
    uint chunk = vm_block_chunk(first, count, gl_LocalInvocationIndex + q * kVmWorkgroupSize, staged, c);
    if (chunk != ~0u && (params.window_dirty_mask & (1u << c)) != 0u)
      record_chunks[chunk] = uvec4(vm_window[staged], vm_window[staged + 1u], vm_window[staged + 2u], vm_window[staged + 3u]);
  }
  barrier();
}
float vm_load_constant(uint index) {
  if (params.constants_words == 0u) return 0.0f;
  return uintBitsToFloat(vm_program_word(params.constants_offset + min(index, params.constants_words - 1u)));
}
VmWindField vm_wind() { return params.wind; }
// SAMPLE_FIELD's table (src/vm/vector_field_sampling.hpp: a header per slot, then every field's
// vectors), read through vm_gpu/vector_field_fetch.glsl.
#include "shared/vm_vector_field.h"
layout(std430, binding = 10) readonly buffer VectorFieldHeaders { VmVectorFieldHeader vector_field_headers[]; };
layout(std430, binding = 11) readonly buffer VectorFieldValues { float vector_field_values[]; };
#include "vm_gpu/vector_field_fetch.glsl"
// SAMPLE_DEPTH's depth (src/vm/depth_sampling.hpp: the view, then the depths), read through
// vm_gpu/depth_fetch.glsl.
#include "shared/vm_depth.h"
layout(std430, binding = 12) readonly buffer CollisionDepth {
  VmDepthView depth_view;
  float depth_values[];
};
#include "vm_gpu/depth_fetch.glsl"
#ifndef VM_REGISTERS_FAST
uint vm_op_shape(uint op) { return op_shapes[op & 63u].x; }
#endif
// pc < kVmMaxSectionInstructions: vm_run's loop is bounded by it (a clamp here cost an
// instruction per interpreted instruction, which the driver did not prove redundant).
uvec4 vm_instruction(uint pc) { return section_code[pc]; }
layout(constant_id = 5) const bool kInstrumented = true;
// Constant 6: the kill flag and event counts stored per particle (the executor's runs). The
// stateless driver's EVAL (src/runtime/drivers/stateless_driver.cpp) has neither and reads only
// the records, so its build stores none (no traffic for outcomes nobody reads).
layout(constant_id = 6) const bool kWritesOutcomes = true;
void vm_count_op(uint op) {
  if (kInstrumented && (params.flags & kVmRunCountOps) != 0u) atomicAdd(op_counts[op < VM_OP_COUNT ? op : VM_OP_NOP], 1u);
}
uint vm_particle;  // index in the run
void vm_trace(uint pc, vec4 r) {
  if (!kInstrumented || (params.flags & kVmRunTrace) == 0u) return;
  uint base = (vm_particle * params.code_length + pc) * 4u;
  uint last = uint(trace.length()) - 1u;
  trace[min(base, last)] = floatBitsToUint(r.x);
  trace[min(base + 1u, last)] = floatBitsToUint(r.y);
  trace[min(base + 2u, last)] = floatBitsToUint(r.z);
  trace[min(base + 3u, last)] = floatBitsToUint(r.w);
}

layout(constant_id = 2) const uint kOpcodesLow = 0xFFFFFFFFu;
layout(constant_id = 3) const uint kOpcodesHigh = 0xFFFFFFFFu;
#define VM_OP_ENABLED(op) \
  ((((((op) < 32u ? kOpcodesLow : 0u) | ((op) >= 32u ? kOpcodesHigh : 0u)) >> ((op) & 31u)) & 1u) != 0u)

// vm_field_word and vm_load_builtin over VmRunParams (shared with the compiled kernels'
// harness, run_compiled.comp).
#include "vm_gpu/harness_builtins.glsl"

// The section's code and the shapes come from uniform buffers at wave-uniform indices (the loop
// counter, and the opcode read from the code), so the compiler already knows every decoded field is
// uniform: the interpreter's subgroupBroadcastFirst would only add shuffles (docs/PERFORMANCE.md,
// "The interpreters after an ablation study", item 3).
#define VM_FETCH_IS_UNIFORM
#include "vm_gpu/interpreter.glsl"

void main() {
#ifdef VM_REGISTERS_WIDE
  vm_lane = min(gl_GlobalInvocationID.x, kVmWideLaunchLanes - 1u);  // the host launches exactly that many
#endif
  vm_record_words = max(params.record_words, 1u);
  uint count = min(params.count, params.record_capacity);
  // Workgroup-uniform: every invocation takes every block, so the window's barriers are reached
  // in uniform control flow.
  uint stride = max(params.launch_lanes, kVmWorkgroupSize);
  for (uint first = gl_WorkGroupID.x * kVmWorkgroupSize; first < count; first += stride) {
    if (kWindowChunks > 0u) vm_window_load_block(first, count);
    uint i = first + gl_LocalInvocationIndex;
    vm_present = i < count;
    vm_particle = i;
    vm_record_base = i * vm_record_words;
    if (vm_present) {
      vm_seed = vm_particle_seed(params.rng_base, params.first_particle_index + i);
      vm_clear_registers();
#ifdef VM_REGISTERS_FAST
      if (kWindowChunks > 0u) vm_window_to_file();
#endif
      bool dead = vm_run(params.code_length);
#ifdef VM_REGISTERS_FAST
      if (kWindowChunks > 0u) vm_window_from_file();
#endif
      if (kWritesOutcomes) {
        uint outcome = i * kVmRunOutcomeWords;
        killed[min(outcome, uint(killed.length()) - 1u)] = dead ? 1u : 0u;
        for (uint e = 0u; e < kVmEventOutputs; ++e)
          killed[min(outcome + 1u + e, uint(killed.length()) - 1u)] = vm_event_counts[e];
      }
    }
    if (kWindowChunks > 0u) vm_window_store_block(first, count);
  }
}
