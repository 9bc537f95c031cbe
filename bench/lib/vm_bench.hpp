// The VM's GPU executors on the benchmark UPDATE program (bench/vm_gpu and `mote bench`): the
// interpreters, the compiled kernel and the memory-only touch kernels over N particles, warmed up
// together, timed in interleaved rounds, checked against the reference executor. What each
// executor and figure is: bench/vm_gpu.cpp's header comment.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::bench {

struct VmBenchOptions {
  uint32_t particles = 16u << 20;
  uint32_t repeats = 10;
  std::string executors = "fast,fast-direct,wide,compiled,compiled-direct,touch,touch-full";
  double warmup_ms = 2000.0;
  uint32_t body_repeats = 1;  // the UPDATE body repeated: separates per-instruction from per-particle cost
  bool print_code = false;    // print each interpreter's section as it runs it (code words, immediates)
  uint64_t roofline_mib = 1024;
  uint32_t interpreter_groups = 0;  // the fast interpreters' workgroups launched (0: one per block)
};

struct VmBenchRow {
  std::string executor;
  double median_ms = 0.0, best_ms = 0.0;
  double gbps = 0.0;         // the sectors the program moves per particle, over the median
  double of_roofline = 0.0;  // against the roofline measured in the run (0 with roofline_mib 0)
};

struct VmBenchResult {
  std::vector<VmBenchRow> rows;
};

// Runs the benchmark, handing each JSON line bench/vm_gpu prints to `print` (with its newline).
// Errors: the device's, kInvalidArgument (no executor selected), kInternal (the check failed).
Result<VmBenchResult> run_vm_bench(gpu::Device& device, const VmBenchOptions& options,
                                   const std::function<void(const std::string&)>& print = {});

}  // namespace mote::bench
