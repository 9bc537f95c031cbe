// Every preset in effects/ is written as modules; each has its hand-written node-graph document
// of before the rewrite kept in tests/graph/preset_fixtures/. With the look pass's listed changes
// undone (kLookChanges), the two compile to the same effect
// (settings and fields, all but the texture and flipbook the presets have gained since) and the
// reference simulation gives the same particles from both, bit for bit, frame after frame.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph_test_util.hpp"
#include "modules.hpp"
#include "mote/effect.hpp"
#include "mote/simulation.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(std::string(MOTE_SOURCE_DIR) + "/tests/graph/preset_fixtures"))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::map<std::string, std::pair<uint32_t, std::vector<uint32_t>>> emitter_fields(const mote::CompiledEffect& e) {
  std::map<std::string, std::pair<uint32_t, std::vector<uint32_t>>> out;
  size_t word = 0;
  for (const auto& f : e.program.emitter_fields) {
    std::vector<uint32_t> values(e.emitter_defaults.begin() + long(word),
                                 e.emitter_defaults.begin() + long(word + f.width));
    out[f.name] = {f.width, values};
    word += f.width;
  }
  return out;
}

std::map<std::string, uint32_t> particle_fields(const mote::CompiledEffect& e) {
  std::map<std::string, uint32_t> out;
  for (const auto& f : e.program.particle_fields) out[f.name] = f.width;
  return out;
}

void expect_same_settings(const mote::CompiledEffect& a, const mote::CompiledEffect& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.emission.rate, b.emission.rate);
  EXPECT_EQ(a.emission.prewarm_seconds, b.emission.prewarm_seconds);
  EXPECT_EQ(a.emission.capacity_hint, b.emission.capacity_hint);
  ASSERT_EQ(a.emission.bursts.size(), b.emission.bursts.size());
  for (size_t i = 0; i < a.emission.bursts.size(); ++i) {
    EXPECT_EQ(a.emission.bursts[i].time, b.emission.bursts[i].time);
    EXPECT_EQ(a.emission.bursts[i].count, b.emission.bursts[i].count);
    EXPECT_EQ(a.emission.bursts[i].cycles, b.emission.bursts[i].cycles);
    EXPECT_EQ(a.emission.bursts[i].interval, b.emission.bursts[i].interval);
  }
  // The texture and its flipbook are not compared: the presets gained the baked flipbooks
  // (mote bake, effects/textures/) after the rewrite, which changes how they look, not their
  // particles.
  const mote::RenderSettings& r = a.render;
  const mote::RenderSettings& s = b.render;
  EXPECT_EQ(r.projection, s.projection);
  EXPECT_EQ(r.blend, s.blend);
  EXPECT_EQ(r.soft, s.soft);
  EXPECT_EQ(r.lit, s.lit);
  EXPECT_EQ(r.mesh, s.mesh);
  EXPECT_EQ(r.position_field, s.position_field);
  EXPECT_EQ(r.size_field, s.size_field);
  EXPECT_EQ(r.color_field, s.color_field);
  EXPECT_EQ(r.velocity_field, s.velocity_field);
  EXPECT_EQ(r.rotation_field, s.rotation_field);
  EXPECT_EQ(r.frame_field, s.frame_field);
  EXPECT_EQ(emitter_fields(a), emitter_fields(b));
  EXPECT_EQ(particle_fields(a), particle_fields(b));
  EXPECT_EQ(a.globals.size(), b.globals.size());
}

// The look pass, after the rewrite, changed some presets' modules: colour along one line
// (tint_range for color_range's draw per channel), colour and alpha over life from gradients and
// curves, curl noise. Each change is listed here and undone before the comparison, so the rest of
// each preset is still held to its old document particle for particle; what a change does is
// held by its module's golden and tests (modules_test.cpp) and by the render goldens.
struct LookChange {
  const char* preset;
  const char* stage;
  const char* module;  // the module the look pass put in
  const char* was;     // what stood there before (its parameters kept where it has them); nullptr: added
};
constexpr LookChange kLookChanges[] = {
    {"smoke", "initialize", "tint_range", "color_range"},
    {"smoke", "update", "alpha_over_life", "fade_over_life"},
    {"smoke", "update", "curl_noise", nullptr},
    {"bonfire_smoke", "initialize", "tint_range", "color_range"},
    {"bonfire_smoke", "update", "alpha_over_life", "fade_over_life"},
    {"bonfire_smoke", "update", "curl_noise", nullptr},
    {"bonfire_soot", "initialize", "tint_range", "color_range"},
    {"fire", "update", "color_over_life", nullptr},
    {"bonfire_flame", "update", "color_over_life", nullptr},
    {"bonfire_flame", "render", "light", nullptr},  // the fire lights the scene (particle lights)
    {"bonfire_embers", "render", "light", nullptr},
    {"explosion", "update", "color_over_life", nullptr},
};

