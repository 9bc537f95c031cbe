// Lowering a typed graph into IR through the builder, node by node in topological order.
// Stores and kills are emitted after everything else, so every read of a section sees the
// record as the section began (docs/design/effects.md, "Evaluation").
#pragma once

#include <string>

#include "builder.hpp"
#include "graph_check.hpp"

namespace mote::graph {

// Random draws of the k-th random node of a section (in document order): 4k .. 4k+3.
inline constexpr uint32_t kDrawsPerNode = 4;

Status lower_graph(const TypedGraph& graph, IrBuilder& builder, const std::string& where);

}  // namespace mote::graph
