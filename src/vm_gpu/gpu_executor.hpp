// The GPU interpreters as Executors: the same RunInput/RunOutput contract as the CPU executors,
// run on a Vulkan device through shaders/vm_gpu/run_program.comp. (The per-program compiled
// kernels, "gpu-compiled", keep the same harness interface: src/vm_gpu/kernels/.)
//
//   kFast  register file in private memory: programs with register_count <= 64 and at most 63
//          distinct immediates per section (src/vm_gpu/fast_operands.hpp)
//   kWide  register file in a storage buffer (64 MiB, bounded grid-stride launch): any program
//   kAuto  kFast when the program fits it, else kWide (the register count picks the interpreter,
//          never the author; docs/design/vm.md, "The GPU interpreters")
#pragma once

#include <functional>
#include <memory>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/device.hpp"
#include "mote/vm.hpp"
#include "shared/vm_gpu.h"
#include "shared/vm_fast_operands.h"
#include "shared/vm_limits.h"
#include "vm_gpu/fast_operands.hpp"

namespace mote {

enum class GpuInterpreter { kAuto, kFast, kWide };

struct GpuExecutorOptions {
  // Count every opcode's executions (RunOutput::op_executions, and the trace of run_gpu_traced):
  // the interpreter is built with the counters, and the fast one runs each instruction of the
  // program as written. Without: op_executions stays zero, a trace is refused, and the fast
  // interpreter runs the section with its moves folded away (src/vm_gpu/fast_fold.hpp), which
  // computes the same records.
  bool count_ops = true;
};

// Uses `device`, which must outlive the executor.
std::unique_ptr<Executor> make_gpu_executor(gpu::Device& device, GpuInterpreter interpreter,
                                            GpuExecutorOptions options = {});

// FOR ROBUSTNESS TESTS ONLY: an executor that skips the verifier and the input checks and hands
// the program to the GPU as it is, to prove that the interpreter's own clamps keep a program
// that slipped past verification inside its buffers. Never use it to run programs.
std::unique_ptr<Executor> make_unverified_gpu_executor_for_tests(gpu::Device& device, GpuInterpreter interpreter);
// Creates and owns its own device.
Result<std::unique_ptr<Executor>> make_gpu_executor(const gpu::DeviceOptions& options, GpuInterpreter interpreter,
                                                    GpuExecutorOptions executor_options = {});

// A GPU executor that can also record every instruction's result (kVmRunTrace): the
// interpreters and the compiled kernels.
class TracingGpuExecutor : public Executor {
 public:
  // run(), plus the trace in *trace when it is not null (layout: run_gpu_traced).
  virtual Result<RunOutput> run_traced(const RunInput& input, std::vector<uint32_t>* trace) = 0;
};

// A run that also returns every instruction's result vec4 per particle:
// trace[((particle * section_length) + pc) * 4 + lane] (f32 bits). The trace-replay parity test
// checks each instruction against the reference given the GPU's own operands, so approximate
// transcendentals cannot compound into a false failure (or hide a real one). `gpu_executor`
// must be a TracingGpuExecutor (kInvalidArgument otherwise).
struct GpuTracedRun {
  RunOutput output;
  std::vector<uint32_t> trace;
};
Result<GpuTracedRun> run_gpu_traced(Executor& gpu_executor, const RunInput& input);

// The program buffer a run of shaders/vm_gpu/run_program.comp binds — [opcode shapes][constants][init code]
// [update code][emitter fields][global fields] — with the run parameters pointing into it and
// the workgroups to launch (flags left 0: no op counting, no trace). Shared by the executor and
// bench/vm_gpu, so the benchmark times exactly what the parity suite checks.
struct GpuProgramImage {
  std::vector<uint32_t> words;
  shader::VmRunParams params{};
  uint32_t groups = 0;
  uint32_t code_view_words = 0;    // the section-code uniform view's size
  uint32_t immediates_offset = 0;  // the fast interpreter's immediates block (binding 9), in words
};
// The immediates block: a uvec4 holding the count, then kVmFastMaxImmediates bit patterns as
// std140 uvec4s, then kVmFastMaxConstantVectors constant vectors (run_program.comp's `Immediates`).
inline constexpr VkDeviceSize kConstantVectorsViewOffset = (1 + shader::kVmFastMaxImmediates / 4 + 1) * 16;
inline constexpr VkDeviceSize kImmediatesViewBytes = kConstantVectorsViewOffset +
                                                     shader::kVmFastMaxConstantVectors * 16;
// The program buffer's usage: storage (fields, constants) and uniform (code, shapes).
inline constexpr VkBufferUsageFlags kProgramBufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                          VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
// The run parameters' buffer (VmRunParams), a uniform buffer at binding 4.
inline constexpr VkBufferUsageFlags kParamsBufferUsage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
// The uniform views the interpreter binds on the program buffer: the section's code
// (binding 7) and the opcode shapes (binding 8).
gpu::BufferBinding code_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer);
gpu::BufferBinding shapes_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer);
// The fast interpreter's immediates (binding 9; the wide interpreter reads the shapes instead).
gpu::BufferBinding immediates_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer);
struct GpuInterpreterSpecialization;
// `pipeline`: how the interpreter that runs the image is specialised. The fast interpreter's
// image of a pipeline built without instrumentation has its moves folded (src/vm_gpu/fast_fold.hpp:
// field loads and stores through the window only when the pipeline keeps the section's window,
// constant loads always). Null: instrumented, every instruction as written.
GpuProgramImage make_gpu_program_image(const RunInput& input, uint32_t record_words, GpuInterpreter which,
                                       const VkPhysicalDeviceLimits& limits,
                                       const GpuInterpreterSpecialization* pipeline = nullptr);
