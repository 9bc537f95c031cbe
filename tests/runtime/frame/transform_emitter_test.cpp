// Emitters at transform rows (docs/design/runtime_frame.md, "Emitters at transform rows") on
// lavapipe with validation on: the frame records the TransformTable's compose pass before its tick,
// and emit / simulate read EMITTER_POSITION / DIRECTION / UP / ROTATION from the emitter's row's
// channels. An emitter without a row keeps its constant pose in the same dispatches.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "gpu/commands.hpp"
#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "support/gpu_fixture.hpp"
#include "support/transform_poses.hpp"

namespace mote {
namespace {

using runtime::kNoParent;
using runtime::ParticleSystem;
using runtime::TransformTable;

// INIT records the emitter's builtins; UPDATE ages the particle and records the position it sees.
constexpr const char* kProgram = R"(
.registers 8
.particle epos 3
.particle edir 3
.particle eup 3
.particle erot 4
.particle age 1
.particle upos 3

.init
  LOAD_BUILTIN r0.xyz, EMITTER_POSITION
  STORE_FIELD @epos, r0.xyz
  LOAD_BUILTIN r1.xyz, EMITTER_DIRECTION
  STORE_FIELD @edir, r1.xyz
  LOAD_BUILTIN r2.xyz, EMITTER_UP
  STORE_FIELD @eup, r2.xyz
  LOAD_BUILTIN r3.xyzw, EMITTER_ROTATION
  STORE_FIELD @erot, r3.xyzw
  STORE_FIELD @age, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
  LOAD_BUILTIN r2.xyz, EMITTER_POSITION
  STORE_FIELD @upos, r2.xyz
)";

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kWords = 32;
constexpr uint32_t kBurst = 4;

using test::local_matrix;
using test::Pose;

CompiledEffect make_effect() {
  Result<Program> p = assemble(kProgram);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "transform_emitter";
  e.program = std::move(p).value();
  e.emission.rate = 0.0f;  // bursts only: a known number of newborns every frame
  e.emission.capacity_hint = 1024;
  return e;
}

// One particle's recorded builtins.
struct Seen {
  uint32_t row = 0;
  float age = 0.0f;
  glm::vec3 pos{0.0f}, dir{0.0f}, up{0.0f}, upos{0.0f};
  glm::quat rot{1.0f, 0.0f, 0.0f, 0.0f};
};

class TransformEmitterTest : public test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    auto t = TransformTable::create(device(), 16);
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    table_ = std::move(t).value();
    auto s = ParticleSystem::create(device(), {.capacity = 1024, .record_words = kWords, .max_emitters = 8});
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    system_ = std::move(s).value();
    ASSERT_TRUE(system_.set_transforms(&table_).ok());
    effect_ = make_effect();
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
  glm::mat4 cpu_world(uint32_t row) const { return poses_.world(table_, row); }
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
    const Program& p = effect_.program;
    auto f = [&](size_t base, const char* name, uint32_t c) {
      return std::bit_cast<float>((*pool)[base + *p.particle_field_offset(name) + c]);
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
      s.pos = v3(base, "epos");
      s.dir = v3(base, "edir");
      s.up = v3(base, "eup");
      s.upos = v3(base, "upos");
      s.rot = glm::quat(f(base, "erot", 3), f(base, "erot", 0), f(base, "erot", 1), f(base, "erot", 2));
      out.push_back(s);
    }
    return out;
  }

  TransformTable table_;
  ParticleSystem system_;
  CompiledEffect effect_;
  test::PoseBook poses_;
};

void expect_near3(const glm::vec3& got, const glm::vec3& want, float tol, const char* what, int frame) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], tol) << what << "[" << c << "] frame " << frame;
}

