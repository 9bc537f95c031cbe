// The executors the parity suite runs, by name. The suite itself is executor-agnostic: an
// executor joins it by being named in parity_executor_names() and built by
// make_executor_for_test() (today in test_executors_cpu.cpp; GPU executors extend both).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mote/vm.hpp"

namespace mote::test {

// nullptr for an unknown name (or one not available on this machine).
std::unique_ptr<Executor> make_executor_for_test(std::string_view name);
// The executors compared against the reference by the parity suite.
std::vector<std::string> parity_executor_names();
// The subset compared end to end on whole generated programs (ProgramParity). Executors whose
// transcendentals are approximations within the table's bounds (the GPU) are held instead to
// trace-replay parity (tests/vm/test_vm_gpu_trace.cpp): each instruction checked against the
// reference on the executor's own operands, since error compounding through a random program
// (a 1-ulp difference before a FLOOR or CMP) makes end-to-end agreement meaningless there.
std::vector<std::string> program_parity_executor_names();
// The executors of parity_executor_names() that can trace (test_vm_gpu_trace.cpp).
std::vector<std::string> trace_parity_executor_names();
// How many generated programs the trace-replay suite (test_vm_gpu_trace.cpp) runs on an
// executor of parity_executor_names(): fewer where each program costs a compile.
uint32_t trace_parity_program_count(std::string_view name);

}  // namespace mote::test
