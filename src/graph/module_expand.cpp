// Module documents -> plain graph documents (docs/design/modules.md). Each module instance's
// nodes are copied with ids prefixed by its stage and index ("i2_vel"), its "$param" uses become
// the instance's values (or reads of the emitter field a parameter is exposed as), and its "@value"
// reads become the current value of that particle field or transient value: what an earlier
// module of the section wrote, else (UPDATE) the field as the tick began. Each particle field a
// section writes is stored once, after every module, from its last value.
#include <fmt/format.h>

#include <map>
#include <set>

#include "core/json_reader.hpp"
#include "module_expand.hpp"

namespace mote::graph::expand {
namespace {

using namespace core;

uint32_t width_of(ParamType t) {
  switch (t) {
    case ParamType::kNumber: return 1;
    case ParamType::kVec2: return 2;
    case ParamType::kVec3: return 3;
    case ParamType::kVec4: return 4;
    default: return 0;
  }
}

// A parameter value as the instance gives it, checked against its type.
Status check_param_value(const ModuleParam& p, const json& v, const std::string& where) {
  const uint32_t width = width_of(p.type);
  switch (p.type) {
    case ParamType::kNumber: MOTE_TRY(read_number(v, where, kAnyFloat)); return {};
    case ParamType::kUint: MOTE_TRY(read_uint(v, where, 0, 1u << 30)); return {};
    case ParamType::kBool: MOTE_TRY(read_bool(v, where)); return {};
    case ParamType::kString: MOTE_TRY(read_string(v, where)); return {};
    case ParamType::kKeys:
      if (!v.is_array()) return json_parse_error(where, fmt::format("'{}' is an array of curve keys", p.name));
      return {};
    default:
      if (!v.is_array() || v.size() != width)
        return json_parse_error(where, fmt::format("'{}' is an array of {} numbers", p.name, width));
      MOTE_TRY(read_number_elements(v, where, kAnyFloat));
      return {};
  }
}

// "expose": false keeps every parameter a constant written into the nodes (no emitter field a
// scene could override); an object renames one parameter's emitter field ("count":
// "splash_count") or keeps that one a constant ("restitution": false).
Status read_expose(Instance& in, const json& v, const std::string& where) {
  if (v.is_boolean()) {
    if (!v.get<bool>())
      for (auto& [name, field] : in.fields) field.clear();
    return {};
  }
  MOTE_TRY(expect_object(v, where));
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string w = json_child(where, it.key());
    const ModuleParam* p = in.def->find_param(it.key());
    if (p == nullptr || p->field.empty())
      return json_parse_error(w, fmt::format("module '{}' exposes no parameter '{}'", in.def->name, it.key()));
    if (it.value().is_boolean()) {
      if (!it.value().get<bool>()) in.fields[p->name].clear();
      continue;
    }
    MOTE_TRY_ASSIGN(in.fields[p->name], read_identifier(it.value(), w));
  }
  return {};
}

}  // namespace

Result<Instance> read_instance(const json& j, const std::string& stage, const std::string& where, size_t index) {
  MOTE_TRY(expect_object(j, where));
  MOTE_TRY(require(j, where, "module"));
  MOTE_TRY_ASSIGN(std::string name, read_string(j["module"], json_child(where, "module")));
  Instance in;
  in.def = find_module(name);
  if (in.def == nullptr) return json_parse_error(json_child(where, "module"), fmt::format("unknown module '{}'", name));
  if (in.def->stage != stage)
    return json_parse_error(json_child(where, "module"),
                            fmt::format("module '{}' belongs to the {} stage, not {}", name, in.def->stage, stage));
  in.stage = stage;
  in.where = where;
  in.prefix = fmt::format("{}{}_", stage[0], index);
  for (const ModuleParam& p : in.def->params) {
    in.values[p.name] = p.default_value;
    in.fields[p.name] = p.field;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "module") continue;
    if (it.key() == "expose") {
      MOTE_TRY(read_expose(in, it.value(), json_child(where, "expose")));
      continue;
    }
    const std::string w = json_child(where, it.key());
    const ModuleParam* p = in.def->find_param(it.key());
    if (p == nullptr) {
      std::string names;
      for (const ModuleParam& q : in.def->params) names += (names.empty() ? "" : ", ") + q.name;
      return json_parse_error(w, fmt::format("module '{}' has no parameter '{}' (it has: {})", name, it.key(),
                                             names.empty() ? "none" : names));
    }
    MOTE_TRY(check_param_value(*p, it.value(), w));
    in.values[p->name] = it.value();
    in.given.insert(p->name);
  }
  return in;
}

