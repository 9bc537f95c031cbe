// bench/runtime_frame: the GPU runtime frame (src/runtime_frame/) end to end — reset, emitter
// tick, scan, emit args, emit (INIT), simulate (UPDATE + kill + free-list pushes), finish — with
// GPU timestamps per pass (ParticleSystem::set_profiler). One JSON object per line; medians over
// the measured frames.
//
//   bench_runtime_frame [--scenario N] [--frames K] [--device SEL] [--max-particles N]
//                       [--interpreted] [--roofline-mib M] [--record-bytes B] [--extra-fields F]
// --interpreted runs simulate on the fast interpreter (ParticleSystemOptions::compiled_simulate
// off) instead of each program's compiled kernel. The copy roofline (bench/lib/copy_roofline.hpp)
// is measured first in the same run (--roofline-mib 0 skips it) and every scenario line carries
// simulate's and the frame's fraction of it. --record-bytes sets the pool stride (default 128,
// the VM issue's typical record; the effect needs 64). --extra-fields F (0..20) gives the
// particles F more float fields after `life`, each advanced by dt in UPDATE (load, add, store):
// a wider record window (3 chunks with none; 6 with 12, past the 4 the interpreted frame's
// default pipelines stage), for the cost of a larger record.
//
// Scenarios (N = 0 runs all):
//   1  ~1M alive, 1 emitter, steady state        3  ~1M alive over 10,000 emitters, steady state
//   2  ~16M alive, 1 emitter, steady state       4  ~16M alive over 100,000 emitters, steady state
//   5  burst: 1M newborns in one frame through burst() into an empty pool (one emitter)
//   6  16M alive from one burst that lives on: simulate over an alive list in slot order, no
//      spawns or deaths (what steady state's list order costs, against scenario 2)
//   7  ~16M alive over 1,000 emitters of 1,000 distinct programs (the coherence buckets: against
//      scenario 2, the cost of many programs)
//   8  ~16M alive over 100,000 emitters of 100 distinct programs
//   9  idle: a pool of 16M records, 100 emitters of two programs at rate 0, nothing alive (the
//      frame's fixed cost)
//   10 GPU pre-warm: an emitter added with 2 s of pre-warm to a steady state of ~1M (life 0.5 s);
//      the frame that records the warm-up ("prewarm_ms": its warm-up pass, "frame_ms": the frame)
//   11 events: 1M senders each sending one event a frame to a bound emitter whose children live
//      one frame (1M events appended, sorted and delivered into 1M children every frame; per pass:
//      "event_delivery" the sorts and scan, "event_scatter", emit, simulate; bench/lib/event_bench.cpp)
// Steady state: every particle lives exactly `n` frames (life 0.5 s at dt 1/60: the count is
// taken from the same f32 accumulation the UPDATE does), the rate per emitter is
// target / (emitters * n * dt), and the pool is warmed for n + 4 frames before measuring.
// --max-particles caps the pool (and so the targets and the burst): for lavapipe.
//
// Bytes model (what the frame must move through DRAM at least; 32-byte sectors):
//   simulate: per entry of last frame's alive list 4 B (alive_in) + the record sectors UPDATE
//     reads (the header's sector 0 and every LOAD_FIELD sector); a survivor also writes its
//     STORE_FIELD sectors; a killed particle writes its whole record (zeroed). (The survivor
//     bits and tile counts, 1/8 B per entry, are not counted.)
//   compact: per entry alive_in read again and 4 B written, to alive_out (a survivor) or to the
//     free list (the others); the tile sums and bits are not counted.
//   emit: per newborn 4 B free-list pop + the whole record written (zeroed + header + INIT) + 4 B
//     alive_out append (the spawn sums' binary search and the emitter rows are taken as cached).
//   tick: per row the record's generation and rate (8 B), the FrameEmitterState read and written, the 4 B count.
//   scan: per row 4 B read + 4 B written (its internal passes not counted).
//   bucket (two or more programs): per entry 4 B alive_in + the header's sector + 4 B entry
//     program written, then 4 B read again with 4 B alive_in by the scatter, 4 B coherence entry
//     written; simulate then also reads the 4 B coherence entry.
//   bounds: per newborn 4 B alive_out + the record sectors UPDATE reads (the drawn position,
//     size and velocity lie among them); simulate folds the survivors from what it already holds.
//   reset, emit_args, finish: counters only (0).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "copy_roofline.hpp"
#include "frame_bench.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "runtime/frame/particle_system.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

using namespace mote;
using mote::bench::kFrameMaxCapacity;
using mote::bench::kScenarios;
using mote::bench::Scenario;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kLife = 0.5f;

