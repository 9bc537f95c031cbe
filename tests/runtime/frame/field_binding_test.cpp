// Field bindings (docs/design/runtime_frame.md, "Field bindings") on lavapipe with validation on:
// the frame's bind pass copies a TransformTable row's channel into an emitter field or a global
// field every frame, after the compose pass and before the tick, so INIT and UPDATE read this
// frame's pose; unbinding keeps the last written value; width and name errors; a removed emitter's
// bindings never write into the block of the emitter that reuses its row; swap_effect keeps the
// bindings of fields the new program still declares.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "support/gpu_fixture.hpp"
#include "support/transform_poses.hpp"

namespace mote {
namespace {

using runtime::Channel;
using runtime::kNoParent;
using runtime::ParticleSystem;
using runtime::TransformTable;
using test::Pose;

// INIT copies the emitter field `target` (where the particle spawns), the emitter field `aim`
// and the global `anchor` into the record; UPDATE ages the particle and records the `anchor` it
// sees.
constexpr const char* kProgram = R"(
.registers 16
.particle position 3
.particle aim 4
.particle born_anchor 3
.particle age 1
.particle seen_anchor 3
.emitter target 3
.emitter aim 4
.global anchor 3

.init
  LOAD_BUILTIN r0.xyz, emitter:target
  STORE_FIELD @position, r0.xyz
  LOAD_BUILTIN r4.xyzw, emitter:aim
  STORE_FIELD @aim, r4.xyzw
  LOAD_BUILTIN r8.xyz, global:anchor
  STORE_FIELD @born_anchor, r8.xyz
  STORE_FIELD @age, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
  LOAD_BUILTIN r4.xyz, global:anchor
  STORE_FIELD @seen_anchor, r4.xyz
)";

// Another program with `target` at another offset and no `aim` (for swap_effect).
constexpr const char* kSwapProgram = R"(
.registers 8
.particle position 3
.particle age 1
.particle aim 4
.emitter speed 1
.emitter target 3

.init
  LOAD_BUILTIN r0.xyz, emitter:target
  STORE_FIELD @position, r0.xyz
  STORE_FIELD @age, 0.0
  STORE_FIELD @aim, 5.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
)";

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kWords = 32;
constexpr uint32_t kBurst = 3;
const glm::vec3 kDefaultTarget(7.0f, 8.0f, 9.0f);

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect make_effect(const char* text) {
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "field_binding";
  e.program = std::move(p).value();
  e.emission.rate = 0.0f;  // bursts only: a known number of newborns every frame
  return e;
}

CompiledEffect binding_effect() {
  CompiledEffect e = make_effect(kProgram);
  // target (7, 8, 9), aim (0, 0, 0, 1)
  e.emitter_defaults = {bits(7.0f), bits(8.0f), bits(9.0f), bits(0.0f), bits(0.0f), bits(0.0f), bits(1.0f)};
  e.globals = {{"anchor", {-1.0f, -2.0f, -3.0f}}};
  return e;
}

// One particle's record as the test programs write it.
struct Seen {
  uint32_t row = 0;
  float age = 0.0f;
  glm::vec3 position{0.0f}, born_anchor{0.0f}, seen_anchor{0.0f};
  glm::vec4 aim{0.0f};
};

