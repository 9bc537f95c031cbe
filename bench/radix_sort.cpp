// bench/radix_sort: the runtime's stable (key, value) radix sort (src/gpu/passes/radix_sort.hpp)
// at 1 Mi, 4 Mi and 16 Mi pairs of random keys, GPU timestamps around each sort (the input is
// restored from a pristine copy before every repeat, outside the timed range, so every repeat
// sorts random keys), the median of the repeats. Reported against a vec4 copy of the same
// 8 bytes a pair measured in the same run (bench/roofline's kernel): the sort's modelled traffic
// per digit pass is a read of the keys (histogram), a read of keys and values and a write of
// both (scatter), 20 bytes a pair, plus the histogram scan and, with an odd pass count, the
// first copy; "of_roofline" is that traffic's rate over the copy's. Verified once against
// std::stable_sort. One JSON object per line.
//
//   bench_radix_sort [--sizes N,N,...] [--repeats R] [--warmup W] [--key-bits B] [--indirect] [--device SEL]
//   (on lavapipe: --sizes 65536 --repeats 3 --warmup 1)
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
#include "gpu/passes/radix_sort.hpp"
#include "shared/gpu_selftest.h"
#include "shared/radix_sort.h"

using namespace mote;
using namespace mote::gpu;

namespace {

constexpr uint32_t kVec4PerThread = 4;  // bench/roofline's setting

struct Options {
  std::vector<uint32_t> sizes{1u << 20, 1u << 22, 1u << 24};
  uint32_t repeats = 20;
  uint32_t warmup = 10;
  uint32_t key_bits = 32;
  bool indirect = false;
  std::string device;
};

[[noreturn]] void usage() {
  fmt::print(stderr, "usage: bench_radix_sort [--sizes N,N,...] [--repeats R] [--warmup W] [--key-bits B] [--indirect] "
                     "[--device SEL]\n");
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      o.sizes.clear();
      std::string list = argv[++i];
      for (size_t at = 0; at <= list.size();) {
        const size_t comma = std::min(list.find(',', at), list.size());
        const unsigned long n = std::strtoul(list.substr(at, comma - at).c_str(), nullptr, 10);
        if (n == 0 || n > (1ul << 31)) usage();
        o.sizes.push_back(uint32_t(n));
        at = comma + 1;
      }
    } else if (a == "--repeats" && i + 1 < argc) {
      o.repeats = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--warmup" && i + 1 < argc) {
      o.warmup = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--key-bits" && i + 1 < argc) {
      o.key_bits = uint32_t(std::strtoul(argv[++i], nullptr, 10));
      if (o.key_bits == 0 || o.key_bits > 32) usage();
    } else if (a == "--indirect") {
      o.indirect = true;
    } else if (a == "--device" && i + 1 < argc) {
      o.device = argv[++i];
    } else {
      usage();
    }
  }
  o.repeats = std::max(1u, o.repeats);
  return o;
}

int fail(const Error& e) {
  fmt::print(stderr, "bench_radix_sort: {}\n", e.to_string());
  return 1;
}

// bench/roofline's copy: `bytes` (a multiple of 16) from src to dst in chunks a binding and a
// dispatch can hold.
void record_copy(Device& device, VkCommandBuffer cmd, const ComputePipeline& pipeline, const Buffer& src,
                 const Buffer& dst, uint64_t bytes) {
  const auto& limits = device.limits();
  const uint64_t per_group = uint64_t(pipeline.local_size_x()) * kVec4PerThread * 16;
  uint64_t max_chunk = std::min<uint64_t>(limits.maxStorageBufferRange,
                                          uint64_t(limits.maxComputeWorkGroupCount[0]) * per_group);
  const uint64_t align = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, per_group);
  max_chunk = max_chunk / align * align;
  ComputeRecorder rec(device, cmd);
  rec.bind(pipeline);
  for (uint64_t offset = 0; offset < bytes; offset += max_chunk) {
    const uint64_t chunk = std::min(max_chunk, bytes - offset);
    shader::RooflineParams params{0, uint32_t(chunk / 16), 0, 0};
    rec.buffers({{0, &src, offset, chunk}, {1, &dst, offset, chunk}})
        .push(params)
        .dispatch(uint32_t((chunk + per_group - 1) / per_group));
  }
}

