// The device and VM tools of the public API (mote/device.hpp, mote/gpu_executor.hpp) on lavapipe
// with validation: what `mote info`, `mote selftest` and `mote run-program --executor gpu*` use.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <string>

#include "api_fixture.hpp"
#include "mote/assembly.hpp"
#include "mote/device.hpp"
#include "mote/files.hpp"
#include "mote/gpu_executor.hpp"
#include "mote/link.hpp"
#include "mote/vm.hpp"

namespace mote {
namespace {

using test::ApiTest;

TEST_F(ApiTest, TheDeviceReportNamesTheChosenDeviceAmongThoseFound) {
  const DeviceReport report = describe_device(context());
  ASSERT_FALSE(report.devices.empty());
  ASSERT_LT(report.chosen.index, report.devices.size());
  const DeviceInfo& listed = report.devices[report.chosen.index];
  EXPECT_EQ(listed.index, report.chosen.index);
  EXPECT_EQ(listed.name, report.chosen.name);
  EXPECT_EQ(report.chosen.name, context().device_name());
  EXPECT_TRUE(report.chosen.suitable);
  EXPECT_TRUE(report.chosen.unsuitable_reason.empty());
  EXPECT_FALSE(report.choice_reason.empty());
  EXPECT_TRUE(report.validation);                                 // the fixture asked for it
  EXPECT_GE(report.chosen.api_version, (1u << 22) | (3u << 12));  // Vulkan 1.3
  EXPECT_GE(report.limits.max_workgroup_invocations, 128u);
  EXPECT_GT(report.limits.max_storage_buffer_range, 0u);
  EXPECT_GT(report.limits.timestamp_period_ns, 0.0f);
  for (const DeviceInfo& d : report.devices)
    if (!d.suitable) {
      EXPECT_FALSE(d.unsuitable_reason.empty()) << d.name;
    }
  EXPECT_STREQ(device_type_name(DeviceType::kCpu), "cpu");
  EXPECT_STREQ(device_type_name(DeviceType::kDiscrete), "discrete");
  EXPECT_EQ(vulkan_version_string((1u << 22) | (3u << 12) | 230u), "1.3.230");
}

TEST_F(ApiTest, TheSelftestVerifiesEveryElement) {
  auto report = run_selftest(context(), 4096);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report.value().elements, 4096u);
  EXPECT_EQ(report.value().mismatches, 0u);
  EXPECT_GE(report.value().gpu_ms, 0.0);
  auto none = run_selftest(context(), 0);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kInvalidArgument);
}

// One section over `count` particles, records from a fixed pattern.
RunInput make_input(const Program& linked, Section section, uint32_t count) {
  RunInput in;
  in.program = &linked;
  in.section = section;
  in.count = count;
  const uint32_t words = vm_particle_record_words(linked);
  in.records.assign(size_t(count) * words, 0);
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t w = 1; w < words; ++w)
      in.records[size_t(i) * words + w] = std::bit_cast<uint32_t>(0.25f * float(i % 7) - 0.5f * float(w));
  in.emitter.dt = 1.0f / 30.0f;
  in.emitter.direction[1] = 1.0f;
  in.emitter_fields.assign(vm_emitter_field_words(linked), 0);
  return in;
}

TEST_F(ApiTest, EveryGpuExecutorMatchesTheReference) {
  auto program = load_program_file(std::string(MOTE_PROGRAMS_DIR) + "/integrate_gravity.masm");
  ASSERT_TRUE(program.ok()) << program.error().to_string();
  auto linked = link_globals(program.value(), {});
  ASSERT_TRUE(linked.ok()) << linked.error().to_string();
  const RunInput in = make_input(linked.value(), Section::kUpdate, 37);
  auto want = make_reference_executor()->run(in);
  ASSERT_TRUE(want.ok()) << want.error().to_string();

  for (GpuExecutorKind kind : {GpuExecutorKind::kInterpreter, GpuExecutorKind::kFastInterpreter,
                               GpuExecutorKind::kWideInterpreter, GpuExecutorKind::kCompiled}) {
    for (bool count_ops : {true, false}) {
      SCOPED_TRACE(testing::Message() << "kind " << int(kind) << " count_ops " << count_ops);
      std::unique_ptr<Executor> gpu = make_gpu_executor(context(), {.kind = kind, .count_ops = count_ops});
      ASSERT_NE(gpu, nullptr);
      auto got = gpu->run(in);
      ASSERT_TRUE(got.ok()) << got.error().to_string();
      EXPECT_EQ(got.value().killed, want.value().killed);
      ASSERT_EQ(got.value().records.size(), want.value().records.size());
      for (size_t w = 0; w < want.value().records.size(); ++w) {
        const float a = std::bit_cast<float>(got.value().records[w]);
        const float b = std::bit_cast<float>(want.value().records[w]);
        ASSERT_NEAR(a, b, 1e-5f * (1.0f + std::fabs(b))) << "word " << w;
      }
      // The compiled kernels always count; the interpreters only when asked.
      const bool counted = count_ops || kind == GpuExecutorKind::kCompiled;
      const std::array<uint64_t, 256> none{};
      EXPECT_EQ(got.value().op_executions, counted ? want.value().op_executions : none);
    }
  }
}

