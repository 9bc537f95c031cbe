// The stateless nodes (docs/design/nodes.md, "Stateless nodes"), compiled into EVAL and run on
// the reference executor: the lifetime loop's iterations, the seeded random nodes, the emitter
// paths and windows, easing, scale in/out; the notebook's retroactive line at t = 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/vm.hpp"

namespace mote {
namespace {

// A stateless document with scalar fields f0..f(n-1) (or the given declarations) and eval nodes.
std::string document(const std::string& fields, const std::string& nodes) {
  return R"({"name": "s", "stateless": true, "particle_fields": [)" + fields + R"(], "eval": {"nodes": [)" + nodes +
         "]}}";
}

std::string scalar_fields(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += std::string(i ? ", " : "") + R"({"name": "f)" + std::to_string(i) + R"(", "width": 1})";
  return s;
}

// The records (without headers) of `count` particles at `time`, particle indices from `first`.
std::vector<std::vector<float>> evaluate(const CompiledEffect& effect, float time, uint32_t count, uint32_t first = 0) {
  RunInput in;
  in.program = &effect.program;
  in.section = Section::kEval;
  in.count = count;
  const uint32_t rw = effect.program.particle_record_words();
  in.records.assign(size_t(count) * rw, 0);
  in.emitter.time = time;
  in.rng_base = 0x5EED;
  in.first_particle_index = first;
  Result<RunOutput> out = make_reference_executor()->run(in);
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  std::vector<std::vector<float>> records;
  if (!out.ok()) return records;
  for (uint32_t i = 0; i < count; ++i) {
    std::vector<float> r;
    for (uint32_t w = 1; w < rw; ++w) r.push_back(std::bit_cast<float>(out->records[size_t(i) * rw + w]));
    records.push_back(std::move(r));
  }
  return records;
}

CompiledEffect compile(const std::string& text) {
  Result<CompiledEffect> r = compile_effect(text);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? *r : CompiledEffect{};
}

std::string set(int field, const std::string& source) {
  return R"(, {"id": "s)" + std::to_string(field) + R"(", "type": "set_field", "params": {"field": "f)" +
         std::to_string(field) + R"("}, "inputs": {"value": ")" + source + R"("}})";
}

const std::string kLoop = R"({"id": "l", "type": "lifetime", "inputs": {"life_min": 1.5, "life_max": 4}})";

std::string loop_document() {
  return document(scalar_fields(6), kLoop + set(0, "l.life") + set(1, "l.iteration") + set(2, "l.phase") +
                                        set(3, "l.particle_time") + set(4, "l.emission_time") + set(5, "l.seed"));
}

TEST(StatelessNodes, LifetimeLoopIterates) {
  const CompiledEffect effect = compile(loop_document());
  const uint32_t n = 200;
  for (float t : {-37.5f, -1.0f, 0.0f, 0.25f, 12.0f, 1000.0f}) {
    const auto now = evaluate(effect, t, n);
    ASSERT_EQ(now.size(), n);
    for (uint32_t i = 0; i < n; ++i) {
      const auto& r = now[i];
      const float life = r[0], iteration = r[1], phase = r[2], ptime = r[3], etime = r[4];
      EXPECT_GE(life, 1.5f);
      EXPECT_LT(life, 4.0f);
      EXPECT_EQ(iteration, std::floor(iteration));
      EXPECT_GE(phase, 0.0f);
      EXPECT_LT(phase, 1.0f);
      EXPECT_FLOAT_EQ(ptime, phase * life);
      EXPECT_FLOAT_EQ(etime, t - ptime);
    }
    // A life later every particle is in its next iteration, at about the same phase, and a
    // different particle: its seed differs.
    uint32_t reseeded = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const auto later = evaluate(effect, t + now[i][0], 1, i)[0];
      EXPECT_NEAR(later[1], now[i][1] + 1.0f, 1.0f) << "particle " << i << " t " << t;  // boundary rounding
      reseeded += later[5] != now[i][5];
    }
    EXPECT_GE(reseeded, n - 2) << t;
  }
}

