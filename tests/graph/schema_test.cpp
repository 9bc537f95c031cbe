// docs/effect.schema.json names every node type of the node library with its input ports and
// parameters, and every module of the module library with its documented parameters (what an
// editor checks a document against as it is typed), and the loaders accept the "$schema" key
// that points editors at it. The node and module definitions are generated from the libraries
// here; when they drift, the test fails and writes the schema they should be to
// <build>/tests/graph/effect.schema.json — review it and copy it over docs/effect.schema.json.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "modules.hpp"
#include "mote/effect.hpp"
#include "node_library.hpp"

namespace mote::graph {
namespace {

using nlohmann::ordered_json;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

ordered_json param_schema(ParamKind kind) {
  switch (kind) {
    case ParamKind::kParticleField:
    case ParamKind::kEmitterField:
    case ParamKind::kGlobalField:
    case ParamKind::kEventOutput: return {{"$ref", "#/$defs/identifier"}};
    case ParamKind::kVectorField: return {{"$ref", "#/$defs/identifier"}};
    case ParamKind::kBuiltinName: {
      ordered_json names = ordered_json::array();
      for (const isa::BuiltinInfo& b : isa::all_builtins()) names.push_back(lower(b.name));
      return {{"enum", names}};
    }
    case ParamKind::kCurveKeys:
      return {{"type", "array"},
              {"minItems", 1},
              {"items", {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 2}, {"maxItems", 5}}}};
    case ParamKind::kInterpolation: return {{"enum", {"linear", "smooth"}}};
    case ParamKind::kCompare: return {{"enum", {"lt", "le", "eq", "ne", "ge", "gt"}}};
    case ParamKind::kNumber: return {{"type", "number"}};
    case ParamKind::kVector:
      return {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 1}, {"maxItems", 4}};
  }
  return {};
}

// One node type: its `type`, its inputs (required ones required) and its parameters.
ordered_json node_schema(const NodeSpec& spec) {
  ordered_json inputs = {{"type", "object"}, {"additionalProperties", false}, {"properties", ordered_json::object()}};
  ordered_json required_inputs = ordered_json::array();
  for (const PortSpec& port : spec.inputs) {
    inputs["properties"][std::string(port.name)] = {{"$ref", "#/$defs/source"}};
    if (port.def == PortSpec::Default::kRequired) required_inputs.push_back(std::string(port.name));
  }
  if (!required_inputs.empty()) inputs["required"] = required_inputs;
  ordered_json params = {{"type", "object"}, {"additionalProperties", false}, {"properties", ordered_json::object()}};
  ordered_json required_params = ordered_json::array();
  for (const ParamSpec& param : spec.params) {
    params["properties"][std::string(param.name)] = param_schema(param.kind);
    if (param.required) required_params.push_back(std::string(param.name));
  }
  if (!required_params.empty()) params["required"] = required_params;
  ordered_json required = {"id", "type"};
  if (!required_inputs.empty()) required.push_back("inputs");
  if (!required_params.empty()) required.push_back("params");
  return {{"type", "object"},
          {"additionalProperties", false},
          {"required", required},
          {"properties",
           {{"id", {{"$ref", "#/$defs/identifier"}}},
            {"type", {{"const", std::string(spec.type)}}},
            {"inputs", inputs},
            {"params", params}}}};
}

// `$defs/node`: the type must be one of the library's, and each type's own shape applies.
void put_nodes(ordered_json& schema) {
  ordered_json types = ordered_json::array();
  ordered_json cases = ordered_json::array();
  ordered_json& defs = schema["$defs"];
  for (auto it = defs.begin(); it != defs.end();) it = it.key().rfind("node_", 0) == 0 ? defs.erase(it) : std::next(it);
  for (const NodeSpec& spec : all_node_specs()) {
    const std::string name(spec.type);
    types.push_back(name);
    defs["node_" + name] = node_schema(spec);
    cases.push_back({{"if", {{"properties", {{"type", {{"const", name}}}}}}},
                     {"then", {{"$ref", "#/$defs/node_" + name}}}});
  }
  defs["node"] = {{"type", "object"},
                  {"required", {"id", "type"}},
                  {"properties", {{"type", {{"enum", types}}}}},
                  {"allOf", cases}};
}

