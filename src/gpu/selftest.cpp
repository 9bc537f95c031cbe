#include "gpu/selftest.hpp"

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
  MOTE_TRY_ASSIGN(Buffer x, Buffer::create(device, {.size = bytes, .name = "selftest.x"}));
  MOTE_TRY_ASSIGN(Buffer y, Buffer::create(device, {.size = bytes, .name = "selftest.y"}));
  MOTE_TRY_ASSIGN(GpuProfiler profiler, GpuProfiler::create(device, 1));

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> input(elements);
  for (float& v : input) v = dist(rng);
  MOTE_TRY(upload_span<float>(device, x, input));

  shader::SaxpyParams params{2.5f, -7.0f, elements, 0};
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    profiler.reset(cmd);
    // Poison the output so a dispatch that writes nothing cannot pass.
    vkCmdFillBuffer(cmd, y.handle(), 0, VK_WHOLE_SIZE, 0x7FC0DEADu);
    transfer_to_compute(cmd);
    profiler.begin(cmd, "saxpy");
    ComputeRecorder(device, cmd).bind(pipeline).buffers({{0, &x}, {1, &y}}).push(params).dispatch_threads(elements);
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
