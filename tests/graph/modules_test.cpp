// Effect modules (src/graph/modules.hpp, docs/design/modules.md): the library loads and is
// documented, each module's expansion matches its golden (tests/graph/golden/modules/, rewritten
// by scripts/rebaseline_goldens.sh), and errors in a module document point into it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "graph_test_util.hpp"
#include "modules.hpp"
#include "mote/effect.hpp"
#include "mote/particle.hpp"
#include "mote/simulation.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string stage_list(const mote::graph::ModuleDef& m) { return m.stage; }

// The modules that read a value another module sets come after it (event_on_hit reads a
// collider's `hit`, velocity_upward an initial velocity); every event module's output is one
// of the document's event outputs.
json stage_with(const mote::graph::ModuleDef& m) {
  json list = json::array();
  if (m.name == "event_on_hit") list.push_back({{"module", "collide_plane"}});
  if (m.name == "velocity_upward") list.push_back({{"module", "velocity_sphere"}});
  list.push_back({{"module", m.name}});
  return list;
}
const json kEventOutputs = {"hit", "death"};

TEST(ModuleLibrary, EveryDefinitionLoadsAndIsDocumented) {
  auto lib = mote::graph::module_library();
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(std::string(MOTE_SOURCE_DIR) + "/src/graph/modules"))
    files += e.path().extension() == ".json";
  EXPECT_EQ((*lib)->size(), files);
  const std::string page = read_text(std::string(MOTE_SOURCE_DIR) + "/docs/design/modules.md");
  for (const mote::graph::ModuleDef& m : **lib) {
    EXPECT_FALSE(m.doc.empty()) << m.name;
    EXPECT_NE(page.find("`" + m.name + "`"), std::string::npos) << m.name << " is not in docs/design/modules.md";
    for (const mote::graph::ModuleParam& p : m.params) EXPECT_FALSE(p.doc.empty()) << m.name << "." << p.name;
    EXPECT_EQ(mote::graph::find_module(m.name), &m);
  }
  EXPECT_EQ(mote::graph::find_module("no_such_module"), nullptr);
}

// Each module alone, at its defaults, in a document of its own stage.
TEST(ModuleGolden, EveryModuleExpandsAsItsGolden) {
  auto lib = mote::graph::module_library();
  ASSERT_TRUE(lib.ok());
  const fs::path dir = fs::path(MOTE_GRAPH_GOLDEN_DIR) / "modules";
  std::set<std::string> expected;
  for (const mote::graph::ModuleDef& m : **lib) {
    json doc = {{"version", 1}, {"name", m.name}, {"modules", {{stage_list(m), stage_with(m)}}}};
    if (m.name.rfind("event_", 0) == 0) doc["event_outputs"] = kEventOutputs;
    if (m.name == "field_drag") doc["vector_fields"] = {"flow"};
    auto expanded = mote::graph::expand_module_document(doc);
    ASSERT_TRUE(expanded.ok()) << m.name << ": " << expanded.error().to_string();
    const std::string text = expanded->document.dump(2) + "\n";
    const fs::path golden = dir / (m.name + ".json");
    expected.insert(golden.filename().string());
    if (std::getenv("MOTE_REBASELINE_GOLDENS") != nullptr) {
      fs::create_directories(dir);
      std::ofstream(golden, std::ios::binary) << text;
    }
    ASSERT_TRUE(fs::exists(golden)) << golden << " missing: run scripts/rebaseline_goldens.sh";
    EXPECT_EQ(text, read_text(golden.string())) << m.name;
  }
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_TRUE(expected.count(e.path().filename().string())) << e.path() << " is no module's golden";
}

// compile_effect's error for `doc`: its where and message.
std::pair<std::string, std::string> failure(const std::string& doc) {
  auto r = mote::compile_effect(doc);
  if (r.ok()) return {"(compiled)", ""};
  return {r.error().where, r.error().message};
}

std::string module_doc(const std::string& modules, const std::string& extra = "") {
  return R"({"version": 1, "name": "t", )" + extra + R"("modules": )" + modules + "}";
}

