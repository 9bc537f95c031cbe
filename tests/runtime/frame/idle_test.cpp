// Nothing paid when idle (lavapipe, validation on): a system with no emitter, or only inactive
// ones, records no dispatch at all once their particles are gone; one with emitters at rate 0
// records only small dispatches, none sized by the capacity. Each direct dispatch's size is logged as recorded; each
// indirect one's arguments are read back after the frame (an idle frame leaves them as it found them).
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "gpu/transfer.hpp"
#include "runtime/frame/particle_system.hpp"
#include "shared/emitter_record.h"
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

// One frame with the dispatch log on: it must record no dispatch at all, and submit nothing
// unless `may_submit` (the first idle frame after a real one zeroes the per-frame counters).
void expect_no_dispatch(gpu::Device& device, ParticleSystem& system, bool may_submit) {
  std::vector<gpu::Device::DispatchRecord> log;
  const uint64_t submitted = device.last_submitted_serial();
  device.set_dispatch_log(&log);
  const float time = system.time();
  const Status ran = system.execute(1.0f / 60.0f);
  device.set_dispatch_log(nullptr);
  ASSERT_TRUE(ran.ok()) << ran.error().to_string();
  EXPECT_TRUE(log.empty()) << log.size() << " dispatches, the first " << log.front().pipeline;
  if (!may_submit) {
    EXPECT_EQ(device.last_submitted_serial(), submitted) << "an idle frame submitted work";
  }
  EXPECT_EQ(system.time(), time + 1.0f / 60.0f);  // the clock runs on
  Result<runtime::FrameStats> stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive, 0u);
  EXPECT_EQ(stats->free_count, system.capacity());
  EXPECT_EQ(stats->newborns + stats->killed + stats->orphaned + stats->dropped, 0u);
}

TEST_F(IdleTest, AnEmptySystemRecordsNothing) {
  auto created = ParticleSystem::create(device(), {.capacity = 1u << 20, .record_words = 8, .max_emitters = 64});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  for (int frame = 0; frame < 3; ++frame) expect_no_dispatch(device(), system, false);
}

// Only inactive emitters (two programs) and a removed one: the frame after the change frees their
// particles, then frames record no dispatch and submit nothing; one emitter made active again
// brings the passes back and spawns.
TEST_F(IdleTest, InactiveAndRemovedEmittersLeaveTheFrameEmpty) {
  auto created = ParticleSystem::create(device(), {.capacity = 1u << 20, .record_words = 8, .max_emitters = 64});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  Result<CompiledEffect> a = test::tagged_effect(1, 300.0f, 1.0f);
  Result<CompiledEffect> b = test::tagged_effect(2, 300.0f, 1.0f);
  ASSERT_TRUE(a.ok() && b.ok());
  Result<uint32_t> row_a = system.add_emitter(a.value());
  Result<uint32_t> row_b = system.add_emitter(b.value());
  Result<uint32_t> row_c = system.add_emitter(b.value());
  ASSERT_TRUE(row_a.ok() && row_b.ok() && row_c.ok());
  for (int frame = 0; frame < 5; ++frame) ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  ASSERT_TRUE(system.set_emitter_control(row_a.value(), shader::kEmitterFlagInactive, true).ok());
  ASSERT_TRUE(system.set_emitter_control(row_b.value(), shader::kEmitterFlagInactive, true).ok());
  ASSERT_TRUE(system.remove_emitter(row_c.value()).ok());
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());  // frees them all
  Result<runtime::FrameStats> freed = system.read_stats();
  ASSERT_TRUE(freed.ok());
  EXPECT_EQ(freed->alive, 0u);
  EXPECT_GT(freed->orphaned, 0u);
  expect_no_dispatch(device(), system, true);
  for (int frame = 0; frame < 3; ++frame) expect_no_dispatch(device(), system, false);
  ASSERT_TRUE(system.set_emitter_control(row_a.value(), shader::kEmitterFlagInactive, false).ok());
  std::vector<gpu::Device::DispatchRecord> log;
  device().set_dispatch_log(&log);
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  device().set_dispatch_log(nullptr);
  EXPECT_FALSE(log.empty());
  Result<runtime::FrameStats> back = system.read_stats();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->newborns, 5u);  // 300/s for 1/60 s
  EXPECT_EQ(back->alive + back->free_count, system.capacity());
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

