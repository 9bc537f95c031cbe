// A module document read and assembled into the plain graph document (modules.hpp,
// docs/design/modules.md): the stages' instances in order, then the document's own fields,
// settings and raw nodes on top, then one store per written particle field and the kills.
#include <fmt/format.h>

#include <algorithm>

#include "core/json_reader.hpp"
#include "module_expand.hpp"
#include "mote/particle.hpp"

namespace mote::graph {
namespace {

using nlohmann::json;
using namespace core;
using namespace expand;

constexpr const char* kStageNames[] = {"spawn", "initialize", "update", "render"};

Result<std::vector<Instance>> read_instances(const json& modules) {
  MOTE_TRY(check_object(modules, "/modules", {"spawn", "initialize", "update", "render"}));
  std::vector<Instance> instances;
  for (const char* stage : kStageNames) {
    if (!modules.contains(stage)) continue;
    const std::string sw = json_child("/modules", std::string_view(stage));
    MOTE_TRY_ASSIGN(const json* list, read_array(modules[stage], sw, 256));
    for (size_t i = 0; i < list->size(); ++i) {
      MOTE_TRY_ASSIGN(Instance in, read_instance((*list)[i], stage, json_child(sw, i), i));
      instances.push_back(std::move(in));
    }
  }
  return instances;
}

bool is_standard_member(const FieldDecl& f) {
  return std::any_of(kParticleMembers.begin(), kParticleMembers.end(),
                     [&](const ParticleMember& m) { return m.name == f.name && m.width == f.width; });
}

// The modules' particle fields with the standard particle's members first, in its order
// (mote::kParticleMembers), then the others as the modules declared them: an effect that
// declares all ten is of the standard layout (record words 1..20), whatever order its modules
// come in, so the manual and cpu drivers take it (docs/design/drivers.md). Only the record's
// layout changes: every read and store names its field. The origins of "/particle_fields/<i>"
// follow the fields to their new places.
void order_standard_members_first(Expander& x) {
  std::vector<FieldDecl> ordered;
  for (const ParticleMember& m : kParticleMembers)
    for (const FieldDecl& f : x.particle_fields)
      if (f.name == m.name && f.width == m.width) ordered.push_back(f);
  for (const FieldDecl& f : x.particle_fields)
    if (!is_standard_member(f)) ordered.push_back(f);
  const std::string prefix = "/particle_fields/";
  std::erase_if(x.origins.entries, [&](const OriginMap::Entry& e) { return e.expanded.starts_with(prefix); });
  for (size_t i = 0; i < ordered.size(); ++i) x.origins.add(prefix + std::to_string(i), ordered[i].origin);
  x.particle_fields = std::move(ordered);
}

// The document's own particle fields, after the modules': a restated one (same width) is
// merged, the rest are passed to the loader as written.
Status add_document_particle_fields(Expander& x, const json& j, json& extra) {
  if (!j.contains("particle_fields")) return {};
  MOTE_TRY_ASSIGN(const json* fields, read_array(j["particle_fields"], "/particle_fields"));
  for (size_t i = 0; i < fields->size(); ++i) {
    const json& f = (*fields)[i];
    const std::string w = json_child("/particle_fields", i);
    const bool restated = f.is_object() && f.contains("name") && f["name"].is_string() && f.contains("width") &&
                          f["width"].is_number_unsigned() && x.is_particle_field(f["name"].get<std::string>());
    if (restated) {
      MOTE_TRY(declare_particle_field(x, f["name"].get<std::string>(), f["width"].get<uint32_t>(), w));
      continue;
    }
    x.origins.add(fmt::format("/particle_fields/{}", x.particle_fields.size() + extra.size()), w, true);
    extra.push_back(f);
  }
  return {};
}

// The document's raw nodes of one section, after the modules' nodes; "@name" inputs read the
// modules' last values.
Status append_raw_graph(Expander& x, const json& j, Section& s) {
  if (!j.contains(s.key)) return {};
  const std::string gw = "/" + s.key;
  MOTE_TRY(check_object(j[s.key], gw, {"nodes"}));
  MOTE_TRY(require(j[s.key], gw, "nodes"));
  MOTE_TRY_ASSIGN(const json* nodes, read_array(j[s.key]["nodes"], json_child(gw, "nodes"), 4096));
  for (size_t i = 0; i < nodes->size(); ++i) {
    json node = (*nodes)[i];
    const std::string w = json_child(json_child(gw, "nodes"), i);
    if (node.is_object() && node.contains("inputs") && node["inputs"].is_object()) {
      for (auto it = node["inputs"].begin(); it != node["inputs"].end(); ++it) {
        if (!it.value().is_string()) continue;
        const std::string ref = it.value().get<std::string>();
        if (ref.empty() || ref[0] != '@') continue;
        MOTE_TRY_ASSIGN(json v, read_current(x, s, ref, json_child(json_child(w, "inputs"), it.key())));
        if (v.is_null()) return json_parse_error(json_child(json_child(w, "inputs"), it.key()), "nothing sets it");
        it.value() = std::move(v);
      }
    }
    x.origins.add(x.next_node(s), w, true);
    s.nodes.push_back(std::move(node));
  }
  return {};
}

// One store per particle field the section wrote (its last value), then the kills.
void finish_section(Expander& x, Section& s) {
  for (const auto& [field, origin] : s.stores) {
    x.origins.add(x.next_node(s), origin);
    s.nodes.push_back({{"id", "set_" + field},
                       {"type", "set_field"},
                       {"params", {{"field", field}}},
                       {"inputs", {{"value", s.current.at(field)}}}});
  }
  for (size_t k = 0; k < s.kills.size(); ++k) {
    x.origins.add(x.next_node(s), s.kills[k].second);
    s.nodes.push_back({{"id", fmt::format("kill_{}", k)},
                       {"type", "kill_if"},
                       {"inputs", {{"condition", s.kills[k].first}}}});
  }
}

// `settings` (the modules' emission or render) with the document's own keys over it; the
// document's keys keep their own pointers.
json overlay(OriginMap& origins, const json& settings, const json& j, const char* key) {
  json out = settings;
  if (!j.contains(key)) return out;
  if (!j[key].is_object()) return j[key];  // the loader refuses it at the document's pointer
  for (auto it = j[key].begin(); it != j[key].end(); ++it) {
    const std::string at = fmt::format("/{}/{}", key, it.key());
    if (it.key() == "fields" && it.value().is_object() && out.contains("fields")) {
      for (auto f = it.value().begin(); f != it.value().end(); ++f) {
        out["fields"][f.key()] = f.value();
        origins.add(at + "/" + f.key(), at + "/" + f.key(), true);
      }
      continue;
    }
    out[it.key()] = it.value();
    origins.add(at, at, true);
  }
  return out;
}

json field_list(const std::vector<FieldDecl>& fields, bool with_defaults) {
  json out = json::array();
  for (const FieldDecl& f : fields) {
    json e = {{"name", f.name}, {"width", f.width}};
    if (with_defaults) e["default"] = f.defaults;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

Result<ExpandedDocument> expand_module_document(const json& j) {
  MOTE_TRY(check_object(j, "",
                        {"$schema", "version", "name", "modules", "particle_fields", "emitter_fields", "global_fields",
                         "event_outputs", "vector_fields", "emission", "render", "init", "update"}));
  MOTE_TRY(module_library());
  MOTE_TRY_ASSIGN(std::vector<Instance> instances, read_instances(j["modules"]));
  Expander x;
  // Every particle field first: a section stores a written value only when it is one.
  for (const Instance& in : instances)
    for (const auto& [name, width] : in.def->particle_fields)
      MOTE_TRY(declare_particle_field(x, name, width, in.where));
  order_standard_members_first(x);
  json extra_particle_fields = json::array();
  MOTE_TRY(add_document_particle_fields(x, j, extra_particle_fields));
  for (const Instance& in : instances) {
    if (in.stage == "initialize") MOTE_TRY(expand_graph_instance(x, x.init, in));
    else if (in.stage == "update") MOTE_TRY(expand_graph_instance(x, x.update, in));
    else MOTE_TRY(expand_settings_instance(x, in));
  }
  MOTE_TRY(append_raw_graph(x, j, x.init));
  MOTE_TRY(append_raw_graph(x, j, x.update));
  finish_section(x, x.init);
  finish_section(x, x.update);

  json doc = json::object();
  if (j.contains("version")) doc["version"] = j["version"];
  if (j.contains("name")) doc["name"] = j["name"];
  doc["particle_fields"] = field_list(x.particle_fields, false);
  for (const json& f : extra_particle_fields) doc["particle_fields"].push_back(f);
  doc["emitter_fields"] = field_list(x.emitter_fields, true);
  if (j.contains("emitter_fields")) {
    MOTE_TRY_ASSIGN(const json* own, read_array(j["emitter_fields"], "/emitter_fields"));
    for (size_t i = 0; i < own->size(); ++i) {
      x.origins.add(fmt::format("/emitter_fields/{}", doc["emitter_fields"].size()), json_child("/emitter_fields", i),
                    true);
      doc["emitter_fields"].push_back((*own)[i]);
    }
  }
  if (j.contains("global_fields")) doc["global_fields"] = j["global_fields"];
  if (j.contains("event_outputs")) doc["event_outputs"] = j["event_outputs"];
  if (j.contains("vector_fields")) doc["vector_fields"] = j["vector_fields"];
  const json emission = overlay(x.origins, x.emission, j, "emission");
  if (!emission.is_object() || !emission.empty()) doc["emission"] = emission;
  const json render = overlay(x.origins, x.render, j, "render");
  if (!render.is_object() || !render.empty()) doc["render"] = render;
  doc["init"] = {{"nodes", x.init.nodes}};
  doc["update"] = {{"nodes", x.update.nodes}};
  return ExpandedDocument{std::move(doc), std::move(x.origins)};
}

}  // namespace mote::graph