const char* kStack = R"({"spawn": [{"module": "rate", "rate": 50}],
  "initialize": [{"module": "shape_point"}, {"module": "velocity_sphere"}, {"module": "lifetime"}],
  "update": [{"module": "gravity"}, {"module": "integrate"}, {"module": "age"}],
  "render": [{"module": "sprite"}]})";

TEST(ModuleDocument, AStackCompilesAndDeclaresWhatItsModulesNeed) {
  auto r = mote::compile_effect(module_doc(kStack));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->emission.rate, 50.0f);
  EXPECT_TRUE(r->program.particle_field_offset("position").has_value());
  EXPECT_TRUE(r->program.particle_field_offset("velocity").has_value());
  EXPECT_TRUE(r->program.particle_field_offset("lifetime").has_value());
  EXPECT_FALSE(r->program.particle_field_offset("size").has_value());
  // Render fields marked optional in the sprite module are mapped only to declared fields.
  EXPECT_EQ(r->render.position_field, "position");
  EXPECT_EQ(r->render.velocity_field, "velocity");
  EXPECT_EQ(r->render.rotation_field, "rotation");  // no angle field: the default stays
  bool gravity = false;
  for (const auto& f : r->program.emitter_fields) gravity = gravity || f.name == "gravity";
  EXPECT_TRUE(gravity) << "an exposed parameter is an emitter field scenes can override";
}

// Every module, added to the end of its stage in a working stack (or in it already), compiles: its nodes, ports and
// parameters are ones the node library accepts.
TEST(ModuleDocument, EveryModuleCompilesInAStack) {
  auto lib = mote::graph::module_library();
  ASSERT_TRUE(lib.ok());
  for (const mote::graph::ModuleDef& m : **lib) {
    json stack = json::parse(kStack);
    bool present = false;
    for (const json& in : stack[m.stage]) present = present || in["module"] == m.name;
    if (present) continue;  // it is in the stack already (and compiles there)
    for (const json& in : stage_with(m)) stack[m.stage].push_back(in);
    auto r = mote::compile_effect(module_doc(stack.dump(),
                                             R"("event_outputs": ["hit", "death"], "vector_fields": ["flow"],)"));
    EXPECT_TRUE(r.ok()) << m.name << ": " << r.error().to_string();
  }
}

TEST(ModuleDocument, ErrorsInTheStackPointAtTheModule) {
  using P = std::pair<std::string, std::string>;
  auto at = [](const std::string& modules) { return failure(module_doc(modules)).first; };
  EXPECT_EQ(at(R"({"initialize": [{"module": "shape_point"}, {"module": "nope"}]})"), "/modules/initialize/1/module");
  EXPECT_EQ(at(R"({"update": [{"module": "shape_point"}]})"), "/modules/update/0/module");
  EXPECT_EQ(at(R"({"initialize": [{"module": "lifetime", "life": 2}]})"), "/modules/initialize/0/life");
  EXPECT_EQ(at(R"({"initialize": [{"module": "lifetime", "life_min": "long"}]})"), "/modules/initialize/0/life_min");
  EXPECT_EQ(at(R"({"initialize": [{"module": "velocity_cone", "direction": [0, 1]}]})"),
            "/modules/initialize/0/direction");
  EXPECT_EQ(at(R"({"later": []})"), "/modules/later");
  EXPECT_EQ(at(R"({"initialize": [{"nodule": "x"}]})"), "/modules/initialize/0");
  // Two modules disagreeing on a field's width.
  EXPECT_EQ(at(R"({"initialize": [{"module": "rotation"}, {"module": "orientation_random"}]})"),
            "/modules/initialize/1");
  // A value no module declares.
  const P none = failure(module_doc(R"({"update": [{"module": "spin"}]})"));
  EXPECT_EQ(none.first, "(compiled)") << "spin declares the fields it reads: " << none.second;
  // The loader's refusal of a substituted parameter lands on that parameter.
  EXPECT_EQ(at(R"({"render": [{"module": "sprite", "projection": "sideways"}]})"), "/modules/render/0/projection");
  EXPECT_EQ(at(R"({"spawn": [{"module": "rate", "rate": -1}]})"), "/modules/spawn/0/rate");
  // Emitter fields shared by two modules must agree.
  EXPECT_EQ(at(R"({"initialize": [{"module": "color_range", "alpha_scale": 0.5}],
                  "update": [{"module": "fade_over_life"}]})"),
            "/modules/update/0");
}

