// ParticleSystem::record(): the frame recorded into a command buffer the host submits. It must be
// the frame execute() submits — the same pool, lists and counters, bit for bit, through emitter
// adds, bursts, a program swap, removals and the program buffer's growth — with every upload in
// the command buffer itself (nothing staged that Mote would have to track on the host's queue).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "mote/assembly.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"
#include "support/random_life_program.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;
using runtime::ParticleSystemOptions;

constexpr float kDt = 1.0f / 60.0f;

CompiledEffect random_life_effect(float rate, float life) {
  Result<Program> p = assemble(test::kRandomLifeProgram);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "random_life";
  e.program = std::move(p).value();
  e.emitter_defaults = {std::bit_cast<uint32_t>(life), std::bit_cast<uint32_t>(rate)};
  e.emission.rate = rate;
  return e;
}

class HostRecordTest : public test::GpuTest {
 protected:
  ParticleSystem make(const ParticleSystemOptions& o) {
    auto s = ParticleSystem::create(device(), o);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? std::move(s).value() : ParticleSystem{};
  }
  // One frame on each system: `a` by execute(), `b` recorded into a command buffer this test
  // submits, as a host would.
  void step_both(ParticleSystem& a, ParticleSystem& b) {
    ASSERT_TRUE(a.execute(kDt).ok());
    Status recorded = ok_status();
    auto submitted = device().submit([&](VkCommandBuffer cmd) { recorded = b.record(cmd, kDt); });
    ASSERT_TRUE(submitted.ok()) << submitted.error().to_string();
    ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  }
  void expect_same_state(ParticleSystem& a, ParticleSystem& b, int frame) {
    auto sa = a.read_stats();
    auto sb = b.read_stats();
    ASSERT_TRUE(sa.ok() && sb.ok());
    EXPECT_EQ(sa->alive, sb->alive) << "frame " << frame;
    EXPECT_EQ(sa->free_count, sb->free_count) << "frame " << frame;
    EXPECT_EQ(sa->newborns, sb->newborns) << "frame " << frame;
    EXPECT_EQ(sa->frames, sb->frames) << "frame " << frame;
    EXPECT_EQ(sa->alive + sa->free_count, a.capacity()) << "frame " << frame;
    auto la = a.read_alive_slots();
    auto lb = b.read_alive_slots();
    ASSERT_TRUE(la.ok() && lb.ok());
    EXPECT_EQ(*la, *lb) << "frame " << frame;
    auto pa = a.read_pool();
    auto pb = b.read_pool();
    ASSERT_TRUE(pa.ok() && pb.ok());
    EXPECT_TRUE(*pa == *pb) << "the pools differ at frame " << frame;
  }
};

TEST_F(HostRecordTest, RecordedFramesEqualExecutedFramesBitForBit) {
  // Tiny heap sections force the program buffer to grow (a GPU copy into a new buffer) while
  // frames are recorded; interpreted and compiled programs both run.
  const ParticleSystemOptions options{.capacity = 4096,
                                      .record_words = 32,
                                      .max_emitters = 32,
                                      .serial_word = 31,
                                      .heap_constant_words = 8,
                                      .heap_code_words = 16,
                                      .heap_field_words = 8};
  ParticleSystem a = make(options);
  ParticleSystem b = make(options);
  const CompiledEffect slow = random_life_effect(200.0f, 0.5f);
  const CompiledEffect fast = random_life_effect(900.0f, 0.2f);
  const CompiledEffect fire = test::load_preset("fire.json");
  ASSERT_FALSE(fire.program.update.empty());
  std::vector<uint32_t> rows_a, rows_b;
  for (int frame = 0; frame < 90; ++frame) {
    if (frame % 10 == 0 && rows_a.size() < 12) {
      const CompiledEffect& e = (frame / 10) % 2 ? slow : fire;
      auto ra = a.add_emitter(e, {.seed = uint32_t(frame)});
      auto rb = b.add_emitter(e, {.seed = uint32_t(frame)});
      ASSERT_TRUE(ra.ok() && rb.ok()) << (ra.ok() ? rb.error().to_string() : ra.error().to_string());
      EXPECT_EQ(*ra, *rb);
      rows_a.push_back(*ra);
      rows_b.push_back(*rb);
    }
    if (frame == 25) {
      ASSERT_TRUE(a.burst(rows_a[0], 300).ok());
      ASSERT_TRUE(b.burst(rows_b[0], 300).ok());
    }
    if (frame == 40) {
      ASSERT_TRUE(a.swap_effect(rows_a[1], fast).ok());
      ASSERT_TRUE(b.swap_effect(rows_b[1], fast).ok());
    }
    if (frame == 60) {
      ASSERT_TRUE(a.remove_emitter(rows_a[2]).ok());
      ASSERT_TRUE(b.remove_emitter(rows_b[2]).ok());
    }
    step_both(a, b);
    if (frame % 15 == 14) expect_same_state(a, b, frame);
  }
  expect_same_state(a, b, 90);
  EXPECT_GT(b.upload_stats().program_buffer_growths, 0u) << "the test must grow the program buffer while recording";
  EXPECT_EQ(b.upload_stats().program_buffer_growths, a.upload_stats().program_buffer_growths);
  EXPECT_EQ(b.upload_stats().staged_regions, 0u) << "a recorded frame writes its uploads into its own command buffer";
  EXPECT_GT(a.upload_stats().staged_regions, 0u) << "execute() stages its large uploads";
  EXPECT_EQ(b.upload_stats().program_bytes, a.upload_stats().program_bytes);
  EXPECT_EQ(b.upload_stats().table_bytes, a.upload_stats().table_bytes);
}

