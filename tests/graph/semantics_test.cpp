// Compiled programs run on the reference executor: the nodes compute what nodes.md says.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "graph_test_util.hpp"
#include "mote/effect.hpp"
#include "mote/link.hpp"
#include "mote/vector_field.hpp"
#include "mote/vm.hpp"

namespace {

struct RunResult {
  std::vector<float> words;  // count * record words
  uint32_t stride = 0;
  float at(uint32_t particle, uint32_t word) const { return words[particle * stride + word]; }
};

RunResult run(const mote::CompiledEffect& e, mote::Section section, uint32_t count, std::vector<float> records = {},
              float dt = 0.5f, std::vector<const mote::VectorField*> vector_fields = {}) {
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> globals;
  for (const auto& g : e.globals) {
    offsets.push_back(uint32_t(globals.size()));
    for (float v : g.values) globals.push_back(std::bit_cast<uint32_t>(v));
  }
  auto linked = mote::link_globals(e.program, offsets);
  EXPECT_TRUE(linked.ok());
  mote::RunInput in;
  in.program = &*linked;
  in.section = section;
  in.count = count;
  const uint32_t stride = linked->particle_record_words();
  in.records.assign(size_t(count) * stride, 0u);
  for (size_t i = 0; i < records.size(); ++i) in.records[i] = std::bit_cast<uint32_t>(records[i]);
  in.emitter.dt = dt;
  in.emitter.position[0] = 10.0f;
  in.emitter_fields = e.emitter_defaults;
  in.global_fields = globals;
  in.rng_base = 7;
  in.vector_fields = std::move(vector_fields);
  auto out = mote::make_reference_executor()->run(in);
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  RunResult r;
  r.stride = stride;
  for (uint32_t w : out->records) r.words.push_back(std::bit_cast<float>(w));
  return r;
}

mote::CompiledEffect compile(const std::string& doc) {
  auto r = mote::compile_effect(doc);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? std::move(r).value() : mote::CompiledEffect{};
}

// Record words: position 1..3, velocity 4..6, age 7, lifetime 8, color 9..12.
TEST(Semantics, GravityAndIntegrateOverOneStep) {
  auto e =
      compile(effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})",
                          R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
      {"id": "g", "type": "gravity", "inputs": {"velocity": "v", "gravity": [0, -10, 0]}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "g"}},
      {"id": "s1", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "m.position"}},
      {"id": "s2", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "m.velocity"}})"));
  std::vector<float> rec = {0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0};
  RunResult r = run(e, mote::Section::kUpdate, 1, rec, 0.5f);
  // v = (4, 5 - 5, 6); p = p + v * dt.
  EXPECT_FLOAT_EQ(r.at(0, 4), 4.0f);
  EXPECT_FLOAT_EQ(r.at(0, 5), 0.0f);
  EXPECT_FLOAT_EQ(r.at(0, 1), 1.0f + 2.0f);
  EXPECT_FLOAT_EQ(r.at(0, 2), 2.0f);
  EXPECT_FLOAT_EQ(r.at(0, 3), 3.0f + 3.0f);
}

// A vector_field node samples the slot its `field` names in the document's "vector_fields" (the
// second name: slot 1) at its position input; the effect carries the names in slot order.
TEST(Semantics, VectorFieldSamplesTheSlotItNames) {
  mote::VectorField field{.size = {3, 2, 2}, .box_min = {-2, 0, 0}, .box_max = {2, 1, 4}, .vectors = {}};
  for (int i = 0; i < 12; ++i) field.vectors.insert(field.vectors.end(), {float(i), float(i * i) * 0.25f, -float(i)});
  auto e =
      compile(effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})",
                          R"({"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "f", "type": "vector_field", "params": {"field": "flow"}, "inputs": {"position": "p"}},
      {"id": "s1", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "f"}})",
                          R"("vector_fields": ["gust", "flow"],)"));
  EXPECT_EQ(e.vector_fields, (std::vector<std::string>{"gust", "flow"}));
  const std::vector<float> rec = {0, -0.7f, 0.25f, 3.1f, 9, 9, 9, 0, 0, 0, 0, 0, 0,
                                  0, 5.0f,  -1.0f, 2.0f, 9, 9, 9, 0, 0, 0, 0, 0, 0};
  RunResult r = run(e, mote::Section::kUpdate, 2, rec, 0.5f, {nullptr, &field});
  for (uint32_t i = 0; i < 2; ++i) {
    const std::array<float, 3> want = mote::sample_vector_field(field, {r.at(i, 1), r.at(i, 2), r.at(i, 3)});
    for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(r.at(i, 4 + k), want[k]) << "particle " << i << " lane " << k;
  }
  // (5, -1, 2): past the box on x, below it on y, halfway along z: the mean of grid points 2 and 8.
  EXPECT_EQ(r.at(1, 4), 5.0f);
  EXPECT_EQ(r.at(1, 5), 8.5f);
  EXPECT_EQ(r.at(1, 6), -5.0f);
  // Given no field, the slot reads 0.
  RunResult none = run(e, mote::Section::kUpdate, 2, rec, 0.5f);
  for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(none.at(0, 4 + k), 0.0f);
}