class FieldBindingTest : public test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    auto t = TransformTable::create(device(), 16);
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    table_ = std::move(t).value();
    auto s = ParticleSystem::create(device(), {.capacity = 2048, .record_words = kWords, .max_emitters = 8});
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    system_ = std::move(s).value();
    ASSERT_TRUE(system_.set_transforms(&table_).ok());
    effect_ = binding_effect();
    program_ = effect_.program;
  }
  void TearDown() override {
    system_ = ParticleSystem();
    table_ = TransformTable();
    GpuTest::TearDown();
  }
  uint32_t add_row(uint32_t parent, const Pose& pose) {
    auto row = table_.add_row(parent);
    EXPECT_TRUE(row.ok());
    set(*row, pose);
    return *row;
  }
  void set(uint32_t row, const Pose& pose) { EXPECT_TRUE(poses_.set(table_, row, pose)); }
  glm::vec3 world_position(uint32_t row) const { return glm::vec3(poses_.world(table_, row)[3]); }
  uint32_t add(const CompiledEffect& e, const EmitterDesc& o = {}) {
    auto r = system_.add_emitter(e, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? *r : 0;
  }
  // Upload this frame's poses, burst every emitter, run one frame and read the pool back.
  std::vector<Seen> run_frame(const std::vector<uint32_t>& emitters) {
    EXPECT_TRUE(device().wait_idle().ok());  // the table's staging is single-buffered
    EXPECT_TRUE(table_.upload().ok());
    for (uint32_t e : emitters) EXPECT_TRUE(system_.burst(e, kBurst).ok());
    Status st = system_.execute(kDt);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
    auto pool = system_.read_pool();
    EXPECT_TRUE(pool.ok());
    std::vector<Seen> out;
    if (!pool.ok()) return out;
    auto f = [&](size_t base, const char* name, uint32_t c) {
      return std::bit_cast<float>((*pool)[base + *program_.particle_field_offset(name) + c]);
    };
    auto v3 = [&](size_t base, const char* name) {
      return glm::vec3(f(base, name, 0), f(base, name, 1), f(base, name, 2));
    };
    for (uint32_t slot = 0; slot < system_.capacity(); ++slot) {
      const size_t base = size_t(slot) * kWords;
      const uint32_t header = (*pool)[base];
      if (header == 0) continue;
      Seen s;
      s.row = header & shader::kFrameHeaderRowMask;
      s.age = f(base, "age", 0);
      s.position = v3(base, "position");
      s.born_anchor = v3(base, "born_anchor");
      s.seen_anchor = v3(base, "seen_anchor");
      s.aim = glm::vec4(f(base, "aim", 0), f(base, "aim", 1), f(base, "aim", 2), f(base, "aim", 3));
      out.push_back(s);
    }
    return out;
  }
  static std::vector<Seen> newborns(const std::vector<Seen>& seen, uint32_t row) {
    std::vector<Seen> out;
    for (const Seen& s : seen)
      if (s.row == row && s.age == 0.0f) out.push_back(s);
    return out;
  }
  // A parent that moves, turns and scales with the frame, and its child at a fixed offset.
  void animate(uint32_t parent, int frame) {
    const float t = float(frame);
    set(parent, {{std::sin(t * 0.4f) * 1.5f, 0.1f * t, std::cos(t * 0.3f) - 0.5f},
                 glm::angleAxis(0.15f * t, glm::normalize(glm::vec3(0.2f, 1.0f, -0.4f))),
                 glm::vec3(1.0f + 0.02f * t)});
  }

  TransformTable table_;
  ParticleSystem system_;
  CompiledEffect effect_;
  Program program_;  // the layout of every record the tests read
  test::PoseBook poses_;
};

void expect_near3(const glm::vec3& got, const glm::vec3& want, float tol, const std::string& what) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], tol) << what << "[" << c << "]";
}

TEST_F(FieldBindingTest, InitSpawnsAtTheBoundTransformsPositionFrameByFrame) {
  const uint32_t parent = add_row(kNoParent, {});
  const uint32_t child = add_row(parent, {{0.5f, -0.25f, 1.0f}, glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), {1, 1, 1}});
  const uint32_t bound = add(effect_);
  const uint32_t unbound = add(effect_);  // same program, same dispatches: keeps its own target
  ASSERT_TRUE(system_.bind_field(bound, "target", child, Channel::kPosition).ok());
  EXPECT_EQ(system_.field_binding_count(), 1u);
  glm::vec3 last(0.0f);
  for (int frame = 0; frame < 20; ++frame) {
    animate(parent, frame);
    const glm::vec3 want = world_position(child);
    const std::vector<Seen> seen = run_frame({bound, unbound});
    const std::vector<Seen> born = newborns(seen, bound);
    ASSERT_EQ(born.size(), kBurst) << "frame " << frame;
    for (const Seen& s : born)
      expect_near3(s.position, want, 1e-5f, "newborn at the bound position, frame " + std::to_string(frame));
    const std::vector<Seen> other = newborns(seen, unbound);
    ASSERT_EQ(other.size(), kBurst);
    for (const Seen& s : other) expect_near3(s.position, kDefaultTarget, 0.0f, "unbound emitter's own target");
    // Particles born earlier stay where they were born: the binding moves the field, not them.
    uint32_t older = 0;
    for (const Seen& s : seen)
      if (s.row == bound && s.age > 0.0f) ++older;
    EXPECT_EQ(older, kBurst * uint32_t(frame));
    if (frame > 0) {
      EXPECT_GT(glm::length(want - last), 1e-3f) << "the transform must really move";
    }
    last = want;
  }
}

