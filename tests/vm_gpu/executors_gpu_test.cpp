// The GPU executors in the parity suite (test_vm_gpu): "gpu" picks the interpreter by the
// program's register count (fast for <= 64 slots, wide above), "gpu-uncounted" is the same
// without opcode counting (the fast interpreter then folds moves), "gpu-wide" forces the storage-
// buffer register file for every program, "gpu-compiled" runs each program as its own compiled
// kernel (src/vm_gpu/kernels/). All run with the validation layer on, and any validation message fails
// the test that caused it.
#include <gtest/gtest.h>

#include "gpu/instance.hpp"
#include "test_executors.hpp"
#include "vm_gpu/gpu_executor.hpp"
#include "vm_gpu/kernels/compiled_executor.hpp"

namespace mote::test {
namespace {

// Installed for the whole binary: a validation message is a failure of the running test.
const bool kValidationFails = [] {
  gpu::set_validation_handler([](const gpu::ValidationMessage& m) {
    ADD_FAILURE() << "Vulkan validation: " << m.id_name << ": " << m.text;
  });
  return true;
}();

}  // namespace

std::unique_ptr<Executor> make_executor_for_test(std::string_view name) {
  (void)kValidationFails;
  if (name == "reference") return make_reference_executor();
  if (name == "gpu-compiled") {
    auto compiled = make_compiled_gpu_executor(gpu::DeviceOptions{.validation = true});
    if (!compiled.ok()) {
      ADD_FAILURE() << "cannot create the compiled GPU executor: " << compiled.error().to_string();
      return nullptr;
    }
    return std::move(compiled).value();
  }
  GpuInterpreter interpreter;
  GpuExecutorOptions options;
  if (name == "gpu") interpreter = GpuInterpreter::kAuto;
  else if (name == "gpu-fast") interpreter = GpuInterpreter::kFast;
  else if (name == "gpu-wide") interpreter = GpuInterpreter::kWide;
  else if (name == "gpu-uncounted") {
    // No opcode counts: the fast interpreter runs sections with their moves folded.
    interpreter = GpuInterpreter::kAuto;
    options.count_ops = false;
  } else return nullptr;
  auto executor = make_gpu_executor(gpu::DeviceOptions{.validation = true}, interpreter, options);
  if (!executor.ok()) {
    ADD_FAILURE() << "cannot create the GPU executor: " << executor.error().to_string();
    return nullptr;
  }
  return std::move(executor).value();
}

std::vector<std::string> parity_executor_names() { return {"gpu", "gpu-uncounted", "gpu-wide", "gpu-compiled"}; }
// A trace needs the opcode counters built in: every executor but "gpu-uncounted".
std::vector<std::string> trace_parity_executor_names() { return {"gpu", "gpu-wide", "gpu-compiled"}; }
std::vector<std::string> program_parity_executor_names() { return {}; }

// The interpreters replay 160 programs. A compiled kernel costs a compile per program section,
// and a traced one keeps every instruction's result alive, so nothing is dead code: about 0.7 s
// of LLVM per section on lavapipe with a cold shader cache. 32 programs (64 sections, 4 of
// them with 256 registers) still check every opcode (the suite asserts it) within the test-time
// budget.
uint32_t trace_parity_program_count(std::string_view name) { return name == "gpu-compiled" ? 32 : 160; }

}  // namespace mote::test
