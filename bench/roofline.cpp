// bench/roofline: the memory roofline every Mote benchmark is measured against — a plain vec4
// copy kernel through Mote's own Vulkan layer, reporting GB/s counting read + write, for buffer
// sizes from 1 MiB to 4 GiB (or what the device can hold). Output: one JSON object per line.
//
//   roofline [--max-mib N] [--repeats R] [--device SEL] [--in-place]
//            [--records VEC4S [--window W] [--write-mask M]]
//
// --in-place binds one buffer as both the source and the destination: the same kernel then reads
// and rewrites every vec4 where it lies, the traffic of a pass that updates records in place.
// --records VEC4S then times whole records of VEC4S vec4s read and written back at the largest
// size (shaders/bench/record_access.comp): per invocation (each invocation its own record, as
// the VM's kernels) or per subgroup (contiguous runs), in place or to the other buffer, in
// workgroups of 64 and 256 — each after its own warm-up, so no pattern starts on idle clocks.
// --window W moves only each record's first W vec4s, and --write-mask M stores only the window's
// vec4s whose bits are set (a pass that reads some fields and writes fewer).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "shared/gpu_selftest.h"

using namespace mote;
using namespace mote::gpu;

namespace {

constexpr uint32_t kVec4PerThread = 4;

struct Options {
  uint64_t max_mib = 4096;
  uint32_t repeats = 10;
  std::string device;
  bool in_place = false;
  uint32_t record_vec4 = 0;  // 0: no record patterns
  uint32_t window_vec4 = 0;  // 0: the whole record
  uint32_t write_mask = 0xFFFFFFFFu;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        fmt::print(stderr, "roofline: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--max-mib") o.max_mib = std::strtoull(next(), nullptr, 10);
    else if (a == "--repeats") o.repeats = uint32_t(std::strtoul(next(), nullptr, 10));
    else if (a == "--device") o.device = next();
    else if (a == "--in-place") o.in_place = true;
    else if (a == "--records") o.record_vec4 = uint32_t(std::strtoul(next(), nullptr, 10));
    else if (a == "--window") o.window_vec4 = uint32_t(std::strtoul(next(), nullptr, 10));
    else if (a == "--write-mask") o.write_mask = uint32_t(std::strtoul(next(), nullptr, 0));
    else {
      fmt::print(stderr, "usage: roofline [--max-mib N] [--repeats R] [--device SEL] [--in-place] [--records VEC4S "
                         "[--window W] [--write-mask M]]\n");
      std::exit(2);
    }
  }
  o.repeats = std::max(1u, o.repeats);
  return o;
}

// Copies `bytes` from src to dst, split into chunks the device can bind (maxStorageBufferRange)
// and dispatch (maxComputeWorkGroupCount), every chunk a multiple of 16 bytes.
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