namespace {

// Where a parameter's value came from: the instance's key when it gave one, else the module.
std::string param_origin(const Instance& in, const std::string& param) {
  return in.given.count(param) ? json_child(in.where, param) : in.where;
}

}  // namespace

Status declare_particle_field(Expander& x, const std::string& name, uint32_t width, const std::string& origin) {
  for (const FieldDecl& f : x.particle_fields) {
    if (f.name != name) continue;
    if (f.width == width) return {};
    return json_parse_error(origin, fmt::format("particle field '{}' is {} wide here but {} wide in {}", name, width,
                                                f.width, f.origin.empty() ? "/" : f.origin));
  }
  x.origins.add(fmt::format("/particle_fields/{}", x.particle_fields.size()), origin);
  x.particle_fields.push_back({name, width, json(), origin});
  return {};
}

namespace {

Status declare_emitter_field(Expander& x, const Instance& in, const ModuleParam& p) {
  // No JSON temporaries here: nlohmann's destructor allocates for a non-empty array, and an
  // allocation failing inside a destructor ends the program (docs/design/reliability.md, "Memory").
  const json& value = in.values.at(p.name);
  const std::string& field = in.fields.at(p.name);
  const std::string origin = param_origin(in, p.name);
  for (const FieldDecl& f : x.emitter_fields) {
    if (f.name != field) continue;
    const bool same = value.is_array() ? f.defaults == value : f.defaults.size() == 1 && f.defaults[0] == value;
    if (f.width == width_of(p.type) && same) return {};
    return json_parse_error(origin, fmt::format("emitter field '{}' is given another value in {}", field, f.origin));
  }
  x.origins.add(fmt::format("/emitter_fields/{}", x.emitter_fields.size()), origin);
  x.emitter_fields.push_back({field, width_of(p.type), value.is_array() ? value : json::array({value}), origin});
  return {};
}

// "$param" in a template: the emitter field's reading node (exposed parameters, inside a graph)
// or the value itself.
Result<json> substitute_param(Expander& x, Section* s, const Instance& in, const std::string& ref, bool as_input,
                              const std::string& where) {
  const ModuleParam* p = in.def->find_param(ref.substr(1));
  if (p == nullptr)
    return make_error(ErrorCode::kInternal, fmt::format("module '{}' uses undeclared '{}'", in.def->name, ref), where);
  const std::string& field = in.fields.at(p->name);
  if (!as_input || field.empty() || s == nullptr) return in.values.at(p->name);
  MOTE_TRY(declare_emitter_field(x, in, *p));
  const std::string id = in.prefix + "ef_" + p->name;
  bool present = false;
  for (const json& n : s->nodes) present = present || n["id"] == id;
  if (!present) {
    x.origins.add(x.next_node(*s), param_origin(in, p->name));
    s->nodes.push_back({{"id", id}, {"type", "emitter_field"}, {"params", {{"field", field}}}});
  }
  return json(id);
}

// "@name" / "@name?": the current value. Returns null for an absent optional one.
}  // namespace

Result<json> read_current(Expander& x, Section& s, const std::string& ref, const std::string& origin) {
  const bool optional = ref.back() == '?';
  const std::string name = ref.substr(1, ref.size() - 1 - (optional ? 1 : 0));
  if (auto it = s.current.find(name); it != s.current.end()) return it->second;
  if (optional) return json();
  if (!x.is_particle_field(name))
    return json_parse_error(origin,
                            fmt::format("reads '{}', which is no particle field and no earlier module sets", name));
  if (!s.update)
    return json_parse_error(origin, fmt::format("reads '{}' before a module of the initialize stage sets it", name));
  const std::string id = "get_" + name;
  x.origins.add(x.next_node(s), origin);
  s.nodes.push_back({{"id", id}, {"type", "get_field"}, {"params", {{"field", name}}}});
  s.current[name] = id;
  return json(id);
}