TEST(StatelessNodes, LifetimeTimeRunsWithTheClockWithinAnIteration) {
  const CompiledEffect effect = compile(loop_document());
  const auto a = evaluate(effect, 5.0f, 64);
  const auto b = evaluate(effect, 5.01f, 64);
  uint32_t same_iteration = 0;
  for (uint32_t i = 0; i < 64; ++i) {
    if (a[i][1] != b[i][1]) continue;  // crossed into the next life
    ++same_iteration;
    EXPECT_NEAR(b[i][3] - a[i][3], 0.01f, 1e-4f);
    EXPECT_NEAR(b[i][4], a[i][4], 1e-4f);  // the same emission
    EXPECT_EQ(b[i][5], a[i][5]);           // the same particle
  }
  EXPECT_GE(same_iteration, 60u);
}

TEST(StatelessNodes, LifetimeRefusesLivesThatAreNotPositive) {
  for (const char* inputs : {R"({"life_min": 0})", R"({"life_max": -1})", R"({"life_min": 3, "life_max": 2})"}) {
    Result<CompiledEffect> r = compile_effect(document(scalar_fields(1),
                                                       R"({"id": "l", "type": "lifetime", "inputs": )" +
                                                           std::string(inputs) + "}" + set(0, "l.life")));
    ASSERT_FALSE(r.ok()) << inputs;
    EXPECT_EQ(r.error().where.rfind("/eval/nodes/0/inputs/life_", 0), 0u) << r.error().to_string();
  }
  // Only EVAL loops: a stateful graph has its particles' own ages.
  Result<CompiledEffect> update = compile_effect(
      R"({"name": "s", "particle_fields": [{"name": "f0", "width": 1}], "init": {"nodes": []}, "update": {"nodes": [
          {"id": "l", "type": "lifetime"},
          {"id": "s", "type": "set_field", "params": {"field": "f0"}, "inputs": {"value": "l.life"}}]}})");
  ASSERT_FALSE(update.ok());
  EXPECT_EQ(update.error().where, "/update/nodes/0/type");
}

TEST(StatelessNodes, PathsAndWindows) {
  const std::string fields =
      R"({"name": "circle", "width": 3}, {"name": "line", "width": 3}, {"name": "w", "width": 1})";
  const std::string nodes = R"(
    {"id": "t", "type": "builtin", "params": {"name": "time"}},
    {"id": "c", "type": "path_circle", "inputs": {"time": "t", "radius": 2, "angular_speed": 3, "center": [1, 2, 3]}},
    {"id": "l", "type": "path_line", "inputs": {"velocity": [30, 0, 0], "origin": [0, 1, 0]}},
    {"id": "w", "type": "time_window", "inputs": {"start": 0, "end": 3}},
    {"id": "sc", "type": "set_field", "params": {"field": "circle"}, "inputs": {"value": "c"}},
    {"id": "sl", "type": "set_field", "params": {"field": "line"}, "inputs": {"value": "l"}},
    {"id": "sw", "type": "set_field", "params": {"field": "w"}, "inputs": {"value": "w"}})";
  const CompiledEffect effect = compile(document(fields, nodes));
  for (float t : {-2.0f, 0.0f, 0.5f, 2.999f, 3.0f, 10.0f}) {
    const auto r = evaluate(effect, t, 1)[0];
    EXPECT_NEAR(r[0], 1.0f + 2.0f * std::sin(3.0f * t), 1e-5f) << t;
    EXPECT_EQ(r[1], 2.0f);
    EXPECT_NEAR(r[2], 3.0f - 2.0f * std::cos(3.0f * t), 1e-5f) << t;
    EXPECT_FLOAT_EQ(r[3], 30.0f * t);
    EXPECT_EQ(r[4], 1.0f);
    EXPECT_EQ(r[6], (t >= 0.0f && t < 3.0f) ? 1.0f : 0.0f) << t;
  }
}