TEST(ModuleDocument, RawNodesMixInAndKeepTheirOwnPointers) {
  // A raw UPDATE node reads the modules' velocity ("@velocity") and writes a field of its own.
  const std::string mixed = module_doc(kStack, R"("particle_fields": [{"name": "speed", "width": 1}],
      "update": {"nodes": [{"id": "len", "type": "length", "inputs": {"a": "@velocity"}},
                           {"id": "store", "type": "set_field", "params": {"field": "speed"}, "inputs": {"value": "len"}}]},)");
  auto r = mote::compile_effect(mixed);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->program.particle_field_offset("speed").has_value());
  // An error in a raw node keeps the raw node's pointer, not the expansion's.
  const std::string broken =
      module_doc(kStack, R"("update": {"nodes": [{"id": "len", "type": "length", "inputs": {"b": "@velocity"}}]},)");
  EXPECT_EQ(failure(broken).first, "/update/nodes/0/inputs/b");
  // "@x" of a value nothing sets.
  const std::string unset =
      module_doc(kStack, R"("init": {"nodes": [{"id": "n", "type": "length", "inputs": {"a": "@size"}}]},)");
  EXPECT_EQ(failure(unset).first, "/init/nodes/0/inputs/a");
}

TEST(ModuleDocument, DocumentSettingsOverTheModules) {
  auto r = mote::compile_effect(module_doc(kStack,
                                           R"("emission": {"capacity": 77}, "render": {"blend": "additive"},)"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->emission.capacity_hint, 77u);
  EXPECT_EQ(r->emission.rate, 50.0f);
  EXPECT_EQ(r->render.blend, "additive");
  EXPECT_EQ(failure(module_doc(kStack, R"("render": {"blend": "multiply"},)")).first, "/render/blend");
}

TEST(ModuleDocument, ExpansionIsAPlainDocumentThatCompilesTheSame) {
  auto text = mote::expand_effect_document(module_doc(kStack));
  ASSERT_TRUE(text.ok()) << text.error().to_string();
  EXPECT_EQ(text->find("\"modules\""), std::string::npos);
  auto a = mote::compile_effect(module_doc(kStack));
  auto b = mote::compile_effect(*text);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->program, b->program);
  // A plain document passes through unchanged.
  const std::string plain = effect_with("", "");
  auto same = mote::expand_effect_document(plain);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, plain);
}

// Random draws follow the random nodes' order, not their index: a node that draws nothing,
// inserted before, leaves the program as it was.
TEST(RandomDraws, ANodeThatDrawsNothingChangesNoDraws) {
  const std::string random_then_set =
      R"({"id": "r", "type": "random_range", "inputs": {"min": 0, "max": 1}},
         {"id": "s", "type": "set_field", "params": {"field": "lifetime"}, "inputs": {"value": "r"}})";
  const std::string with_extra = R"({"id": "pad", "type": "emitter_field", "params": {"field": "speed"}},)" +
                                 random_then_set;
  auto a = mote::compile_effect(effect_with(random_then_set, ""));
  auto b = mote::compile_effect(effect_with(with_extra, ""));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->program, b->program);
  // A second random node before it does change its draws.
  const std::string with_random = R"({"id": "pad", "type": "random_range", "inputs": {"min": 0, "max": 1}},)" +
                                  random_then_set;
  auto c = mote::compile_effect(effect_with(with_random, ""));
  ASSERT_TRUE(c.ok());
  EXPECT_NE(a->program, c->program);
}

