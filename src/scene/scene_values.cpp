#include "scene/scene_values.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/asset_path.hpp"

namespace mote::scene::detail {

using nlohmann::json;
using namespace core;

Result<glm::vec3> read_vec3(const json& j, const std::string& where, NumberRange r) {
  if (!j.is_array() || j.size() != 3) return json_parse_error(where, "expected an array of 3 numbers");
  glm::vec3 v(0.0f);
  for (int k = 0; k < 3; ++k) {
    MOTE_TRY_ASSIGN(v[k], read_number(j[size_t(k)], json_child(where, size_t(k)), r));
  }
  return v;
}

// The optional member `key` as read_vec3 reads it, into `out` when present.
Status read_optional_vec3(const json& j, const std::string& where, std::string_view key, NumberRange r,
                          glm::vec3& out) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  MOTE_TRY_ASSIGN(out, read_vec3(*it, json_child(where, key), r));
  return {};
}

// A 3-vector that must not be zero, returned normalised.
Result<glm::vec3> read_direction(const json& j, const std::string& where) {
  MOTE_TRY_ASSIGN(glm::vec3 v, read_vec3(j, where, kAny));
  const float len = glm::length(v);
  if (!(len >= float(kZeroLength))) return json_parse_error(where, "the direction must not be zero");
  return v / len;
}

// "rotation": [x, y, z, w] (normalised here) or "euler_degrees": [x, y, z] (applied X first,
// then Y, then Z, about the parent's fixed axes), exclusive. Absent: identity.
Status read_rotation(const json& j, const std::string& where, glm::quat& out) {
  MOTE_TRY(exclusive(j, where, "rotation", "euler_degrees"));
  if (j.contains("rotation")) {
    const std::string w = json_child(where, "rotation");
    const json& r = j["rotation"];
    if (!r.is_array() || r.size() != 4) return json_parse_error(w, "expected a quaternion [x, y, z, w] of 4 numbers");
    float c[4];
    for (size_t k = 0; k < 4; ++k) {
      MOTE_TRY_ASSIGN(c[k], read_number(r[k], json_child(w, k), {-kMaxScale, kMaxScale}));
    }
    const double len = std::sqrt(double(c[0]) * c[0] + double(c[1]) * c[1] + double(c[2]) * c[2] + double(c[3]) * c[3]);
    if (!(len >= kZeroLength)) return json_parse_error(w, "the quaternion must not be zero");
    out.x = float(c[0] / len);
    out.y = float(c[1] / len);
    out.z = float(c[2] / len);
    out.w = float(c[3] / len);
  } else if (j.contains("euler_degrees")) {
    MOTE_TRY_ASSIGN(glm::vec3 e,
                    read_vec3(j["euler_degrees"], json_child(where, "euler_degrees"), {-kMaxDegrees, kMaxDegrees}));
    const glm::vec3 rad = glm::radians(e);
    out = glm::normalize(glm::angleAxis(rad.z, glm::vec3(0, 0, 1)) * glm::angleAxis(rad.y, glm::vec3(0, 1, 0)) *
                         glm::angleAxis(rad.x, glm::vec3(1, 0, 0)));
  }
  return {};
}

// "scale": a number (uniform) or [x, y, z], every component > 0.
Result<glm::vec3> read_scale(const json& j, const std::string& where) {
  constexpr NumberRange kScaleRange{0.0, kMaxScale, true};
  if (j.is_number()) {
    MOTE_TRY_ASSIGN(float s, read_number(j, where, kScaleRange));
    return glm::vec3(s);
  }
  if (!j.is_array())
    return json_parse_error(where, fmt::format("expected a number or an array of 3 numbers, got {}", j.type_name()));
  return read_vec3(j, where, kScaleRange);
}

Result<std::filesystem::path> read_path(const nlohmann::json& j, const std::string& where, const PathBase& base) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  if (!base.asset_root.empty())
    return core::resolve_asset_path(s, base.base_dir, base.asset_root, where, ErrorCode::kParse);
  const std::filesystem::path& base_dir = base.base_dir;
  if (s.empty()) return json_parse_error(where, "the path must not be empty");
  if (s.find('\0') != std::string::npos) return json_parse_error(where, "the path contains a NUL character");
  const std::filesystem::path p(s);
  return p.is_absolute() ? p : base_dir / p;
}

}  // namespace mote::scene::detail