// The buffers of one harness run, bound at run_program.comp's bindings: 0 program, 1 records,
// 2 kill flags, 3 op counts, 4 params, 6 trace.
struct GpuRunBuffers {
  gpu::Buffer program, records, killed, op_counts, params, trace;
  // SAMPLE_FIELD's table of the run's vector fields (bindings 10 and 11 of both harnesses).
  gpu::Buffer field_headers, field_values;
  // SAMPLE_DEPTH's depth: the view, then the depths (binding 12 of both harnesses).
  gpu::Buffer depth;
};
// One run of a harness pipeline (an interpreter or a compiled kernel) on `device`: uploads
// `image` and the records, poisons the kill flags, records `dispatch` (which binds its pipeline
// and the buffers and dispatches image.groups), waits, and reads back the records, kill flags,
// per-opcode counts and, with `trace_out`, the trace. Sets image.params.flags (op counting
// always; tracing with `trace_out`). kInternal when a particle was left unprocessed.
Result<RunOutput> run_gpu_harness(gpu::Device& device, const RunInput& input, GpuProgramImage& image,
                                  std::vector<uint32_t>* trace_out,
                                  const std::function<void(gpu::ComputeRecorder&, const GpuRunBuffers&)>& dispatch);

// The embedded shader of an interpreter ("vm_gpu/run_program_fast" / "vm_gpu/run_program_wide").
const char* gpu_interpreter_shader(GpuInterpreter which);

// How an interpreter pipeline is specialised: the record window's chunk count (0: no staging;
// src/vm_gpu/record_window.hpp) and the opcodes it runs (bit op of the mask; the default, every
// opcode, runs any program — a narrower set lets the driver drop the other opcodes' bodies from
// the interpreter's switch, and an opcode outside it computes nothing: its destination gets zeros).
struct GpuInterpreterSpecialization {
  uint32_t window_chunks = 0;
  uint64_t opcodes = ~uint64_t(0);
  // Per-opcode counts and the trace compiled in (what the executor's runs report); benchmarks
  // build without them.
  bool instrumented = true;
  // The kill flags and event counts stored (binding 2); the stateless driver's EVAL reads only
  // the records and builds without them.
  bool writes_outcomes = true;
  auto operator<=>(const GpuInterpreterSpecialization&) const = default;
};
// stage_window: the section's window (else none); only_its_opcodes: the section's opcode set and
// MOV, which the move fold may add (else every opcode).
GpuInterpreterSpecialization gpu_interpreter_specialization(const Program& program, Section section,
                                                            uint32_t record_words, bool stage_window = true,
                                                            bool only_its_opcodes = false);
Result<gpu::ComputePipeline> create_gpu_interpreter(gpu::Device& device, GpuInterpreter which,
                                                    const GpuInterpreterSpecialization& specialization);

// Which interpreter a run of this program takes under kAuto.
GpuInterpreter choose_gpu_interpreter(const Program& program);

}  // namespace mote
