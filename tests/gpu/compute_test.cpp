#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "gpu/selftest.hpp"
#include "gpu/transfer.hpp"
#include "shared/gpu_selftest.h"
#include "support/gpu_fixture.hpp"

namespace mote::gpu {
namespace {

using test::GpuTest;

TEST_F(GpuTest, UploadReadbackRoundTripOfRandomData) {
  std::mt19937 rng(7);
  std::vector<uint8_t> data(3 * 1024 * 1024 + 12);
  for (auto& b : data) b = uint8_t(rng());
  auto buffer = Buffer::create(device(), {.size = data.size() + 64, .name = "test.roundtrip"});
  ASSERT_TRUE(buffer.ok()) << buffer.error().to_string();
  ASSERT_TRUE(upload(device(), *buffer, data, 64).ok());
  auto back = readback(device(), *buffer, data.size(), 64);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, data);
}

TEST_F(GpuTest, TransfersPastTheEndAreErrors) {
  auto buffer = Buffer::create(device(), {.size = 256, .name = "test.small"});
  ASSERT_TRUE(buffer.ok());
  std::vector<uint8_t> data(200);
  EXPECT_FALSE(upload(device(), *buffer, data, 100).ok());
  EXPECT_FALSE(readback(device(), *buffer, 257).ok());
  EXPECT_FALSE(readback(device(), *buffer, 8, ~VkDeviceSize(0) - 4).ok());
  EXPECT_FALSE(Buffer::create(device(), {.size = 0}).ok());
}

TEST_F(GpuTest, ComputeDispatchIsVerifiedElementByElement) {
  // An element count that is not a multiple of the workgroup exercises the bounds check.
  auto report = run_selftest(device(), 100'003);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->elements, 100'003u);
  EXPECT_EQ(report->mismatches, 0u) << "first mismatch at " << report->first_mismatch;
}

TEST_F(GpuTest, IndirectDispatchUsesArgumentsAPreviousPassWrote) {
  auto writer = ComputePipeline::create(device(), "gpu/write_indirect_args");
  auto incrementer = ComputePipeline::create(device(), "gpu/indirect_increment");
  ASSERT_TRUE(writer.ok()) << writer.error().to_string();
  ASSERT_TRUE(incrementer.ok()) << incrementer.error().to_string();
  const uint32_t capacity = 4096, count = 1000;  // the GPU decides 1000 of 4096
  auto args = Buffer::create(device(),
                             {.size = sizeof(shader::IndirectDispatch),
                              .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                              .name = "test.indirect_args"});
  auto data = Buffer::create(device(), {.size = capacity * 4, .name = "test.data"});
  auto counter = Buffer::create(device(), {.size = 4, .name = "test.counter"});
  ASSERT_TRUE(args.ok() && data.ok() && counter.ok());
  std::vector<uint32_t> initial(capacity, 5);
  ASSERT_TRUE(upload_span<uint32_t>(device(), *data, initial).ok());

  shader::IndirectArgsParams params{count, incrementer->local_size_x(), 0, 0};
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    vkCmdFillBuffer(cmd, args->handle(), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);  // poison
                    vkCmdFillBuffer(cmd, counter->handle(), 0, VK_WHOLE_SIZE, 0);
                    transfer_to_compute(cmd);
                    ComputeRecorder rec(device(), cmd);
                    rec.bind(*writer).buffers({{0, &*args}}).push(params).dispatch(1);
                    compute_to_indirect(cmd);
                    rec.bind(*incrementer).buffers({{0, &*args}, {1, &*data}, {2, &*counter}}).dispatch_indirect(*args);
                  })
                  .ok());
  auto out = readback_as<uint32_t>(device(), *data, capacity);
  auto invocations = readback_as<uint32_t>(device(), *counter, 1);
  auto written = readback_as<shader::IndirectDispatch>(device(), *args, 1);
  ASSERT_TRUE(out.ok() && invocations.ok() && written.ok());
  const uint32_t groups = (count + 63) / 64;
  EXPECT_EQ((*written)[0].groups_x, groups);
  EXPECT_EQ((*written)[0].element_count, count);
  EXPECT_EQ((*invocations)[0], groups * 64u);
  for (uint32_t i = 0; i < capacity; ++i) ASSERT_EQ((*out)[i], i < count ? 5u + i + 1u : 5u) << "element " << i;
}

