// The cooked effect's last check: its chunks agree with each other and keep the ranges the effect
// document format allows (src/graph/document_loader.cpp reads the same settings from JSON), so a
// cooked effect can hold nothing an effect document could not have compiled to.
#include <algorithm>
#include <initializer_list>
#include <string>

#include "cook/cooked_format.hpp"

namespace mote::cook {
namespace {

Error inconsistent(std::string chunk, std::string message) {
  return make_error(ErrorCode::kFormat, std::move(message), std::move(chunk));
}

bool one_of(const std::string& value, std::initializer_list<const char*> choices) {
  return std::any_of(choices.begin(), choices.end(), [&](const char* c) { return value == c; });
}

Status check_emission(const EmissionSettings& e) {
  if (e.rate < 0.0f || e.rate > 1e9f)
    return inconsistent("EMIT", "rate " + std::to_string(e.rate) + " is outside 0..1e9");
  if (e.prewarm_seconds < 0.0f || e.prewarm_seconds > 600.0f)
    return inconsistent("EMIT", "prewarm " + std::to_string(e.prewarm_seconds) + " is outside 0..600 seconds");
  if (!(e.max_catchup_seconds >= 0.0f && e.max_catchup_seconds <= 600.0f))
    return inconsistent("CULL", "max_catchup " + std::to_string(e.max_catchup_seconds) + " is outside 0..600 seconds");
  if (e.capacity_hint < 1 || e.capacity_hint > 16777216u)
    return inconsistent("EMIT", "capacity " + std::to_string(e.capacity_hint) + " is outside 1..16777216");
  for (size_t i = 0; i < e.bursts.size(); ++i) {
    const Burst& b = e.bursts[i];
    const std::string where = "EMIT burst " + std::to_string(i);
    if (b.time < 0.0f || b.time > 1e9f || b.interval < 0.0f || b.interval > 1e9f)
      return inconsistent(where, "time and interval must be within 0..1e9 seconds");
    if (b.count > 16777216u) return inconsistent(where, "count " + std::to_string(b.count) + " is over 16777216");
    if (b.cycles > (1u << 30)) return inconsistent(where, "cycles " + std::to_string(b.cycles) + " is over 2^30");
  }
  return ok_status();
}

// The document format's ranges (docs/design/ribbons.md); the field names are checked against the
// program's layout where the renderer binds them (render/draw_records.cpp).
Status check_ribbon(const RibbonSettings& r) {
  if (!one_of(r.uv_mode, {"stretched", "tiled", "segment"}))
    return inconsistent("RIBN", "unknown uv mode '" + r.uv_mode + "'");
  if (!one_of(r.facing, {"camera", "normal"})) return inconsistent("RIBN", "unknown facing '" + r.facing + "'");
  if ((r.facing == "normal") == r.normal_field.empty())
    return inconsistent("RIBN", "a normal field is given exactly when the facing is 'normal'");
  if (r.serial_field.empty()) return inconsistent("RIBN", "the serial field is empty");
  if (!(r.uv_tile_length > 0.0f && r.uv_tile_length <= 1e6f))
    return inconsistent("RIBN", "the tile length must be within (0, 1e6] metres");
  if (r.subdivisions < 1 || r.subdivisions > 8) return inconsistent("RIBN", "subdivisions must be within 1..8");
  return ok_status();
}

// The document format's ranges (docs/design/particle_lights.md); NaN fails every comparison.
Status check_light(const LightSettings& l) {
  for (float c : l.color)
    if (!(c >= 0.0f && c <= 1e6f)) return inconsistent("LITE", "a light colour channel is outside 0..1e6");
  if (!(l.intensity >= 0.0f && l.intensity <= 1e6f)) return inconsistent("LITE", "the intensity is outside 0..1e6");
  if (!(l.radius > 0.0f && l.radius <= 1e4f)) return inconsistent("LITE", "the radius is outside (0, 1e4] metres");
  if (!(l.radius_from_size >= 0.0f && l.radius_from_size <= 1e4f))
    return inconsistent("LITE", "radius_from_size is outside 0..1e4");
  return ok_status();
}

// The render fields name particle fields the renderer reads when the layout has them (a document
// that names none keeps the defaults, which a layout may lack), so their names are not checked.
Status check_render(const RenderSettings& r) {
  if (!one_of(r.projection, {"billboard", "stretched", "vertical", "horizontal", "facing_world", "mesh", "ribbon"}))
    return inconsistent("REND", "unknown projection '" + r.projection + "'");
  if (!one_of(r.blend, {"alpha", "additive"})) return inconsistent("REND", "unknown blend '" + r.blend + "'");
  if ((r.projection == "mesh") == r.mesh.empty())
    return inconsistent("REND", "a mesh is given exactly when the projection is 'mesh'");
  if (r.flipbook_columns < 1 || r.flipbook_columns > 256 || r.flipbook_rows < 1 || r.flipbook_rows > 256)
    return inconsistent("REND", "flipbook columns and rows must be within 1..256");
  MOTE_TRY(check_ribbon(r.ribbon));
  return check_light(r.light);
}

}  // namespace

Status check_cooked_effect(const CompiledEffect& effect) {
  const Program& program = effect.program;
  if (effect.emitter_defaults.size() != program.emitter_field_words())
    return inconsistent("EDEF", std::to_string(effect.emitter_defaults.size()) + " default words for " +
                                    std::to_string(program.emitter_field_words()) + " emitter field words");
  if (effect.globals.size() != program.global_imports.size())
    return inconsistent("GLOB", std::to_string(effect.globals.size()) + " global previews for " +
                                    std::to_string(program.global_imports.size()) + " global imports");
  for (size_t i = 0; i < effect.globals.size(); ++i) {
    const GlobalPreview& g = effect.globals[i];
    const GlobalImport& import = program.global_imports[i];
    if (g.name != import.name || g.values.size() != import.width)
      return inconsistent("GLOB", "preview " + std::to_string(i) + " ('" + g.name + "', " +
                                      std::to_string(g.values.size()) + " values) does not match import '" +
                                      import.name + "' of width " + std::to_string(import.width));
  }
  MOTE_TRY(check_emission(effect.emission));
  return check_render(effect.render);
}

}  // namespace mote::cook