TEST(StatelessNodes, EasingScaleAndSeededRandom) {
  const char* kEasing[] = {"ease_in_quad",  "ease_out_quad",  "ease_in_out_quad",
                           "ease_in_cubic", "ease_out_cubic", "ease_in_out_cubic",
                           "ease_in_sine",  "ease_out_sine",  "ease_in_out_sine"};
  const double pi = 3.14159265358979323846;
  auto expected = [&](int curve, double t) {
    t = std::clamp(t, 0.0, 1.0);
    switch (curve) {
      case 0: return t * t;
      case 1: return 1 - (1 - t) * (1 - t);
      case 2: return t < 0.5 ? 2 * t * t : 1 - std::pow(-2 * t + 2, 2) / 2;
      case 3: return t * t * t;
      case 4: return 1 - std::pow(1 - t, 3);
      case 5: return t < 0.5 ? 4 * t * t * t : 1 - std::pow(-2 * t + 2, 3) / 2;
      case 6: return 1 - std::cos(t * pi / 2);
      case 7: return std::sin(t * pi / 2);
      default: return (1 - std::cos(pi * t)) / 2;
    }
  };
  std::string nodes = R"({"id": "t", "type": "builtin", "params": {"name": "time"}})";
  for (int e = 0; e < 9; ++e)
    nodes += R"(, {"id": "e)" + std::to_string(e) + R"(", "type": ")" + kEasing[e] + R"(", "inputs": {"t": "t"}})" +
             set(e, "e" + std::to_string(e));
  nodes += R"(, {"id": "sz", "type": "scale_in_out", "inputs": {"phase": "t", "size": 4}})" + set(9, "sz");
  const CompiledEffect effect = compile(document(scalar_fields(10), nodes));
  for (float t : {-0.5f, 0.0f, 0.1f, 0.25f, 0.5f, 0.6f, 0.75f, 0.95f, 1.0f, 2.0f}) {
    const auto r = evaluate(effect, t, 1)[0];
    for (int e = 0; e < 9; ++e) EXPECT_NEAR(r[size_t(e)], expected(e, t), 2e-6) << kEasing[e] << " at " << t;
    const double grow = 1 - std::pow(1 - std::clamp(t / 0.2, 0.0, 1.0), 2);
    const double shrink = 1 - std::pow(1 - std::clamp((1 - t) / 0.2, 0.0, 1.0), 2);
    EXPECT_NEAR(r[9], 4 * grow * shrink, 1e-5) << "scale_in_out at " << t;
  }
}

