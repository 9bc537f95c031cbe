#version 460
#extension GL_EXT_control_flow_attributes : enable
// The harness of the compiled kernels (src/vm_gpu/kernels/): runs one program section, compiled to its
// own function, over `count` particle records — "gpu-compiled" in the parity suite,
// `mote run-program` and bench/vm_gpu. Not built with the other shaders: the run-time compiler
// (src/vm_gpu/kernels/glsl_translator.cpp) puts the translated section where this file includes
// "vm_gpu/compiled_section.glsl" and compiles the result with glslang, once per program.
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
//   vec3  vm_sample_vector_field_slot(uint, vec3) -- SAMPLE_FIELD (vm_gpu/vector_field_fetch.glsl)
//   vec4  vm_sample_depth(vec3, float)            -- SAMPLE_DEPTH (vm_gpu/depth_fetch.glsl)
//   void  vm_trace(uint pc, vec4 result)         -- per-instruction results (may do nothing)
//   void  vm_count_ops(uint op, uint times)      -- per-opcode execution counts (may do nothing)
//   uint  vm_seed                                -- this particle's RNG seed
#include "generated/vm_isa.glsl"
#include "shared/isa_encoding.h"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"

layout(local_size_x = 64) in;  // kVmWorkgroupSize

// Specialisation (src/vm_gpu/kernels/glsl_translator.hpp kSpec*): 0 traces every instruction's result
// (tests only: the benchmarked kernel compiles without the stores); 1 is the record stride, so
// record offsets and their clamps fold to immediates (never 0), and 2-4 the record window
// (both declared in vm/record_window_registers.glsl).
layout(constant_id = 0) const bool kTrace = false;
layout(std430, binding = 0) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = 1) buffer Records { uint records[]; };
layout(std430, binding = 1) buffer RecordChunks { uvec4 record_chunks[]; };
// kVmRunOutcomeWords per particle: the kill flag, then the event counts.
layout(std430, binding = 2) buffer Killed { uint killed[]; };
layout(std430, binding = 3) buffer OpCounts { uint op_counts[]; };
// A uniform buffer, as in run_program.comp (read-only by definition: loads may stay in registers).
layout(std140, binding = 4) uniform Params { VmRunParams params; };
// The trace as whole vec4s (the interpreters' uint layout, 16 bytes per result): one store per
// instruction rather than four, which keeps traced kernels quick to compile on lavapipe.
layout(std430, binding = 6) writeonly buffer Trace { uvec4 trace[]; };

uint vm_particle;  // index in the run
uint vm_record_base;
uint vm_seed;

uint vm_program_word(uint index) { return program_words[min(index, uint(program_words.length()) - 1u)]; }
// The record window in registers, and the record access through it (kRecordWords, constant 1,
// and the window's constants 2-4 are declared there).
#define VM_WINDOW_WORDS records
#define VM_WINDOW_CHUNKS record_chunks
#define VM_WINDOW_RECORD_COUNT params.record_capacity
// Each invocation's window loads all go out before any is staged: this harness's benchmark
// kernel got faster with it, the frame's simulate, which includes the same file, slower, so it is
// this harness's choice alone (docs/PERFORMANCE.md, "The compiled kernel's loads in flight
// together", has the figures).
#define VM_WINDOW_LOADS_FIRST
#include "vm_gpu/record_window_registers.glsl"
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
void vm_trace(uint pc, vec4 r) {
  if (!kTrace) return;
  uint results = uint(trace.length());
  if (results > 0u) trace[min(vm_particle * params.code_length + pc, results - 1u)] = floatBitsToUint(r);
}
void vm_count_ops(uint op, uint times) {
  if ((params.flags & kVmRunCountOps) != 0u) atomicAdd(op_counts[op & 255u], times);
}

#include "vm_gpu/harness_builtins.glsl"

// bool vm_compiled_run(): the section, translated; true when a KILL fired.
#include "vm_gpu/compiled_section.glsl"

void main() {
  // The loop runs the workgroup's 64 particles together (the launch is a whole number of
  // workgroups), so the window moves through the group load and store in uniform control flow.
  uint count = min(params.count, params.record_capacity);
  uint stride = max(params.launch_lanes, kVmWorkgroupSize);
  for (uint first = gl_WorkGroupID.x * kVmWorkgroupSize; first < count; first += stride) {
    uint i = first + gl_LocalInvocationIndex;
    bool present = i < count;
    vm_particle = i;
    vm_record_base = present ? i * kRecordWords : 0u;
    if (kWindowChunks > 0u) vm_window_load_group(present);
    bool dead = false;
    if (present) {
      vm_seed = vm_particle_seed(params.rng_base, params.first_particle_index + i);
      dead = vm_compiled_run();
    }
    if (kWindowChunks > 0u) vm_window_store_group(present, kWindowDirtyMask);
    if (present) {
      uint outcome = i * kVmRunOutcomeWords;
      killed[min(outcome, uint(killed.length()) - 1u)] = dead ? 1u : 0u;
      for (uint e = 0u; e < kVmEventOutputs; ++e)
        killed[min(outcome + 1u + e, uint(killed.length()) - 1u)] = vm_event_counts[e];
    }
  }
}
