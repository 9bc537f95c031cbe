#version 460
#extension GL_EXT_control_flow_attributes : enable
// The harness of the compiled kernels (src/vm_jit/): runs one program section, compiled to its
// own function, over `count` particle records — "gpu-compiled" in the parity suite,
// `mote run-program` and bench/vm_gpu. Not built with the other shaders: the run-time compiler
// (src/vm_jit/glsl_translator.cpp) puts the translated section where this file includes
// "vm/compiled_section.glsl" and compiles the result with glslang, once per program.
//
// The interface is run_program.comp's (the interpreters' harness): the same bindings, the same
// VmRunParams, the same grid-stride launch over params.count clamped to params.record_capacity,
// the same record addressing and clamps; only the code and opcode-shape views (bindings 7 and
// 8) are gone, the code being compiled in.
//
// What the compiled section asks of its host (the contract glsl_translator.hpp states; the
// frame's simulate pass would supply the same from its own buffers):
//   float vm_record_read(uint word) / void vm_record_write(uint word, float v)
//                            -- this particle's record, the word clamped to the record here
//   vec4  vm_load_builtin(uint id, uint lanes)   -- LOAD_BUILTIN, any id (unknown ids read 0)
//   VmWindField vm_wind()                        -- the scene's wind
//   void  vm_trace(uint pc, vec4 result)         -- per-instruction results (may do nothing)
//   void  vm_count_ops(uint op, uint times)      -- per-opcode execution counts (may do nothing)
//   uint  vm_seed                                -- this particle's RNG seed
#include "generated/vm_isa.glsl"
#include "shared/isa_encoding.h"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"

layout(local_size_x = 64) in;  // kVmWorkgroupSize

// Specialisation (src/vm_jit/glsl_translator.hpp kSpecTrace / kSpecRecordWords): trace every
// instruction's result (tests only: the benchmarked kernel compiles without the stores), and
// the record stride, so record offsets and their clamps fold to immediates. Never 0.
layout(constant_id = 0) const bool kTrace = false;
layout(constant_id = 1) const uint kRecordWords = 1u;
// The record window (src/vm/record_window.hpp) as constants 2-4: its first chunk, its chunk
// count (0: every field access goes to the record) and the chunks written back. The window
// lives in private variables indexed by constants only (every field word is an immediate in
// the translated code), so it stays in registers: one 16-byte load per chunk before the
// section, one 16-byte store per stored chunk after.
layout(constant_id = 2) const uint kWindowFirstChunk = 0u;
layout(constant_id = 3) const uint kWindowChunks = 0u;
layout(constant_id = 4) const uint kWindowDirtyMask = 0u;

layout(std430, binding = 0) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = 1) buffer Records { uint records[]; };
layout(std430, binding = 1) buffer RecordChunks { uvec4 record_chunks[]; };
layout(std430, binding = 2) buffer Killed { uint killed[]; };
layout(std430, binding = 3) buffer OpCounts { uint op_counts[]; };
layout(std430, binding = 4) readonly buffer Params { VmRunParams params; };
// The trace as whole vec4s (the interpreters' uint layout, 16 bytes per result): one store per
// instruction rather than four, which keeps traced kernels quick to compile on lavapipe.
layout(std430, binding = 6) writeonly buffer Trace { uvec4 trace[]; };

uint vm_particle;  // index in the run
uint vm_record_base;
uint vm_seed;

uint vm_code_word(uint index) { return program_words[min(index, uint(program_words.length()) - 1u)]; }
uvec4 vm_window[kVmMaxWindowChunks];
bool vm_in_window(uint word) { return kWindowChunks > 0u && word - kWindowFirstChunk * 4u < kWindowChunks * 4u; }
float vm_record_read(uint word) {
  word = min(word, kRecordWords - 1u);
  if (vm_in_window(word)) return uintBitsToFloat(vm_window[(word >> 2u) - kWindowFirstChunk][word & 3u]);
  return uintBitsToFloat(records[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  word = min(word, kRecordWords - 1u);
  if (vm_in_window(word)) vm_window[(word >> 2u) - kWindowFirstChunk][word & 3u] = floatBitsToUint(v);
  else records[vm_record_base + word] = floatBitsToUint(v);
}
// Chunk indices clamped to the bound records, as the interpreter's.
uint vm_window_chunk(uint c) {
  return min(vm_record_base / 4u + kWindowFirstChunk + c, params.record_capacity * (kRecordWords / 4u) - 1u);
}
void vm_window_load() {
  [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
    if (c < kWindowChunks) vm_window[c] = record_chunks[vm_window_chunk(c)];
}
void vm_window_store() {
  [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
    if (c < kWindowChunks && (kWindowDirtyMask & (1u << c)) != 0u) record_chunks[vm_window_chunk(c)] = vm_window[c];
}
VmWindField vm_wind() { return params.wind; }
void vm_trace(uint pc, vec4 r) {
  if (!kTrace) return;
  uint results = uint(trace.length());
  if (results > 0u) trace[min(vm_particle * params.code_length + pc, results - 1u)] = floatBitsToUint(r);
}
void vm_count_ops(uint op, uint times) {
  if ((params.flags & kVmRunCountOps) != 0u) atomicAdd(op_counts[op & 255u], times);
}

#include "vm/harness_builtins.glsl"

// bool vm_compiled_run(): the section, translated; true when a KILL fired.
#include "vm/compiled_section.glsl"

void main() {
  uint count = min(params.count, params.record_capacity);
  for (uint i = gl_GlobalInvocationID.x; i < count; i += params.launch_lanes) {
    vm_particle = i;
    vm_record_base = i * kRecordWords;
    vm_seed = vm_particle_seed(params.rng_base, params.first_particle_index + i);
    if (kWindowChunks > 0u) vm_window_load();
    bool dead = vm_compiled_run();
    if (kWindowChunks > 0u) vm_window_store();
    killed[min(i, uint(killed.length()) - 1u)] = dead ? 1u : 0u;
  }
}
