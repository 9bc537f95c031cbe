// The module library: src/graph/modules/*.json, embedded at build time (cmake/MoteEmbedText.cmake),
// read and checked once. The definitions are data, not code: docs/design/modules.md gives their
// format, and a new module is a new file.
#include <fmt/format.h>

#include <mutex>
#include <new>
#include <set>
#include <string_view>

#include "core/json_reader.hpp"
#include "modules.hpp"

namespace mote::graph {
namespace {

struct EmbeddedText {
  std::string_view name, text;
};
#include "graph_modules.inc"

using nlohmann::json;
using namespace core;

constexpr std::string_view kStages[] = {"spawn", "initialize", "update", "render"};

Result<ParamType> param_type(const json& j, const std::string& where) {
  MOTE_TRY_ASSIGN(std::string t,
                  read_choice(j, where, {"number", "vec2", "vec3", "vec4", "uint", "bool", "string", "keys"}));
  if (t == "number") return ParamType::kNumber;
  if (t == "vec2") return ParamType::kVec2;
  if (t == "vec3") return ParamType::kVec3;
  if (t == "vec4") return ParamType::kVec4;
  if (t == "uint") return ParamType::kUint;
  if (t == "bool") return ParamType::kBool;
  if (t == "string") return ParamType::kString;
  return ParamType::kKeys;
}

uint32_t vector_width(ParamType t) {
  switch (t) {
    case ParamType::kNumber: return 1;
    case ParamType::kVec2: return 2;
    case ParamType::kVec3: return 3;
    case ParamType::kVec4: return 4;
    default: return 0;
  }
}

Result<ModuleParam> read_param(const std::string& name, const json& j, const std::string& where) {
  MOTE_TRY(check_object(j, where, {"type", "default", "field", "doc"}));
  for (const char* key : {"type", "default", "doc"}) MOTE_TRY(require(j, where, key));
  ModuleParam p;
  p.name = name;
  MOTE_TRY_ASSIGN(p.type, param_type(j["type"], json_child(where, "type")));
  MOTE_TRY_ASSIGN(p.doc, read_string(j["doc"], json_child(where, "doc")));
  MOTE_TRY(read_optional_string(j, where, "field", p.field));
  if (!p.field.empty() && vector_width(p.type) == 0)
    return json_parse_error(json_child(where, "field"), "only number and vector parameters can be emitter fields");
  p.default_value = j["default"];
  return p;
}

Result<ModuleDef> read_module(const json& j) {
  MOTE_TRY(check_object(j, "",
                        {"module", "stage", "doc", "params", "particle_fields", "nodes", "writes", "adds", "ors",
                         "kills", "emission", "bursts", "render"}));
  for (const char* key : {"module", "stage", "doc", "params"}) MOTE_TRY(require(j, "", key));
  ModuleDef m;
  MOTE_TRY_ASSIGN(m.name, read_identifier(j["module"], "/module"));
  MOTE_TRY_ASSIGN(m.stage, read_choice(j["stage"], "/stage", {"spawn", "initialize", "update", "render"}));
  MOTE_TRY_ASSIGN(m.doc, read_string(j["doc"], "/doc"));
  MOTE_TRY(expect_object(j["params"], "/params"));
  for (auto it = j["params"].begin(); it != j["params"].end(); ++it) {
    MOTE_TRY_ASSIGN(ModuleParam p, read_param(it.key(), it.value(), json_child("/params", it.key())));
    m.params.push_back(std::move(p));
  }
  if (j.contains("particle_fields")) {
    MOTE_TRY_ASSIGN(const json* fields, read_array(j["particle_fields"], "/particle_fields"));
    for (size_t i = 0; i < fields->size(); ++i) {
      const std::string w = json_child("/particle_fields", i);
      MOTE_TRY(check_object((*fields)[i], w, {"name", "width"}));
      MOTE_TRY_ASSIGN(std::string name, read_identifier((*fields)[i]["name"], json_child(w, "name")));
      MOTE_TRY_ASSIGN(uint32_t width, read_uint((*fields)[i]["width"], json_child(w, "width"), 1, 4));
      m.particle_fields.emplace_back(std::move(name), width);
    }
  }
  const bool graph_stage = m.stage == "initialize" || m.stage == "update";
  for (const char* key : {"nodes", "writes", "adds", "ors", "kills"})
    if (j.contains(key) && !graph_stage)
      return json_parse_error(json_child("", key), fmt::format("a {} module has no '{}'", m.stage, key));
  if (j.contains("kills") && m.stage != "update") return json_parse_error("/kills", "only update modules kill");
  if (j.contains("nodes")) m.nodes = j["nodes"];
  if (j.contains("writes")) m.writes = j["writes"];
  if (j.contains("adds")) m.adds = j["adds"];
  if (j.contains("ors")) m.ors = j["ors"];
  if (j.contains("kills")) m.kills = j["kills"];
  for (const char* key : {"emission", "bursts"})
    if (j.contains(key) && m.stage != "spawn")
      return json_parse_error(json_child("", key), fmt::format("only spawn modules have '{}'", key));
  if (j.contains("render") && m.stage != "render") return json_parse_error("/render", "only render modules have it");
  if (j.contains("emission")) m.emission = j["emission"];
  if (j.contains("bursts")) m.bursts = j["bursts"];
  if (j.contains("render")) m.render = j["render"];
  if (!m.nodes.is_array() || !m.writes.is_object() || !m.adds.is_object() || !m.ors.is_object() ||
      !m.kills.is_array() || !m.emission.is_object() || !m.bursts.is_array() || !m.render.is_object())
    return json_parse_error("", "nodes, kills and bursts are arrays; writes, adds, ors, emission and render objects");
  return m;
}

struct Library {
  std::vector<ModuleDef> modules;
  Status status;
  bool loaded = false;
};

// Reads every embedded definition. Exhaustion (the reader's kOutOfMemory, or a bad_alloc while
// the definitions are copied) is this attempt's alone and leaves the library unread for the next
// call; a definition the reader refuses is a build bug, kept for every later call.
Status load(Library& lib) {
  std::vector<ModuleDef> modules;
  std::set<std::string> names;
  for (const EmbeddedText& t : kEmbeddedTexts) {
    Result<json> parsed = parse_json(t.text);
    Result<ModuleDef> m = parsed.ok() ? read_module(parsed.value()) : Result<ModuleDef>(parsed.error());
    if (!m.ok()) {
      const Error& e = m.error();
      if (e.code == ErrorCode::kOutOfMemory) return e;
      lib.loaded = true;
      lib.status = make_error(ErrorCode::kInternal, fmt::format("module definition {}: {}", t.name, e.message),
                              e.where);
      return lib.status;
    }
    if (std::string(t.name) != m.value().name + ".json" || !names.insert(m.value().name).second) {
      lib.loaded = true;
      lib.status = make_error(ErrorCode::kInternal,
                              fmt::format("module definition {} names module '{}'", t.name, m.value().name));
      return lib.status;
    }
    modules.push_back(std::move(m.value()));
  }
  lib.modules = std::move(modules);
  lib.loaded = true;
  return ok_status();
}

Result<const Library*> library() {
  static Library lib;
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!lib.loaded) {
    try {
      if (Status s = load(lib); !s.ok()) return s.error();
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::kOutOfMemory, "out of memory reading the module definitions");
    }
  }
  if (!lib.status.ok()) return lib.status.error();
  return &lib;
}

// The definitions are read when the program starts, so no compile allocates for them: an
// allocation failing while a document compiles fails that compile alone (kOutOfMemory), never in
// the middle of a definition's JSON being destroyed, which nlohmann's destructor answers with
// terminate. library() still retries a read that ran out of memory.
const bool kReadAtStart = library().ok();

}  // namespace

const ModuleParam* ModuleDef::find_param(std::string_view param) const {
  for (const ModuleParam& p : params)
    if (p.name == param) return &p;
  return nullptr;
}

Result<const std::vector<ModuleDef>*> module_library() {
  MOTE_TRY_ASSIGN(const Library* lib, library());
  return &lib->modules;
}

const ModuleDef* find_module(std::string_view name) {
  Result<const Library*> lib = library();
  if (!lib.ok()) return nullptr;
  for (const ModuleDef& m : (*lib)->modules)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace mote::graph
