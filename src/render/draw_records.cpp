#include "render/draw_records.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mote::render {

namespace {

struct FieldSlot {
  uint32_t word = shader::kDrawUnbound;
  uint32_t width = 0;
};

// The record word of `name` when the program declares it with an allowed width. `explicit_name`
// says the effect named the field itself (an unbound default is not an error).
Result<FieldSlot> find_field(const CompiledEffect& effect, const std::string& channel, const std::string& name,
                             bool explicit_name, std::initializer_list<uint32_t> widths) {
  FieldSlot slot;
  if (name.empty()) return slot;
  const std::string where = fmt::format("{}#/render/fields/{}", effect.name, channel);
  for (const FieldDecl& f : effect.program.particle_fields) {
    if (f.name != name) continue;
    for (uint32_t w : widths)
      if (f.width == w) {
        slot.word = *effect.program.particle_field_offset(name);
        slot.width = w;
        return slot;
      }
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("render channel '{}' reads field '{}' of width {}, which it cannot use", channel,
                                  name, f.width),
                      where);
  }
  if (explicit_name)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("render channel '{}' names field '{}', which the effect does not declare", channel,
                                  name),
                      where);
  return slot;
}

}  // namespace

Result<shader::RibbonRecord> make_ribbon_record(const CompiledEffect& effect) {
  shader::RibbonRecord rec{};
  const RenderSettings& r = effect.render;
  if (r.projection != "ribbon") return rec;
  const RibbonSettings& ribbon = r.ribbon;
  const auto word = [&](const char* key, const std::string& name, uint32_t width) -> Result<uint32_t> {
    for (const FieldDecl& f : effect.program.particle_fields)
      if (f.name == name && f.width == width) return *effect.program.particle_field_offset(name);
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the ribbon's {} '{}' is not a particle field of width {}", key, name, width),
                      fmt::format("{}#/render/ribbon/{}", effect.name, key));
  };
  rec.flags = shader::kRibbonFlagLive;
  MOTE_TRY_ASSIGN(rec.serial_word, word("serial_field", ribbon.serial_field, 1));
  if (!ribbon.id_field.empty()) {
    MOTE_TRY_ASSIGN(rec.id_word, word("id_field", ribbon.id_field, 1));
    rec.flags |= shader::kRibbonFlagIdField;
  }
  if (ribbon.facing == "normal") {
    MOTE_TRY_ASSIGN(rec.normal_word, word("normal_field", ribbon.normal_field, 3));
    rec.flags |= shader::kRibbonFlagFacingNormal;
  }
  rec.uv_mode = ribbon.uv_mode == "tiled"     ? shader::kRibbonUvTiled
                : ribbon.uv_mode == "segment" ? shader::kRibbonUvSegment
                                              : shader::kRibbonUvStretched;
  rec.subdivisions = std::clamp(ribbon.subdivisions, 1u, shader::kRibbonMaxSubdivisions);
  rec.tile_length = ribbon.uv_tile_length;
  return rec;
}

Result<shader::ParticleLightRecord> make_light_record(const CompiledEffect& effect) {
  shader::ParticleLightRecord rec{};
  const LightSettings& l = effect.render.light;
  if (!l.enabled) return rec;
  const auto refuse = [&](const char* key, const char* message) {
    return make_error(ErrorCode::kInvalidArgument, message, fmt::format("{}#/render/light/{}", effect.name, key));
  };
  for (float c : l.color)
    if (!(c >= 0.0f && c <= 1e6f)) return refuse("color", "a light colour channel must be within 0..1e6");
  if (!(l.intensity >= 0.0f && l.intensity <= 1e6f)) return refuse("intensity", "the intensity must be within 0..1e6");
  if (!(l.radius > 0.0f && l.radius <= 1e4f)) return refuse("radius", "the radius must be within (0, 1e4] metres");
  if (!(l.radius_from_size >= 0.0f && l.radius_from_size <= 1e4f))
    return refuse("radius_from_size", "radius_from_size must be within 0..1e4");
  rec.color_intensity = glm::vec4(l.color[0], l.color[1], l.color[2], l.intensity);
  rec.radius = l.radius;
  rec.radius_from_size = l.radius_from_size;
  rec.flags = shader::kParticleLightFlagLive | (l.use_particle_color ? shader::kParticleLightFlagParticleColor : 0u) |
              (l.radius_from_size > 0.0f ? shader::kParticleLightFlagRadiusFromSize : 0u);
  return rec;
}

