// The benchmarks `mote bench` runs, on a Context's device: the copy roofline first, then the VM's
// GPU executors on the benchmark program (fast and wide interpreters, compiled kernel), the GPU
// frame (steady state over one emitter and over many, its simulate pass compiled and interpreted),
// and the particle draw paths (raster with OIT, raster sorted, compute tiles). Each
// figure carries its ratio to the roofline measured in the same run (the machine may be shared:
// ratios hold where absolute numbers drift). What each figure measures and its bytes model:
// bench/vm_gpu.cpp, bench/runtime_frame.cpp and bench/render.cpp, whose programs run the same
// code with every option; docs/PERFORMANCE.md records the figures.
//
// Runs on the Context's thread and waits for the GPU throughout: a tool's call, never a frame's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mote/particles.hpp"
#include "mote/result.hpp"

namespace mote {

struct BenchOptions {
  // Sizes for a CPU driver (lavapipe) or a quick check: 64 Ki particles, a 320x180 target,
  // a 64 MiB roofline, few repeats. Off: the sizes docs/PERFORMANCE.md reports (16M particles
  // for the VM, 1M for the frame, 1920x1080, a 1 GiB roofline).
  bool small = false;
};

struct BenchFigure {
  std::string name;          // "roofline.copy", "vm.compiled", "frame.steady_1_emitter", "draw.small.compute"
  double ms = 0.0;           // the median GPU time of what it measures
  double gbps = 0.0;         // its bytes model over that time
  double of_roofline = 0.0;  // gbps / the copy roofline's gbps in this run
  std::string detail;        // sizes and counts, in words
};

// Runs every benchmark, calling `on_figure` with each figure as it is measured. Errors: the
// device's (kVulkan, kOutOfMemory), kUnsupported (a queue that cannot draw), kInternal (a
// benchmark whose own check failed: a copy that did not copy, a pool that lost particles).
Result<std::vector<BenchFigure>> run_benchmarks(Context& context, const BenchOptions& options,
                                                const std::function<void(const BenchFigure&)>& on_figure = {});

}  // namespace mote
