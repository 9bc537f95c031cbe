// The strict effect-document reader: every key known, every number finite and in range, every
// name an identifier and unique. The first problem stops loading with a JSON pointer to it.
#include <cmath>
#include <initializer_list>
#include <set>

#include <fmt/format.h>

#include "core/json_pointer.hpp"
#include "document.hpp"

namespace mote::graph {

using nlohmann::json;

namespace {


const char* type_name(const json& j) { return j.type_name(); }

Status check_object(const json& j, const std::string& where, std::initializer_list<std::string_view> allowed) {
  if (!j.is_object()) return json_parse_error(where, fmt::format("expected an object, got {}", type_name(j)));
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (auto a : allowed) known = known || it.key() == a;
    if (!known) return json_parse_error(json_child(where, it.key()), fmt::format("unknown key '{}'", it.key()));
  }
  return {};
}

Status require(const json& j, const std::string& where, std::string_view key) {
  if (!j.contains(key)) return json_parse_error(where, fmt::format("missing required key '{}'", key));
  return {};
}

Result<float> read_number(const json& j, const std::string& where, double lo, double hi) {
  if (!j.is_number()) return json_parse_error(where, fmt::format("expected a number, got {}", type_name(j)));
  const double v = j.get<double>();
  if (!std::isfinite(v)) return json_parse_error(where, "number is not finite");
  if (v < lo || v > hi) return json_parse_error(where, fmt::format("{} is outside [{}, {}]", v, lo, hi));
  if (std::fabs(v) > 3.4e38) return json_parse_error(where, "number does not fit a 32-bit float");
  return float(v);
}

Result<uint32_t> read_uint(const json& j, const std::string& where, uint64_t lo, uint64_t hi) {
  if (!j.is_number_integer()) return json_parse_error(where, fmt::format("expected an integer, got {}", type_name(j)));
  if (j.is_number_unsigned() || j.get<int64_t>() >= 0) {
    const uint64_t v = j.get<uint64_t>();
    if (v >= lo && v <= hi) return uint32_t(v);
  }
  return json_parse_error(where, fmt::format("integer is outside [{}, {}]", lo, hi));
}

Result<std::string> read_string(const json& j, const std::string& where) {
  if (!j.is_string()) return json_parse_error(where, fmt::format("expected a string, got {}", type_name(j)));
  return j.get<std::string>();
}

Result<bool> read_bool(const json& j, const std::string& where) {
  if (!j.is_boolean()) return json_parse_error(where, fmt::format("expected true or false, got {}", type_name(j)));
  return j.get<bool>();
}

Result<std::string> read_choice(const json& j, const std::string& where, std::initializer_list<std::string_view> choices) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  std::string list;
  for (auto c : choices) {
    if (s == c) return s;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  return json_parse_error(where, fmt::format("'{}' is not one of {}", s, list));
}

// kind: 0 particle, 1 emitter (default), 2 global (preview).
Result<std::vector<DocField>> read_fields(const json& j, const std::string& where, int kind, uint32_t max_words) {
  if (!j.is_array()) return json_parse_error(where, fmt::format("expected an array, got {}", type_name(j)));
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
    MOTE_TRY_ASSIGN(field.name, read_string(f["name"], json_child(w, "name")));
    if (!is_identifier(field.name))
      return json_parse_error(json_child(w, "name"), fmt::format("'{}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64)", field.name));
    if (!names.insert(field.name).second) return json_parse_error(json_child(w, "name"), fmt::format("duplicate field name '{}'", field.name));
    MOTE_TRY_ASSIGN(field.width, read_uint(f["width"], json_child(w, "width"), 1, 4));
    words += field.width;
    if (words > max_words) return json_parse_error(w, fmt::format("the fields exceed {} words", max_words));
    if (kind != 0) {
      MOTE_TRY(require(f, w, values_key));
      const std::string vw = json_child(w, values_key);
      const json& v = f[values_key];
      if (!v.is_array() || v.size() != field.width)
        return json_parse_error(vw, fmt::format("expected an array of {} numbers", field.width));
      for (size_t k = 0; k < v.size(); ++k) {
        MOTE_TRY_ASSIGN(float x, read_number(v[k], json_child(vw, k), -3.4e38, 3.4e38));
        field.values.push_back(x);
      }
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

Status read_emission(const json& j, const std::string& where, EmissionSettings& e) {
  MOTE_TRY(check_object(j, where, {"rate", "bursts", "prewarm", "capacity"}));
  if (j.contains("rate")) { MOTE_TRY_ASSIGN(e.rate, read_number(j["rate"], json_child(where, "rate"), 0.0, 1e9)); }
  if (j.contains("prewarm")) { MOTE_TRY_ASSIGN(e.prewarm_seconds, read_number(j["prewarm"], json_child(where, "prewarm"), 0.0, 600.0)); }
  if (j.contains("capacity")) { MOTE_TRY_ASSIGN(e.capacity_hint, read_uint(j["capacity"], json_child(where, "capacity"), 1, 16777216)); }
  if (j.contains("bursts")) {
    const std::string bw = json_child(where, "bursts");
    const json& b = j["bursts"];
    if (!b.is_array()) return json_parse_error(bw, fmt::format("expected an array, got {}", type_name(b)));
    for (size_t i = 0; i < b.size(); ++i) {
      const std::string w = json_child(bw, i);
      MOTE_TRY(check_object(b[i], w, {"time", "count", "cycles", "interval"}));
      MOTE_TRY(require(b[i], w, "time"));
      MOTE_TRY(require(b[i], w, "count"));
      Burst burst;
      MOTE_TRY_ASSIGN(burst.time, read_number(b[i]["time"], json_child(w, "time"), 0.0, 1e9));
      MOTE_TRY_ASSIGN(burst.count, read_uint(b[i]["count"], json_child(w, "count"), 0, 16777216));
      if (b[i].contains("cycles")) { MOTE_TRY_ASSIGN(burst.cycles, read_uint(b[i]["cycles"], json_child(w, "cycles"), 0, 1u << 30)); }
      if (b[i].contains("interval")) { MOTE_TRY_ASSIGN(burst.interval, read_number(b[i]["interval"], json_child(w, "interval"), 0.0, 1e9)); }
      e.bursts.push_back(burst);
    }
  }
  return {};
}

Status read_render(const json& j, const std::string& where, RenderSettings& r, const std::vector<DocField>& particle_fields) {
  MOTE_TRY(check_object(j, where, {"texture", "projection", "blend", "flipbook", "soft", "lit", "mesh", "fields"}));
  if (j.contains("texture")) { MOTE_TRY_ASSIGN(r.texture, read_string(j["texture"], json_child(where, "texture"))); }
  if (j.contains("projection")) {
    MOTE_TRY_ASSIGN(r.projection, read_choice(j["projection"], json_child(where, "projection"),
                                              {"billboard", "stretched", "vertical", "horizontal", "facing_world", "mesh"}));
  }
  if (j.contains("blend")) { MOTE_TRY_ASSIGN(r.blend, read_choice(j["blend"], json_child(where, "blend"), {"alpha", "additive"})); }
  if (j.contains("soft")) { MOTE_TRY_ASSIGN(r.soft, read_bool(j["soft"], json_child(where, "soft"))); }
  if (j.contains("lit")) { MOTE_TRY_ASSIGN(r.lit, read_bool(j["lit"], json_child(where, "lit"))); }
  if (j.contains("mesh")) { MOTE_TRY_ASSIGN(r.mesh, read_string(j["mesh"], json_child(where, "mesh"))); }
  if (r.projection == "mesh" && r.mesh.empty())
    return json_parse_error(json_child(where, "mesh"), "projection 'mesh' needs a non-empty 'mesh'");
  if (r.projection != "mesh" && j.contains("mesh")) return json_parse_error(json_child(where, "mesh"), "'mesh' is only for projection 'mesh'");
  if (j.contains("flipbook")) {
    const std::string fw = json_child(where, "flipbook");
    const json& f = j["flipbook"];
    MOTE_TRY(check_object(f, fw, {"columns", "rows", "blend"}));
    if (f.contains("columns")) { MOTE_TRY_ASSIGN(r.flipbook_columns, read_uint(f["columns"], json_child(fw, "columns"), 1, 256)); }
    if (f.contains("rows")) { MOTE_TRY_ASSIGN(r.flipbook_rows, read_uint(f["rows"], json_child(fw, "rows"), 1, 256)); }
    if (f.contains("blend")) { MOTE_TRY_ASSIGN(r.flipbook_blend, read_bool(f["blend"], json_child(fw, "blend"))); }
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
      if (!declared) return json_parse_error(json_child(fw, key), fmt::format("'{}' is not a declared particle field", *dst));
    }
  }
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
    MOTE_TRY_ASSIGN(float x, read_number(j, where, -3.4e38, 3.4e38));
    in.values = {x};
    return in;
  }
  if (j.is_array()) {
    if (j.size() < 2 || j.size() > 4) return json_parse_error(where, "a vector constant has 2 to 4 numbers");
    for (size_t k = 0; k < j.size(); ++k) {
      MOTE_TRY_ASSIGN(float x, read_number(j[k], json_child(where, k), -3.4e38, 3.4e38));
      in.values.push_back(x);
    }
    return in;
  }
  return json_parse_error(where, fmt::format("expected \"node.port\", a number or an array of numbers, got {}", type_name(j)));
}

Result<DocGraph> read_graph(const json& j, const std::string& where) {
  MOTE_TRY(check_object(j, where, {"nodes"}));
  MOTE_TRY(require(j, where, "nodes"));
  const std::string nw = json_child(where, "nodes");
  const json& nodes = j["nodes"];
  if (!nodes.is_array()) return json_parse_error(nw, fmt::format("expected an array, got {}", type_name(nodes)));
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
    if (!is_identifier(node.id)) return json_parse_error(json_child(w, "id"), fmt::format("'{}' is not an identifier", node.id));
    if (!ids.insert(node.id).second) return json_parse_error(json_child(w, "id"), fmt::format("duplicate node id '{}'", node.id));
    MOTE_TRY_ASSIGN(node.type, read_string(n["type"], json_child(w, "type")));
    if (n.contains("params")) {
      if (!n["params"].is_object()) return json_parse_error(json_child(w, "params"), fmt::format("expected an object, got {}", type_name(n["params"])));
      node.params = n["params"];
    }
    if (n.contains("inputs")) {
      node.has_inputs_key = true;
      const std::string iw = json_child(w, "inputs");
      const json& ins = n["inputs"];
      if (!ins.is_object()) return json_parse_error(iw, fmt::format("expected an object, got {}", type_name(ins)));
      for (auto it = ins.begin(); it != ins.end(); ++it) {
        MOTE_TRY_ASSIGN(DocInput in, read_input(it.value(), json_child(iw, it.key())));
        node.inputs.emplace(it.key(), std::move(in));
      }
    }
    g.nodes.push_back(std::move(node));
  }
  return g;
}

}  // namespace