TEST_F(GpuTest, TimestampsResolvePerNamedPass) {
  auto profiler = GpuProfiler::create(device(), 4);
  auto pipeline = ComputePipeline::create(device(), "gpu/selftest_saxpy");
  ASSERT_TRUE(profiler.ok() && pipeline.ok());
  const uint32_t n = 1 << 16;
  auto x = Buffer::create(device(), {.size = n * 4, .name = "test.x"});
  auto y = Buffer::create(device(), {.size = n * 4, .name = "test.y"});
  ASSERT_TRUE(x.ok() && y.ok());
  shader::SaxpyParams params{1.0f, 0.0f, n, 0};
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    profiler->reset(cmd);
                    vkCmdFillBuffer(cmd, x->handle(), 0, VK_WHOLE_SIZE, 0);
                    transfer_to_compute(cmd);
                    profiler->begin(cmd, "first");
                    ComputeRecorder(device(), cmd)
                        .bind(*pipeline)
                        .buffers({{0, &*x}, {1, &*y}})
                        .push(params)
                        .dispatch_threads(n);
                    profiler->end(cmd);
                    compute_to_compute(cmd);
                    profiler->begin(cmd, "second");
                    ComputeRecorder(device(), cmd)
                        .bind(*pipeline)
                        .buffers({{0, &*y}, {1, &*x}})
                        .push(params)
                        .dispatch_threads(n);
                    profiler->end(cmd);
                  })
                  .ok());
  auto times = profiler->resolve();
  ASSERT_TRUE(times.ok()) << times.error().to_string();
  ASSERT_EQ(times->size(), 2u);
  EXPECT_EQ((*times)[0].name, "first");
  EXPECT_EQ((*times)[1].name, "second");
  for (const auto& t : *times) {
    EXPECT_TRUE(std::isfinite(t.ms));
    EXPECT_GE(t.ms, 0.0);
  }
}

TEST_F(GpuTest, DroppingABufferInFlightIsDeferredUntilTheGpuIsDone) {
  auto pipeline = ComputePipeline::create(device(), "gpu/selftest_saxpy");
  ASSERT_TRUE(pipeline.ok());
  const uint32_t n = 1 << 18;
  auto keep = Buffer::create(device(), {.size = n * 4, .name = "test.keep"});
  ASSERT_TRUE(keep.ok());
  uint64_t serial = 0;
  {
    auto temporary = Buffer::create(device(), {.size = n * 4, .name = "test.temporary"});
    ASSERT_TRUE(temporary.ok());
    shader::SaxpyParams params{3.0f, 1.0f, n, 0};
    auto submitted = device().submit([&](VkCommandBuffer cmd) {
      vkCmdFillBuffer(cmd, temporary->handle(), 0, VK_WHOLE_SIZE, 0);  // 0.0f
      transfer_to_compute(cmd);
      ComputeRecorder(device(), cmd)
          .bind(*pipeline)
          .buffers({{0, &*temporary}, {1, &*keep}})
          .push(params)
          .dispatch_threads(n);
    });
    ASSERT_TRUE(submitted.ok());
    serial = *submitted;
  }  // `temporary` dropped while the GPU may still read it
  ASSERT_TRUE(device().wait(serial).ok());
  auto out = readback_as<float>(device(), *keep, n);
  ASSERT_TRUE(out.ok());
  for (uint32_t i = 0; i < n; i += 997) ASSERT_EQ((*out)[i], 1.0f);
}

TEST_F(GpuTest, ValidationHookCatchesADeliberateMisuse) {
  // A fill into a buffer created without TRANSFER_DST usage breaks VUID-vkCmdFillBuffer-dstBuffer-00029.
  auto buffer = Buffer::create(device(),
                               {.size = 256, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, .name = "test.misuse"});
  ASSERT_TRUE(buffer.ok());
  ASSERT_TRUE(
      device().submit_and_wait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, buffer->handle(), 0, 256, 0); }).ok());
  auto messages = take_validation_messages();
  ASSERT_FALSE(messages.empty()) << "the validation layer did not report the misuse";
  bool named = false;
  for (const auto& m : messages) named |= m.find("vkCmdFillBuffer") != std::string::npos;
  EXPECT_TRUE(named) << messages.front();
}

}  // namespace
}  // namespace mote::gpu
