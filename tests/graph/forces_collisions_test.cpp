// The force and collider nodes on the reference executor: each does what its closed form in
// docs/design/nodes.md ("Forces and collisions") says.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "graph_test_util.hpp"
#include "mote/effect.hpp"
#include "mote/vm.hpp"

namespace {

using Vec3 = std::array<float, 3>;

struct State {
  Vec3 position{};
  Vec3 velocity{};
};

// Record words: position 1..3, velocity 4..6 (graph_test_util.hpp's effect_with).
std::vector<State> run_update(const std::string& update_nodes, const std::vector<State>& particles, float dt = 0.5f,
                              bool batch = false) {
  auto effect = mote::compile_effect(effect_with(
      R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})", update_nodes));
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  if (!effect.ok()) return {};
  mote::RunInput in;
  in.program = &effect->program;
  in.section = mote::Section::kUpdate;
  in.count = uint32_t(particles.size());
  const uint32_t stride = effect->program.particle_record_words();
  in.records.assign(size_t(in.count) * stride, 0u);
  for (size_t i = 0; i < particles.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      in.records[i * stride + 1 + k] = std::bit_cast<uint32_t>(particles[i].position[k]);
      in.records[i * stride + 4 + k] = std::bit_cast<uint32_t>(particles[i].velocity[k]);
    }
  in.emitter.dt = dt;
  in.emitter_fields = effect->emitter_defaults;
  in.rng_base = 3;
  auto out = (batch ? mote::make_batch_executor() : mote::make_reference_executor())->run(in);
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  std::vector<State> result(particles.size());
  if (!out.ok()) return result;
  for (size_t i = 0; i < particles.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      result[i].position[k] = std::bit_cast<float>(out->records[i * stride + 1 + k]);
      result[i].velocity[k] = std::bit_cast<float>(out->records[i * stride + 4 + k]);
    }
  return result;
}

// A node of `type` with `inputs` (JSON members) fed by the particle's position and velocity,
// writing back the outputs named (position and/or velocity; "out" for a single-output node).
std::string node_graph(const std::string& type, const std::string& inputs, const std::string& position_from,
                       const std::string& velocity_from) {
  std::string g = R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
      {"id": "n", "type": ")" +
                  type + R"(", "inputs": {)" + inputs + "}}";
  if (!position_from.empty())
    g += R"(, {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": ")" +
         position_from + "\"}}";
  if (!velocity_from.empty())
    g += R"(, {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": ")" +
         velocity_from + "\"}}";
  return g;
}

