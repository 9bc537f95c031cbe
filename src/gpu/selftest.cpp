#include "gpu/selftest.hpp"

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "shared/gpu_selftest.h"

namespace mote::gpu {

Result<SelftestReport> run_selftest(Device& device, uint32_t elements) {
  if (elements == 0) return make_error(ErrorCode::kInvalidArgument, "selftest needs at least one element");
  MOTE_TRY_ASSIGN(ComputePipeline pipeline, ComputePipeline::create(device, "gpu/selftest_saxpy"));
  const VkDeviceSize bytes = VkDeviceSize(elements) * sizeof(float);
  // Both buffers are bound whole: refused before they are allocated when the device cannot.
  if (bytes > device.limits().maxStorageBufferRange)
    return make_error(ErrorCode::kUnsupported, "selftest of " + std::to_string(elements) + " elements needs " +
                                                   std::to_string(bytes) + "-byte buffers; the device's " +
                                                   "maxStorageBufferRange is " +
                                                   std::to_string(device.limits().maxStorageBufferRange));
  MOTE_TRY_ASSIGN(Buffer x, Buffer::create(device, {.size = bytes, .name = "selftest.x"}));
  MOTE_TRY_ASSIGN(Buffer y, Buffer::create(device, {.size = bytes, .name = "selftest.y"}));
  MOTE_TRY_ASSIGN(GpuProfiler profiler, GpuProfiler::create(device, 1));

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> input(elements);
  for (float& v : input) v = dist(rng);
  MOTE_TRY(upload_span<float>(device, x, input));

  shader::SaxpyParams params{2.5f, -7.0f, elements, 0};
  // The shader strides over what one dispatch's groups do not cover.
  const uint32_t groups = uint32_t(std::min<uint64_t>((uint64_t(elements) + pipeline.local_size_x() - 1) /
                                                          pipeline.local_size_x(),
                                                      device.limits().maxComputeWorkGroupCount[0]));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    profiler.reset(cmd);
    // Poison the output so a dispatch that writes nothing cannot pass.
    vkCmdFillBuffer(cmd, y.handle(), 0, VK_WHOLE_SIZE, 0x7FC0DEADu);
    transfer_to_compute(cmd);
    profiler.begin(cmd, "saxpy");
    ComputeRecorder(device, cmd).bind(pipeline).buffers({{0, &x}, {1, &y}}).push(params).dispatch(groups);
    profiler.end(cmd);
  }));
  MOTE_TRY_ASSIGN(std::vector<PassTime> times, profiler.resolve());
  MOTE_TRY_ASSIGN(std::vector<float> output, readback_as<float>(device, y, elements));

  SelftestReport report;
  report.elements = elements;
  report.gpu_ms = times.empty() ? 0.0 : times[0].ms;
  for (uint32_t i = 0; i < elements; ++i) {
    const float expected = params.a * input[i] + params.b;  // -ffp-contract=off: not fused
    if (std::memcmp(&expected, &output[i], sizeof(float)) != 0) {
      if (report.mismatches == 0) report.first_mismatch = i;
      ++report.mismatches;
    }
  }
  return report;
}

}  // namespace mote::gpu
