// The particle VM's GPU executors on a Context's device: the same Executor contract (mote/vm.hpp)
// as the CPU reference and batch executors, run as compute dispatches. docs/design/vm.md.
//
//   kInterpreter      the fast interpreter when the program fits it (at most 64 registers and 63
//                     distinct immediates per section), else the wide one
//   kFastInterpreter  register file in private memory (a program that does not fit is refused)
//   kWideInterpreter  register file in a storage buffer: any program
//   kCompiled         each program section translated to its own kernel, compiled on first use
//                     and cached by content (tens of milliseconds, once per program)
//
// Ownership and threading: the executor works on the Context's device; the Context must outlive
// it, and both are used from one thread at a time. Every run() verifies the program first (as
// the CPU executors do), submits, and waits for the result: these executors are for tools,
// tests and offline work, not for a frame (mote/particles.hpp runs the frame). Errors from
// run(): the verifier's (kVerify), kInvalidArgument for a RunInput that does not match its
// program, kUnsupported for a program the chosen interpreter cannot hold, kVulkan, kOutOfMemory.
#pragma once

#include <memory>

#include "mote/particles.hpp"
#include "mote/vm.hpp"

namespace mote {

enum class GpuExecutorKind { kInterpreter, kFastInterpreter, kWideInterpreter, kCompiled };

struct GpuExecutorSettings {
  GpuExecutorKind kind = GpuExecutorKind::kInterpreter;
  // Interpreters: count every opcode's executions (RunOutput::op_executions). Without, the
  // counts stay zero and the fast interpreter runs the section with its moves folded away, which
  // computes the same records faster. The compiled kernels always count.
  bool count_ops = true;
};

// Creation records the choice only (pipelines are built by the first run), so it cannot fail.
std::unique_ptr<Executor> make_gpu_executor(Context& context, const GpuExecutorSettings& settings = {});

}  // namespace mote
