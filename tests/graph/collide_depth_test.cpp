// The `collide_depth` node (docs/design/nodes.md, "Collisions"; docs/design/depth_collision.md)
// on the CPU executors, against the collision depth of a box on the ground drawn on the CPU
// (tests/support/depth_test_image.hpp): rain falling on it stays on the box's top face and on the
// ground; without a depth nothing hits; a constant thickness of 0 is refused at its input.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "graph_test_util.hpp"
#include "mote/effect.hpp"
#include "mote/vm.hpp"
#include "support/depth_test_image.hpp"

namespace {

struct Drop {
  std::array<float, 3> position{};
  std::array<float, 3> velocity{};
};

const char* kRain = R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
      {"id": "g", "type": "gravity", "inputs": {"velocity": "v"}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "g"}},
      {"id": "c", "type": "collide_depth", "inputs": {"position": "m.position", "velocity": "m.velocity", "thickness": 0.5}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "c.position"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "c.velocity"}})";

mote::CompiledEffect compile_rain() {
  auto effect = mote::compile_effect(
      effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})", kRain));
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : mote::CompiledEffect{};
}

// One UPDATE over the drops (record words: position 1..3, velocity 4..6).
std::vector<Drop> step(const mote::CompiledEffect& effect, const std::vector<Drop>& drops,
                       const mote::DepthImage* depth, bool batch) {
  mote::RunInput in;
  in.program = &effect.program;
  in.section = mote::Section::kUpdate;
  in.count = uint32_t(drops.size());
  const uint32_t stride = effect.program.particle_record_words();
  in.records.assign(size_t(in.count) * stride, 0u);
  for (size_t i = 0; i < drops.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      in.records[i * stride + 1 + k] = std::bit_cast<uint32_t>(drops[i].position[k]);
      in.records[i * stride + 4 + k] = std::bit_cast<uint32_t>(drops[i].velocity[k]);
    }
  in.emitter.dt = 1.0f / 60.0f;
  in.emitter_fields = effect.emitter_defaults;
  in.depth = depth;
  auto out = (batch ? mote::make_batch_executor() : mote::make_reference_executor())->run(in);
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  std::vector<Drop> result(drops.size());
  if (!out.ok()) return result;
  for (size_t i = 0; i < drops.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      result[i].position[k] = std::bit_cast<float>(out->records[i * stride + 1 + k]);
      result[i].velocity[k] = std::bit_cast<float>(out->records[i * stride + 4 + k]);
    }
  return result;
}

// Drops over the box's top face (|x|, |z| < 1, the box 2 high) and over the ground in front of
// and beside it (in view, not hidden behind the box), all from y = 4.
std::vector<Drop> rain(size_t* over_box) {
  std::vector<Drop> drops;
  for (float x : {-0.6f, -0.2f, 0.2f, 0.6f})
    for (float z : {-0.6f, -0.2f, 0.2f, 0.6f}) drops.push_back({{x, 4.0f, z}, {0.0f, 0.0f, 0.0f}});
  *over_box = drops.size();
  for (float x : {-3.0f, -2.0f, 2.0f, 3.0f})
    for (float z : {0.0f, 2.0f, 3.0f}) drops.push_back({{x, 4.0f, z}, {0.0f, 0.0f, 0.0f}});
  return drops;
}

TEST(CollideDepth, RainStaysOnTheBoxTopAndOnTheGround) {
  const mote::DepthImage depth = mote::draw_depth_test_scene({.width = 256, .height = 192});
  const mote::CompiledEffect effect = compile_rain();
  for (bool batch : {false, true}) {
    size_t over_box = 0;
    std::vector<Drop> drops = rain(&over_box);
    for (int s = 0; s < 240; ++s) {
      drops = step(effect, drops, &depth, batch);
      for (size_t i = 0; i < drops.size(); ++i) {
        const float floor = i < over_box ? 2.0f : 0.0f;
        ASSERT_GE(drops[i].position[1], floor - 2e-3f)
            << (batch ? "batch" : "reference") << " drop " << i << " step " << s;
      }
    }
    // Four seconds on: every drop has come to rest on its surface.
    for (size_t i = 0; i < drops.size(); ++i) {
      const float floor = i < over_box ? 2.0f : 0.0f;
      EXPECT_NEAR(drops[i].position[1], floor, 0.05f) << (batch ? "batch" : "reference") << " drop " << i;
    }
  }
}

TEST(CollideDepth, WithoutADepthNothingHits) {
  const mote::CompiledEffect effect = compile_rain();
  size_t over_box = 0;
  std::vector<Drop> drops = rain(&over_box);
  for (int s = 0; s < 120; ++s) drops = step(effect, drops, nullptr, false);
  for (const Drop& d : drops) EXPECT_LT(d.position[1], -10.0f);
}

TEST(CollideDepth, AThicknessOfZeroIsRefusedAtItsInput) {
  const std::string update = R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
      {"id": "n", "type": "collide_depth", "inputs": {"position": "p", "velocity": "v", "thickness": 0}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "n.position"}})";
  auto effect = mote::compile_effect(
      effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})", update));
  ASSERT_FALSE(effect.ok());
  EXPECT_EQ(effect.error().where, "/update/nodes/2/inputs/thickness") << effect.error().to_string();
}

}  // namespace
