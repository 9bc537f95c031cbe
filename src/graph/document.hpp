// An effect document as loaded (docs/design/effects.md): the strict JSON reader's output,
// before node types are checked. Node parameters stay JSON; graph_check.cpp reads them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_pointer.hpp"  // json_pointer_token, is_identifier (used across src/graph/)
#include "mote/effect.hpp"
#include "mote/result.hpp"

namespace mote::graph {

struct DocField {
  std::string name;
  uint32_t width = 1;
  std::vector<float> values;  // emitter default / global preview; empty for particle fields
};

// What feeds an input port: another node's output, or a constant.
struct DocInput {
  bool is_ref = false;
  std::string node;           // is_ref: the source node id
  std::string port;           // is_ref: its output port ("" = the node's only output)
  std::vector<float> values;  // !is_ref: 1..4 numbers
};

struct DocNode {
  std::string id;
  std::string type;
  nlohmann::json params = nlohmann::json::object();
  std::map<std::string, DocInput> inputs;  // sorted by port name: no order leaks from the text
  bool has_inputs_key = false;
};

struct DocGraph {
  std::vector<DocNode> nodes;
};

struct EffectDocument {
  std::string name;
  std::vector<DocField> particle_fields;
  std::vector<DocField> emitter_fields;
  std::vector<DocField> global_fields;
  EmissionSettings emission;
  RenderSettings render;
  std::vector<std::string> event_outputs;  // EMIT_EVENT's outputs by index
  std::vector<std::string> vector_fields;  // SAMPLE_FIELD's slots by index
  DocGraph init;
  DocGraph update;
  // "stateless": true (docs/design/effects.md, "Stateless effects"): the document has one graph,
  // "eval", which compiles to the EVAL section; "init" and "update" are absent.
  bool stateless = false;
  DocGraph eval;
};

// Strict reading; errors are kParse with a JSON pointer in `where`.
Result<EffectDocument> load_effect_document(std::string_view json_text);
// The same over JSON already parsed strictly (core::parse_json), e.g. an expanded module document.
Result<EffectDocument> load_effect_document(const nlohmann::json& j);

}  // namespace mote::graph
