// The strict effect-document reader: every key known and given once, every number finite and in
// range, every name an identifier and unique. The first problem stops loading with a JSON pointer
// to it. The reading helpers are the ones the scene loader uses too (src/core/json_reader.hpp).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/json_reader.hpp"
#include "document.hpp"
#include "shared/vm_limits.h"

namespace mote::graph {

using nlohmann::json;

namespace {

using namespace core;  // the strict reader: check_object, read_number, ... (src/core/json_reader.hpp)

// kind: 0 particle, 1 emitter (default), 2 global (preview).
Result<std::vector<DocField>> read_fields(const json& j, const std::string& where, int kind, uint32_t max_words) {
  MOTE_TRY(read_array(j, where));
  std::vector<DocField> fields;
  std::set<std::string> names;
  uint32_t words = 0;
  const char* values_key = kind == 1 ? "default" : "preview";
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string w = json_child(where, i);
    const json& f = j[i];
    if (kind == 0) MOTE_TRY(check_object(f, w, {"name", "width"}));
    else MOTE_TRY(check_object(f, w, {"name", "width", values_key}));
    MOTE_TRY(require(f, w, "name"));
    MOTE_TRY(require(f, w, "width"));
    DocField field;
    MOTE_TRY_ASSIGN(field.name, read_identifier(f["name"], json_child(w, "name")));
    if (!names.insert(field.name).second)
      return json_parse_error(json_child(w, "name"), fmt::format("duplicate field name '{}'", field.name));
    MOTE_TRY_ASSIGN(field.width, read_uint(f["width"], json_child(w, "width"), 1, 4));
    words += field.width;
    if (words > max_words) return json_parse_error(w, fmt::format("the fields exceed {} words", max_words));
    if (kind != 0) {
      MOTE_TRY(require(f, w, values_key));
      const std::string vw = json_child(w, values_key);
      const json& v = f[values_key];
      if (!v.is_array() || v.size() != field.width)
        return json_parse_error(vw, fmt::format("expected an array of {} numbers", field.width));
      MOTE_TRY_ASSIGN(field.values, read_number_elements(v, vw, kAnyFloat));
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

Status read_emission(const json& j, const std::string& where, EmissionSettings& e) {
  MOTE_TRY(check_object(j, where, {"rate", "bursts", "prewarm", "capacity", "cull", "max_catchup"}));
  MOTE_TRY(read_optional_bool(j, where, "cull", e.cull));
  MOTE_TRY(read_optional_number(j, where, "max_catchup", {0.0, 600.0}, e.max_catchup_seconds));
  MOTE_TRY(read_optional_number(j, where, "rate", {0.0, 1e9}, e.rate));
  MOTE_TRY(read_optional_number(j, where, "prewarm", {0.0, 600.0}, e.prewarm_seconds));
  MOTE_TRY(read_optional_uint(j, where, "capacity", 1, 16777216, e.capacity_hint));
  if (j.contains("bursts")) {
    const std::string bw = json_child(where, "bursts");
    MOTE_TRY_ASSIGN(const json* bursts, read_array(j["bursts"], bw));
    uint32_t counted = 0;  // bursts with a count (count 0 never fires)
    for (size_t i = 0; i < bursts->size(); ++i) {
      const std::string w = json_child(bw, i);
      const json& b = (*bursts)[i];
      MOTE_TRY(check_object(b, w, {"time", "count", "cycles", "interval"}));
      MOTE_TRY(require(b, w, "time"));
      MOTE_TRY(require(b, w, "count"));
      Burst burst;
      MOTE_TRY_ASSIGN(burst.time, read_number(b["time"], json_child(w, "time"), {0.0, 1e9}));
      MOTE_TRY_ASSIGN(burst.count, read_uint(b["count"], json_child(w, "count"), 0, 16777216));
      MOTE_TRY(read_optional_uint(b, w, "cycles", 0, 1u << 30, burst.cycles));
      MOTE_TRY(read_optional_number(b, w, "interval", {0.0, 1e9}, burst.interval));
      if (burst.count > 0 && ++counted > kMaxBursts)
        return json_parse_error(w, fmt::format("more than {} bursts with a count; the GPU frame schedules at most {} "
                                               "per emitter (kMaxBursts)",
                                               kMaxBursts, kMaxBursts));
      e.bursts.push_back(burst);
    }
  }
  return {};
}

// A particle field the ribbon settings name: declared, of `width`; refused at `where`.
Status check_ribbon_field(const std::string& name, uint32_t width, const std::string& where,
                          const std::vector<DocField>& particle_fields) {
  for (const DocField& pf : particle_fields)
    if (pf.name == name) {
      if (pf.width == width) return {};
      return json_parse_error(where,
                              fmt::format("'{}' has width {}; a ribbon reads it as width {}", name, pf.width, width));
    }
  return json_parse_error(where, fmt::format("'{}' is not a declared particle field", name));
}

// render.ribbon (docs/design/ribbons.md). `j` is null when the document gives no "ribbon" object:
// the defaults, whose serial field must still be declared (the error then points at `where`).
Status read_ribbon(const json* j, const std::string& where, RibbonSettings& r,
                   const std::vector<DocField>& particle_fields) {
  const json empty = json::object();
  const json& o = j ? *j : empty;
  MOTE_TRY(check_object(o, where,
                        {"id_field", "serial_field", "uv", "tile_length", "facing", "normal_field", "subdivisions"}));
  MOTE_TRY(read_optional_string(o, where, "id_field", r.id_field));
  MOTE_TRY(read_optional_string(o, where, "serial_field", r.serial_field));
  MOTE_TRY(read_optional_string(o, where, "normal_field", r.normal_field));
  if (o.contains("uv")) {
    MOTE_TRY_ASSIGN(r.uv_mode, read_choice(o["uv"], json_child(where, "uv"), {"stretched", "tiled", "segment"}));
  }
  if (o.contains("facing")) {
    MOTE_TRY_ASSIGN(r.facing, read_choice(o["facing"], json_child(where, "facing"), {"camera", "normal"}));
  }
  MOTE_TRY(read_optional_number(o, where, "tile_length", {0.0, 1e6, true, false}, r.uv_tile_length));
  MOTE_TRY(read_optional_uint(o, where, "subdivisions", 1, 8, r.subdivisions));
  const auto at = [&](const char* key) { return o.contains(key) ? json_child(where, key) : where; };
  MOTE_TRY(check_ribbon_field(r.serial_field, 1, at("serial_field"), particle_fields));
  if (o.contains("id_field")) MOTE_TRY(check_ribbon_field(r.id_field, 1, at("id_field"), particle_fields));
  if (r.facing == "normal" && r.normal_field.empty())
    return json_parse_error(at("normal_field"), "facing 'normal' needs a 'normal_field'");
  if (r.facing != "normal" && o.contains("normal_field"))
    return json_parse_error(at("normal_field"), "'normal_field' is only for facing 'normal'");
  if (r.facing == "normal") MOTE_TRY(check_ribbon_field(r.normal_field, 3, at("normal_field"), particle_fields));
  if (o.contains("tile_length") && r.uv_mode != "tiled")
    return json_parse_error(at("tile_length"), "'tile_length' is only for uv 'tiled'");
  return {};
}

// render.light (docs/design/particle_lights.md): every key optional, each number finite and in
// its range (a negative radius or an intensity past a float's range refused at its pointer).
Status read_light(const json& j, const std::string& where, LightSettings& l) {
  MOTE_TRY(check_object(j, where, {"color", "intensity", "use_particle_color", "radius", "radius_from_size"}));
  l.enabled = true;
  if (j.contains("color")) {
    const std::string cw = json_child(where, "color");
    if (!j["color"].is_array() || j["color"].size() != 3)
      return json_parse_error(cw, "expected an array of 3 numbers (linear rgb)");
    MOTE_TRY_ASSIGN(const std::vector<float> c, read_number_elements(j["color"], cw, {0.0, 1e6}));
    l.color = {c[0], c[1], c[2]};
  }
  MOTE_TRY(read_optional_number(j, where, "intensity", {0.0, 1e6}, l.intensity));
  MOTE_TRY(read_optional_bool(j, where, "use_particle_color", l.use_particle_color));
  MOTE_TRY(read_optional_number(j, where, "radius", {0.0, 1e4, true, false}, l.radius));
  MOTE_TRY(read_optional_number(j, where, "radius_from_size", {0.0, 1e4}, l.radius_from_size));
  return {};
}

Status read_render(const json& j, const std::string& where, RenderSettings& r,
                   const std::vector<DocField>& particle_fields) {
  MOTE_TRY(check_object(j, where,
                        {"texture", "projection", "blend", "flipbook", "soft", "lit", "mesh", "fields", "ribbon",
                         "light"}));
  MOTE_TRY(read_optional_string(j, where, "texture", r.texture));
  if (j.contains("projection")) {
    MOTE_TRY_ASSIGN(r.projection, read_choice(j["projection"], json_child(where, "projection"),
                                              {"billboard", "stretched", "vertical", "horizontal", "facing_world",
                                               "mesh", "ribbon"}));
  }
  if (j.contains("blend")) {
    MOTE_TRY_ASSIGN(r.blend, read_choice(j["blend"], json_child(where, "blend"), {"alpha", "additive"}));
  }
  MOTE_TRY(read_optional_bool(j, where, "soft", r.soft));
  MOTE_TRY(read_optional_bool(j, where, "lit", r.lit));
  MOTE_TRY(read_optional_string(j, where, "mesh", r.mesh));
  if (r.projection == "mesh" && r.mesh.empty())
    return json_parse_error(json_child(where, "mesh"), "projection 'mesh' needs a non-empty 'mesh'");
  if (r.projection != "mesh" && j.contains("mesh"))
    return json_parse_error(json_child(where, "mesh"), "'mesh' is only for projection 'mesh'");
  if (r.projection != "ribbon" && j.contains("ribbon"))
    return json_parse_error(json_child(where, "ribbon"), "'ribbon' is only for projection 'ribbon'");
  if (r.projection == "ribbon" && r.lit)
    return json_parse_error(json_child(where, "lit"), "ribbons are drawn unlit (lit ribbons are not built yet)");
  if (r.projection == "ribbon" && j.contains("flipbook"))
    return json_parse_error(json_child(where, "flipbook"), "ribbons draw no flipbook");
  if (j.contains("flipbook")) {
    const std::string fw = json_child(where, "flipbook");
    const json& f = j["flipbook"];
    MOTE_TRY(check_object(f, fw, {"columns", "rows", "blend"}));
    MOTE_TRY(read_optional_uint(f, fw, "columns", 1, 256, r.flipbook_columns));
    MOTE_TRY(read_optional_uint(f, fw, "rows", 1, 256, r.flipbook_rows));
    MOTE_TRY(read_optional_bool(f, fw, "blend", r.flipbook_blend));
  }
  if (j.contains("fields")) {
    const std::string fw = json_child(where, "fields");
    const json& f = j["fields"];
    MOTE_TRY(check_object(f, fw, {"position", "size", "color", "velocity", "rotation", "frame"}));
    std::pair<const char*, std::string*> slots[] = {{"position", &r.position_field}, {"size", &r.size_field},
                                                    {"color", &r.color_field},       {"velocity", &r.velocity_field},
                                                    {"rotation", &r.rotation_field}, {"frame", &r.frame_field}};
    for (auto& [key, dst] : slots) {
      if (!f.contains(key)) continue;
      MOTE_TRY_ASSIGN(*dst, read_string(f[key], json_child(fw, key)));
      if (dst->empty() && std::string_view(key) == "frame") continue;
      bool declared = false;
      for (const DocField& pf : particle_fields) declared = declared || pf.name == *dst;
      if (!declared)
        return json_parse_error(json_child(fw, key), fmt::format("'{}' is not a declared particle field", *dst));
    }
  }
  if (j.contains("light")) MOTE_TRY(read_light(j["light"], json_child(where, "light"), r.light));
  if (r.projection == "ribbon")
    MOTE_TRY(read_ribbon(j.contains("ribbon") ? &j["ribbon"] : nullptr,
                         j.contains("ribbon") ? json_child(where, "ribbon") : json_child(where, "projection"), r.ribbon,
                         particle_fields));
  return {};
}

Result<DocInput> read_input(const json& j, const std::string& where) {
  DocInput in;
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    const size_t dot = s.find('.');
    in.is_ref = true;
    in.node = s.substr(0, dot);
    in.port = dot == std::string::npos ? "" : s.substr(dot + 1);
    if (!is_identifier(in.node) || (dot != std::string::npos && !is_identifier(in.port)))
      return json_parse_error(where, fmt::format("'{}' is not a reference \"node\" or \"node.port\"", s));
    return in;
  }
  if (j.is_number()) {
    MOTE_TRY_ASSIGN(float x, read_number(j, where, kAnyFloat));
    in.values = {x};
    return in;
  }
  if (j.is_array()) {
    if (j.size() < 2 || j.size() > 4) return json_parse_error(where, "a vector constant has 2 to 4 numbers");
    MOTE_TRY_ASSIGN(in.values, read_number_elements(j, where, kAnyFloat));
    return in;
  }
  return json_parse_error(where, fmt::format("expected \"node.port\", a number or an array of numbers, got {}",
                                             j.type_name()));
}

Result<DocGraph> read_graph(const json& j, const std::string& where) {
  MOTE_TRY(check_object(j, where, {"nodes"}));
  MOTE_TRY(require(j, where, "nodes"));
  const std::string nw = json_child(where, "nodes");
  MOTE_TRY_ASSIGN(const json* array, read_array(j["nodes"], nw));
  const json& nodes = *array;
  if (nodes.size() > 4096) return json_parse_error(nw, "more than 4096 nodes");
  DocGraph g;
  std::set<std::string> ids;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string w = json_child(nw, i);
    const json& n = nodes[i];
    MOTE_TRY(check_object(n, w, {"id", "type", "params", "inputs"}));
    MOTE_TRY(require(n, w, "id"));
    MOTE_TRY(require(n, w, "type"));
    DocNode node;
    MOTE_TRY_ASSIGN(node.id, read_string(n["id"], json_child(w, "id")));
    if (!is_identifier(node.id))
      return json_parse_error(json_child(w, "id"), fmt::format("'{}' is not an identifier", node.id));
    if (!ids.insert(node.id).second)
      return json_parse_error(json_child(w, "id"), fmt::format("duplicate node id '{}'", node.id));
    MOTE_TRY_ASSIGN(node.type, read_string(n["type"], json_child(w, "type")));
    if (n.contains("params")) {
      MOTE_TRY(expect_object(n["params"], json_child(w, "params")));
      node.params = n["params"];
    }
    if (n.contains("inputs")) {
      node.has_inputs_key = true;
      const std::string iw = json_child(w, "inputs");
      const json& ins = n["inputs"];
      MOTE_TRY(expect_object(ins, iw));
      for (auto it = ins.begin(); it != ins.end(); ++it) {
        MOTE_TRY_ASSIGN(DocInput in, read_input(it.value(), json_child(iw, it.key())));
        node.inputs.emplace(it.key(), std::move(in));
      }
    }
    g.nodes.push_back(std::move(node));
  }
  return g;
}

// A list of names in index order: identifiers, unique, at most `most` of them. "event_outputs":
// the names EMIT_EVENT's outputs go by (docs/design/events.md); "vector_fields": SAMPLE_FIELD's
// slots (docs/design/vector_field.md).
Result<std::vector<std::string>> read_index_names(const json& j, const std::string& where, uint32_t most,
                                                  const char* what) {
  MOTE_TRY(read_array(j, where));
  if (j.size() > most) return json_parse_error(where, fmt::format("at most {} {}s", most, what));
  std::vector<std::string> names;
  for (size_t i = 0; i < j.size(); ++i) {
    MOTE_TRY_ASSIGN(std::string name, read_identifier(j[i], json_child(where, i)));
    if (std::find(names.begin(), names.end(), name) != names.end())
      return json_parse_error(json_child(where, i), fmt::format("duplicate {} '{}'", what, name));
    names.push_back(std::move(name));
  }
  return names;
}

// A stateful document has "init" and "update"; a stateless one has "eval" instead
// (docs/design/effects.md, "Stateless effects").
Status check_sections(const json& j, bool stateless) {
  for (const char* key : {"name", "particle_fields"}) MOTE_TRY(require(j, "", key));
  if (!stateless) {
    if (j.contains("eval"))
      return json_parse_error("/eval", "only a stateless effect (\"stateless\": true) has an eval graph");
    for (const char* key : {"init", "update"}) MOTE_TRY(require(j, "", key));
    return {};
  }
  for (const char* key : {"init", "update"})
    if (j.contains(key))
      return json_parse_error(std::string("/") + key,
                              fmt::format("a stateless effect has no {} graph: its one graph is \"eval\", run every "
                                          "frame from the time, the seed and the index",
                                          key));
  return require(j, "", "eval");
}

// A stateless effect draws a fixed count of particles (emission.capacity), each one looping
// through its own lifetimes; it spawns nothing, so rates, bursts and prewarm mean nothing.
Status check_stateless_emission(const EmissionSettings& e) {
  const char* why = "a stateless effect spawns nothing: it evaluates emission.capacity particles every frame";
  if (e.rate != 0.0f) return json_parse_error("/emission/rate", why);
  if (!e.bursts.empty()) return json_parse_error("/emission/bursts", why);
  if (e.prewarm_seconds != 0.0f) return json_parse_error("/emission/prewarm", why);
  return {};
}

}  // namespace

Result<EffectDocument> load_effect_document(std::string_view json_text) {
  MOTE_TRY_ASSIGN(const json j, parse_json(json_text));
  return load_effect_document(j);
}

Result<EffectDocument> load_effect_document(const json& j) {
  const std::string root;
  MOTE_TRY(check_object(j, root,
                        {"$schema", "version", "name", "particle_fields", "emitter_fields", "global_fields", "emission",
                         "render", "event_outputs", "vector_fields", "init", "update", "stateless", "eval"}));
  // "$schema" names the schema an editor checks the document against (docs/effect.schema.json):
  // a string, otherwise unread.
  if (j.contains("$schema")) MOTE_TRY(read_string(j["$schema"], "/$schema"));
  if (j.contains("version")) MOTE_TRY(read_uint(j["version"], "/version", 1, 1));
  EffectDocument doc;
  if (j.contains("stateless")) {
    MOTE_TRY_ASSIGN(doc.stateless, read_bool(j["stateless"], "/stateless"));
  }
  MOTE_TRY(check_sections(j, doc.stateless));
  MOTE_TRY_ASSIGN(doc.name, read_string(j["name"], "/name"));
  if (doc.name.empty() || doc.name.size() > 256)
    return json_parse_error("/name", "the name must have 1 to 256 characters");
  MOTE_TRY_ASSIGN(doc.particle_fields, read_fields(j["particle_fields"], "/particle_fields", 0, 255));
  if (j.contains("emitter_fields")) {
    MOTE_TRY_ASSIGN(doc.emitter_fields, read_fields(j["emitter_fields"], "/emitter_fields", 1, 1024));
  }
  if (j.contains("global_fields")) {
    MOTE_TRY_ASSIGN(doc.global_fields, read_fields(j["global_fields"], "/global_fields", 2, 1024));
  }
  if (j.contains("emission")) MOTE_TRY(read_emission(j["emission"], "/emission", doc.emission));
  if (j.contains("event_outputs")) {
    MOTE_TRY_ASSIGN(doc.event_outputs,
                    read_index_names(j["event_outputs"], "/event_outputs", shader::kVmEventOutputs, "event output"));
  }
  if (j.contains("vector_fields")) {
    MOTE_TRY_ASSIGN(doc.vector_fields,
                    read_index_names(j["vector_fields"], "/vector_fields", shader::kVmVectorFields, "vector field"));
  }
  if (j.contains("render")) MOTE_TRY(read_render(j["render"], "/render", doc.render, doc.particle_fields));
  if (doc.stateless) {
    MOTE_TRY(check_stateless_emission(doc.emission));
    MOTE_TRY_ASSIGN(doc.eval, read_graph(j["eval"], "/eval"));
    return doc;
  }
  MOTE_TRY_ASSIGN(doc.init, read_graph(j["init"], "/init"));
  MOTE_TRY_ASSIGN(doc.update, read_graph(j["update"], "/update"));
  return doc;
}

}  // namespace mote::graph