TEST_F(ApiTest, GpuExecutorsVerifyAndTheFastInterpreterRefusesWhatItCannotHold) {
  // 100 registers: over the fast interpreter's register file, any size for the wide one.
  auto program = assemble(".registers 100\n.particle age 1\n.update\n  LOAD_FIELD r99.x, @age\n"
                          "  ADD r99.x, r99.x, 1.0\n  STORE_FIELD @age, r99.x\n");
  ASSERT_TRUE(program.ok()) << program.error().to_string();
  auto linked = link_globals(program.value(), {});
  ASSERT_TRUE(linked.ok());
  const RunInput in = make_input(linked.value(), Section::kUpdate, 5);
  auto fast = make_gpu_executor(context(), {.kind = GpuExecutorKind::kFastInterpreter})->run(in);
  ASSERT_FALSE(fast.ok());
  EXPECT_EQ(fast.error().code, ErrorCode::kUnsupported);
  auto any = make_gpu_executor(context(), {.kind = GpuExecutorKind::kInterpreter})->run(in);
  ASSERT_TRUE(any.ok()) << any.error().to_string();
  EXPECT_EQ(std::bit_cast<float>(any.value().records[1]), std::bit_cast<float>(in.records[1]) + 1.0f);

  // A program that reads a register it never wrote never runs, on any executor.
  auto unwritten = assemble(".registers 4\n.particle age 1\n.update\n  STORE_FIELD @age, r3.x\n");
  ASSERT_TRUE(unwritten.ok()) << unwritten.error().to_string();
  auto unwritten_linked = link_globals(unwritten.value(), {});
  ASSERT_TRUE(unwritten_linked.ok());
  const RunInput bad = make_input(unwritten_linked.value(), Section::kUpdate, 5);
  for (GpuExecutorKind kind : {GpuExecutorKind::kInterpreter, GpuExecutorKind::kCompiled}) {
    auto refused = make_gpu_executor(context(), {.kind = kind})->run(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::kVerify);
  }
}

// Context::device_memory_in_use counts every allocation Mote holds: a system's buffers raise it
// by at least its pool, and systems made and dropped again and again leave it where one cycle
// left it (the deferred frees run: nothing leaks).
TEST_F(ApiTest, DeviceMemoryInUseRisesWithASystemAndComesBackWhenItGoes) {
  const Context::MemoryInUse before = context().device_memory_in_use();
  constexpr uint32_t kCapacity = 1u << 14, kWords = 32;
  uint64_t after_first = 0;
  for (int cycle = 0; cycle < 4; ++cycle) {
    {
      auto system = ParticleSystem::create(context(), {.capacity = kCapacity, .record_words = kWords});
      ASSERT_TRUE(system.ok()) << system.error().to_string();
      const Context::MemoryInUse held = context().device_memory_in_use();
      EXPECT_GE(held.bytes, before.bytes + uint64_t(kCapacity) * kWords * 4);  // the pool at least
      EXPECT_GT(held.allocations, before.allocations);
      ASSERT_TRUE((*system)->execute(1.0f / 60.0f).ok());
      ASSERT_TRUE((*system)->wait_idle().ok());
    }
    // The next system's first submission runs the frees the last one deferred.
    auto probe = ParticleSystem::create(context(), {.capacity = 64, .record_words = 8});
    ASSERT_TRUE(probe.ok());
    ASSERT_TRUE((*probe)->execute(1.0f / 60.0f).ok());
    ASSERT_TRUE((*probe)->wait_idle().ok());
    const uint64_t now = context().device_memory_in_use().bytes;
    if (cycle == 0) after_first = now;
    EXPECT_EQ(now, after_first) << "cycle " << cycle << ": memory grew";
  }
}

}  // namespace
}  // namespace mote
