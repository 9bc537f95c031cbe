// The GPU interpreters' run parameters, shared by C++ (src/vm_gpu/gpu_executor.cpp) and GLSL
// (shaders/vm_gpu/*.comp). std430, 4-byte scalars, vec4s, no vec3 or bool.
#ifndef MOTE_SHADERS_SHARED_VM_GPU_H
#define MOTE_SHADERS_SHARED_VM_GPU_H
#include "shared/interop.h"
#include "shared/vm_semantics.h"
MOTE_SHARED_BEGIN

// One run of one program section over `count` records (the harness behind parity tests,
// `mote run-program --executor gpu` and bench/vm_gpu). Word offsets index the program buffer,
// which packs [opcode shapes][constants][init code][update code][emitter fields][global fields].
struct VmRunParams {
  vec4 emitter_position;   // xyz; w unused
  vec4 emitter_direction;  // xyz; w unused
  vec4 emitter_up;         // xyz; w unused
  vec4 emitter_rotation;   // quaternion xyzw
  VmWindField wind;
  float dt;
  float time;
  float emitter_age;
  uint emitter_seed;
  uint count;                 // records to run
  uint record_words;          // pool stride
  uint rng_base;              // particle seed = vm_particle_seed(rng_base, particle index)
  uint first_particle_index;  // PARTICLE_INDEX of record 0
  uint code_offset;           // the section's first instruction, in words
  uint code_length;           // instructions
  uint constants_offset;
  uint constants_words;
  uint emitter_fields_offset;
  uint emitter_fields_words;
  uint globals_offset;
  uint globals_words;
  uint flags;           // kVmRunCountOps | kVmRunTrace (tests); 0 for benchmarks
  uint launch_lanes;    // invocations launched (grid-stride loop over `count`)
  uint register_count;  // the slots zeroed per particle: the program's registers (the fast
                        // interpreter: those its section reads before writing them)
  // Records the bound buffer holds (its size / record_words, from the host). The bound on every
  // record access: OpArrayLength is not trusted for bindings of 2 GiB and more (the H200's
  // driver reported 0 for a 2 GiB binding and the pass silently did nothing).
  uint record_capacity;
  uint shapes_offset;  // VM_OP_COUNT words of mote::isa::op_shape, one per opcode
  // The record window (src/vm_gpu/record_window.hpp): the 4-word chunks of the record the section
  // reads or writes, staged with 16-byte loads and stores instead of one access per field word.
  uint window_first_chunk;
  uint window_chunks;      // 0: fields go straight to the records
  uint window_dirty_mask;  // bit c: chunk first + c is written back
};
MOTE_ASSERT_SIZE(VmRunParams, 192);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_position, 0);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_direction, 16);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_up, 32);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_rotation, 48);
MOTE_ASSERT_OFFSET(VmRunParams, wind, 64);
MOTE_ASSERT_OFFSET(VmRunParams, dt, 96);
MOTE_ASSERT_OFFSET(VmRunParams, time, 100);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_age, 104);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_seed, 108);
MOTE_ASSERT_OFFSET(VmRunParams, count, 112);
MOTE_ASSERT_OFFSET(VmRunParams, record_words, 116);
MOTE_ASSERT_OFFSET(VmRunParams, rng_base, 120);
MOTE_ASSERT_OFFSET(VmRunParams, first_particle_index, 124);
MOTE_ASSERT_OFFSET(VmRunParams, code_offset, 128);
MOTE_ASSERT_OFFSET(VmRunParams, code_length, 132);
MOTE_ASSERT_OFFSET(VmRunParams, constants_offset, 136);
MOTE_ASSERT_OFFSET(VmRunParams, constants_words, 140);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_fields_offset, 144);
MOTE_ASSERT_OFFSET(VmRunParams, emitter_fields_words, 148);
MOTE_ASSERT_OFFSET(VmRunParams, globals_offset, 152);
MOTE_ASSERT_OFFSET(VmRunParams, globals_words, 156);
MOTE_ASSERT_OFFSET(VmRunParams, flags, 160);
MOTE_ASSERT_OFFSET(VmRunParams, launch_lanes, 164);
MOTE_ASSERT_OFFSET(VmRunParams, register_count, 168);
MOTE_ASSERT_OFFSET(VmRunParams, record_capacity, 172);
MOTE_ASSERT_OFFSET(VmRunParams, shapes_offset, 176);
MOTE_ASSERT_OFFSET(VmRunParams, window_first_chunk, 180);
MOTE_ASSERT_OFFSET(VmRunParams, window_chunks, 184);
MOTE_ASSERT_OFFSET(VmRunParams, window_dirty_mask, 188);

// VmRunParams.flags: count executions per opcode into op_counts; write every instruction's
// result vec4 into the trace buffer at ((particle * code_length) + pc) * 4 (trace-replay parity).
MOTE_CONSTANT(uint, kVmRunCountOps, 1u);
MOTE_CONSTANT(uint, kVmRunTrace, 2u);

// Workgroup size of the interpreter passes.
MOTE_CONSTANT(uint, kVmWorkgroupSize, 64u);
// The run harnesses' outcome buffer (binding 2): per particle, the kill flag (0/1), then
// EMIT_EVENT's count of each of the kVmEventOutputs outputs.
MOTE_CONSTANT(uint, kVmRunOutcomeWords, 5u);
// The wide interpreter's launch: a fixed number of lanes, each walking the work with a grid
// stride, so its register file is kVmWideLaunchLanes * kVmMaxRegisters * 4 bytes = 64 MiB
// whatever the particle count (docs/design/vm.md, "The GPU interpreters").
MOTE_CONSTANT(uint, kVmWideLaunchLanes, 65536u);

MOTE_SHARED_END
#endif
