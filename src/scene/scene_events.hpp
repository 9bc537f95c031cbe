// The scene's event bindings (the `events` list of a scene file, docs/design/scene.md): which
// emitter's event output spawns children in which emitter (docs/design/events.md). Names are
// checked here against the scene's emitters; output names against the source's effect when the
// scene renderer loads it.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mote/result.hpp"

namespace mote::scene {

inline constexpr uint32_t kMaxEventBindings = 256;

struct EventBinding {
  std::string source;  // an emitter's name
  std::string output;  // the output's name in the source's effect, or "" with output_index
  uint32_t output_index = 0;
  std::string target;  // an emitter's name
};

// Strict: each item {"source", "output" (a name, or an index below 4 for cooked effects),
// "target"}, names of emitters the scene declares, no binding twice; errors kParse at the
// member's pointer (/events/2/target).
Status read_event_bindings(const nlohmann::json& j, const std::string& where, const std::set<std::string>& emitters,
                           std::vector<EventBinding>& out);

}  // namespace mote::scene
