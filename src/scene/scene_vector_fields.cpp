#include "scene/scene_vector_fields.hpp"

#include <fmt/format.h>

#include "core/json_pointer.hpp"
#include "core/json_reader.hpp"

namespace mote::scene {

using namespace core;  // the strict reader (src/core/json_reader.hpp)

Status read_vector_fields(const nlohmann::json& j, const std::string& where, const detail::PathBase& paths,
                          std::vector<SceneVectorField>& out) {
  MOTE_TRY_ASSIGN(const nlohmann::json* list, read_array(j, where, kMaxSceneVectorFields));
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& item = (*list)[i];
    const std::string at = json_child(where, i);
    MOTE_TRY(check_object(item, at, {"name", "path"}));
    MOTE_TRY(require(item, at, "name"));
    MOTE_TRY(require(item, at, "path"));
    SceneVectorField f;
    const std::string name_at = json_child(at, "name");
    MOTE_TRY_ASSIGN(f.name, read_identifier(item["name"], name_at));
    for (const SceneVectorField& seen : out)
      if (seen.name == f.name)
        return json_parse_error(name_at, fmt::format("duplicate vector field name '{}'", f.name));
    MOTE_TRY_ASSIGN(f.path, detail::read_path(item["path"], json_child(at, "path"), paths));
    out.push_back(std::move(f));
  }
  return {};
}

}  // namespace mote::scene
