// A program section as its own compute shader: the run-time compiler's front end. The
// bytecode becomes straight-line GLSL — registers are local floats (`r0`, `r1`, ...); every
// operand shape, swizzle, immediate, field offset and constant is resolved at translation
// time; each instruction calls the same shaders/shared/vm_semantics.h function the
// interpreters and the CPU executors call (op_glsl.hpp). A kernel then does the memory traffic
// plus the program's own arithmetic, none of the interpreter's fetch, decode and dispatch. The
// ISA has no jumps, so there is no control flow to translate.
//
// translate_section() writes the section as one function, `bool vm_compiled_run()` (true when
// a KILL fired), against a host contract — the interpreter's (shaders/vm_gpu/interpreter.glsl),
// so any pass that hosts the interpreter can host a compiled section:
//   float vm_record_read(uint word), void vm_record_write(uint word, float v)
//       this particle's record; the host clamps `word` to the record
//   vec4 vm_load_builtin(uint id, uint lanes)   LOAD_BUILTIN, any id (unknown ids read 0)
//   VmWindField vm_wind()                        the scene's wind
//   vec3 vm_sample_vector_field_slot(uint, vec3) SAMPLE_FIELD's fetch (vm_gpu/vector_field_fetch.glsl)
//   vec4 vm_sample_depth(vec3, float)            SAMPLE_DEPTH's sampling (vm_gpu/depth_fetch.glsl)
//   void vm_trace(uint pc, vec4 result)          per-instruction results (may do nothing)
//   void vm_count_ops(uint op, uint times)       per-opcode execution counts (may do nothing)
//   uint vm_seed                                 the particle's RNG seed
// translate_to_glsl() puts it in the harness (shaders/vm_gpu/run_compiled.comp, embedded), which
// keeps run_program.comp's bindings, params, launch, record addressing and clamps, and has two
// specialization constants: kSpecTrace (bool: call the trace stores, for trace-replay parity)
// and kSpecRecordWords (the record stride, so record offsets and clamps fold to immediates), and
// three for the record window staged in registers (kSpecWindow*).
//
// Clamps for input that got past the verifier, as the interpreter's: register slots are
// masked to the 256-slot file, lane counts clamped to 1..4, constant indices clamped to the
// pool (at translation time), record words and field indices clamped by the host, unknown
// opcodes do nothing.
#pragma once

#include <cstdint>
#include <string>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote::vm_kernels {

inline constexpr uint32_t kSpecTrace = 0;
inline constexpr uint32_t kSpecRecordWords = 1;
// The record window (src/vm_gpu/record_window.hpp): first chunk, chunk count (0: none), stored chunks.
inline constexpr uint32_t kSpecWindowFirstChunk = 2;
inline constexpr uint32_t kSpecWindowChunks = 3;
inline constexpr uint32_t kSpecWindowDirtyMask = 4;

// `bool vm_compiled_run()` for `program`'s `section`. The program need not be verified (the
// executors verify before they run anything; the translation keeps the interpreter's clamps).
// Errors: kUnsupported for a section longer than kVmMaxSectionInstructions (the interpreter's
// loop bound, which a verified program never exceeds).
Result<std::string> translate_section(const Program& program, Section section);

// The shader a compiled section is put in:
//   kRunProgram     shaders/vm_gpu/run_compiled.comp, the run-one-program harness (the gpu-compiled
//                   executor, the parity suite, bench/vm_gpu);
//   kFrameSimulate  shaders/runtime/frame/simulate.comp built with FRAME_COMPILED: the particle
//                   frame's simulate pass (src/runtime_frame/), which supplies the host contract
//                   from the frame's buffers (shaders/runtime/frame/vm.glsl). Specialisation
//                   constants 1-4 as above; no trace.
//   kFrameEmit      shaders/runtime/frame/emit.comp built with FRAME_COMPILED: the frame's
//                   emit pass, for a program's INIT section.
enum class KernelHarness : uint32_t { kRunProgram, kFrameSimulate, kFrameEmit };

// The complete compute shader: the harness with the section in it. Errors: translate_section's.
Result<std::string> translate_to_glsl(const Program& program, Section section,
                                      KernelHarness harness = KernelHarness::kRunProgram);

}  // namespace mote::vm_kernels