ordered_json module_param_schema(const ModuleParam& p) {
  ordered_json out;
  switch (p.type) {
    case ParamType::kNumber: out = {{"type", "number"}}; break;
    case ParamType::kVec2:
    case ParamType::kVec3:
    case ParamType::kVec4: {
      const int n = p.type == ParamType::kVec2 ? 2 : p.type == ParamType::kVec3 ? 3 : 4;
      out = {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", n}, {"maxItems", n}};
      break;
    }
    case ParamType::kUint: out = {{"type", "integer"}, {"minimum", 0}}; break;
    case ParamType::kBool: out = {{"type", "boolean"}}; break;
    case ParamType::kString: out = {{"type", "string"}}; break;
    case ParamType::kKeys: out = param_schema(ParamKind::kCurveKeys); break;
  }
  out["description"] = p.doc;
  out["default"] = p.default_value;
  return out;
}

// `$defs/module_<stage>`: a module of that stage, each module's own parameters (with their
// documentation, which an editor shows as the author types).
void put_modules(ordered_json& schema) {
  ordered_json& defs = schema["$defs"];
  for (auto it = defs.begin(); it != defs.end();)
    it = it.key().rfind("module_", 0) == 0 ? defs.erase(it) : std::next(it);
  auto lib = module_library();
  ASSERT_TRUE(lib.ok()) << lib.error().to_string();
  for (const char* stage : {"spawn", "initialize", "update", "render"}) {
    ordered_json names = ordered_json::array();
    ordered_json cases = ordered_json::array();
    for (const ModuleDef& m : **lib) {
      if (m.stage != stage) continue;
      names.push_back(m.name);
      ordered_json props = {{"module", {{"const", m.name}}}};
      ordered_json exposed = ordered_json::object();
      for (const ModuleParam& p : m.params) {
        props[p.name] = module_param_schema(p);
        if (!p.field.empty())
          exposed[p.name] = {{"description", "emitter field '" + p.field + "'"},
                             {"anyOf", {{{"const", false}}, {{"$ref", "#/$defs/identifier"}}}}};
      }
      if (!exposed.empty())
        props["expose"] = {
            {"description", "false: every parameter a constant, no emitter field; an object renames a parameter's "
                            "emitter field or keeps that one a constant (false)"},
            {"anyOf",
             {{{"type", "boolean"}}, {{"type", "object"}, {"additionalProperties", false}, {"properties", exposed}}}}};
      defs["module_" + m.name] = {{"description", m.doc},
                                  {"type", "object"},
                                  {"additionalProperties", false},
                                  {"required", {"module"}},
                                  {"properties", props}};
      cases.push_back({{"if", {{"properties", {{"module", {{"const", m.name}}}}}}},
                       {"then", {{"$ref", "#/$defs/module_" + m.name}}}});
    }
    defs[std::string("module_") + stage] = {{"type", "object"},
                                            {"required", {"module"}},
                                            {"properties", {{"module", {{"enum", names}}}}},
                                            {"allOf", cases}};
  }
}

// Objects and arrays indented down to `depth` levels, each deeper value on one line: the schema
// stays readable, one node type a line.
void pretty(const ordered_json& j, int depth, int indent, std::string& out) {
  if (depth == 0 || !j.is_structured() || j.empty()) {
    out += j.dump();
    return;
  }
  const std::string pad(size_t(indent + 2), ' ');
  const bool object = j.is_object();
  out += object ? "{\n" : "[\n";
  size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    out += pad;
    if (object) out += ordered_json(it.key()).dump() + ": ";
    pretty(*it, depth - 1, indent + 2, out);
    out += i + 1 < j.size() ? ",\n" : "\n";
  }
  out += std::string(size_t(indent), ' ') + (object ? "}" : "]");
}

ordered_json read_schema() {
  std::ifstream file(std::string(MOTE_SOURCE_DIR) + "/docs/effect.schema.json");
  std::stringstream text;
  text << file.rdbuf();
  return ordered_json::parse(text.str(), nullptr, false);
}

TEST(EffectSchema, NamesEveryNodeTypeAndModuleWithItsPortsAndParameters) {
  const ordered_json schema = read_schema();
  ASSERT_FALSE(schema.is_discarded()) << "docs/effect.schema.json is not JSON";
  ordered_json expected = schema;
  put_nodes(expected);
  put_modules(expected);
  if (schema != expected) {
    const std::string out = std::string(MOTE_BINARY_DIR) + "/effect.schema.json";
    std::string text;
    pretty(expected, 2, 0, text);
    std::ofstream(out) << text << "\n";
    FAIL() << "docs/effect.schema.json's node or module definitions differ from the libraries; the schema they "
              "should be is in "
           << out;
  }
  EXPECT_EQ(schema["$defs"]["node"]["allOf"].size(), all_node_specs().size());
  EXPECT_TRUE(schema["properties"].contains("$schema")) << "the schema does not allow its own key";
}

TEST(EffectSchema, DocumentsMayNameTheirSchema) {
  const std::string body = R"("name": "s", "particle_fields": [{"name": "p", "width": 3}],
    "init": {"nodes": [{"id": "a", "type": "set_field", "params": {"field": "p"}, "inputs": {"value": [0, 1, 0]}}]},
    "update": {"nodes": []}})";
  Result<CompiledEffect> named = compile_effect(R"({"$schema": "../docs/effect.schema.json", )" + body);
  EXPECT_TRUE(named.ok()) << named.error().to_string();
  Result<CompiledEffect> wrong = compile_effect(R"({"$schema": 3, )" + body);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().where, "/$schema");
}

}  // namespace
}  // namespace mote::graph
