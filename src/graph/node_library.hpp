// The node types an effect graph may use: their input and output ports, widths, defaults and
// parameters (docs/design/nodes.md documents each). Lowering lives in lower_nodes.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "mote/isa.hpp"

namespace mote::graph {

inline constexpr uint8_t kGeneric = 0;     // width N: the widest value on the node's generic ports
inline constexpr uint8_t kFromParams = 5;  // width set by a parameter (field, curve keys, builtin)

struct PortSpec {
  enum class Default : uint8_t { kRequired, kValue, kBuiltin, kOptional };
  std::string_view name;
  uint8_t width = 1;  // 1..4 or kGeneric
  Default def = Default::kRequired;
  std::array<float, 4> value{};
  uint8_t value_width = 1;
  isa::Builtin builtin = isa::Builtin::DT;
};

struct OutSpec {
  std::string_view name;
  uint8_t width = 1;  // 1..4, kGeneric or kFromParams
};

enum class ParamKind : uint8_t {
  kParticleField,  // string: a declared particle field
  kEmitterField,   // string: a declared emitter field
  kGlobalField,    // string: a declared global field
  kBuiltinName,    // string: dt, time, emitter_position, ... (builtins.inc, lower case)
  kCurveKeys,      // [[t, v...], ...], t strictly increasing, 1..4 values each
  kInterpolation,  // "linear" | "smooth"
  kCompare,        // "lt" | "le" | "eq" | "ne" | "ge" | "gt"
  kNumber,         // one finite number
  kVector,         // an array of numbers (width checked by the node)
  kEventOutput,    // string: a declared event output (the document's "event_outputs")
  kVectorField,    // string: a declared vector field (the document's "vector_fields")
};

struct ParamSpec {
  std::string_view name;
  ParamKind kind;
  bool required = true;
};

inline constexpr uint8_t kInit = 1;
inline constexpr uint8_t kUpdate = 2;
// EVAL takes every node UPDATE takes but the ones that need state, which graph_check.cpp refuses
// there by name (docs/design/effects.md, "Stateless effects"); a node only EVAL has says kEval.
inline constexpr uint8_t kEval = 4;

struct NodeSpec {
  std::string_view type;
  uint8_t sections = kInit | kUpdate;
  std::vector<PortSpec> inputs;
  std::vector<OutSpec> outputs;
  std::vector<ParamSpec> params;
  bool sink = false;    // set_field, kill_if
  bool random = false;  // draws random numbers (4k..4k+3 for the k-th random node)
  // A math node that is one instruction of this opcode, its inputs the row's value sources in
  // order (the ISA table's node column, include/mote/isa/isa_table.inc); nullptr otherwise.
  const isa::OpInfo* op = nullptr;
};

// The easing nodes: one node type per curve (docs/design/nodes.md, "Stateless nodes").
inline constexpr std::array<std::string_view, 9> kEasingNodes = {"ease_in_quad",  "ease_out_quad",  "ease_in_out_quad",
                                                                 "ease_in_cubic", "ease_out_cubic", "ease_in_out_cubic",
                                                                 "ease_in_sine",  "ease_out_sine",  "ease_in_out_sine"};

// nullptr for an unknown type.
const NodeSpec* find_node_spec(std::string_view type);
std::span<const NodeSpec> all_node_specs();

}  // namespace mote::graph