// The preset as it was before the look pass.
std::string without_look_changes(const std::string& name, const std::string& text) {
  nlohmann::json doc = nlohmann::json::parse(text);
  for (const LookChange& c : kLookChanges) {
    if (name != c.preset) continue;
    nlohmann::json& stage = doc["modules"][c.stage];
    size_t found = 0;
    for (auto it = stage.begin(); it != stage.end(); ++it) {
      if ((*it)["module"] != c.module) continue;
      ++found;
      if (c.was == nullptr) {
        stage.erase(it);
        break;
      }
      const mote::graph::ModuleDef* old = mote::graph::find_module(c.was);
      EXPECT_NE(old, nullptr) << c.was;
      nlohmann::json before = {{"module", c.was}};
      for (auto p = it->begin(); p != it->end(); ++p)
        if (old != nullptr && old->find_param(p.key()) != nullptr) before[p.key()] = p.value();
      *it = before;
      break;
    }
    EXPECT_EQ(found, 1u) << name << ": the look change to " << c.module << " is not in the preset";
  }
  return doc.dump();
}

class PresetModulesParity : public testing::TestWithParam<std::string> {};

TEST_P(PresetModulesParity, SameEffectAndSameParticlesAsTheGraphDocument) {
  const std::string name = GetParam();
  const std::string preset_text = read_text(std::string(MOTE_EFFECTS_DIR) + "/" + name + ".json");
  ASSERT_NE(preset_text.find("\"modules\""), std::string::npos) << name << " is not written as modules";
  auto preset = mote::compile_effect(without_look_changes(name, preset_text));
  ASSERT_TRUE(mote::compile_effect(preset_text).ok()) << name << " as it is does not compile";
  auto fixture = mote::compile_effect(read_text(std::string(MOTE_SOURCE_DIR) + "/tests/graph/preset_fixtures/" + name +
                                                ".json"));
  ASSERT_TRUE(preset.ok()) << preset.error().to_string();
  ASSERT_TRUE(fixture.ok()) << fixture.error().to_string();
  expect_same_settings(*preset, *fixture);

  mote::SimulationOptions options;
  options.emitter.seed = 12345;
  options.emitter.position = {0.5f, 0.0f, -0.25f};
  // A sub-emitter (spawned only by another effect's events: splash, fireworks_spark and
  // _crackle) runs at an overridden rate instead, so it has particles to compare.
  if (fixture->emission.rate == 0.0f && fixture->emission.bursts.empty())
    options.emitter.fields.push_back({"rate", {120.0f}});
  auto sa = mote::Simulation::create(*preset, options);
  auto sb = mote::Simulation::create(*fixture, options);
  ASSERT_TRUE(sa.ok() && sb.ok());
  uint32_t most_alive = 0;
  for (int frame = 0; frame < 90; ++frame) {
    ASSERT_TRUE(sa->step().ok() && sb->step().ok());
    ASSERT_EQ(sa->alive_count(), sb->alive_count()) << name << " frame " << frame;
    most_alive = std::max(most_alive, sa->alive_count());
    for (const auto& f : preset->program.particle_fields) {
      auto va = sa->field(f.name);
      auto vb = sb->field(f.name);
      ASSERT_TRUE(va.ok() && vb.ok());
      ASSERT_EQ(va->size(), vb->size());
      for (size_t i = 0; i < va->size(); ++i)
        ASSERT_EQ(std::bit_cast<uint32_t>((*va)[i]), std::bit_cast<uint32_t>((*vb)[i]))
            << name << " frame " << frame << " field " << f.name << " value " << i;
    }
  }
  EXPECT_GT(most_alive, 0u) << name << ": nothing was alive to compare";
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetModulesParity, testing::ValuesIn(fixture_names()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(PresetModulesParity, EveryPresetHasItsFixture) {
  size_t presets = 0;
  for (const auto& e : fs::directory_iterator(MOTE_EFFECTS_DIR))
    if (e.path().extension() == ".json") {
      ++presets;
      EXPECT_TRUE(fs::exists(std::string(MOTE_SOURCE_DIR) + "/tests/graph/preset_fixtures/" +
                             e.path().filename().string()))
          << e.path();
    }
  EXPECT_EQ(presets, fixture_names().size());
}

}  // namespace