TEST(Semantics, CurveAndGradientAtKeysAndBetween) {
  auto e =
      compile(effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})",
                          R"({"id": "t", "type": "get_field", "params": {"field": "age"}},
      {"id": "c", "type": "curve", "params": {"keys": [[0, 0], [0.5, 2], [1, 1]]}, "inputs": {"t": "t"}},
      {"id": "sc", "type": "curve", "params": {"keys": [[0, 0], [1, 1]], "interpolation": "smooth"}, "inputs": {"t": "t"}},
      {"id": "g", "type": "gradient", "params": {"keys": [[0, 1, 0, 0, 1], [1, 0, 0, 1, 0]]}, "inputs": {"t": "t"}},
      {"id": "s1", "type": "set_field", "params": {"field": "lifetime"}, "inputs": {"value": "c"}},
      {"id": "s2", "type": "set_field", "params": {"field": "color"}, "inputs": {"value": "g"}},
      {"id": "s3", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "sc"}})"));
  const float ts[] = {-1.0f, 0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 2.0f};
  const float want[] = {0.0f, 0.0f, 1.0f, 2.0f, 1.5f, 1.0f, 1.0f};
  std::vector<float> rec(13 * 7, 0.0f);
  for (int i = 0; i < 7; ++i) rec[size_t(i) * 13 + 7] = ts[i];
  RunResult r = run(e, mote::Section::kUpdate, 7, rec);
  for (int i = 0; i < 7; ++i) {
    EXPECT_NEAR(r.at(uint32_t(i), 8), want[i], 1e-6f) << "t = " << ts[i];
    const float t = std::clamp(ts[i], 0.0f, 1.0f);
    EXPECT_NEAR(r.at(uint32_t(i), 9), 1.0f - t, 1e-6f);
    EXPECT_NEAR(r.at(uint32_t(i), 11), t, 1e-6f);
    EXPECT_NEAR(r.at(uint32_t(i), 12), 1.0f - t, 1e-6f);
    EXPECT_NEAR(r.at(uint32_t(i), 1), t * t * (3 - 2 * t), 1e-6f);
  }
}

TEST(Semantics, EmitShapesStayInTheirShapeAndRandomsInRange) {
  auto e =
      compile(effect_with(R"({"id": "box", "type": "emit_box", "inputs": {"extent": [1, 2, 3]}},
      {"id": "sph", "type": "random_in_sphere", "inputs": {"radius": 2}},
      {"id": "r", "type": "random_range", "inputs": {"min": 5, "max": 6}},
      {"id": "cone", "type": "random_in_cone", "inputs": {"direction": [0, 1, 0], "angle": 0.3}},
      {"id": "s1", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "box.position"}},
      {"id": "s2", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "sph"}},
      {"id": "s3", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "r"}},
      {"id": "cs", "type": "split", "inputs": {"value": "cone"}},
      {"id": "c4", "type": "combine", "inputs": {"x": "cs.x", "y": "cs.y", "z": "cs.z", "w": 0}},
      {"id": "s4", "type": "set_field", "params": {"field": "color"}, "inputs": {"value": "c4"}})",
                          R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})"));
  RunResult r = run(e, mote::Section::kInit, 500);
  for (uint32_t i = 0; i < 500; ++i) {
    EXPECT_LE(std::fabs(r.at(i, 1) - 10.0f), 1.0f + 1e-5f);  // emitter at x = 10
    EXPECT_LE(std::fabs(r.at(i, 2)), 2.0f + 1e-5f);
    EXPECT_LE(std::fabs(r.at(i, 3)), 3.0f + 1e-5f);
    const float len = std::hypot(r.at(i, 4), r.at(i, 5), r.at(i, 6));
    EXPECT_LE(len, 2.0f + 1e-5f);
    EXPECT_GE(r.at(i, 7), 5.0f);
    EXPECT_LT(r.at(i, 7), 6.0f);
    const float cl = std::hypot(r.at(i, 9), r.at(i, 10), r.at(i, 11));
    EXPECT_NEAR(cl, 1.0f, 1e-4f);
    EXPECT_GE(r.at(i, 10), std::cos(0.3f) - 1e-4f);  // within 0.3 rad of +Y
  }
}

TEST(Semantics, EmitterAndGlobalFieldsAreRead) {
  auto e =
      compile(effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})",
                          R"({"id": "sp", "type": "emitter_field", "params": {"field": "speed"}},
      {"id": "g", "type": "global_field", "params": {"field": "gust"}},
      {"id": "m", "type": "mul", "inputs": {"a": "g", "b": "sp"}},
      {"id": "s1", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "m"}})"));
  ASSERT_EQ(e.program.global_imports.size(), 1u);
  EXPECT_EQ(e.program.global_imports[0].name, "gust");
  RunResult r = run(e, mote::Section::kUpdate, 1);
  EXPECT_FLOAT_EQ(r.at(0, 4), 2.5f);
  EXPECT_FLOAT_EQ(r.at(0, 5), 0.0f);
}

}  // namespace

namespace {

// random_pick: uniform among the first `count` options, never past them (e.g. a UV palette).
TEST(Semantics, RandomPickChoosesUniformlyAmongTheFirstCountOptions) {
  auto e =
      compile(effect_with(R"({"id": "p", "type": "random_pick", "inputs": {"count": 3,
        "o0": [0, 0, 0, 1], "o1": [1, 0, 0, 1], "o2": [2, 0, 0, 1], "o3": [3, 0, 0, 1], "o7": [7, 0, 0, 1]}},
      {"id": "s", "type": "set_field", "params": {"field": "color"}, "inputs": {"value": "p"}})",
                          R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})"));
  const uint32_t n = 3000;
  RunResult r = run(e, mote::Section::kInit, n);
  uint32_t counts[3] = {0, 0, 0};
  for (uint32_t i = 0; i < n; ++i) {
    const float v = r.at(i, 9);
    ASSERT_TRUE(v == 0.0f || v == 1.0f || v == 2.0f) << "particle " << i << " picked option " << v;
    EXPECT_EQ(r.at(i, 12), 1.0f);
    ++counts[uint32_t(v)];
  }
  for (uint32_t k = 0; k < 3; ++k) EXPECT_NEAR(double(counts[k]) / n, 1.0 / 3.0, 0.04) << "option " << k;
}

}  // namespace
