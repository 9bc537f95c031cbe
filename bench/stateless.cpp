// bench/stateless: the stateless driver (docs/design/drivers.md, "The stateless driver") on one
// emitter of N billboards (effects/stateless/fountain.json with emission.capacity = N; 16M by
// default): the GPU time of its "stateless" pass (the EVAL of every particle through the GPU
// interpreter, then the scatter into the pool) and of the whole frame (every pass's GPU
// timestamps summed), medians over --frames frames, at time scales 1, 20 and -20 — the pass does
// the same work whatever the clock does, so the three lines should agree. The first line is the
// copy roofline measured in the same run (bench/lib/copy_roofline.hpp), and each line carries the
// bytes the stateless pass moves per frame (the evaluated records written and read, the slot map
// read, the pool's records written) and its share of that roofline. One JSON object per line.
//
//   bench_stateless [--count N] [--frames F] [--record-words W] [--roofline-mib M] [--device NAME]
// (lavapipe: --count 65536 --frames 3 --roofline-mib 16)
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "copy_roofline.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"

using namespace mote;

namespace {

struct Options {
  uint32_t count = 1u << 24;
  uint32_t frames = 20;
  uint32_t record_words = 32;
  uint64_t roofline_mib = 1024;
  std::string device;
};

int fail(const char* what, const Error& e) {
  fmt::print(stderr, "bench_stateless: {}: {}\n", what, e.to_string());
  return 1;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Result<CompiledEffect> fountain(uint32_t count) {
  std::ifstream file(std::string(MOTE_SOURCE_DIR) + "/effects/stateless/fountain.json");
  if (!file) return make_error(ErrorCode::kNotFound, "effects/stateless/fountain.json");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string from = "\"capacity\": 4096";
  const size_t at = text.find(from);
  if (at == std::string::npos) return make_error(ErrorCode::kInvalidArgument, "the fountain's capacity moved");
  text.replace(at, from.size(), "\"capacity\": " + std::to_string(count));
  return compile_effect(text);
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--count") opt.count = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--frames") opt.frames = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--record-words") opt.record_words = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--roofline-mib") opt.roofline_mib = std::strtoull(next().c_str(), nullptr, 10);
    else if (a == "--device") opt.device = next();
    else {
      fmt::print(stderr, "usage: bench_stateless [--count N] [--frames F] [--record-words W] [--roofline-mib M] "
                         "[--device NAME]\n");
      return 2;
    }
  }
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail("device", created.error());
  gpu::Device& device = **created;
  double roofline_gbps = 0.0;
  if (opt.roofline_mib > 0) {
    auto roofline = bench::measure_copy_roofline(device, opt.roofline_mib << 20, 10);
    if (!roofline.ok()) return fail("roofline", roofline.error());
    roofline_gbps = roofline->gbps;
    fmt::print("{{\"roofline\":\"copy\",\"bytes_each_way\":{},\"median_ms\":{:.4f},\"gbps\":{:.1f}}}\n",
               roofline->bytes, roofline->median_ms, roofline->gbps);
  }
  auto effect = fountain(opt.count);
  if (!effect.ok()) return fail("effect", effect.error());
  auto system = runtime::ParticleSystem::create(device, {.capacity = opt.count,
                                                         .record_words = opt.record_words,
                                                         .max_emitters = 2});
  if (!system.ok()) return fail("system", system.error());
  auto row = system->add_stateless_emitter(*effect, {.seed = 1});
  if (!row.ok()) return fail("add_stateless_emitter", row.error());
  const sim::StatelessEvaluation* eval = system->stateless().evaluation(*row);
  const uint32_t eval_words = (eval->record_words + 3) / 4 * 4;
  // Written by the interpreter, read by the scatter, the slot map read, the record's words written.
  const double bytes = double(opt.count) * (4.0 * eval_words * 2 + 4.0 + 4.0 * (eval->record_words - 1));
  constexpr float kDt = 1.0f / 60.0f;
  for (int f = 0; f < 3; ++f)
    if (Status s = system->execute(kDt); !s.ok()) return fail("warm-up", s.error());
  auto profiler = gpu::GpuProfiler::create(device, 64);
  if (!profiler.ok()) return fail("profiler", profiler.error());
  int rc = 0;
  for (double scale : {1.0, 20.0, -20.0}) {
    if (Status s = system->stateless().set_time(*row, 10.0); !s.ok()) return fail("set_time", s.error());
    if (Status s = system->stateless().set_time_scale(*row, scale); !s.ok()) return fail("set_time_scale", s.error());
    std::vector<double> pass_ms, frame_ms;
    for (uint32_t f = 0; f < std::max(1u, opt.frames); ++f) {
      system->set_profiler(&*profiler);
      const Status ran = system->execute(kDt);
      system->set_profiler(nullptr);
      if (!ran.ok()) return fail("frame", ran.error());
      if (Status w = device.wait_idle(); !w.ok()) return fail("wait", w.error());
      auto times = profiler->resolve();
      if (!times.ok()) return fail("resolve", times.error());
      double total = 0.0, stateless = 0.0;
      for (const gpu::PassTime& t : *times) {
        total += t.ms;
        if (t.name == "stateless") stateless += t.ms;
      }
      pass_ms.push_back(stateless);
      frame_ms.push_back(total);
    }
    auto stats = system->read_stats();
    if (!stats.ok()) return fail("stats", stats.error());
    const bool pool_ok = stats->alive == opt.count && stats->alive + stats->free_count == opt.count;
    rc |= pool_ok ? 0 : 1;
    const double pass = median(pass_ms);
    const double gbps = pass > 0.0 ? bytes / (pass * 1e-3) / 1e9 : 0.0;
    fmt::print("{{\"bench\":\"stateless\",\"count\":{},\"time_scale\":{},\"eval_pass_ms\":{:.4f},\"frame_ms\":{:.4f},"
               "\"pass_bytes\":{:.0f},\"pass_gbps\":{:.1f},\"of_roofline\":{:.3f},\"alive\":{},\"pool_ok\":{},"
               "\"frames\":{}}}\n",
               opt.count, scale, pass, median(frame_ms), bytes, gbps, roofline_gbps > 0.0 ? gbps / roofline_gbps : 0.0,
               stats->alive, pool_ok, pass_ms.size());
    std::fflush(stdout);
  }
  return rc;
}