namespace {

// A template's input or written value: a parameter, a current value, a local node or a constant.
Result<json> resolve_value(Expander& x, Section& s, const Instance& in, const json& v, const std::string& where) {
  if (!v.is_string()) return v;
  const std::string str = v.get<std::string>();
  if (str.empty()) return make_error(ErrorCode::kInternal, "an empty reference in a module", where);
  if (str[0] == '$') return substitute_param(x, &s, in, str, true, where);
  if (str[0] == '@') return read_current(x, s, str, in.where);
  return json(in.prefix + str);
}

// Copies `t` with every "$param" string replaced by its value (emission, render, node params).
Result<json> substitute_all(Expander& x, const Instance& in, const json& t, const std::string& where) {
  if (t.is_string() && !t.get<std::string>().empty() && t.get<std::string>()[0] == '$')
    return substitute_param(x, nullptr, in, t.get<std::string>(), false, where);
  if (t.is_object()) {
    json out = json::object();
    for (auto it = t.begin(); it != t.end(); ++it) {
      MOTE_TRY_ASSIGN(out[it.key()], substitute_all(x, in, it.value(), where));
    }
    return out;
  }
  if (t.is_array()) {
    json out = json::array();
    for (const json& e : t) {
      MOTE_TRY_ASSIGN(json v, substitute_all(x, in, e, where));
      out.push_back(std::move(v));
    }
    return out;
  }
  return t;
}

// The name of the parameter a template value is, or "".
std::string param_name(const json& v) {
  if (!v.is_string()) return "";
  const std::string s = v.get<std::string>();
  return !s.empty() && s[0] == '$' ? s.substr(1) : "";
}

Status copy_template_node(Expander& x, Section& s, const Instance& in, const json& t) {
  json node = {{"id", in.prefix + t["id"].get<std::string>()}, {"type", t["type"]}};
  std::vector<std::pair<std::string, std::string>> port_origins;
  if (t.contains("params")) {
    MOTE_TRY_ASSIGN(node["params"], substitute_all(x, in, t["params"], in.where));
    for (auto it = t["params"].begin(); it != t["params"].end(); ++it)
      if (const std::string p = param_name(it.value()); !p.empty() && in.given.count(p))
        port_origins.emplace_back("/params/" + it.key(), json_child(in.where, p));
  }
  if (t.contains("inputs")) {
    json inputs = json::object();
    for (auto it = t["inputs"].begin(); it != t["inputs"].end(); ++it) {
      MOTE_TRY_ASSIGN(json v, resolve_value(x, s, in, it.value(), in.where));
      if (v.is_null()) continue;  // an optional value nothing set
      inputs[it.key()] = std::move(v);
      if (const std::string p = param_name(it.value()); !p.empty() && in.given.count(p))
        port_origins.emplace_back("/inputs/" + it.key(), json_child(in.where, p));
    }
    node["inputs"] = std::move(inputs);
  }
  const std::string at = x.next_node(s);
  x.origins.add(at, in.where);
  for (const auto& [suffix, origin] : port_origins) x.origins.add(at + suffix, origin);
  s.nodes.push_back(std::move(node));
  return {};
}

void note_store(Section& s, const std::string& field, const std::string& origin) {
  for (auto& [name, last] : s.stores)
    if (name == field) {
      last = origin;
      return;
    }
  s.stores.emplace_back(field, origin);
}

// "adds" / "ors": each value combined (`op`: add, or) with the current one when there is one,
// else set.
Status combine_into(Expander& x, Section& s, const Instance& in, const json& values, const char* op) {
  for (auto it = values.begin(); it != values.end(); ++it) {
    MOTE_TRY_ASSIGN(json v, resolve_value(x, s, in, it.value(), in.where));
    if (auto cur = s.current.find(it.key()); cur != s.current.end()) {
      const std::string id = in.prefix + op + "_" + it.key();
      x.origins.add(x.next_node(s), in.where);
      s.nodes.push_back({{"id", id}, {"type", op}, {"inputs", {{"a", cur->second}, {"b", v}}}});
      v = id;
    }
    s.current[it.key()] = std::move(v);
    if (x.is_particle_field(it.key())) note_store(s, it.key(), in.where);
  }
  return {};
}

}  // namespace