Result<EffectDocument> load_effect_document(std::string_view json_text) {
  json j;
  try {
    j = json::parse(json_text.begin(), json_text.end());
  } catch (const json::exception& e) {
    return json_parse_error("/", fmt::format("not valid JSON: {}", e.what()));
  }
  const std::string root;
  MOTE_TRY(check_object(j, root, {"version", "name", "particle_fields", "emitter_fields", "global_fields", "emission", "render",
                                  "init", "update"}));
  if (j.contains("version")) MOTE_TRY(read_uint(j["version"], "/version", 1, 1));
  for (const char* key : {"name", "particle_fields", "init", "update"}) MOTE_TRY(require(j, root, key));
  EffectDocument doc;
  MOTE_TRY_ASSIGN(doc.name, read_string(j["name"], "/name"));
  if (doc.name.empty() || doc.name.size() > 256) return json_parse_error("/name", "the name must have 1 to 256 characters");
  MOTE_TRY_ASSIGN(doc.particle_fields, read_fields(j["particle_fields"], "/particle_fields", 0, 255));
  if (j.contains("emitter_fields")) { MOTE_TRY_ASSIGN(doc.emitter_fields, read_fields(j["emitter_fields"], "/emitter_fields", 1, 1024)); }
  if (j.contains("global_fields")) { MOTE_TRY_ASSIGN(doc.global_fields, read_fields(j["global_fields"], "/global_fields", 2, 1024)); }
  if (j.contains("emission")) MOTE_TRY(read_emission(j["emission"], "/emission", doc.emission));
  if (j.contains("render")) MOTE_TRY(read_render(j["render"], "/render", doc.render, doc.particle_fields));
  MOTE_TRY_ASSIGN(doc.init, read_graph(j["init"], "/init"));
  MOTE_TRY_ASSIGN(doc.update, read_graph(j["update"], "/update"));
  return doc;
}

}  // namespace mote::graph
