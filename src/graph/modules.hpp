// Effect modules (docs/design/modules.md): parameterised fragments of node graph, defined as data
// in src/graph/modules/*.json (embedded at build time), that a document stacks in stages
// (spawn, initialize, update, render). Expansion turns a module document into the plain graph
// document the loader reads, and keeps a map from every place of the expansion back to the
// module (or raw node) it came from, so errors point into the author's own text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mote/result.hpp"

namespace mote::graph {

enum class ParamType : uint8_t { kNumber, kVec2, kVec3, kVec4, kUint, kBool, kString, kKeys };

struct ModuleParam {
  std::string name;
  ParamType type = ParamType::kNumber;
  nlohmann::json default_value;
  std::string field;  // the emitter field it is exposed as (scenes override it); "" = a constant
  std::string doc;
};

struct ModuleDef {
  std::string name;
  std::string stage;  // spawn | initialize | update | render
  std::string doc;
  std::vector<ModuleParam> params;
  std::vector<std::pair<std::string, uint32_t>> particle_fields;
  nlohmann::json nodes = nlohmann::json::array();    // node templates (local ids, "$param", "@value")
  nlohmann::json writes = nlohmann::json::object();  // value name -> what it becomes
  nlohmann::json adds = nlohmann::json::object();    // value name -> what is added to it
  nlohmann::json ors = nlohmann::json::object();     // value name -> what is or-ed into it (hit flags)
  nlohmann::json kills = nlohmann::json::array();    // local refs: kill the particle when true
  nlohmann::json emission = nlohmann::json::object();
  nlohmann::json bursts = nlohmann::json::array();
  nlohmann::json render = nlohmann::json::object();

  const ModuleParam* find_param(std::string_view param) const;
};

// The library, read once from the embedded definitions and checked (a malformed definition is
// a kInternal error: the library ships with Mote).
Result<const std::vector<ModuleDef>*> module_library();
// nullptr for an unknown name (or a library that failed to load).
const ModuleDef* find_module(std::string_view name);

// Where each part of an expanded document came from. An expanded location maps to its origin;
// with keep_rest the rest of the pointer is kept (a raw node's "/inputs/a" is the same in both).
struct OriginMap {
  struct Entry {
    std::string expanded;
    std::string original;
    bool keep_rest = false;
  };
  std::vector<Entry> entries;
  void add(std::string expanded, std::string original, bool keep_rest = false);
  // The origin of `where` (the longest entry that is it or a prefix of it at a '/'); `where`
  // itself when none is.
  std::string translate(const std::string& where) const;
};

struct ExpandedDocument {
  nlohmann::json document;
  OriginMap origins;
};

// A document with a "modules" key is a module document.
bool is_module_document(const nlohmann::json& j);
// The plain graph document a module document stands for. Errors in the module document itself
// (unknown module, parameter or stage, a value of the wrong type, a value read before any
// module sets it, conflicting field declarations) are kParse at the author's pointer.
Result<ExpandedDocument> expand_module_document(const nlohmann::json& j);

}  // namespace mote::graph