TEST_F(FieldBindingTest, OrientationFillsAVec4Field) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t e = add(effect_);
  ASSERT_TRUE(system_.bind_field(e, "aim", row, Channel::kOrientation).ok());
  for (int frame = 0; frame < 12; ++frame) {
    const glm::quat q = glm::angleAxis(0.25f * float(frame) + 0.1f, glm::normalize(glm::vec3(1.0f, 2.0f, -0.5f)));
    set(row, {{1.0f, 2.0f, 3.0f}, q, {2.0f, 0.5f, 1.0f}});  // a non-uniform scale is divided out
    const std::vector<Seen> born = newborns(run_frame({e}), e);
    ASSERT_EQ(born.size(), kBurst);
    for (const Seen& s : born) {
      const float sign = glm::dot(glm::vec4(q.x, q.y, q.z, q.w), s.aim) < 0.0f ? -1.0f : 1.0f;
      EXPECT_NEAR(sign * s.aim.x, q.x, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.aim.y, q.y, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.aim.z, q.z, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.aim.w, q.w, 1e-5f) << "frame " << frame;
      // The rest of the block is untouched: target is still the emitter's own.
      expect_near3(s.position, kDefaultTarget, 0.0f, "target beside the bound aim");
    }
  }
}

TEST_F(FieldBindingTest, DirectionAndUpChannels) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t a = add(effect_);
  const uint32_t b = add(effect_);
  ASSERT_TRUE(system_.bind_field(a, "target", row, Channel::kDirection).ok());
  ASSERT_TRUE(system_.bind_field(b, "target", row, Channel::kUp).ok());
  for (int frame = 0; frame < 6; ++frame) {
    const float angle = 0.3f * float(frame);  // about +X: +Z turns to (0, -sin, cos), +Y to (0, cos, sin)
    set(row, {{4.0f, 0.0f, 0.0f}, glm::angleAxis(angle, glm::vec3(1, 0, 0)), {3.0f, 3.0f, 3.0f}});
    const std::vector<Seen> seen = run_frame({a, b});
    for (const Seen& s : newborns(seen, a))
      expect_near3(s.position, {0.0f, -std::sin(angle), std::cos(angle)}, 1e-5f, "DIRECTION");
    for (const Seen& s : newborns(seen, b))
      expect_near3(s.position, {0.0f, std::cos(angle), std::sin(angle)}, 1e-5f, "UP");
    EXPECT_EQ(newborns(seen, a).size() + newborns(seen, b).size(), 2 * kBurst);
  }
}

