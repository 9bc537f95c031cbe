// Culling of spawning on lavapipe (validation on): an emitter whose effect culls, watched by a
// camera that turns away and back. While its published bounds are out of view it spawns nothing
// and sleeps, its live particles keep simulating (and die on time), and on wake it pays back at
// most max_catchup_seconds of rate; every frame's spawns equal the CPU rule
// (sim::take_culled_rate_spawns) and an emitter that does not cull is untouched. The frustum
// test itself is checked against hand-placed boxes.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "runtime/frame/cull_view.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/frame/tagged_program.hpp"
#include "sim/emission.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

constexpr float kDt = 1.0f / 60.0f;

std::array<float, 16> camera_looking(glm::vec3 eye, glm::vec3 forward) {
  const glm::mat4 view = glm::lookAtRH(eye, eye + forward, glm::vec3(0, 1, 0));
  const glm::mat4 projection = glm::perspectiveRH_ZO(glm::radians(60.0f), 16.0f / 9.0f, 0.1f, 100.0f);
  const glm::mat4 m = projection * view;
  std::array<float, 16> out{};
  std::copy_n(glm::value_ptr(m), 16, out.begin());
  return out;
}

TEST(CullViewTest, TheFrustumHoldsWhatTheCameraSeesAndNothingBehindOrBeside) {
  const auto planes = runtime::frustum_planes(camera_looking({0, 0, -10}, {0, 0, 1}));
  using shader::vec3;
  EXPECT_TRUE(runtime::box_in_frustum(planes, vec3(-1, -1, -1), vec3(1, 1, 1)));       // ahead
  EXPECT_TRUE(runtime::box_in_frustum(planes, vec3(-50, -1, 20), vec3(50, 1, 21)));    // wider than the view
  EXPECT_FALSE(runtime::box_in_frustum(planes, vec3(-1, -1, -30), vec3(1, 1, -20)));   // behind the eye
  EXPECT_FALSE(runtime::box_in_frustum(planes, vec3(30, -1, -1), vec3(32, 1, 1)));     // off to the side
  EXPECT_FALSE(runtime::box_in_frustum(planes, vec3(-1, -1, 200), vec3(1, 1, 210)));   // past the far plane
  EXPECT_TRUE(runtime::box_in_frustum(planes, vec3(-40, -40, -30), vec3(40, 40, 5)));  // around the eye
}

class CullingTest : public test::GpuTest {};

TEST_F(CullingTest, ACameraTurningAwayStopsSpawnsAndTheWakePaysBackABoundedCatchUp) {
  auto created = ParticleSystem::create(device(), {.capacity = 8192, .record_words = 8, .max_emitters = 8});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  constexpr float kRate = 120.0f, kCatchUp = 0.5f;
  Result<CompiledEffect> culls = test::tagged_effect(1, kRate, 0.3f);
  Result<CompiledEffect> never = test::tagged_effect(2, kRate, 0.3f);
  ASSERT_TRUE(culls.ok() && never.ok());
  culls.value().emission.cull = true;
  culls.value().emission.max_catchup_seconds = kCatchUp;
  Result<uint32_t> a = system.add_emitter(culls.value(), {.seed = 1});
  Result<uint32_t> b = system.add_emitter(never.value(), {.seed = 2});
  ASSERT_TRUE(a.ok() && b.ok());
  const auto toward = camera_looking({0.5f, 0.5f, -10.0f}, {0, 0, 1});
  const auto away = camera_looking({0.5f, 0.5f, -10.0f}, {0, 0, -1});
  float accumulator = 0.0f, asleep = 0.0f, plain = 0.0f;
  uint32_t total_a = 0, expected_total_a = 0;
  uint32_t alive_when_turned = 0;
  for (int frame = 0; frame < 120; ++frame) {
    SCOPED_TRACE(testing::Message() << "frame " << frame);
    const bool turned_away = frame >= 30 && frame < 90;
    system.set_cull_camera(turned_away ? away : toward);
    ASSERT_TRUE(system.execute(kDt).ok());
    Result<std::vector<shader::FrameEmitterState>> states = system.read_emitter_states();
    Result<std::vector<shader::FrameEmitterBounds>> bounds = system.read_emitter_bounds();
    ASSERT_TRUE(states.ok() && bounds.ok());
    const shader::FrameEmitterState& sa = states.value()[a.value()];
    const shader::FrameEmitterState& sb = states.value()[b.value()];
    // The tick tests the box the previous frame published against this frame's camera.
    EXPECT_EQ(sa.culled, turned_away ? 1u : 0u);
    EXPECT_EQ(sb.culled, 0u);
    const uint32_t expected = sim::take_culled_rate_spawns(accumulator, asleep, kRate, kDt, sa.culled == 0, kCatchUp);
    EXPECT_EQ(sa.spawn_count, expected);
    EXPECT_EQ(sb.spawn_count, sim::take_rate_spawns(plain, kRate, kDt));
    EXPECT_EQ(std::bit_cast<uint32_t>(sa.asleep), std::bit_cast<uint32_t>(asleep));
    total_a += sa.spawn_count;
    expected_total_a += expected;
    if (frame == 30) alive_when_turned = bounds.value()[a.value()].alive;
    if (frame == 60) {
      // 0.3 s of life: the particles alive when the camera turned kept simulating and died.
      EXPECT_EQ(bounds.value()[a.value()].alive, 0u);
      EXPECT_GT(asleep, 0.49f);
    }
    if (frame == 90) {
      // One second asleep, half a second of rate paid back, plus this frame's two.
      EXPECT_GE(sa.spawn_count, uint32_t(kRate * kCatchUp));
      EXPECT_LE(sa.spawn_count, uint32_t(kRate * kCatchUp) + 3u);
    }
  }
  EXPECT_GT(alive_when_turned, 20u);
  EXPECT_EQ(total_a, expected_total_a);
  // Without a camera nothing is culled.
  system.set_cull_camera(std::nullopt);
  ASSERT_TRUE(system.execute(kDt).ok());
  Result<std::vector<shader::FrameEmitterState>> states = system.read_emitter_states();
  ASSERT_TRUE(states.ok());
  EXPECT_EQ(states.value()[a.value()].culled, 0u);
}

}  // namespace
}  // namespace mote
