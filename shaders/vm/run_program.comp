#version 460
// Runs one section of one program over `count` particle records: the GPU executor behind the
// parity suite, `mote run-program --executor gpu-fast|gpu-wide` and bench/vm_gpu. Built twice:
//   VM_REGISTERS_FAST  register file in private memory (kVmFastRegisterSlots), one particle per
//                      invocation of a grid-stride launch;
//   VM_REGISTERS_WIDE  register file in a storage buffer, slot-major (slot * lanes + lane),
//                      kVmWideLaunchLanes invocations walking the work (the seed's "Two
//                      interpreters").
// (Two other files were measured on the H200 and dropped, docs/PERFORMANCE.md: in workgroup
// shared memory sized to the program, 2.5x slower than the private one; in 64 named registers
// behind wave-uniform switches on the slot, 2x slower — the indirect branches cost more than
// the local-memory traffic they save.)
// Specialization constant 1 is the record window's chunk count: with it, each particle's
// window (src/vm/record_window.hpp, VmRunParams.window_*) is staged in shared memory with
// 16-byte loads before the section and its stored chunks written back with 16-byte stores
// after; 0 sends every field access straight to the record. Constants 2 and 3 are the opcodes the
// build runs (bits 0-31 and 32-63; every one by default): the others' bodies drop out of the
// switch (GpuInterpreterSpecialization).
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
layout(std430, binding = 2) buffer Killed { uint killed[]; };
layout(std430, binding = 3) buffer OpCounts { uint op_counts[]; };
layout(std430, binding = 4) readonly buffer Params { VmRunParams params; };
layout(std430, binding = 6) writeonly buffer Trace { uint trace[]; };
#ifdef VM_REGISTERS_WIDE
layout(std430, binding = 5) buffer WideRegisters { float wide_registers[]; };
#endif
// The section's code and the opcode shape table, also bound as uniform buffers: instruction
// fetch is wave-uniform, so the constant cache serves it without competing with the record
// and register traffic for L1 (4% faster than storage-buffer fetch on the H200; see
// docs/PERFORMANCE.md for what was measured and what was not the bottleneck).
layout(std140, binding = 7) uniform SectionCode { uvec4 section_code[kVmMaxSectionInstructions]; };
layout(std140, binding = 8) uniform OpShapes { uvec4 op_shapes[64]; };

uint vm_record_base;

layout(constant_id = 1) const uint kWindowChunks = 0u;
const uint kWindowSlots = kWindowChunks * 4u * kVmWorkgroupSize + 1u;
shared uint vm_window[kWindowSlots];  // word (w - first) * 64 + invocation

#ifdef VM_REGISTERS_FAST
float vm_fast_registers[kVmFastRegisterSlots];
float vm_reg_read(uint slot) { return vm_fast_registers[slot & (kVmFastRegisterSlots - 1u)]; }
void vm_reg_write(uint slot, float v) { vm_fast_registers[slot & (kVmFastRegisterSlots - 1u)] = v; }
// Registers start at zero, as in the reference: only the program's own slots need it.
void vm_clear_registers() {
  uint n = min(params.register_count, kVmFastRegisterSlots);
  for (uint i = 0u; i < n; ++i) vm_fast_registers[i] = 0.0f;
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
// window holds every word the section can name, so that is only a guard).
uint vm_window_word(uint word) {
  uint rel = word - params.window_first_chunk * 4u;
  return (kWindowChunks > 0u && rel < kWindowChunks * 4u) ? rel * kVmWorkgroupSize + gl_LocalInvocationIndex : ~0u;
}
float vm_record_read(uint word) {
  uint at = vm_window_word(word);
  if (at != ~0u) return uintBitsToFloat(vm_window[at]);
  return uintBitsToFloat(records[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  uint at = vm_window_word(word);
  if (at != ~0u) vm_window[at] = floatBitsToUint(v);
  else records[vm_record_base + word] = floatBitsToUint(v);
}
// The chunk index clamped to the bound records (a host that set a window past the record
// still stays inside the buffer).
uint vm_window_chunk(uint c) {
  uint last = params.record_capacity * (params.record_words / 4u) - 1u;
  return min(vm_record_base / 4u + params.window_first_chunk + c, last);
}
void vm_window_load() {
  for (uint c = 0u; c < kWindowChunks; ++c) {
    uvec4 v = record_chunks[vm_window_chunk(c)];
    uint at = c * 4u * kVmWorkgroupSize + gl_LocalInvocationIndex;
    vm_window[at] = v.x;
    vm_window[at + kVmWorkgroupSize] = v.y;
    vm_window[at + 2u * kVmWorkgroupSize] = v.z;
    vm_window[at + 3u * kVmWorkgroupSize] = v.w;
  }
}
void vm_window_store() {
  for (uint c = 0u; c < kWindowChunks; ++c) {
    if ((params.window_dirty_mask & (1u << c)) == 0u) continue;
    uint at = c * 4u * kVmWorkgroupSize + gl_LocalInvocationIndex;
    record_chunks[vm_window_chunk(c)] = uvec4(vm_window[at], vm_window[at + kVmWorkgroupSize], vm_window[at + 2u * kVmWorkgroupSize],
                                     vm_window[at + 3u * kVmWorkgroupSize]);
  }
}
float vm_load_constant(uint index) {
  if (params.constants_words == 0u) return 0.0f;
  return uintBitsToFloat(vm_program_word(params.constants_offset + min(index, params.constants_words - 1u)));
}
VmWindField vm_wind() { return params.wind; }
uint vm_op_shape(uint op) { return op_shapes[op & 63u].x; }
uvec4 vm_instruction(uint pc) { return section_code[min(pc, kVmMaxSectionInstructions - 1u)]; }
void vm_count_op(uint op) {
  if ((params.flags & kVmRunCountOps) != 0u) atomicAdd(op_counts[op], 1u);
}
uint vm_particle;  // index in the run
void vm_trace(uint pc, vec4 r) {
  if ((params.flags & kVmRunTrace) == 0u) return;
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
#include "vm/harness_builtins.glsl"

#include "vm/interpreter.glsl"

void main() {
  uint stride = params.launch_lanes;
#ifdef VM_REGISTERS_WIDE
  vm_lane = gl_GlobalInvocationID.x;
  if (vm_lane >= kVmWideLaunchLanes) return;
#endif
  vm_record_words = max(params.record_words, 1u);
  uint count = min(params.count, params.record_capacity);
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
    vm_particle = i;
    vm_record_base = i * vm_record_words;
    vm_seed = vm_particle_seed(params.rng_base, params.first_particle_index + i);
    vm_clear_registers();
    if (kWindowChunks > 0u) vm_window_load();
    bool dead = vm_run(params.code_length);
    if (kWindowChunks > 0u) vm_window_store();
    killed[min(i, uint(killed.length()) - 1u)] = dead ? 1u : 0u;
  }
}
