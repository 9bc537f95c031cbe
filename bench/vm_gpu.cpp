// bench/vm_gpu: the GPU executors on the benchmark UPDATE program (bench/update_program.hpp,
// 25 instructions) over N particles with a 32-word (128-byte) record — the VM issue's target of
// >= 50% of the copy roofline for 16M particles: the interpreters (fast: private register file,
// wide: storage-buffer file) and the program compiled to
// its own kernel (compiled, src/vm_gpu/kernels/), each with the record window staged (the default) and,
// as "<name>-direct", with every field access going to the record word by word ("fast-ops": the
// fast interpreter specialised to the program's opcodes; "fast-instrumented": built with the
// per-opcode counts and the trace, as the parity suite runs it, where the others leave them
// out; the uninstrumented fast builds run the section with its moves folded, src/vm_gpu/fast_fold.hpp,
// and "fast-unfolded" is the same build running every instruction as written); and "touch"
// (shaders/bench/record_window_touch.comp), which moves exactly the staged window's bytes and
// computes nothing, each invocation its own record's ("-coalesced": through shared memory as
// the harnesses move them, the most this record layout lets any executor do; "touch-full" reads and
// writes the whole 128-byte record instead; "touch-full-out" stores to a second buffer instead
// of in place).
//
// The GPU is shared and its clocks ramp: every executor is first warmed up together for at least
// --warmup-ms of GPU time, then the timed rounds interleave the executors (one dispatch each per
// round, GPU timestamps around each), so drift hits all of them alike; the copy roofline is
// measured after the warm-up and again after the rounds. Medians, bests and every time are
// printed. The first 4,096 particles are checked against the reference executor at the end.
// One JSON object per line.
//
//   vm_gpu [--particles N] [--repeats R] [--executors fast,wide,compiled,...]
//          [--body-repeats K] [--warmup-ms T] [--roofline-mib M] [--device SEL]
//          [--interpreter-groups G] [--print-code]
// --body-repeats K runs the program's UPDATE body K times over: the slope against K is the
// per-instruction cost, the intercept the per-particle cost. --roofline-mib 0 skips the copy.
// --interpreter-groups G launches the fast interpreter on at most G workgroups, each walking
// several blocks (default: one per block). --print-code prints each interpreter's section as it
// runs it (one JSON line: code words, immediates).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu/device.hpp"
#include "vm_bench.hpp"

using namespace mote;

namespace {

struct Options {
  std::string device;
  bench::VmBenchOptions bench;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "vm_gpu: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--particles") o.bench.particles = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--repeats") o.bench.repeats = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else if (a == "--executors") o.bench.executors = next();
    else if (a == "--warmup-ms") o.bench.warmup_ms = std::strtod(next().c_str(), nullptr);
    else if (a == "--roofline-mib") o.bench.roofline_mib = std::strtoull(next().c_str(), nullptr, 10);
    else if (a == "--device") o.device = next();
    else if (a == "--interpreter-groups")
      o.bench.interpreter_groups = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--print-code") o.bench.print_code = true;
    else if (a == "--body-repeats")
      o.bench.body_repeats = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else {
      fmt::print(stderr, "usage: vm_gpu [--particles N] [--repeats R] [--executors fast,wide,compiled,...] "
                         "[--body-repeats K] [--warmup-ms T] [--roofline-mib M] [--device SEL] [--interpreter-groups "
                         "G] [--print-code]\n");
      std::exit(2);
    }
  }
  return o;
}

int fail(const Error& e) {
  fmt::print(stderr, "vm_gpu: {}\n", e.to_string());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail(created.error());
  auto result = bench::run_vm_bench(**created, opt.bench, [](const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
  });
  if (!result.ok()) return fail(result.error());
  return 0;
}
