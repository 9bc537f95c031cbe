// Typing a graph: node types and parameters, port references and widths, cycles, required
// inputs, duplicate stores; then the topological order of the nodes that reach a sink.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "document.hpp"
#include "mote/program.hpp"
#include "node_library.hpp"

namespace mote::graph {

struct TypedInput {
  enum class Kind : uint8_t { kAbsent, kRef, kConst, kBuiltin };
  Kind kind = Kind::kAbsent;
  uint32_t node = 0;  // kRef: source node index
  uint32_t port = 0;  // kRef: source output index
  std::array<float, 4> value{};
  uint8_t width = 1;
  isa::Builtin builtin = isa::Builtin::DT;
};

struct TypedNode {
  uint32_t index = 0;
  const DocNode* doc = nullptr;
  const NodeSpec* spec = nullptr;
  std::vector<TypedInput> inputs;   // one per spec input port
  std::vector<uint8_t> out_widths;  // one per spec output port
  uint8_t generic = 1;              // N
  // Parameters, as the node type uses them.
  uint32_t field_index = 0;   // the declared field (particle, emitter or global list)
  uint32_t field_offset = 0;  // particle: record word; emitter: block word
  uint32_t field_width = 0;
  uint32_t builtin_id = 0;
  uint32_t event_output = 0;             // send_event: the output's index
  uint32_t vector_field = 0;             // vector_field: the field's slot
  std::vector<std::vector<float>> keys;  // curve/gradient: [t, v...]
  bool smooth = false;
  uint32_t cmp = 0;
  std::array<float, 4> constant{};
};

struct TypedGraph {
  std::vector<TypedNode> nodes;  // document order
  std::vector<uint32_t> order;   // topological order of the nodes that reach a sink
};

// `where` = "/init" or "/update". Errors are kParse with a JSON pointer.
Result<TypedGraph> check_graph(const DocGraph& graph, Section section, const EffectDocument& doc,
                               const std::string& where);

}  // namespace mote::graph