// The record patterns of --records over `bytes` of each buffer, one JSON line each.
Status time_record_patterns(Device& device, const Options& opt, const Buffer& src, const Buffer& dst, uint64_t bytes,
                            double roofline_gbps) {
  constexpr uint32_t kWarmupDispatches = 100;
  const uint64_t record_bytes = uint64_t(opt.record_vec4) * 16;
  const uint32_t window = opt.window_vec4 == 0 ? opt.record_vec4 : std::min(opt.window_vec4, opt.record_vec4);
  uint32_t written = 0;
  for (uint32_t c = 0; c < window; ++c) written += (opt.write_mask >> c) & 1u;
  const uint64_t records = std::min<uint64_t>(bytes / record_bytes,
                                              device.limits().maxStorageBufferRange / record_bytes);
  MOTE_TRY_ASSIGN(GpuProfiler profiler, GpuProfiler::create(device, opt.repeats));
  for (const char* group : {"64", "256"})
    for (uint32_t mode : {0u, 1u})
      for (bool in_place : {true, false}) {
        MOTE_TRY_ASSIGN(ComputePipeline pipeline,
                        ComputePipeline::create(device, fmt::format("bench/record_access_{}", group),
                                                std::vector<SpecializationConstant>{{0, opt.record_vec4},
                                                                                    {1, mode},
                                                                                    {2, window},
                                                                                    {3, opt.write_mask}}));
        const uint32_t groups = uint32_t((records + pipeline.local_size_x() - 1) / pipeline.local_size_x());
        const Buffer& out = in_place ? src : dst;
        auto dispatch = [&](VkCommandBuffer cmd) {
          ComputeRecorder rec(device, cmd);
          rec.bind(pipeline);
          rec.buffers({{0, &src, 0, records * record_bytes}, {1, &out, 0, records * record_bytes}})
              .push(shader::RecordAccessParams{uint32_t(records), 0, 0, 0})
              .dispatch(groups);
        };
        MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
          profiler.reset(cmd);
          for (uint32_t w = 0; w < kWarmupDispatches; ++w) {
            dispatch(cmd);
            compute_to_compute(cmd);
          }
          for (uint32_t r = 0; r < opt.repeats; ++r) {
            compute_to_compute(cmd);
            profiler.begin(cmd, "records");
            dispatch(cmd);
            profiler.end(cmd);
          }
        }));
        MOTE_TRY_ASSIGN(std::vector<PassTime> times, profiler.resolve());
        std::vector<double> ms;
        for (const PassTime& t : times) ms.push_back(t.ms);
        std::sort(ms.begin(), ms.end());
        const double moved = double(records) * (window + written) * 16.0;
        const double gbps = moved / (ms[ms.size() / 2] * 1e-3) / 1e9;
        fmt::print("{{\"records\":{},\"record_bytes\":{},\"window_bytes\":{},\"written_bytes\":{},\"pattern\":\"{}\","
                   "\"workgroup\":{},\"in_place\":{},"
                   "\"median_ms\":{:.4f},\"best_ms\":{:.4f},\"gbps\":{:.1f},\"of_copy\":{:.3f}}}\n",
                   records, record_bytes, window * 16, written * 16, mode == 0 ? "per-invocation" : "per-subgroup",
                   group, in_place, ms[ms.size() / 2], ms.front(), gbps,
                   roofline_gbps > 0.0 ? gbps / roofline_gbps : 0.0);
      }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = Device::create({.device_selector = opt.device});
  if (!created.ok()) {
    fmt::print(stderr, "roofline: {}\n", created.error().to_string());
    return 1;
  }
  Device& device = **created;
  auto pipeline = ComputePipeline::create(device, "bench/roofline_copy",
                                          std::vector<SpecializationConstant>{{0, kVec4PerThread}});
  auto profiler = GpuProfiler::create(device, opt.repeats + 1);
  if (!pipeline.ok() || !profiler.ok()) {
    fmt::print(stderr, "roofline: {}\n", (!pipeline.ok() ? pipeline.error() : profiler.error()).to_string());
    return 1;
  }
  fmt::print("{{\"bench\":\"roofline\",\"device\":\"{}\",\"driver\":\"{}\",\"repeats\":{},\"in_place\":{}}}\n",
             device.description().name, device.description().driver_info, opt.repeats, opt.in_place);

  // Two buffers of the largest size, reused for every smaller one: half the device memory at most.
  uint64_t max_bytes = opt.max_mib << 20;
  max_bytes = std::min<uint64_t>(max_bytes, device.description().device_local_bytes / 4);
  max_bytes = std::max<uint64_t>(max_bytes, 1ull << 20);
  auto src = Buffer::create(device, {.size = max_bytes, .name = "roofline.src"});
  auto dst = Buffer::create(device, {.size = max_bytes, .name = "roofline.dst"});
  if (!src.ok() || !dst.ok()) {
    fmt::print(stderr, "roofline: {}\n", (!src.ok() ? src.error() : dst.error()).to_string());
    return 1;
  }
  // The roofline is the largest size's median: small sizes fit in L2 (50 MiB on an H200) and
  // report cache bandwidth, not memory bandwidth.
  double roofline_gbps = 0.0;
  for (uint64_t bytes = 1ull << 20; bytes <= max_bytes; bytes *= 4) {
    auto status = device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler->reset(cmd);
      vkCmdFillBuffer(cmd, src->handle(), 0, bytes, 0x3F800000u);
      transfer_to_compute(cmd);
      profiler->begin(cmd, "warmup");
      record_copy(device, cmd, *pipeline, *src, opt.in_place ? *src : *dst, bytes);
      profiler->end(cmd);
      for (uint32_t r = 0; r < opt.repeats; ++r) {
        compute_to_compute(cmd);
        profiler->begin(cmd, "copy");
        record_copy(device, cmd, *pipeline, *src, opt.in_place ? *src : *dst, bytes);
        profiler->end(cmd);
      }
    });
    auto times = status.ok() ? profiler->resolve() : Result<std::vector<PassTime>>(status.error());
    if (!times.ok()) {
      fmt::print(stderr, "roofline: {}\n", times.error().to_string());
      return 1;
    }
    std::vector<double> ms;
    for (size_t i = 1; i < times->size(); ++i) ms.push_back((*times)[i].ms);
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double best = ms.front();
    const double moved = 2.0 * double(bytes);  // read + write
    const double gbps_median = moved / (median * 1e-3) / 1e9;
    const double gbps_best = moved / (best * 1e-3) / 1e9;
    roofline_gbps = gbps_median;
    fmt::print("{{\"bytes\":{},\"mib\":{},\"median_ms\":{:.4f},\"best_ms\":{:.4f},\"gbps_median\":{:.1f},\"gbps_best\":"
               "{:.1f}}}\n",
               bytes, bytes >> 20, median, best, gbps_median, gbps_best);
    if (bytes < max_bytes && bytes * 4 > max_bytes) bytes = max_bytes / 4;  // end exactly at max_bytes
  }
  fmt::print("{{\"roofline_gbps\":{:.1f},\"at_bytes\":{}}}\n", roofline_gbps, max_bytes);
  if (opt.record_vec4 > 0) {
    if (auto status = time_record_patterns(device, opt, *src, *dst, max_bytes, roofline_gbps); !status.ok()) {
      fmt::print(stderr, "roofline: {}\n", status.error().to_string());
      return 1;
    }
  }
  return 0;
}