Result<uint32_t> projection_mode(const std::string& name) {
  if (name == "billboard") return shader::kProjectionBillboard;
  if (name == "stretched") return shader::kProjectionStretched;
  if (name == "vertical") return shader::kProjectionVertical;
  if (name == "horizontal") return shader::kProjectionHorizontal;
  if (name == "facing_world") return shader::kProjectionFacingWorld;
  if (name == "mesh") return shader::kProjectionMesh;
  if (name == "ribbon") return shader::kProjectionRibbon;
  return make_error(ErrorCode::kInvalidArgument, "unknown projection '" + name + "'", "/render/projection");
}

Result<shader::ParticleDrawRecord> make_draw_record(const CompiledEffect& effect, const assets::AtlasEntry& texture,
                                                    uint32_t generation) {
  const RenderSettings& r = effect.render;
  const RenderSettings defaults;
  shader::ParticleDrawRecord rec{};
  MOTE_TRY_ASSIGN(FieldSlot position,
                  find_field(effect, "position", r.position_field, r.position_field != defaults.position_field, {3}));
  MOTE_TRY_ASSIGN(FieldSlot size, find_field(effect, "size", r.size_field, r.size_field != defaults.size_field, {1}));
  MOTE_TRY_ASSIGN(FieldSlot color,
                  find_field(effect, "color", r.color_field, r.color_field != defaults.color_field, {4}));
  MOTE_TRY_ASSIGN(FieldSlot velocity,
                  find_field(effect, "velocity", r.velocity_field, r.velocity_field != defaults.velocity_field, {3}));
  MOTE_TRY_ASSIGN(FieldSlot rotation, find_field(effect, "rotation", r.rotation_field,
                                                 r.rotation_field != defaults.rotation_field, {1, 4}));
  MOTE_TRY_ASSIGN(FieldSlot frame, find_field(effect, "frame", r.frame_field, !r.frame_field.empty(), {1}));
  // Conventional names the render settings have no channel for (uv_rect, the particle's own UV
  // rect; age and lifetime drive a flipbook that has no frame field; docs/design/render.md).
  MOTE_TRY_ASSIGN(FieldSlot uv_rect, find_field(effect, "uv_rect", "uv_rect", false, {4}));
  MOTE_TRY_ASSIGN(FieldSlot age, find_field(effect, "age", "age", false, {1}));
  MOTE_TRY_ASSIGN(FieldSlot lifetime, find_field(effect, "lifetime", "lifetime", false, {1}));
  if (position.word == shader::kDrawUnbound)
    return make_error(ErrorCode::kInvalidArgument, "the effect has no position field to draw at",
                      effect.name + "#/render/fields/position");
  if (r.flipbook_columns == 0 || r.flipbook_rows == 0 || r.flipbook_columns > 64 || r.flipbook_rows > 64)
    return make_error(ErrorCode::kInvalidArgument, "flipbook grids are 1 .. 64 cells per side",
                      effect.name + "#/render/flipbook");
  MOTE_TRY_ASSIGN(uint32_t mode, projection_mode(r.projection));

  rec.position_word = position.word;
  rec.size_word = size.word;
  rec.color_word = color.word;
  rec.velocity_word = velocity.word;
  rec.rotation_word = rotation.word;
  rec.rotation_width = rotation.width;
  rec.uv_rect_word = uv_rect.word;
  rec.frame_word = frame.word;
  rec.age_word = age.word;
  rec.lifetime_word = lifetime.word;
  rec.flags = mode | shader::kDrawFlagLive;
  if (r.blend == "additive") rec.flags |= shader::kDrawFlagAdditive;
  if (r.soft) rec.flags |= shader::kDrawFlagSoft;
  if (r.lit) rec.flags |= shader::kDrawFlagLit;
  if (r.flipbook_blend) rec.flags |= shader::kDrawFlagFlipbookBlend;
  rec.generation = generation;
  rec.flipbook_columns = r.flipbook_columns;
  rec.flipbook_rows = r.flipbook_rows;
  rec.soft_distance = 0.5f;
  rec.size_scale = 1.0f;
  rec.atlas_rect = texture.rect;
  rec.tint = {1.0f, 1.0f, 1.0f, 1.0f};
  return rec;
}

}  // namespace mote::render