// "expose": false writes every parameter into the nodes as a constant (no emitter field); an
// object renames one parameter's field or keeps that one constant.
TEST(ModuleDocument, ExposeRenamesOrHidesTheEmitterFields) {
  auto names = [](const mote::CompiledEffect& e) {
    std::set<std::string> out;
    for (const auto& f : e.program.emitter_fields) out.insert(f.name);
    return out;
  };
  const std::string base = R"({"spawn": [{"module": "rate", "rate": 5}], "initialize": [{"module": "shape_point"},
      {"module": "lifetime", "life_min": 2, "life_max": 3)";
  const std::string tail = R"(}], "update": [{"module": "age"}]})";
  auto shown = mote::compile_effect(module_doc(base + tail));
  auto hidden = mote::compile_effect(module_doc(base + R"(, "expose": false)" + tail));
  auto renamed = mote::compile_effect(module_doc(base + R"(, "expose": {"life_min": "short", "life_max": false})" +
                                                 tail));
  ASSERT_TRUE(shown.ok() && hidden.ok() && renamed.ok()) << module_doc(base + tail);
  EXPECT_EQ(names(*shown), (std::set<std::string>{"rate", "life_min", "life_max"}));
  EXPECT_EQ(names(*hidden), (std::set<std::string>{"rate"}));
  EXPECT_EQ(names(*renamed), (std::set<std::string>{"rate", "short"}));
  // The particles are the same: a constant or a field of the same value.
  mote::SimulationOptions options;
  auto a = mote::Simulation::create(*shown, options);
  auto b = mote::Simulation::create(*hidden, options);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(a->step().ok() && b->step().ok());
  EXPECT_EQ(*a->field("lifetime"), *b->field("lifetime"));
  EXPECT_NE(shown->program, hidden->program) << "the constant is in the program, not read from a field";
  // A parameter that is no emitter field cannot be exposed; a name must be an identifier.
  EXPECT_EQ(failure(module_doc(R"({"spawn": [{"module": "rate", "expose": {"capacity": "c"}}]})")).first,
            "/modules/spawn/0/expose/capacity");
  EXPECT_EQ(failure(module_doc(R"({"spawn": [{"module": "rate", "expose": {"rate": "1x"}}]})")).first,
            "/modules/spawn/0/expose/rate");
  EXPECT_EQ(failure(module_doc(R"({"spawn": [{"module": "rate", "expose": 3}]})")).first, "/modules/spawn/0/expose");
}

// Colliders or their hits together; event_on_hit sends events for a hit and kills the particle.
TEST(ModuleDocument, CollidersOrTheirHitsForTheEventModule) {
  const std::string doc = module_doc(R"({"spawn": [{"module": "rate", "rate": 50}],
      "initialize": [{"module": "shape_point"}, {"module": "position_offset", "offset": [0, 2, 0]},
                     {"module": "velocity_box", "velocity_min": [0, -4, 0], "velocity_max": [0, -4, 0]},
                     {"module": "lifetime", "life_min": 10, "life_max": 10}],
      "update": [{"module": "gravity"}, {"module": "integrate"}, {"module": "collide_box"},
                 {"module": "collide_plane"}, {"module": "event_on_hit", "output": "hit", "count": 3},
                 {"module": "age"}]})",
                                     R"("event_outputs": ["hit"],)");
  auto expanded = mote::expand_effect_document(doc);
  ASSERT_TRUE(expanded.ok()) << expanded.error().to_string();
  const json plain = json::parse(*expanded);
  bool or_node = false;
  for (const json& n : plain["update"]["nodes"])
    or_node = or_node || (n["type"] == "or" && n["inputs"]["a"] == "u2_box.hit" && n["inputs"]["b"] == "u3_plane.hit");
  EXPECT_TRUE(or_node) << plain["update"].dump();
  auto r = mote::compile_effect(doc);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  mote::SimulationOptions options;
  auto sim = mote::Simulation::create(*r, options);
  ASSERT_TRUE(sim.ok());
  // Falling from 2 m at 4 m/s onto the box (top at 1 m): every particle hits within a second
  // and dies there, so none lives long and none is ever below the box top.
  for (int i = 0; i < 120; ++i) {
    ASSERT_TRUE(sim->step().ok());
    auto pos = sim->field("position");
    ASSERT_TRUE(pos.ok());
    for (size_t p = 1; p < pos->size(); p += 3) EXPECT_GE((*pos)[p], 0.999f) << "frame " << i;
  }
  EXPECT_LT(sim->alive_count(), 40u) << "particles that hit were not killed";
  EXPECT_GT(sim->alive_count(), 0u);
  // Without a collider there is no hit to read.
  EXPECT_EQ(failure(module_doc(R"({"update": [{"module": "event_on_hit"}]})", R"("event_outputs": ["hit"],)")).first,
            "/modules/update/0");
}

}  // namespace