TEST_F(TransformEmitterTest, NewbornsSpawnAtTheParentComposedPositionOfAChildRow) {
  const uint32_t parent = add_row(kNoParent, {});
  const Pose child_pose{{0.5f, -0.25f, 1.0f}, glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 2, 0.5f))), {1, 1, 1}};
  const uint32_t child = add_row(parent, child_pose);
  EmitterDesc at_row;
  at_row.transform = TransformId{child};
  at_row.position[0] = 100.0f;  // ignored: the row places it
  auto placed = system_.add_emitter(effect_, at_row);
  ASSERT_TRUE(placed.ok()) << placed.error().to_string();
  EmitterDesc fixed;  // no row: today's constant pose
  fixed.position[0] = -2.0f;
  fixed.position[1] = 0.75f;
  fixed.position[2] = 3.0f;
  auto constant = system_.add_emitter(effect_, fixed);
  ASSERT_TRUE(constant.ok()) << constant.error().to_string();

  glm::vec3 last_pos(0.0f);
  for (int frame = 0; frame < 24; ++frame) {
    // The parent moves (and turns and scales a little) every frame; the child's pose is fixed.
    const float t = float(frame);
    set(parent, {{std::sin(t * 0.4f) * 1.5f, 0.1f * t, std::cos(t * 0.3f) - 0.5f},
                 glm::angleAxis(0.15f * t, glm::normalize(glm::vec3(0.2f, 1.0f, -0.4f))),
                 glm::vec3(1.0f + 0.02f * t)});
    const glm::mat4 world = cpu_world(child);
    const glm::vec3 want(world[3]);
    const std::vector<Seen> seen = run_frame({*placed, *constant});
    uint32_t newborns_at_row = 0, newborns_fixed = 0, survivors_at_row = 0;
    for (const Seen& s : seen) {
      if (s.row == *placed) {
        if (s.age == 0.0f) {
          ++newborns_at_row;
          expect_near3(s.pos, want, 1e-5f, "newborn EMITTER_POSITION", frame);
        } else {
          ++survivors_at_row;
          expect_near3(s.upos, want, 1e-5f, "UPDATE's EMITTER_POSITION", frame);
        }
      } else {
        ASSERT_EQ(s.row, *constant);
        if (s.age == 0.0f) ++newborns_fixed;
        expect_near3(s.pos, {-2.0f, 0.75f, 3.0f}, 0.0f, "constant EMITTER_POSITION", frame);
        if (s.age != 0.0f) {
          expect_near3(s.upos, {-2.0f, 0.75f, 3.0f}, 0.0f, "constant UPDATE position", frame);
        }
      }
    }
    EXPECT_EQ(newborns_at_row, kBurst) << "frame " << frame;
    EXPECT_EQ(newborns_fixed, kBurst) << "frame " << frame;
    EXPECT_EQ(survivors_at_row, kBurst * uint32_t(frame)) << "frame " << frame;
    if (frame > 0) {
      EXPECT_GT(glm::length(want - last_pos), 1e-3f) << "the parent must really move";
    }
    last_pos = want;
  }
}

TEST_F(TransformEmitterTest, RotatingTheParentTurnsEmitterDirection) {
  const uint32_t parent = add_row(kNoParent, {});
  const uint32_t child = add_row(parent, {{0.0f, 1.0f, 0.0f}, glm::quat(1, 0, 0, 0), {1, 1, 1}});
  EmitterDesc o;
  o.transform = TransformId{child};
  auto placed = system_.add_emitter(effect_, o);
  ASSERT_TRUE(placed.ok()) << placed.error().to_string();

  for (int frame = 0; frame < 16; ++frame) {
    const float angle = 0.2f * float(frame);  // about +Y: +Z turns to (sin, 0, cos)
    const glm::quat q = glm::angleAxis(angle, glm::vec3(0, 1, 0));
    set(parent, {{0.25f, 0.0f, -0.5f}, q, {1, 1, 1}});
    const std::vector<Seen> seen = run_frame({*placed});
    uint32_t newborns = 0;
    for (const Seen& s : seen) {
      if (s.age != 0.0f) continue;
      ++newborns;
      expect_near3(s.dir, {std::sin(angle), 0.0f, std::cos(angle)}, 1e-5f, "EMITTER_DIRECTION", frame);
      expect_near3(s.up, {0.0f, 1.0f, 0.0f}, 1e-5f, "EMITTER_UP", frame);
      expect_near3(s.pos, {0.25f, 1.0f, -0.5f}, 1e-5f, "EMITTER_POSITION", frame);
      // EMITTER_ROTATION is the row's orientation: q up to sign.
      const float sign = glm::dot(s.rot, q) < 0.0f ? -1.0f : 1.0f;
      EXPECT_NEAR(sign * s.rot.x, q.x, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.rot.y, q.y, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.rot.z, q.z, 1e-5f) << "frame " << frame;
      EXPECT_NEAR(sign * s.rot.w, q.w, 1e-5f) << "frame " << frame;
    }
    EXPECT_EQ(newborns, kBurst) << "frame " << frame;
  }
}

TEST_F(TransformEmitterTest, RowsAreCheckedOnTheHost) {
  EmitterDesc o;
  o.transform = TransformId{5};  // never added
  EXPECT_FALSE(system_.add_emitter(effect_, o).ok());
  const uint32_t row = add_row(kNoParent, {});
  o.transform = TransformId{row};
  auto placed = system_.add_emitter(effect_, o);
  ASSERT_TRUE(placed.ok());
  // The table cannot be swapped out from under a placed emitter.
  EXPECT_FALSE(system_.set_transforms(nullptr).ok());
  ASSERT_TRUE(system_.remove_emitter(*placed).ok());
  EXPECT_TRUE(system_.set_transforms(nullptr).ok());
  EXPECT_FALSE(system_.add_emitter(effect_, o).ok());  // no table: no rows
}

}  // namespace
}  // namespace mote
