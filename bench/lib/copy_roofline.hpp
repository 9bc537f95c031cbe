// The memory roofline measured inside a benchmark's own run (the machine is shared: ratios to a
// same-run copy hold, absolute numbers drift): bench/roofline's vec4 copy kernel
// (shaders/bench/roofline_copy.comp) with its chunking, GPU timestamps, median of the repeats
// after a warm-up, and the copy verified — a fast copy that did not copy is no roofline.
//
// The H200's clocks drop within a second of idling (345 MHz SM clock read right after a run) and
// take a few hundred milliseconds of work to come back: kernels timed right after an idle gap —
// a build, a large readback — ran 2-4x slow (2026-11-30). warm_gpu keeps the GPU busy copying
// until it has spent `ms` of GPU time; the roofline runs it first, and a benchmark runs it again
// right before its own timed work.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "shared/gpu_selftest.h"

namespace mote::bench {

struct CopyRoofline {
  uint64_t bytes = 0;  // each way
  double median_ms = 0.0;
  double gbps = 0.0;  // bytes read + bytes written
};

// bench/roofline's copy kernel over two buffers of `bytes`, chunked to what the device binds.
struct CopyKernel {
  static constexpr uint32_t kVec4PerThread = 4;  // bench/roofline's setting
  gpu::ComputePipeline pipeline;
  gpu::Buffer src, dst;
  uint64_t bytes = 0, max_chunk = 0;

  static Result<CopyKernel> create(gpu::Device& device, uint64_t bytes) {
    CopyKernel k;
    k.bytes = bytes / 16 * 16;
    MOTE_TRY_ASSIGN(k.pipeline,
                    gpu::ComputePipeline::create(device, "bench/roofline_copy",
                                                 std::vector<gpu::SpecializationConstant>{{0, kVec4PerThread}}));
    MOTE_TRY_ASSIGN(k.src, gpu::Buffer::create(device, {.size = k.bytes, .name = "bench.roofline_src"}));
    MOTE_TRY_ASSIGN(k.dst, gpu::Buffer::create(device, {.size = k.bytes, .name = "bench.roofline_dst"}));
    const auto& limits = device.limits();
    const uint64_t per_group = uint64_t(k.pipeline.local_size_x()) * kVec4PerThread * 16;
    const uint64_t align = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, per_group);
    k.max_chunk = std::min<uint64_t>(limits.maxStorageBufferRange,
                                     uint64_t(limits.maxComputeWorkGroupCount[0]) * per_group);
    k.max_chunk = k.max_chunk / align * align;
    return k;
  }
  void fill(VkCommandBuffer cmd) const {
    vkCmdFillBuffer(cmd, src.handle(), 0, bytes, 0x3F800000u);
    vkCmdFillBuffer(cmd, dst.handle(), 0, bytes, 0u);
    gpu::transfer_to_compute(cmd);
  }
  void record(gpu::Device& device, VkCommandBuffer cmd) const {
    const uint64_t per_group = uint64_t(pipeline.local_size_x()) * kVec4PerThread * 16;
    gpu::ComputeRecorder rec(device, cmd);
    rec.bind(pipeline);
    for (uint64_t offset = 0; offset < bytes; offset += max_chunk) {
      const uint64_t chunk = std::min(max_chunk, bytes - offset);
      rec.buffers({{0, &src, offset, chunk}, {1, &dst, offset, chunk}})
          .push(shader::RooflineParams{0, uint32_t(chunk / 16), 0, 0})
          .dispatch(uint32_t((chunk + per_group - 1) / per_group));
    }
  }
};

// Runs `copy` until the GPU has spent `ms` of its own time on it (batches of 16, GPU timestamps).
inline Status warm_with(gpu::Device& device, const CopyKernel& copy, double ms) {
  constexpr uint32_t kBatch = 16;
  MOTE_TRY_ASSIGN(gpu::GpuProfiler profiler, gpu::GpuProfiler::create(device, 1));
  double spent = 0.0;
  for (uint32_t batch = 0; spent < ms && batch < 10000; ++batch) {
    MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler.reset(cmd);
      if (batch == 0) copy.fill(cmd);
      profiler.begin(cmd, "warm");
      for (uint32_t i = 0; i < kBatch; ++i) {
        if (i > 0) gpu::compute_to_compute(cmd);
        copy.record(device, cmd);
      }
      profiler.end(cmd);
    }));
    MOTE_TRY_ASSIGN(std::vector<gpu::PassTime> times, profiler.resolve());
    for (const gpu::PassTime& t : times) spent += t.ms;
  }
  return ok_status();
}

// Copies 256 MiB until the GPU has spent `ms` of its own time on it.
inline Status warm_gpu(gpu::Device& device, double ms) {
  MOTE_TRY_ASSIGN(CopyKernel copy, CopyKernel::create(device, 256ull << 20));
  return warm_with(device, copy, ms);
}

inline Result<CopyRoofline> measure_copy_roofline(gpu::Device& device, uint64_t bytes, uint32_t repeats) {
  MOTE_TRY_ASSIGN(CopyKernel copy, CopyKernel::create(device, bytes));
  MOTE_TRY(warm_with(device, copy, 300.0));
  bytes = copy.bytes;
  const gpu::Buffer& dst = copy.dst;
  MOTE_TRY_ASSIGN(gpu::GpuProfiler profiler, gpu::GpuProfiler::create(device, repeats + 1));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    profiler.reset(cmd);
    copy.fill(cmd);
    for (uint32_t r = 0; r <= repeats; ++r) {  // the first is a warm-up
      if (r > 0) gpu::compute_to_compute(cmd);
      profiler.begin(cmd, r == 0 ? "warmup" : "copy");
      copy.record(device, cmd);
      profiler.end(cmd);
    }
    gpu::compute_to_transfer(cmd);
  }));
  MOTE_TRY_ASSIGN(std::vector<gpu::PassTime> times, profiler.resolve());
  MOTE_TRY_ASSIGN(std::vector<uint32_t> copied, gpu::readback_as<uint32_t>(device, dst, bytes / 4));
  const size_t wrong = size_t(std::count_if(copied.begin(), copied.end(), [](uint32_t w) { return w != 0x3F800000u; }));
  if (wrong != 0)
    return make_error(ErrorCode::kInternal,
                      fmt::format("the roofline copy left {} of {} words wrong", wrong, copied.size()));
  std::vector<double> ms;
  for (const gpu::PassTime& t : times)
    if (t.name == "copy") ms.push_back(t.ms);
  std::sort(ms.begin(), ms.end());
  CopyRoofline r;
  r.bytes = bytes;
  r.median_ms = ms[ms.size() / 2];
  r.gbps = 2.0 * double(bytes) / (r.median_ms * 1e-3) / 1e9;
  return r;
}

}  // namespace mote::bench
