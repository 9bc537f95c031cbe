// bench/scan: the runtime's exact u32 prefix scan (src/gpu/passes/prefix_scan.hpp) at 1 Mi
// and 16 Mi elements, GPU timestamps around each repeat, GB/s counting one read of the input and
// one write of the output (the scan's compulsory traffic; the upsweep's second read is its
// overhead, so the figure against bench/roofline says how close to one pass it gets). One JSON
// object per line.
//
//   bench_scan [--repeats R] [--device SEL] [--exclusive] [--indirect]
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "gpu/passes/prefix_scan.hpp"

using namespace mote;
using namespace mote::gpu;

namespace {

struct Options {
  uint32_t repeats = 20;
  std::string device;
  bool exclusive = false;
  bool indirect = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) o.repeats = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--device" && i + 1 < argc) o.device = argv[++i];
    else if (a == "--exclusive") o.exclusive = true;
    else if (a == "--indirect") o.indirect = true;
    else {
      fmt::print(stderr, "usage: bench_scan [--repeats R] [--device SEL] [--exclusive] [--indirect]\n");
      std::exit(2);
    }
  }
  o.repeats = std::max(1u, o.repeats);
  return o;
}

int fail(const Error& e) {
  fmt::print(stderr, "bench_scan: {}\n", e.to_string());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail(created.error());
  Device& device = **created;
  auto profiler = GpuProfiler::create(device, opt.repeats + 1);
  if (!profiler.ok()) return fail(profiler.error());
  fmt::print(
      "{{\"bench\":\"scan\",\"device\":\"{}\",\"driver\":\"{}\",\"repeats\":{},\"kind\":\"{}\",\"count\":\"{}\"}}\n",
      device.description().name, device.description().driver_info, opt.repeats,
      opt.exclusive ? "exclusive" : "inclusive", opt.indirect ? "gpu" : "host");

  for (uint32_t n : {1u << 20, 1u << 24}) {
    auto scan = gpu::PrefixScan::create(device, n);
    auto input = Buffer::create(device, {.size = uint64_t(n) * 4, .name = "bench.scan_in"});
    auto output = Buffer::create(device, {.size = uint64_t(n) * 4, .name = "bench.scan_out"});
    auto counts = Buffer::create(device, {.size = 16, .name = "bench.scan_count"});
    if (!scan.ok()) return fail(scan.error());
    if (!input.ok() || !output.ok() || !counts.ok()) return fail(make_error(ErrorCode::kOutOfMemory, "buffers"));
    std::mt19937 rng(n);
    std::vector<uint32_t> values(n);
    for (auto& v : values) v = rng() & 0xFF;  // spawn counts are small
    if (auto s = upload_span<uint32_t>(device, *input, values); !s.ok()) return fail(s.error());
    const std::vector<uint32_t> count_word{n, 0, 0, 0};
    if (auto s = upload_span<uint32_t>(device, *counts, count_word); !s.ok()) return fail(s.error());
    const gpu::ScanCount count = opt.indirect ? gpu::ScanCount::from_buffer(*counts) : gpu::ScanCount::host(n);
    const auto kind = opt.exclusive ? gpu::ScanKind::kExclusive : gpu::ScanKind::kInclusive;

    Status recorded;
    auto status = device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler->reset(cmd);
      for (uint32_t r = 0; r <= opt.repeats; ++r) {  // the first is a warm-up
        profiler->begin(cmd, r == 0 ? "warmup" : "scan");
        if (auto s = scan->record(cmd, *input, *output, count, kind); !s.ok()) recorded = s;
        profiler->end(cmd);
        compute_to_compute(cmd);
      }
    });
    if (!status.ok()) return fail(status.error());
    if (!recorded.ok()) return fail(recorded.error());
    auto times = profiler->resolve();
    if (!times.ok()) return fail(times.error());

    // Verify once: a fast wrong scan is no result.
    auto out = readback_as<uint32_t>(device, *output, n);
    if (!out.ok()) return fail(out.error());
    std::vector<uint32_t> expected(n);
    if (opt.exclusive) std::exclusive_scan(values.begin(), values.end(), expected.begin(), 0u);
    else std::inclusive_scan(values.begin(), values.end(), expected.begin());
    const bool exact = *out == expected;

    std::vector<double> ms;
    for (const PassTime& t : *times)
      if (t.name == "scan") ms.push_back(t.ms);
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double gbps = double(n) * 8.0 / (median * 1e-3) / 1e9;
    fmt::print(
        "{{\"elements\":{},\"levels\":{},\"median_ms\":{:.4f},\"min_ms\":{:.4f},\"gbps\":{:.1f},\"exact\":{}}}\n", n,
        scan->levels(), median, ms.front(), gbps, exact);
    if (!exact) return 1;
  }
  return 0;
}
