// Nothing paid when idle (lavapipe, validation on): a system of a large capacity with nothing
// alive and nothing spawning — no emitter, or one at rate 0 — records only small dispatches, none
// sized by the capacity. Each direct dispatch's size is logged as recorded; each indirect one's
// arguments are read back after the frame (an idle frame leaves them as it found them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/transfer.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/frame/tagged_program.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

// The most workgroups an idle frame's dispatch may have: the reset and the tick cover a handful
// of rows and commands, the scans' argument passes one invocation.
constexpr uint64_t kIdleGroups = 4;

class IdleTest : public test::GpuTest {
 protected:
  // Records one frame with the dispatch log on and checks every dispatch's size.
  void expect_idle_frame(ParticleSystem& system) {
    std::vector<gpu::Device::DispatchRecord> log;
    device().set_dispatch_log(&log);
    const Status ran = system.execute(1.0f / 60.0f);
    device().set_dispatch_log(nullptr);
    ASSERT_TRUE(ran.ok()) << ran.error().to_string();
    ASSERT_FALSE(log.empty());
    for (const gpu::Device::DispatchRecord& d : log) {
      uint64_t groups = uint64_t(d.groups[0]) * d.groups[1] * d.groups[2];
      if (d.indirect) {
        Result<std::vector<uint32_t>> args = gpu::readback_as<uint32_t>(device(), *d.indirect, 3, d.indirect_offset);
        ASSERT_TRUE(args.ok());
        groups = uint64_t(args.value()[0]) * args.value()[1] * args.value()[2];
      }
      EXPECT_LE(groups, kIdleGroups) << d.pipeline << (d.indirect ? " (indirect)" : "");
    }
    Result<runtime::FrameStats> stats = system.read_stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats.value().alive, 0u);
  }
};

TEST_F(IdleTest, AnEmptySystemRecordsNoDispatchSizedByItsCapacity) {
  auto created = ParticleSystem::create(device(), {.capacity = 1u << 20, .record_words = 8, .max_emitters = 64});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  for (int frame = 0; frame < 3; ++frame) expect_idle_frame(system);
}

TEST_F(IdleTest, EmittersAtRateZeroAndRemovedOnesCostNothingButTheirTickRows) {
  auto created = ParticleSystem::create(device(), {.capacity = 1u << 20, .record_words = 8, .max_emitters = 64});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  // Two programs (so the frame buckets), both at rate 0, and a third emitter that lived, spawned
  // and was removed: once its particles are gone the frame is idle again.
  Result<CompiledEffect> still_a = test::tagged_effect(1, 0.0f, 1.0f);
  Result<CompiledEffect> still_b = test::tagged_effect(2, 0.0f, 1.0f);
  Result<CompiledEffect> busy = test::tagged_effect(3, 600.0f, 1.0f);
  ASSERT_TRUE(still_a.ok() && still_b.ok() && busy.ok());
  ASSERT_TRUE(system.add_emitter(still_a.value()).ok());
  ASSERT_TRUE(system.add_emitter(still_b.value()).ok());
  Result<uint32_t> busy_row = system.add_emitter(busy.value());
  ASSERT_TRUE(busy_row.ok());
  for (int frame = 0; frame < 5; ++frame) ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  Result<runtime::FrameStats> busy_stats = system.read_stats();
  ASSERT_TRUE(busy_stats.ok());
  EXPECT_GT(busy_stats.value().alive, 0u);
  ASSERT_TRUE(system.remove_emitter(busy_row.value()).ok());
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());  // the removed emitter's particles die as orphans
  for (int frame = 0; frame < 3; ++frame) expect_idle_frame(system);
}

}  // namespace
}  // namespace mote
