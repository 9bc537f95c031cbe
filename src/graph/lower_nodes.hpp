// Lowering a typed graph into IR through the builder, node by node in topological order.
// Stores and kills are emitted after everything else, so every read of a section sees the
// record as the section began (docs/design/effects.md, "Evaluation").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builder.hpp"
#include "graph_check.hpp"

namespace mote::graph {

// Random draws of the k-th random node of a section (in document order): 4k .. 4k+3.
inline constexpr uint32_t kDrawsPerNode = 4;

Status lower_graph(const TypedGraph& graph, IrBuilder& builder, const std::string& where);

bool is_easing_node(std::string_view type);  // one of kEasingNodes (node_library.hpp)

// The stateless nodes' lowerings (lower_stateless.cpp): the node's outputs, or nullopt for a node
// of another family. `draw` is the node's first random draw (its HASH keys), `in` its inputs.
std::optional<std::vector<ValueRef>> lower_stateless_node(IrBuilder& builder, std::string_view type, uint8_t generic,
                                                          uint32_t draw, const std::vector<ValueRef>& in);

}  // namespace mote::graph
