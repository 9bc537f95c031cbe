#include "scene/scene_events.hpp"

#include <fmt/format.h>

#include "core/json_pointer.hpp"
#include "core/json_reader.hpp"

namespace mote::scene {

using namespace core;  // the strict reader (src/core/json_reader.hpp)

namespace {

Result<std::string> read_emitter_name(const nlohmann::json& j, const std::string& where, const char* key,
                                      const std::set<std::string>& emitters) {
  MOTE_TRY(require(j, where, key));
  const std::string w = json_child(where, key);
  MOTE_TRY_ASSIGN(std::string name, read_string(j[key], w));
  if (!emitters.count(name)) return json_parse_error(w, fmt::format("no emitter is named '{}'", name));
  return name;
}

}  // namespace

Status read_event_bindings(const nlohmann::json& j, const std::string& where, const std::set<std::string>& emitters,
                           std::vector<EventBinding>& out) {
  MOTE_TRY_ASSIGN(const nlohmann::json* list, read_array(j, where, kMaxEventBindings));
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& item = (*list)[i];
    const std::string at = json_child(where, i);
    MOTE_TRY(check_object(item, at, {"source", "output", "target"}));
    EventBinding b;
    MOTE_TRY_ASSIGN(b.source, read_emitter_name(item, at, "source", emitters));
    MOTE_TRY_ASSIGN(b.target, read_emitter_name(item, at, "target", emitters));
    MOTE_TRY(require(item, at, "output"));
    const std::string w = json_child(at, "output");
    if (item["output"].is_number()) {
      MOTE_TRY_ASSIGN(b.output_index, read_uint(item["output"], w, 0, 3));
    } else {
      MOTE_TRY_ASSIGN(b.output, read_string(item["output"], w));
      if (b.output.empty()) return json_parse_error(w, "an output name or an index below 4");
    }
    for (size_t k = 0; k < out.size(); ++k)
      if (out[k].source == b.source && out[k].target == b.target && out[k].output == b.output &&
          out[k].output_index == b.output_index)
        return json_parse_error(at, fmt::format("the same binding as {}", json_child(where, k)));
    out.push_back(std::move(b));
  }
  return {};
}

}  // namespace mote::scene