TEST_F(FieldBindingTest, GlobalBoundToATransformReachesEveryReaderInInitAndUpdate) {
  const uint32_t row = add_row(kNoParent, {});
  // Bound before anyone reads it: accepted, and the readers added later are bound too.
  ASSERT_TRUE(system_.bind_global("anchor", row, Channel::kPosition).ok());
  const uint32_t a = add(effect_);
  const uint32_t b = add(effect_, {.seed = 9});
  EXPECT_EQ(system_.field_binding_count(), 2u);  // one per reader's copy
  uint32_t c = 0;
  for (int frame = 0; frame < 10; ++frame) {
    if (frame == 5) c = add(effect_);  // a reader added while bound
    set(row, {{0.5f * float(frame), 1.0f, -float(frame)}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    const glm::vec3 want = world_position(row);
    std::vector<uint32_t> emitters = {a, b};
    if (frame >= 5) emitters.push_back(c);
    const std::vector<Seen> seen = run_frame(emitters);
    uint32_t updated = 0, born = 0;
    for (const Seen& s : seen) {
      if (s.age == 0.0f) {
        ++born;
        expect_near3(s.born_anchor, want, 1e-6f, "INIT's anchor, frame " + std::to_string(frame));
      } else {
        ++updated;
        expect_near3(s.seen_anchor, want, 1e-6f, "UPDATE's anchor, frame " + std::to_string(frame));
      }
    }
    EXPECT_EQ(born, kBurst * uint32_t(emitters.size())) << "frame " << frame;
    EXPECT_GT(updated + (frame == 0 ? 1u : 0u), 0u);
  }
  // Unbinding: every reader keeps the last written value, and it becomes the global's value for
  // emitters added later.
  const glm::vec3 last = world_position(row);
  ASSERT_TRUE(system_.unbind_global("anchor").ok());
  EXPECT_EQ(system_.field_binding_count(), 0u);
  const uint32_t d = add(effect_);
  for (int frame = 10; frame < 14; ++frame) {
    set(row, {{100.0f + float(frame), 0.0f, 0.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    const std::vector<Seen> seen = run_frame({a, b, c, d});
    for (const Seen& s : seen) {
      if (s.age == 0.0f) {
        expect_near3(s.born_anchor, last, 0.0f, "INIT's anchor after unbind");
      } else {
        expect_near3(s.seen_anchor, last, 0.0f, "UPDATE's anchor after unbind");
      }
    }
  }
}

TEST_F(FieldBindingTest, UnbindKeepsTheLastWrittenValueThroughReuploads) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t e = add(effect_);
  ASSERT_TRUE(system_.bind_field(e, "target", row, Channel::kPosition).ok());
  glm::vec3 last(0.0f);
  for (int frame = 0; frame < 5; ++frame) {
    set(row, {{float(frame), 2.0f * float(frame), -1.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    last = world_position(row);
    for (const Seen& s : newborns(run_frame({e}), e)) expect_near3(s.position, last, 1e-6f, "bound");
  }
  // A re-upload of the whole image while bound (another emitter added) must not undo the pass's
  // writes either: the next frame rewrites them, and the unbind below reads them back.
  const uint32_t other = add(effect_);
  ASSERT_TRUE(system_.unbind_field(e, "target").ok());
  EXPECT_FALSE(system_.unbind_field(e, "target").ok());  // not bound any more
  for (int frame = 5; frame < 10; ++frame) {
    set(row, {{50.0f, float(frame), 0.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    if (frame == 7) add(effect_);  // another full re-upload after the unbind
    const std::vector<Seen> seen = run_frame({e, other});
    const std::vector<Seen> born = newborns(seen, e);
    ASSERT_EQ(born.size(), kBurst);
    for (const Seen& s : born) expect_near3(s.position, last, 0.0f, "after unbind, frame " + std::to_string(frame));
    for (const Seen& s : newborns(seen, other)) expect_near3(s.position, kDefaultTarget, 0.0f, "other emitter");
  }
  // The field is the emitter's own again: set_emitter_field works on it.
  const float moved[3] = {1.0f, 1.5f, 2.0f};
  ASSERT_TRUE(system_.set_emitter_field(e, "target", moved).ok());
  for (const Seen& s : newborns(run_frame({e}), e))
    expect_near3(s.position, {1.0f, 1.5f, 2.0f}, 0.0f, "set after unbind");
}

TEST_F(FieldBindingTest, ErrorsNameTheField) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t e = add(effect_);
  auto message = [](const Status& s) { return s.ok() ? std::string() : s.error().to_string(); };
  // Width mismatches, both ways.
  Status s = system_.bind_field(e, "target", row, Channel::kOrientation);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(message(s).find("'target'"), std::string::npos) << message(s);
  s = system_.bind_field(e, "aim", row, Channel::kPosition);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(message(s).find("'aim'"), std::string::npos) << message(s);
  // An unknown field.
  s = system_.bind_field(e, "nope", row, Channel::kPosition);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(message(s).find("'nope'"), std::string::npos) << message(s);
  // No emitter, no transform row, an out-of-range channel.
  EXPECT_FALSE(system_.bind_field(e + 1, "target", row, Channel::kPosition).ok());
  EXPECT_FALSE(system_.bind_field(e, "target", row + 5, Channel::kPosition).ok());
  EXPECT_FALSE(system_.bind_field(e, "target", row, Channel(7)).ok());
  // A global read at another width than the channel's.
  s = system_.bind_global("anchor", row, Channel::kOrientation);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(message(s).find("'anchor'"), std::string::npos) << message(s);
  EXPECT_FALSE(system_.unbind_global("anchor").ok());  // not bound
  EXPECT_EQ(system_.field_binding_count(), 0u);

  // While bound: the value is the pass's, so setting it is refused, and so is swapping the table
  // or adding a reader of the bound global at another width.
  ASSERT_TRUE(system_.bind_field(e, "target", row, Channel::kPosition).ok());
  ASSERT_TRUE(system_.bind_global("anchor", row, Channel::kPosition).ok());
  const float three[3] = {1, 2, 3};
  EXPECT_FALSE(system_.set_emitter_field(e, "target", three).ok());
  EXPECT_FALSE(system_.set_global("anchor", three).ok());
  EXPECT_FALSE(system_.set_transforms(nullptr).ok());
  CompiledEffect wide = make_effect(R"(
.registers 4
.particle x 4
.global anchor 4
.init
  LOAD_BUILTIN r0.xyzw, global:anchor
  STORE_FIELD @x, r0.xyzw
.update
  LOAD_FIELD r0.x, @x
)");
  auto refused = system_.add_emitter(wide);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().to_string().find("'anchor'"), std::string::npos) << refused.error().to_string();
  ASSERT_TRUE(system_.unbind_field(e, "target").ok());
  ASSERT_TRUE(system_.unbind_global("anchor").ok());
  EXPECT_TRUE(system_.set_transforms(nullptr).ok());
  // Without a table nothing can be bound.
  s = system_.bind_field(e, "target", row, Channel::kPosition);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(message(s).find("set_transforms"), std::string::npos) << message(s);
  EXPECT_FALSE(system_.bind_global("anchor", row, Channel::kPosition).ok());
}

TEST_F(FieldBindingTest, RemovingTheEmitterDropsItsBindings) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t keep = add(effect_);
  const uint32_t gone = add(effect_);
  ASSERT_TRUE(system_.bind_field(gone, "target", row, Channel::kPosition).ok());
  ASSERT_TRUE(system_.bind_field(keep, "aim", row, Channel::kOrientation).ok());
  for (int frame = 0; frame < 3; ++frame) {
    set(row, {{float(frame), 0.0f, 1.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    run_frame({keep, gone});
  }
  ASSERT_TRUE(system_.remove_emitter(gone).ok());
  EXPECT_EQ(system_.field_binding_count(), 1u);
  // A new emitter reuses the row (and a block at the same place in the image): its target must
  // stay its own while the transform keeps moving.
  const uint32_t reused = add(effect_);
  ASSERT_EQ(reused, gone);
  for (int frame = 3; frame < 10; ++frame) {
    const glm::quat q = glm::angleAxis(0.2f * float(frame), glm::vec3(0, 0, 1));
    set(row, {{float(frame) * 3.0f, 1.0f, 1.0f}, q, {1, 1, 1}});
    const std::vector<Seen> seen = run_frame({keep, reused});
    const std::vector<Seen> born = newborns(seen, reused);
    ASSERT_EQ(born.size(), kBurst);
    for (const Seen& s : born) {
      expect_near3(s.position, kDefaultTarget, 0.0f, "reused row's target, frame " + std::to_string(frame));
      EXPECT_EQ(s.aim, glm::vec4(0, 0, 0, 1));
    }
    // The other emitter's binding still runs.
    for (const Seen& s : newborns(seen, keep)) {
      const float sign = glm::dot(glm::vec4(q.x, q.y, q.z, q.w), s.aim) < 0.0f ? -1.0f : 1.0f;
      EXPECT_NEAR(sign * s.aim.z, q.z, 1e-5f);
      EXPECT_NEAR(sign * s.aim.w, q.w, 1e-5f);
    }
  }
}

TEST_F(FieldBindingTest, ATransformRowRemovedWhileUsedStopsTheFrameUntilItsUsersLetGo) {
  const uint32_t bound = add_row(kNoParent, {});
  const uint32_t stand = add_row(kNoParent, {});
  const uint32_t global_row = add_row(kNoParent, {});
  const uint32_t e = add(effect_);
  const uint32_t placed = add(effect_, {.transform = TransformId{stand}});
  ASSERT_TRUE(system_.bind_field(e, "target", bound, Channel::kPosition).ok());
  ASSERT_TRUE(system_.bind_global("anchor", global_row, Channel::kPosition).ok());
  run_frame({e, placed});

  // Asking first: each use is named.
  auto message = [](const Status& st) { return st.ok() ? std::string() : st.error().message; };
  Status st = system_.check_transform_row_unused(bound);
  EXPECT_NE(message(st).find("field 'target'"), std::string::npos) << message(st);
  st = system_.check_transform_row_unused(stand);
  EXPECT_NE(message(st).find("stands"), std::string::npos) << message(st);
  st = system_.check_transform_row_unused(global_row);
  EXPECT_NE(message(st).find("global 'anchor'"), std::string::npos) << message(st);
  const uint32_t unused = add_row(kNoParent, {});
  EXPECT_TRUE(system_.check_transform_row_unused(unused).ok());

  // Removed anyway, straight on the table, and the index handed out again: the frame refuses to
  // run (the binding would read a stranger's pose) and says why, however often it is asked.
  ASSERT_TRUE(table_.remove_row(bound).ok());
  ASSERT_EQ(table_.add_row(kNoParent).value(), bound) << "the table reuses the index";
  ASSERT_TRUE(device().wait_idle().ok());
  ASSERT_TRUE(table_.upload().ok());
  for (int attempt = 0; attempt < 2; ++attempt) {
    st = system_.execute(kDt);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(message(st).find("transform row " + std::to_string(bound) + " was removed"), std::string::npos)
        << message(st);
    EXPECT_NE(message(st).find("field 'target'"), std::string::npos) << message(st);
  }
  // Unbinding lets the frame run; then the emitter standing at a removed row stops it too.
  ASSERT_TRUE(system_.unbind_field(e, "target").ok());
  run_frame({e, placed});
  ASSERT_TRUE(table_.remove_row(stand).ok());
  st = system_.execute(kDt);
  EXPECT_NE(message(st).find("the emitter at row " + std::to_string(placed)), std::string::npos) << message(st);
  ASSERT_TRUE(system_.remove_emitter(placed).ok());
  ASSERT_TRUE(table_.remove_row(global_row).ok());
  st = system_.execute(kDt);
  EXPECT_NE(message(st).find("global 'anchor'"), std::string::npos) << message(st);
  ASSERT_TRUE(system_.unbind_global("anchor").ok());
  run_frame({e});
}

TEST_F(FieldBindingTest, SwapEffectKeepsBindingsOfFieldsTheNewProgramDeclares) {
  const uint32_t row = add_row(kNoParent, {});
  const uint32_t e = add(effect_);
  ASSERT_TRUE(system_.bind_field(e, "target", row, Channel::kPosition).ok());
  ASSERT_TRUE(system_.bind_field(e, "aim", row, Channel::kOrientation).ok());
  for (int frame = 0; frame < 3; ++frame) {
    set(row, {{float(frame), 1.0f, 2.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    run_frame({e});
  }
  const uint32_t generation = system_.generation(e);
  CompiledEffect swapped = make_effect(kSwapProgram);
  swapped.emitter_defaults = {bits(1.0f), bits(0.0f), bits(0.0f), bits(0.0f)};
  ASSERT_TRUE(system_.swap_effect(e, swapped).ok());
  EXPECT_NE(system_.generation(e), generation);
  EXPECT_EQ(system_.field_binding_count(), 1u);  // target kept (at its new offset), aim dropped
  const Program swapped_layout = swapped.program;
  for (int frame = 3; frame < 8; ++frame) {
    set(row, {{float(frame) * 2.0f, -1.0f, 0.5f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
    const glm::vec3 want = world_position(row);
    ASSERT_TRUE(device().wait_idle().ok());
    ASSERT_TRUE(table_.upload().ok());
    ASSERT_TRUE(system_.burst(e, kBurst).ok());
    ASSERT_TRUE(system_.execute(kDt).ok());
    auto stats = system_.read_stats().value();
    if (frame == 3) {
      EXPECT_EQ(stats.orphaned, 3u * kBurst);  // the old program's particles
    }
    auto pool = system_.read_pool().value();
    uint32_t born = 0;
    for (uint32_t slot = 0; slot < system_.capacity(); ++slot) {
      const uint32_t* rec = pool.data() + size_t(slot) * kWords;
      if (rec[0] == 0) continue;
      EXPECT_EQ(rec[0] >> shader::kFrameHeaderRowBits, system_.generation(e));
      if (std::bit_cast<float>(rec[*swapped_layout.particle_field_offset("age")]) != 0.0f) continue;
      ++born;
      const uint32_t p = *swapped_layout.particle_field_offset("position");
      expect_near3({std::bit_cast<float>(rec[p]), std::bit_cast<float>(rec[p + 1]), std::bit_cast<float>(rec[p + 2])},
                   want, 1e-6f, "swapped program's bound target");
      EXPECT_EQ(std::bit_cast<float>(rec[*swapped_layout.particle_field_offset("aim")]), 5.0f);
    }
    EXPECT_EQ(born, kBurst);
  }
}

}  // namespace
}  // namespace mote