float length(Vec3 a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
Vec3 sub(Vec3 a, Vec3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

TEST(Forces, PointForceAttractsRepelsAndFadesWithDistance) {
  const std::vector<State> at_x2{{{2, 0, 0}, {0, 0, 0}}, {{4, 0, 0}, {0, 0, 0}}};
  // Toward the center, strength * dt = 2 * 0.5 = 1 m/s, everywhere without a radius.
  auto a = run_update(node_graph("point_force", R"("position": "p", "velocity": "v", "strength": 2)", "", "n"), at_x2);
  EXPECT_FLOAT_EQ(a[0].velocity[0], -1.0f);
  EXPECT_FLOAT_EQ(a[1].velocity[0], -1.0f);
  // Negative strength repels.
  auto r = run_update(node_graph("point_force", R"("position": "p", "velocity": "v", "strength": -2)", "", "n"), at_x2);
  EXPECT_FLOAT_EQ(r[0].velocity[0], 1.0f);
  // radius 4: 1 - 2/4 = half at x = 2, nothing at x = 4 and beyond.
  auto f = run_update(node_graph("point_force", R"("position": "p", "velocity": "v", "strength": 2, "radius": 4)", "",
                                 "n"),
                      at_x2);
  EXPECT_FLOAT_EQ(f[0].velocity[0], -0.5f);
  EXPECT_FLOAT_EQ(f[1].velocity[0], 0.0f);
}

TEST(Forces, VortexPushesAroundTheAxisAndOrbitKeepsTheRadius) {
  // About +Y through the origin: at +X the tangent is -Z (Y x X = -Z).
  auto v = run_update(node_graph("vortex", R"("position": "p", "velocity": "v", "strength": 4)", "", "n"),
                      {{{3, 1, 0}, {0, 0, 0}}});
  EXPECT_NEAR(v[0].velocity[0], 0.0f, 1e-6f);
  EXPECT_NEAR(v[0].velocity[1], 0.0f, 1e-6f);
  EXPECT_NEAR(v[0].velocity[2], -2.0f, 1e-6f);
  // orbit: angular_speed * dt = pi * 0.5, a quarter turn about +Y, carries +X to -Z and keeps the
  // height and the distance to the axis.
  auto o = run_update(node_graph("orbit", R"("position": "p", "angular_speed": 3.14159265)", "n", ""),
                      {{{2, 5, 0}, {0, 0, 0}}});
  EXPECT_NEAR(o[0].position[0], 0.0f, 1e-5f);
  EXPECT_NEAR(o[0].position[1], 5.0f, 1e-5f);
  EXPECT_NEAR(o[0].position[2], -2.0f, 1e-5f);
}

TEST(Forces, TurbulenceAddsCurlNoiseScaledByStrengthAndDt) {
  const std::vector<State> one{{{0.3f, 0.7f, 1.1f}, {1, 2, 3}}};
  auto weak = run_update(node_graph("turbulence", R"("position": "p", "velocity": "v", "strength": 1)", "", "n"), one);
  auto strong = run_update(node_graph("turbulence", R"("position": "p", "velocity": "v", "strength": 3)", "", "n"),
                           one);
  const Vec3 dw = sub(weak[0].velocity, one[0].velocity), ds = sub(strong[0].velocity, one[0].velocity);
  ASSERT_GT(length(dw), 1e-4f);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(ds[k], 3.0f * dw[k], 1e-5f);
}

const char* kCollideOut = "n.position";
const char* kCollideVel = "n.velocity";

TEST(Collisions, PlaneBouncesWithRestitutionAndFriction) {
  // Below the ground y = 0 and falling: back onto it, vy reflected by 0.5, vx cut by friction 0.25.
  auto r = run_update(node_graph("collide_plane", R"("position": "p", "velocity": "v", "friction": 0.25)", kCollideOut,
                                 kCollideVel),
                      {{{1, -0.2f, 0}, {4, -2, 0}}, {{1, 0.5f, 0}, {4, -2, 0}}, {{1, -0.1f, 0}, {0, 3, 0}}});
  EXPECT_FLOAT_EQ(r[0].position[1], 0.0f);
  EXPECT_FLOAT_EQ(r[0].velocity[1], 1.0f);
  EXPECT_FLOAT_EQ(r[0].velocity[0], 3.0f);
  // Above it: untouched.
  EXPECT_FLOAT_EQ(r[1].position[1], 0.5f);
  EXPECT_FLOAT_EQ(r[1].velocity[1], -2.0f);
  // Inside but leaving: moved out, its velocity kept.
  EXPECT_FLOAT_EQ(r[2].position[1], 0.0f);
  EXPECT_FLOAT_EQ(r[2].velocity[1], 3.0f);
  // Restitution 0 and friction 1: it sticks.
  auto s = run_update(node_graph("collide_plane",
                                 R"("position": "p", "velocity": "v", "restitution": 0, "friction": 1)", kCollideOut,
                                 kCollideVel),
                      {{{1, -0.2f, 0}, {4, -2, 0}}});
  for (int k = 0; k < 3; ++k) EXPECT_FLOAT_EQ(s[0].velocity[k], 0.0f);
}

TEST(Collisions, SphereBoxAndCapsuleKeepParticlesOutside) {
  const std::vector<State> inside{{{0.5f, 0.1f, 0.2f}, {-1, 0, 0}},
                                  {{0.1f, 0.3f, -0.2f}, {0, 0, 0}},
                                  {{3, 3, 3}, {1, 1, 1}}};
  for (const std::string type : {"collide_sphere", "collide_box", "collide_capsule"}) {
    const std::string inputs = type == "collide_sphere" ? R"("position": "p", "velocity": "v", "radius": 1)"
                               : type == "collide_box"  ? R"("position": "p", "velocity": "v", "extent": [1, 1, 1])"
                                                        : R"("position": "p", "velocity": "v", "radius": 1)";
    auto r = run_update(node_graph(type, inputs, kCollideOut, kCollideVel), inside);
    // The first two (inside) end on the surface, the third (outside) is untouched.
    for (int i = 0; i < 2; ++i) {
      const Vec3 p = r[i].position;
      float outside = 0.0f;
      if (type == "collide_sphere") outside = length(p) - 1.0f;
      else if (type == "collide_box") outside = std::max({std::fabs(p[0]), std::fabs(p[1]), std::fabs(p[2])}) - 1.0f;
      else outside = length({p[0], p[1] - std::clamp(p[1], 0.0f, 1.0f), p[2]}) - 1.0f;
      EXPECT_NEAR(outside, 0.0f, 1e-5f) << type << " particle " << i;
    }
    EXPECT_FLOAT_EQ(r[2].position[0], 3.0f) << type;
    EXPECT_FLOAT_EQ(r[2].velocity[0], 1.0f) << type;
    // The first moved into the surface along -X: its normal velocity is reflected (restitution 0.5).
    EXPECT_GT(r[0].velocity[0], 0.0f) << type;
  }
}

// Gravity, integration, a ball of radius 1 at the origin, then the ground y = -1.
const char* kBallAndGround = R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
      {"id": "g", "type": "gravity", "inputs": {"velocity": "v"}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "g"}},
      {"id": "b", "type": "collide_sphere", "inputs": {"position": "m.position", "velocity": "m.velocity"}},
      {"id": "f", "type": "collide_plane", "inputs": {"position": "b.position", "velocity": "b.velocity", "point": [0, -1, 0]}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "f.position"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "f.velocity"}})";