struct Options {
  uint32_t scenario = 0;
  std::string device;
  bench::FrameBenchOptions bench;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "bench_runtime_frame: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--scenario") o.scenario = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--frames") o.bench.frames = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else if (a == "--device") o.device = next();
    else if (a == "--interpreted") o.bench.interpreted = true;
    else if (a == "--roofline-mib") o.bench.roofline_mib = std::strtoull(next().c_str(), nullptr, 10);
    else if (a == "--record-bytes")
      o.bench.record_words = std::clamp(uint32_t(std::strtoul(next().c_str(), nullptr, 10)) / 16u * 4u, 4u, 256u);
    else if (a == "--extra-fields")
      o.bench.extra_fields = std::min(20u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else if (a == "--max-particles")
      o.bench.max_particles = std::clamp(uint32_t(std::strtoul(next().c_str(), nullptr, 10)), 64u, kFrameMaxCapacity);
    else {
      fmt::print(stderr, "usage: bench_runtime_frame [--scenario 0-11] [--frames K] [--device SEL] [--max-particles N] "
                         "[--interpreted] [--roofline-mib M] [--record-bytes B] [--extra-fields F]\n");
      std::exit(2);
    }
  }
  if (o.scenario > 11) {
    fmt::print(stderr, "bench_runtime_frame: --scenario is 0 (all) .. 11\n");
    std::exit(2);
  }
  return o;
}

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_runtime_frame: {}: {}\n", what, e.to_string());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail("device", created.error());
  gpu::Device& device = **created;

  auto made = bench::frame_bench_effect(opt.bench.extra_fields);
  if (!made.ok()) return fail("assemble", made.error());
  const CompiledEffect& effect = *made;

  fmt::print("{{\"bench\":\"runtime_frame\",\"device\":\"{}\",\"record_bytes\":{},\"dt\":{:.6f},\"life_s\":{},"
             "\"max_particles\":{},\"update_instructions\":{},\"init_instructions\":{},\"extra_fields\":{}}}\n",
             device.description().name, opt.bench.record_words * 4, kDt, kLife, opt.bench.max_particles,
             effect.program.update.size(), effect.program.init.size(), opt.bench.extra_fields);
  // The simulate pipelines' register counts and sizes, as the driver reports them (when the
  // device exposes VK_KHR_pipeline_executable_properties): the interpreter build, and this
  // program's compiled kernel, built from a small system's heap the way every system builds it.
  auto print_statistics = [&](const char* which, const gpu::ComputePipeline& pipeline) {
    if (auto stats = pipeline.statistics(); stats.ok())
      for (const auto& st : *stats)
        fmt::print("{{\"simulate_pipeline\":\"{}\",\"statistic\":\"{}\",\"value\":\"{}\"}}\n", which, st.name,
                   st.value);
  };
  if (auto interpreted = gpu::ComputePipeline::create(device, "runtime/frame/simulate"); interpreted.ok())
    print_statistics("interpreted", *interpreted);
  if (auto probe = runtime::ParticleSystem::create(device, {.capacity = 1024, .record_words = opt.bench.record_words});
      probe.ok()) {
    if (auto row = probe->add_emitter(effect); row.ok()) {
      const runtime::EmitterContext* context = probe->emitter_registry().context(*row);
      vm_kernels::KernelCache kernels(device);
      auto kernel = kernels.kernel(probe->program_heap().linked_program(context->program), Section::kUpdate,
                                   {.record_words = opt.bench.record_words,
                                    .harness = vm_kernels::KernelHarness::kFrameSimulate});
      if (kernel.ok()) print_statistics("compiled", **kernel);
    }
  }

  double roofline_gbps = 0.0;
  if (opt.bench.roofline_mib > 0) {
    auto roofline = bench::measure_copy_roofline(device, opt.bench.roofline_mib << 20, 10);
    if (!roofline.ok()) return fail("roofline", roofline.error());
    roofline_gbps = roofline->gbps;
    fmt::print("{{\"roofline\":\"copy\",\"bytes_each_way\":{},\"median_ms\":{:.4f},\"gbps\":{:.1f}}}\n",
               roofline->bytes, roofline->median_ms, roofline->gbps);
  }
  int rc = 0;
  for (const Scenario& sc : kScenarios) {
    if (opt.scenario != 0 && opt.scenario != sc.id) continue;
    auto result = bench::run_frame_scenario(device, opt.bench, sc, effect, roofline_gbps);
    if (!result.ok()) {
      rc |= fail(sc.name, result.error());
      continue;
    }
    fmt::print("{}\n", result->json);
    std::fflush(stdout);
    rc |= result->pool_ok ? 0 : 1;
  }
  if (opt.scenario == 0 || opt.scenario == 10) {
    auto prewarm = bench::run_prewarm_scenario(device, opt.bench, effect, 1000000, 2.0f);
    if (!prewarm.ok()) {
      rc |= fail("prewarm", prewarm.error());
    } else {
      fmt::print("{}\n", *prewarm);
    }
  }
  if (opt.scenario == 0 || opt.scenario == 11) {
    auto events = bench::run_event_scenario(device, opt.bench, 1000000);
    if (!events.ok()) {
      rc |= fail("events", events.error());
    } else {
      fmt::print("{}\n", *events);
    }
  }
  return rc;
}