TEST(StatelessNodes, SeededNodesFollowTheSeed) {
  const std::string fields = R"({"name": "box", "width": 3}, {"name": "dir", "width": 3}, {"name": "ball", "width": 3},
      {"name": "q", "width": 4}, {"name": "r", "width": 2}, {"name": "r2", "width": 2})";
  const std::string nodes = R"(
    {"id": "i", "type": "builtin", "params": {"name": "particle_index"}},
    {"id": "seed", "type": "floor", "inputs": {"a": "i"}},
    {"id": "b", "type": "seeded_in_box", "inputs": {"seed": "seed", "min": [-2, 0, -2], "max": [2, 0.5, 2]}},
    {"id": "d", "type": "seeded_direction", "inputs": {"seed": "seed"}},
    {"id": "ba", "type": "seeded_in_ball", "inputs": {"seed": "seed", "radius": 3}},
    {"id": "q", "type": "seeded_rotation", "inputs": {"seed": "seed", "angle": 1.25}},
    {"id": "r", "type": "seeded_random", "inputs": {"seed": "seed", "min": [5, 5], "max": [6, 6]}},
    {"id": "r2", "type": "seeded_random", "inputs": {"seed": "seed", "min": [5, 5], "max": [6, 6]}},
    {"id": "s1", "type": "set_field", "params": {"field": "box"}, "inputs": {"value": "b"}},
    {"id": "s2", "type": "set_field", "params": {"field": "dir"}, "inputs": {"value": "d"}},
    {"id": "s3", "type": "set_field", "params": {"field": "ball"}, "inputs": {"value": "ba"}},
    {"id": "s4", "type": "set_field", "params": {"field": "q"}, "inputs": {"value": "q"}},
    {"id": "s5", "type": "set_field", "params": {"field": "r"}, "inputs": {"value": "r"}},
    {"id": "s6", "type": "set_field", "params": {"field": "r2"}, "inputs": {"value": "r2"}})";
  const CompiledEffect effect = compile(document(fields, nodes));
  const auto a = evaluate(effect, 0.0f, 300);
  const auto b = evaluate(effect, 99.0f, 300);  // the seed is the index: time changes nothing
  double mean_y = 0;
  for (uint32_t i = 0; i < 300; ++i) {
    const auto& r = a[i];
    EXPECT_EQ(r, b[i]);
    for (int k : {0, 2}) {
      EXPECT_GE(r[size_t(k)], -2.0f);
      EXPECT_LT(r[size_t(k)], 2.0f);
    }
    EXPECT_GE(r[1], 0.0f);
    EXPECT_LT(r[1], 0.5f);
    mean_y += r[1] / 300.0;
    EXPECT_NEAR(std::hypot(r[3], r[4], r[5]), 1.0f, 1e-5f);
    EXPECT_LE(std::hypot(r[6], r[7], r[8]), 3.0f + 1e-5f);
    EXPECT_NEAR(std::sqrt(r[9] * r[9] + r[10] * r[10] + r[11] * r[11] + r[12] * r[12]), 1.0f, 1e-5f);
    EXPECT_NEAR(r[12], std::cos(1.25f / 2.0f), 1e-5f);  // w = cos(angle / 2) whatever the axis
    EXPECT_GE(r[13], 5.0f);
    EXPECT_LT(r[13], 6.0f);
    EXPECT_NE(r[13], r[14]);  // one draw per lane
    EXPECT_NE(r[13], r[15]);  // another node, other draws of the same seed
  }
  EXPECT_NEAR(mean_y, 0.25, 0.05);
  EXPECT_NE(a[0][0], a[1][0]);
}

// The notebook's "retroactive on line": emitted along x = 30 t only before t = 0, so at t = 0 the
// particles are already in flight, spread over the line behind the origin.
TEST(StatelessNodes, RetroactiveLineIsSpreadAtTimeZero) {
  const std::string fields = R"({"name": "position", "width": 3}, {"name": "visible", "width": 1})";
  const std::string nodes = kLoop + R"(,
    {"id": "p", "type": "path_line", "inputs": {"time": "l.emission_time", "velocity": [30, 0, 0]}},
    {"id": "w", "type": "time_window", "inputs": {"time": "l.emission_time", "start": -1e30, "end": 0}},
    {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "p"}},
    {"id": "sv", "type": "set_field", "params": {"field": "visible"}, "inputs": {"value": "w"}})";
  const CompiledEffect effect = compile(document(fields, nodes));
  const auto at0 = evaluate(effect, 0.0f, 512);
  std::vector<float> xs;
  for (const auto& r : at0)
    if (r[3] != 0.0f) xs.push_back(r[0]);
  EXPECT_GE(xs.size(), 500u);  // all but the few emitted exactly at t = 0
  std::sort(xs.begin(), xs.end());
  EXPECT_LT(xs.front(), -90.0f);  // up to a life (4 s) of 30 m/s behind
  EXPECT_LE(xs.back(), 0.0f);
  EXPECT_GT(xs[xs.size() / 2] - xs.front(), 10.0f);  // spread, not bunched
  // Long after t = 0 the line has stopped emitting: nothing visible.
  for (const auto& r : evaluate(effect, 10.0f, 512)) EXPECT_EQ(r[3], 0.0f);
}

}  // namespace
}  // namespace mote
