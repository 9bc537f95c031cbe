// The scene's vector fields handed to its particle system (docs/design/vector_field.md, "Scene
// files"): each file of the scene's `vector_fields` loaded strictly, and each effect's
// "vector_fields" names resolved to them by slot. A file that fails to load, an effect naming a
// field the scene does not list, and two effects naming different fields in one slot are the
// scene's errors, each with its JSON pointer.
#include <fmt/format.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/file.hpp"
#include "mote/vector_field.hpp"
#include "render/scene_renderer.hpp"

namespace mote::render {

Status SceneRenderer::bind_vector_fields() {
  std::vector<VectorField> fields;
  for (size_t i = 0; i < scene_.vector_fields.size(); ++i) {
    const scene::SceneVectorField& f = scene_.vector_fields[i];
    const std::string where = fmt::format("/vector_fields/{}/path", i);
    auto bytes = read_file_bytes(f.path.string(), size_t(kVectorFieldHeaderBytes) + size_t(kMaxVectorFieldPoints) * 12);
    if (!bytes.ok())
      return make_error(bytes.error().code,
                        fmt::format("cannot read vector field '{}': {}", f.path.string(), bytes.error().message),
                        where);
    auto loaded = load_vector_field(*bytes);
    if (!loaded.ok())
      return make_error(loaded.error().code,
                        fmt::format("vector field '{}' at {}: {}", f.path.string(), loaded.error().where,
                                    loaded.error().message),
                        where);
    fields.push_back(std::move(loaded).value());
  }
  // Slot s holds the field the effects name at index s; every effect naming one must agree.
  std::array<std::optional<size_t>, kMaxVectorFieldSlots> slot_field;
  for (size_t e = 0; e < emitters_.size(); ++e) {
    const CompiledEffect& effect = effects_[emitters_[e].effect].effect;
    const std::string where = fmt::format("/emitters/{}/effect", e);
    for (size_t s = 0; s < effect.vector_fields.size() && s < slot_field.size(); ++s) {
      const std::string& name = effect.vector_fields[s];
      std::optional<size_t> found;
      for (size_t i = 0; i < scene_.vector_fields.size(); ++i)
        if (scene_.vector_fields[i].name == name) found = i;
      if (!found)
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("effect '{}' samples the vector field '{}', which the scene's vector_fields "
                                      "does not name",
                                      effect.name, name),
                          where);
      if (slot_field[s] && *slot_field[s] != *found)
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("effect '{}' names '{}' as its vector field {}, another effect of the scene "
                                      "names '{}' there (effects sharing a system must agree on their slots)",
                                      effect.name, name, s, scene_.vector_fields[*slot_field[s]].name),
                          where);
      slot_field[s] = found;
    }
  }
  for (uint32_t s = 0; s < slot_field.size(); ++s)
    if (slot_field[s]) MOTE_TRY(particles_->set_vector_field(s, fields[*slot_field[s]]));
  return ok_status();
}

}  // namespace mote::render
