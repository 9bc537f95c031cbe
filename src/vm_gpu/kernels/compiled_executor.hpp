// "gpu-compiled": the Executor that runs each program section as its own compute kernel
// (glsl_translator.hpp, compiled once per program by kernel_cache.hpp) instead of through a
// GPU interpreter. Same RunInput/RunOutput contract, same verification gate, same harness
// buffers and launch as gpu-fast/gpu-wide (src/vm_gpu/gpu_executor.hpp), and the same parity
// suites (tests/vm/). Any register count runs: registers are the kernel's locals.
#pragma once

#include <memory>

#include "gpu/device.hpp"
#include "mote/vm.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote {

// Uses `device`, which must outlive the executor.
std::unique_ptr<Executor> make_compiled_gpu_executor(gpu::Device& device);
// Creates and owns its own device.
Result<std::unique_ptr<Executor>> make_compiled_gpu_executor(const gpu::DeviceOptions& options);
// FOR ROBUSTNESS TESTS ONLY (as make_unverified_gpu_executor_for_tests): skips the verifier
// and the input checks, to prove that the compiled kernel keeps the interpreter's clamps.
std::unique_ptr<Executor> make_unverified_compiled_gpu_executor_for_tests(gpu::Device& device);

// The kernel cache of an executor made above (compile counts and times); nullptr for any other
// executor.
const vm_kernels::KernelCache* compiled_kernel_cache(const Executor& executor);

}  // namespace mote