// The quiescent frame (docs/design/runtime_frame.md, "Quiescent frames"): live emitters that
// cannot spawn (rate 0, no bursts) over a pool the host knows is empty record the tick alone —
// one dispatch over the rows — and their clocks run exactly as full frames run them (the f32 sum
// of the dts, the tick index); a rate set again brings the passes back and spawns at once.
TEST_F(IdleTest, QuiescentFramesRecordTheTickAloneAndKeepEveryClock) {
  auto created = ParticleSystem::create(device(), {.capacity = 1u << 20, .record_words = 8, .max_emitters = 64});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  Result<CompiledEffect> still_a = test::tagged_effect(1, 0.0f, 1.0f);
  Result<CompiledEffect> still_b = test::tagged_effect(2, 0.0f, 1.0f);
  ASSERT_TRUE(still_a.ok() && still_b.ok());
  Result<uint32_t> row_a = system.add_emitter(still_a.value());
  Result<uint32_t> row_b = system.add_emitter(still_b.value());
  ASSERT_TRUE(row_a.ok() && row_b.ok());
  const float dts[] = {1.0f / 60.0f, 1.0f / 50.0f, 1.0f / 90.0f, 0.0125f, 1.0f / 30.0f};
  float age = 0.0f;  // the tick's own sum: age + dt in f32, once a frame
  uint32_t quiescent = 0, frames = 0;
  for (int frame = 0; frame < 40; ++frame) {
    const float dt = dts[frame % 5];
    std::vector<gpu::Device::DispatchRecord> log;
    device().set_dispatch_log(&log);
    const Status ran = system.execute(dt);
    device().set_dispatch_log(nullptr);
    ASSERT_TRUE(ran.ok()) << ran.error().to_string();
    ASSERT_TRUE(device().wait_idle().ok());  // the host learns each frame's count once it completed
    age = age + dt;
    ++frames;
    if (log.size() == 1) {
      ++quiescent;
      EXPECT_NE(log[0].pipeline.find("tick"), std::string::npos) << log[0].pipeline;
      EXPECT_LE(uint64_t(log[0].groups[0]) * log[0].groups[1] * log[0].groups[2], kIdleGroups);
    } else {
      EXPECT_EQ(quiescent, 0u) << "frame " << frame << " ran the passes after quiescent frames";
    }
  }
  // The first frames run the passes until one that completed shows the pool empty.
  EXPECT_GE(quiescent, 35u);
  Result<std::vector<shader::FrameEmitterState>> states = system.read_emitter_states();
  ASSERT_TRUE(states.ok());
  for (uint32_t row : {row_a.value(), row_b.value()}) {
    EXPECT_EQ(std::bit_cast<uint32_t>((*states)[row].age), std::bit_cast<uint32_t>(age)) << "row " << row;
    EXPECT_EQ((*states)[row].tick, frames - 1) << "row " << row;  // 0 on its first frame
  }
  Result<runtime::FrameStats> stats = system.read_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->alive, 0u);
  EXPECT_EQ(stats->free_count, system.capacity());
  // A rate again: the next frame runs the passes and spawns 600/s x 1/60 s.
  const float rate[1] = {600.0f};
  ASSERT_TRUE(system.set_emitter_field(row_a.value(), "rate", rate).ok());
  std::vector<gpu::Device::DispatchRecord> log;
  device().set_dispatch_log(&log);
  ASSERT_TRUE(system.execute(1.0f / 60.0f).ok());
  device().set_dispatch_log(nullptr);
  EXPECT_GT(log.size(), 1u);
  Result<runtime::FrameStats> back = system.read_stats();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->newborns, 10u);
  EXPECT_EQ(back->alive + back->free_count, system.capacity());
}

}  // namespace
}  // namespace mote
