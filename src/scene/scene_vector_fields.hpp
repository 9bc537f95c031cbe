// The scene's vector fields (the `vector_fields` list of a scene file, docs/design/scene.md):
// named .mvf files (docs/design/vector_field.md) that effects' vector_field nodes sample. The
// paths resolve against the scene's folder and stay inside the asset root; the files are loaded
// (strictly, load_vector_field) by whoever renders the scene.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mote/result.hpp"
#include "scene/scene_values.hpp"

namespace mote::scene {

// The most fields one scene names (the GPU's field table holds this many: docs/design/vector_field.md).
inline constexpr uint32_t kMaxSceneVectorFields = 4;

struct SceneVectorField {
  std::string name;            // an identifier, unique among the scene's fields
  std::filesystem::path path;  // the .mvf file, resolved (inside the asset root when there is one)
};

// Strict: each item {"name", "path"}, both required; errors kParse at the member's pointer
// (/vector_fields/1/path for a path that leaves the asset root).
Status read_vector_fields(const nlohmann::json& j, const std::string& where, const detail::PathBase& paths,
                          std::vector<SceneVectorField>& out);

}  // namespace mote::scene
