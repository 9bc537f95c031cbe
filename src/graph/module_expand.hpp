// The pieces of module expansion (modules.hpp) shared by its two files: module_expand.cpp
// expands one instance at a time, module_document.cpp reads the document and assembles the
// plain graph document.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules.hpp"

namespace mote::graph::expand {

using nlohmann::json;

struct Instance {
  const ModuleDef* def = nullptr;
  std::string stage;
  std::string where;                   // "/modules/initialize/2"
  std::string prefix;                  // "i2_"
  std::map<std::string, json> values;  // every parameter: the instance's or the default
  std::set<std::string> given;         // the parameters the instance names
  // Each parameter's emitter field: the definition's, renamed or made a constant ("") by the
  // instance's "expose".
  std::map<std::string, std::string> fields;
};

struct FieldDecl {
  std::string name;
  uint32_t width = 1;
  json defaults;       // emitter fields
  std::string origin;  // who declared it
};

// One section (INIT or UPDATE) being built.
struct Section {
  std::string key;  // "init" | "update"
  bool update = false;
  json nodes = json::array();
  std::map<std::string, json> current;                      // value name -> an input (ref string or constant)
  std::vector<std::pair<std::string, std::string>> stores;  // particle field -> origin of last write
  std::vector<std::pair<json, std::string>> kills;          // condition -> origin
};

struct Expander {
  OriginMap origins;
  std::vector<FieldDecl> particle_fields;
  std::vector<FieldDecl> emitter_fields;
  json emission = json::object();
  json render = json::object();
  Section init{"init", false};
  Section update{"update", true};

  bool is_particle_field(const std::string& name) const {
    for (const FieldDecl& f : particle_fields)
      if (f.name == name) return true;
    return false;
  }
  // The JSON pointer of the next node of `s`.
  std::string next_node(const Section& s) const { return fmt::format("/{}/nodes/{}", s.key, s.nodes.size()); }
};

Result<Instance> read_instance(const json& j, const std::string& stage, const std::string& where, size_t index);
Status declare_particle_field(Expander& x, const std::string& name, uint32_t width, const std::string& origin);
// "@name" / "@name?" in section `s`: the current value (null for an absent optional one).
Result<json> read_current(Expander& x, Section& s, const std::string& ref, const std::string& origin);
Status expand_graph_instance(Expander& x, Section& s, const Instance& in);
Status expand_settings_instance(Expander& x, const Instance& in);

}  // namespace mote::graph::expand