// The standard particle's members come first, in mote::Particle's order, whatever order the
// modules declare them in (docs/design/modules.md, "Particle fields"); the other fields follow as
// declared, and each field's pointer still names the module that declared it.
TEST(ModuleDocument, TheStandardParticleMembersComeFirstInItsOrder) {
  // The colour first, the position last, size_growth after them all; "scale" is no
  // member of the standard particle.
  const std::string doc = module_doc(R"({"spawn": [{"module": "rate", "rate": 10}],
    "initialize": [{"module": "color_range"}, {"module": "scale"}, {"module": "lifetime"},
                   {"module": "velocity_sphere"}, {"module": "shape_point"}],
    "update": [{"module": "size_growth"}, {"module": "spin"}, {"module": "integrate"}, {"module": "age"}]})");
  auto r = mote::compile_effect(doc);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  std::vector<std::string> names;
  for (const auto& f : r->program.particle_fields) names.push_back(f.name);
  std::vector<std::string> standard;
  for (const std::string& n : names)
    for (const mote::ParticleMember& m : mote::kParticleMembers)
      if (m.name == n) standard.push_back(n);
  // Every standard member present comes before every other field, in the standard order.
  ASSERT_GE(names.size(), standard.size());
  for (size_t i = 0; i < standard.size(); ++i) EXPECT_EQ(names[i], standard[i]) << i;
  size_t last_rank = 0;
  for (const std::string& n : standard) {
    size_t rank = 0;
    while (mote::kParticleMembers[rank].name != n) ++rank;
    EXPECT_GE(rank, last_rank) << n;
    last_rank = rank;
  }
  EXPECT_EQ(names.front(), "position");
  EXPECT_EQ(standard.size() + 1, names.size()) << "one field past the members: the scale";
  EXPECT_EQ(names.back(), "scale");
  // The pointers follow the fields: position is shape_point's (initialize/4), size_growth the
  // first update module's.
  auto expanded = mote::graph::expand_module_document(json::parse(doc));
  ASSERT_TRUE(expanded.ok());
  EXPECT_EQ(expanded->origins.translate("/particle_fields/0"), "/modules/initialize/4");
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] != "size_growth") continue;
    EXPECT_EQ(expanded->origins.translate("/particle_fields/" + std::to_string(i)), "/modules/update/0");
  }
}

// Every preset in effects/ that declares the ten members has the standard layout (record words
// 1..20): the manual and cpu drivers take it as it is.
TEST(ModuleDocument, EveryPresetWithTheTenMembersIsOfTheStandardLayout) {
  std::set<std::string> standard;
  for (const auto& e : fs::directory_iterator(std::string(MOTE_SOURCE_DIR) + "/effects")) {
    if (e.path().extension() != ".json") continue;
    auto r = mote::compile_effect(read_text(e.path().string()));
    ASSERT_TRUE(r.ok()) << e.path() << ": " << r.error().to_string();
    size_t members = 0;
    for (const auto& f : r->program.particle_fields)
      for (const mote::ParticleMember& m : mote::kParticleMembers) members += m.name == f.name && m.width == f.width;
    if (members != mote::kParticleMembers.size()) continue;
    uint32_t word = mote::kParticleFirstWord;
    for (size_t i = 0; i < mote::kParticleMembers.size(); ++i) {
      const mote::ParticleMember& m = mote::kParticleMembers[i];
      EXPECT_EQ(r->program.particle_fields[i].name, m.name) << e.path() << " " << i;
      EXPECT_EQ(r->program.particle_field_offset(m.name), word) << e.path() << " " << m.name;
      word += m.width;
    }
    EXPECT_EQ(word, mote::kParticleFirstWord + mote::kParticleWords);
    standard.insert(e.path().stem().string());
  }
  for (const char* name : {"fire", "smoke", "snow", "rain", "sparkles", "water_jet", "explosion", "debris",
                           "bonfire_flame", "bonfire_embers", "bonfire_smoke", "bonfire_soot"})
    EXPECT_TRUE(standard.count(name)) << name << " is not of the standard layout";
}
