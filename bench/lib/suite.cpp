// mote/bench.hpp: the benchmark programs' measuring code (copy_roofline.hpp, vm_bench.hpp,
// frame_bench.hpp, draw_bench.hpp) run as one suite on a Context's device, each figure with its same-run roofline
// ratio.
#include <fmt/format.h>

#include "api/api_access.hpp"
#include "copy_roofline.hpp"
#include "draw_bench.hpp"
#include "frame_bench.hpp"
#include "mote/bench.hpp"
#include "vm_bench.hpp"

namespace mote {
namespace {

struct Suite {
  gpu::Device& device;
  const BenchOptions& options;
  const std::function<void(const BenchFigure&)>& on_figure;
  std::vector<BenchFigure> figures;
  double roofline_gbps = 0.0;

  void add(BenchFigure figure) {
    if (on_figure) on_figure(figure);
    figures.push_back(std::move(figure));
  }
};

Status run_roofline(Suite& s) {
  const uint64_t wanted = (s.options.small ? 64ull : 1024ull) << 20;
  uint64_t bytes = std::min<uint64_t>(wanted, s.device.description().device_local_bytes / 4);
  bytes = std::max<uint64_t>(bytes / 16 * 16, 1u << 20);
  MOTE_TRY_ASSIGN(const bench::CopyRoofline roofline,
                  bench::measure_copy_roofline(s.device, bytes, s.options.small ? 3 : 10));
  s.roofline_gbps = roofline.gbps;
  s.add({"roofline.copy", roofline.median_ms, roofline.gbps, 1.0,
         fmt::format("vec4 copy, {} MiB each way", roofline.bytes >> 20)});
  return ok_status();
}

Status run_vm(Suite& s) {
  bench::VmBenchOptions options;
  options.particles = s.options.small ? (1u << 16) : (16u << 20);
  options.repeats = s.options.small ? 3 : 10;
  options.executors = "fast,wide,compiled";
  options.warmup_ms = s.options.small ? 50.0 : 2000.0;
  options.roofline_mib = 0;  // the suite's roofline is the one of this run
  MOTE_TRY_ASSIGN(const bench::VmBenchResult result, bench::run_vm_bench(s.device, options));
  for (const bench::VmBenchRow& row : result.rows)
    s.add({"vm." + row.executor, row.median_ms, row.gbps, s.roofline_gbps > 0.0 ? row.gbps / s.roofline_gbps : 0.0,
           fmt::format("benchmark UPDATE, {} particles of 128 bytes, checked", options.particles)});
  return ok_status();
}

Status run_frames(Suite& s) {
  bench::FrameBenchOptions options;
  options.frames = s.options.small ? 5 : 20;
  options.max_particles = s.options.small ? (1u << 16) : bench::kFrameMaxCapacity;
  options.roofline_mib = s.options.small ? 0 : 1024;  // the warm-up before measuring, on a GPU only
  MOTE_TRY_ASSIGN(const CompiledEffect effect, bench::frame_bench_effect(0));
  struct Run {
    const char* frame_name;  // nullptr: only its simulate figure
    const char* simulate_name;
    uint32_t scenario;  // index in kScenarios
    bool interpreted;
  };
  const Run runs[] = {{"frame.steady_1_emitter", "frame.simulate_compiled", 0, false},
                      {nullptr, "frame.simulate_interpreted", 0, true},
                      {"frame.steady_many_emitters", nullptr, 2, false}};
  for (const Run& run : runs) {
    const bench::Scenario& scenario = bench::kScenarios[run.scenario];
    options.interpreted = run.interpreted;
    MOTE_TRY_ASSIGN(const bench::FrameResult r,
                    bench::run_frame_scenario(s.device, options, scenario, effect, s.roofline_gbps));
    if (!r.pool_ok)
      return make_error(ErrorCode::kInternal,
                        std::string(scenario.name) + ": the pool lost particles (alive + free != capacity)");
    const std::string detail = fmt::format("{} alive of {}, {} emitter{}, simulate {}", r.alive, r.capacity,
                                           scenario.emitters, scenario.emitters > 1 ? "s" : "",
                                           run.interpreted ? "interpreted" : "compiled");
    if (run.frame_name) s.add({run.frame_name, r.frame_ms, r.frame_gbps, r.frame_of_roofline, detail});
    if (run.simulate_name) s.add({run.simulate_name, r.simulate_ms, r.simulate_gbps, r.simulate_of_roofline, detail});
  }
  return ok_status();
}

Status run_draws(Suite& s) {
  bench::DrawBenchOptions options;
  if (s.options.small) {
    options.width = 320;
    options.height = 180;
    options.counts = {10000};
    options.smoke = 2000;
    options.repeats = 2;
  }
  MOTE_TRY_ASSIGN(const bench::DrawBenchResult result,
                  bench::run_draw_bench(s.device, options, s.roofline_gbps, [&](const bench::Row& row) {
                    s.add({fmt::format("draw.{}.{}", row.case_name, bench::path_name(row.path)), row.median_ms,
                           row.gbps, row.of_roofline,
                           fmt::format("{} particles at {}x{}", row.particles, options.width, options.height)});
                  }));
  if (result.failed) return make_error(ErrorCode::kInternal, "a draw path failed its check (see above)");
  return ok_status();
}

}  // namespace

Result<std::vector<BenchFigure>> run_benchmarks(Context& context, const BenchOptions& options,
                                                const std::function<void(const BenchFigure&)>& on_figure) {
  Suite s{detail::ApiAccess::device(context), options, on_figure, {}, 0.0};
  MOTE_TRY(run_roofline(s));
  MOTE_TRY(run_vm(s));
  MOTE_TRY(run_frames(s));
  MOTE_TRY(run_draws(s));
  return std::move(s.figures);
}

}  // namespace mote