double median_of(const std::vector<PassTime>& times, const std::string& name, double* best) {
  std::vector<double> ms;
  for (const PassTime& t : times)
    if (t.name == name) ms.push_back(t.ms);
  std::sort(ms.begin(), ms.end());
  *best = ms.front();
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail(created.error());
  Device& device = **created;
  auto profiler = GpuProfiler::create(device, 2 * opt.repeats);
  auto copy = ComputePipeline::create(device, "bench/roofline_copy",
                                      std::vector<SpecializationConstant>{{0, kVec4PerThread}});
  if (!profiler.ok()) return fail(profiler.error());
  if (!copy.ok()) return fail(copy.error());
  const uint32_t passes = gpu::RadixSort::passes(opt.key_bits);
  fmt::print("{{\"bench\":\"radix_sort\",\"device\":\"{}\",\"driver\":\"{}\",\"repeats\":{},\"warmup\":{},\"key_bits\":"
             "{},\"passes\":{},"
             "\"count\":\"{}\"}}\n",
             device.description().name, device.description().driver_info, opt.repeats, opt.warmup, opt.key_bits, passes,
             opt.indirect ? "gpu" : "host");

  for (uint32_t n : opt.sizes) {
    const uint64_t bytes = uint64_t(n) * 4;
    auto sort = gpu::RadixSort::create(device, n);
    if (!sort.ok()) return fail(sort.error());
    // keys, values, and their pristine copies (keys and values back to back, for the roofline
    // copy of the same 8 bytes a pair), a copy target and the count word.
    auto keys = Buffer::create(device, {.size = bytes, .name = "bench.sort_keys"});
    auto values = Buffer::create(device, {.size = bytes, .name = "bench.sort_values"});
    const uint64_t pair_bytes = (2 * bytes + 15) / 16 * 16;
    auto pristine = Buffer::create(device, {.size = pair_bytes, .name = "bench.sort_pristine"});
    auto copy_target = Buffer::create(device, {.size = pair_bytes, .name = "bench.sort_copy_target"});
    auto counts = Buffer::create(device, {.size = 16, .name = "bench.sort_count"});
    if (!keys.ok() || !values.ok() || !pristine.ok() || !copy_target.ok() || !counts.ok()) {
      return fail(make_error(ErrorCode::kOutOfMemory, "bench buffers"));
    }
    std::mt19937 rng(n);
    const uint32_t mask = opt.key_bits == 32 ? 0xFFFFFFFFu : (1u << opt.key_bits) - 1u;
    std::vector<uint32_t> host(2 * size_t(n));
    for (uint32_t i = 0; i < n; ++i) host[i] = rng() & mask;
    std::iota(host.begin() + n, host.end(), 0u);
    if (auto s = upload_span<uint32_t>(device, *pristine, host); !s.ok()) return fail(s.error());
    const std::vector<uint32_t> count_word{n, 0, 0, 0};
    if (auto s = upload_span<uint32_t>(device, *counts, count_word); !s.ok()) return fail(s.error());
    const gpu::ScanCount count = opt.indirect ? gpu::ScanCount::from_buffer(*counts) : gpu::ScanCount::host(n);

    // One submission, so the clocks that the warm-up raised hold for every timed phase: warm-up
    // sorts, timed sorts, the copy at the same size, then the sorts again with a timestamp pair
    // around each step (per step: the median over the repeats of its time summed over the sort's
    // passes; the sort's own figure is the first phase's, without the timestamps in between).
    const uint32_t steps_per_sort = 1 + (passes % 2) + 3 * passes;
    auto step_profiler = GpuProfiler::create(device, steps_per_sort * opt.repeats);
    if (!step_profiler.ok()) return fail(step_profiler.error());
    Status recorded;
    auto restore = [&](VkCommandBuffer cmd) {
      // The random input again (the last sort, or nothing, wrote keys and values).
      memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
      const VkBufferCopy key_region{0, 0, bytes};
      const VkBufferCopy value_region{bytes, 0, bytes};
      vkCmdCopyBuffer(cmd, pristine->handle(), keys->handle(), 1, &key_region);
      vkCmdCopyBuffer(cmd, pristine->handle(), values->handle(), 1, &value_region);
      transfer_to_compute(cmd);
    };
    auto record_sort = [&](VkCommandBuffer cmd) {
      if (auto s = sort->record(cmd, *keys, *values, count, opt.key_bits); !s.ok()) recorded = s;
    };
    auto status = device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler->reset(cmd);
      step_profiler->reset(cmd);
      for (uint32_t r = 0; r < opt.warmup; ++r) {
        restore(cmd);
        record_sort(cmd);
      }
      for (uint32_t r = 0; r < opt.repeats; ++r) {
        restore(cmd);
        profiler->begin(cmd, "sort");  // an ALL_COMMANDS timestamp: after the restore is done
        record_sort(cmd);
        profiler->end(cmd);
      }
      for (uint32_t r = 0; r < opt.repeats; ++r) {
        compute_to_compute(cmd);
        profiler->begin(cmd, "copy");
        record_copy(device, cmd, *copy, *pristine, *copy_target, pair_bytes);
        profiler->end(cmd);
      }
      sort->set_profiler(&*step_profiler);
      for (uint32_t r = 0; r < opt.repeats; ++r) {
        restore(cmd);
        record_sort(cmd);
      }
      sort->set_profiler(nullptr);
      compute_to_transfer(cmd);
    });
    if (!status.ok()) return fail(status.error());
    if (!recorded.ok()) return fail(recorded.error());
    auto times = profiler->resolve();
    if (!times.ok()) return fail(times.error());
    auto step_times = step_profiler->resolve();
    if (!step_times.ok()) return fail(step_times.error());

    // Verify the last sort: a fast wrong sort is no result.
    auto out_keys = readback_as<uint32_t>(device, *keys, n);
    auto out_values = readback_as<uint32_t>(device, *values, n);
    if (!out_keys.ok()) return fail(out_keys.error());
    if (!out_values.ok()) return fail(out_values.error());
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return host[a] < host[b]; });
    bool exact = true;
    for (uint32_t i = 0; i < n && exact; ++i) exact = (*out_keys)[i] == host[order[i]] && (*out_values)[i] == order[i];

    std::string steps_json;
    for (const char* step : {"radix.setup", "radix.copy", "radix.histogram", "radix.scan", "radix.scatter"}) {
      std::vector<double> per_sort;
      for (uint32_t r = 0; r < opt.repeats; ++r) {
        double sum = 0.0;
        bool seen = false;
        for (uint32_t k = 0; k < steps_per_sort; ++k) {
          const PassTime& t = (*step_times)[size_t(r) * steps_per_sort + k];
          if (t.name == step) sum += t.ms, seen = true;
        }
        if (seen) per_sort.push_back(sum);
      }
      if (per_sort.empty()) continue;
      std::sort(per_sort.begin(), per_sort.end());
      steps_json += fmt::format("{}\"{}_ms\":{:.4f}", steps_json.empty() ? "" : ",", step + 6,
                                per_sort[per_sort.size() / 2]);
    }

    double sort_best = 0.0, copy_best = 0.0;
    const double sort_ms = median_of(*times, "sort", &sort_best);
    const double copy_ms = median_of(*times, "copy", &copy_best);
    const double tiles = double((uint64_t(n) + shader::kRadixTileSize - 1) / shader::kRadixTileSize);
    // Per pass: histogram reads keys (4 B), scatter reads keys + values and writes both (16 B);
    // the histogram scan reads its input twice and writes it once (256 words a tile).
    const double per_pass = 20.0 * n + 3.0 * 4.0 * shader::kRadixDigits * tiles;
    const double modelled = passes * per_pass + (passes % 2 == 1 ? 16.0 * n : 0.0);
    const double sort_gbps = modelled / (sort_ms * 1e-3) / 1e9;
    const double copy_gbps = 2.0 * double(pair_bytes) / (copy_ms * 1e-3) / 1e9;
    fmt::print(
        "{{\"pairs\":{},\"median_ms\":{:.4f},\"min_ms\":{:.4f},\"mpairs_per_s\":{:.1f},\"modelled_bytes\":{:.0f},"
        "\"gbps\":{:.1f},\"copy_median_ms\":{:.4f},\"roofline_gbps\":{:.1f},\"of_roofline\":{:.3f},\"exact\":{},"
        "\"steps\":{{{}}}}}\n",
        n, sort_ms, sort_best, double(n) / (sort_ms * 1e-3) / 1e6, modelled, sort_gbps, copy_ms, copy_gbps,
        sort_gbps / copy_gbps, exact, steps_json);
    if (!exact) return 1;
  }
  return 0;
}