std::vector<State> falling_grid() {
  std::vector<State> ps;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) ps.push_back({{-1.4f + 0.4f * float(i), 3.0f, -1.4f + 0.4f * float(j)}, {0, 0, 0}});
  return ps;
}

TEST(Collisions, NoParticleEndsBelowTheGroundOrInsideTheBall) {
  // 64 particles falling from a grid onto the ball and the ground for 200 steps: after every step
  // each is above the ground and outside the ball.
  std::vector<State> ps = falling_grid();
  for (int step = 0; step < 200; ++step) {
    ps = run_update(kBallAndGround, ps, 1.0f / 60.0f);
    ASSERT_EQ(ps.size(), 64u);
    for (const State& s : ps) {
      ASSERT_GE(s.position[1], -1.0f) << "step " << step;
      // The plane runs after the ball, so a particle squeezed between them may sit a hair inside.
      ASSERT_GE(length(s.position), 1.0f - 1e-3f) << "step " << step;
    }
  }
}

// The batch executor runs the same instructions: the same trajectories, to the parity suite's
// tolerance for NORMALIZE and LENGTH (tests/vm/parity_test.cpp), over 200 steps.
TEST(Collisions, BatchExecutorFollowsTheReference) {
  std::vector<State> ref = falling_grid(), batch = falling_grid();
  for (int step = 0; step < 200; ++step) {
    ref = run_update(kBallAndGround, ref, 1.0f / 60.0f);
    batch = run_update(kBallAndGround, batch, 1.0f / 60.0f, true);
  }
  ASSERT_EQ(ref.size(), batch.size());
  for (size_t i = 0; i < ref.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(batch[i].position[k], ref[i].position[k], 1e-3f) << i;
}

// A collider of constant zero or negative size is refused at its input's pointer.
TEST(Collisions, AColliderOfZeroOrNegativeSizeIsRefusedAtItsInput) {
  const std::vector<std::pair<std::string, std::string>> bad = {{"collide_sphere", R"("radius": 0)"},
                                                                {"collide_capsule", R"("radius": -1)"},
                                                                {"collide_box", R"("extent": [1, 0, 1])"}};
  for (const auto& [type, size] : bad) {
    const std::string update = node_graph(type, R"("position": "p", "velocity": "v", )" + size, kCollideOut,
                                          kCollideVel);
    auto effect = mote::compile_effect(
        effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})", update));
    ASSERT_FALSE(effect.ok()) << type;
    const std::string port = type == "collide_box" ? "extent" : "radius";
    EXPECT_EQ(effect.error().where, "/update/nodes/2/inputs/" + port) << effect.error().to_string();
    EXPECT_NE(effect.error().message.find("above 0"), std::string::npos) << effect.error().message;
  }
}

}  // namespace