namespace {
// Every exposed parameter is an emitter field, read by the graph or not (spawn's rate is read by
// the runtime): scenes override it by name.
Status declare_emitter_fields(Expander& x, const Instance& in) {
  for (const ModuleParam& p : in.def->params)
    if (!in.fields.at(p.name).empty()) MOTE_TRY(declare_emitter_field(x, in, p));
  return {};
}
}  // namespace

Status expand_graph_instance(Expander& x, Section& s, const Instance& in) {
  MOTE_TRY(declare_emitter_fields(x, in));
  for (const json& t : in.def->nodes) MOTE_TRY(copy_template_node(x, s, in, t));
  for (auto it = in.def->writes.begin(); it != in.def->writes.end(); ++it) {
    MOTE_TRY_ASSIGN(json v, resolve_value(x, s, in, it.value(), in.where));
    s.current[it.key()] = std::move(v);
    if (x.is_particle_field(it.key())) note_store(s, it.key(), in.where);
  }
  MOTE_TRY(combine_into(x, s, in, in.def->adds, "add"));
  MOTE_TRY(combine_into(x, s, in, in.def->ors, "or"));
  for (const json& k : in.def->kills) {
    MOTE_TRY_ASSIGN(json v, resolve_value(x, s, in, k, in.where));
    s.kills.emplace_back(std::move(v), in.where);
  }
  return {};
}

namespace {

// Render "fields" values ending in '?' are kept only when that particle field is declared.
json resolve_render_fields(const Expander& x, const json& fields) {
  json out = json::object();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    std::string name = it.value().get<std::string>();
    if (!name.empty() && name.back() == '?') {
      name.pop_back();
      if (!x.is_particle_field(name)) continue;
    }
    out[it.key()] = name;
  }
  return out;
}

}  // namespace

Status expand_settings_instance(Expander& x, const Instance& in) {
  const ModuleDef& d = *in.def;
  MOTE_TRY(declare_emitter_fields(x, in));
  MOTE_TRY_ASSIGN(json emission, substitute_all(x, in, d.emission, in.where));
  for (auto it = emission.begin(); it != emission.end(); ++it) {
    x.emission[it.key()] = it.value();
    const std::string p = param_name(d.emission[it.key()]);
    x.origins.add("/emission/" + it.key(), p.empty() ? in.where : param_origin(in, p));
  }
  for (const json& b : d.bursts) {
    MOTE_TRY_ASSIGN(json burst, substitute_all(x, in, b, in.where));
    if (!x.emission.contains("bursts")) x.emission["bursts"] = json::array();
    x.origins.add(fmt::format("/emission/bursts/{}", x.emission["bursts"].size()), in.where);
    x.emission["bursts"].push_back(std::move(burst));
  }
  MOTE_TRY_ASSIGN(json render, substitute_all(x, in, d.render, in.where));
  for (auto it = render.begin(); it != render.end(); ++it) {
    if (it.key() == "fields") {
      if (!x.render.contains("fields")) x.render["fields"] = json::object();
      const json fields = resolve_render_fields(x, it.value());
      for (auto f = fields.begin(); f != fields.end(); ++f) x.render["fields"][f.key()] = f.value();
    } else {
      x.render[it.key()] = it.value();
    }
    const std::string p = param_name(d.render[it.key()]);
    x.origins.add("/render/" + it.key(), p.empty() ? in.where : param_origin(in, p));
  }
  return {};
}

}  // namespace mote::graph::expand

namespace mote::graph {

void OriginMap::add(std::string expanded, std::string original, bool keep_rest) {
  entries.push_back({std::move(expanded), std::move(original), keep_rest});
}

std::string OriginMap::translate(const std::string& where) const {
  const Entry* best = nullptr;
  for (const Entry& e : entries) {
    const bool match = where == e.expanded ||
                       (where.size() > e.expanded.size() && where.compare(0, e.expanded.size(), e.expanded) == 0 &&
                        where[e.expanded.size()] == '/');
    if (match && (best == nullptr || e.expanded.size() >= best->expanded.size())) best = &e;
  }
  if (best == nullptr) return where;
  return best->keep_rest ? best->original + where.substr(best->expanded.size()) : best->original;
}

bool is_module_document(const nlohmann::json& j) { return j.is_object() && j.contains("modules"); }

}  // namespace mote::graph