TEST_F(HostRecordTest, RecordedFramesComposeTheTransformsFromTheCommandBuffer) {
  // The transforms' poses go into the recorded command buffer (no staging upload): an emitter
  // at a moving child row emits where execute() with TransformTable::upload has it emit.
  const ParticleSystemOptions options{.capacity = 2048, .record_words = 32, .max_emitters = 4, .serial_word = 31};
  ParticleSystem a = make(options);
  ParticleSystem b = make(options);
  auto ta = runtime::TransformTable::create(device(), 8);
  auto tb = runtime::TransformTable::create(device(), 8);
  ASSERT_TRUE(ta.ok() && tb.ok());
  for (runtime::TransformTable* t : {&*ta, &*tb}) {
    auto root = t->add_row();
    ASSERT_TRUE(root.ok());
    auto child = t->add_row(*root);
    ASSERT_TRUE(child.ok());
    EXPECT_EQ(*child, 1u);
  }
  ASSERT_TRUE(a.set_transforms(&*ta).ok());
  ASSERT_TRUE(b.set_transforms(&*tb).ok());
  const CompiledEffect fire = test::load_preset("fire.json");
  ASSERT_TRUE(a.add_emitter(fire, {.seed = 7, .transform = TransformId{1}}).ok());
  ASSERT_TRUE(b.add_emitter(fire, {.seed = 7, .transform = TransformId{1}}).ok());
  for (int frame = 0; frame < 40; ++frame) {
    const float t = frame * kDt;
    for (runtime::TransformTable* table : {&*ta, &*tb}) {
      ASSERT_TRUE(table->set_local(0, {std::sin(t) * 3.0f, 0.0f, 0.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}).ok());
      ASSERT_TRUE(table->set_local(1, {0.0f, 1.0f + t, 0.0f}, glm::angleAxis(t, glm::vec3(0, 1, 0)), {1, 1, 1}).ok());
    }
    ASSERT_TRUE(device().wait(device().last_submitted_serial()).ok());
    ASSERT_TRUE(ta->upload().ok());
    step_both(a, b);
  }
  expect_same_state(a, b, 40);
}

TEST_F(HostRecordTest, RefusesWhatItCannotRecord) {
  ParticleSystem s = make({.capacity = 256});
  EXPECT_EQ(s.record(VK_NULL_HANDLE, kDt).error().code, ErrorCode::kInvalidArgument);
  Status bad_dt = ok_status();
  ASSERT_TRUE(device().submit([&](VkCommandBuffer cmd) { bad_dt = s.record(cmd, 0.0f); }).ok());
  EXPECT_EQ(bad_dt.error().code, ErrorCode::kInvalidArgument);
  auto read = s.read_stats();
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->frames, 0u) << "a refused frame records nothing";
  EXPECT_EQ(ParticleSystem::create(device(), {.capacity = 256, .frames_in_flight = 0}).error().code,
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(ParticleSystem::create(device(), {.capacity = 256, .frames_in_flight = 9}).error().code,
            ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote
