// The strict scene-file reader (docs/design/scene.md, docs/scene.schema.json): every key known,
// every number finite and in range, every name an identifier and unique, every reference
// resolved. The first problem stops loading with ErrorCode::kParse and a JSON pointer to it, the
// same contract as the effect-document loader (src/graph/document_loader.cpp).
#include <cmath>
#include <functional>
#include <initializer_list>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/file.hpp"
#include "core/json_pointer.hpp"
#include "scene/scene.hpp"

namespace mote::scene {

std::optional<uint32_t> Scene::find_transform(std::string_view transform_name) const {
  for (size_t i = 0; i < transforms.size(); ++i)
    if (transforms[i].name == transform_name) return uint32_t(i);
  return std::nullopt;
}

namespace {

using nlohmann::json;

// Bounds the header leaves open. They keep every value a finite float with room to compute
// with, and reject what can only be a typo (a camera 10,000 km away).
constexpr double kMaxCoordinate = 1e6;    // metres, for positions, centres and offsets
constexpr double kMaxRadiance = 1e6;      // colour components other than the albedo
constexpr double kMaxIntensity = 1e9;     // light and ambient intensities
constexpr double kMaxScale = 1e6;         // scale components
constexpr double kMaxSeconds = 1e6;       // key times, start times
constexpr double kMaxDegrees = 1e6;       // angles and angular rates in degrees
constexpr double kZeroLength = 1e-6;      // a direction, axis or quaternion shorter than this is zero

struct Range {
  double lo;
  double hi;
  bool lo_open = false;  // lo itself is outside
  bool hi_open = false;  // hi itself is outside
};

constexpr Range kAny{-kMaxCoordinate, kMaxCoordinate};
constexpr Range kNonNegative{0.0, kMaxCoordinate};
constexpr Range kPositive{0.0, kMaxCoordinate, true};
constexpr Range kUnit{0.0, 1.0};
constexpr Range kRadiance{0.0, kMaxRadiance};
constexpr Range kIntensity{0.0, kMaxIntensity};


Status check_object(const json& j, const std::string& where, std::initializer_list<std::string_view> allowed) {
  if (!j.is_object()) return json_parse_error(where, fmt::format("expected an object, got {}", j.type_name()));
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (auto a : allowed) known = known || it.key() == a;
    if (!known) return json_parse_error(json_child(where, it.key()), fmt::format("unknown key '{}'", it.key()));
  }
  return {};
}

Status require(const json& j, const std::string& where, std::string_view key) {
  if (!j.contains(key)) return json_parse_error(where, fmt::format("missing required key '{}'", key));
  return {};
}

// "a and b are exclusive", reported at b.
Status exclusive(const json& j, const std::string& where, std::string_view a, std::string_view b) {
  if (j.contains(a) && j.contains(b)) return json_parse_error(json_child(where, b), fmt::format("'{}' and '{}' are exclusive", a, b));
  return {};
}

Result<float> read_number(const json& j, const std::string& where, Range r) {
  if (!j.is_number()) return json_parse_error(where, fmt::format("expected a number, got {}", j.type_name()));
  const double v = j.get<double>();
  if (!std::isfinite(v)) return json_parse_error(where, "number is not finite");
  const bool below = r.lo_open ? v <= r.lo : v < r.lo;
  const bool above = r.hi_open ? v >= r.hi : v > r.hi;
  if (below || above)
    return json_parse_error(where, fmt::format("{} is outside {}{}, {}{}", v, r.lo_open ? '(' : '[', r.lo, r.hi, r.hi_open ? ')' : ']'));
  return float(v);
}

Result<uint32_t> read_uint(const json& j, const std::string& where, uint64_t lo, uint64_t hi) {
  if (!j.is_number_integer()) return json_parse_error(where, fmt::format("expected an integer, got {}", j.type_name()));
  if (j.is_number_unsigned() || j.get<int64_t>() >= 0) {
    const uint64_t v = j.get<uint64_t>();
    if (v >= lo && v <= hi) return uint32_t(v);
  }
  return json_parse_error(where, fmt::format("integer is outside [{}, {}]", lo, hi));
}

Result<std::string> read_string(const json& j, const std::string& where) {
  if (!j.is_string()) return json_parse_error(where, fmt::format("expected a string, got {}", j.type_name()));
  return j.get<std::string>();
}

Result<bool> read_bool(const json& j, const std::string& where) {
  if (!j.is_boolean()) return json_parse_error(where, fmt::format("expected true or false, got {}", j.type_name()));
  return j.get<bool>();
}

Result<std::string> read_choice(const json& j, const std::string& where, std::initializer_list<std::string_view> choices) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  std::string list;
  for (auto c : choices) {
    if (s == c) return s;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  return json_parse_error(where, fmt::format("'{}' is not one of {}", s, list));
}

Result<glm::vec3> read_vec3(const json& j, const std::string& where, Range r) {
  if (!j.is_array() || j.size() != 3) return json_parse_error(where, "expected an array of 3 numbers");
  glm::vec3 v(0.0f);
  for (int k = 0; k < 3; ++k) { MOTE_TRY_ASSIGN(v[k], read_number(j[size_t(k)], json_child(where, size_t(k)), r)); }
  return v;
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
    for (size_t k = 0; k < 4; ++k) { MOTE_TRY_ASSIGN(c[k], read_number(r[k], json_child(w, k), {-kMaxScale, kMaxScale})); }
    const double len = std::sqrt(double(c[0]) * c[0] + double(c[1]) * c[1] + double(c[2]) * c[2] + double(c[3]) * c[3]);
    if (!(len >= kZeroLength)) return json_parse_error(w, "the quaternion must not be zero");
    out.x = float(c[0] / len);
    out.y = float(c[1] / len);
    out.z = float(c[2] / len);
    out.w = float(c[3] / len);
  } else if (j.contains("euler_degrees")) {
    MOTE_TRY_ASSIGN(glm::vec3 e, read_vec3(j["euler_degrees"], json_child(where, "euler_degrees"), {-kMaxDegrees, kMaxDegrees}));
    const glm::vec3 rad = glm::radians(e);
    out = glm::normalize(glm::angleAxis(rad.z, glm::vec3(0, 0, 1)) * glm::angleAxis(rad.y, glm::vec3(0, 1, 0)) *
                         glm::angleAxis(rad.x, glm::vec3(1, 0, 0)));
  }
  return {};
}

// "scale": a number (uniform) or [x, y, z], every component > 0.
Result<glm::vec3> read_scale(const json& j, const std::string& where) {
  constexpr Range kScaleRange{0.0, kMaxScale, true};
  if (j.is_number()) {
    MOTE_TRY_ASSIGN(float s, read_number(j, where, kScaleRange));
    return glm::vec3(s);
  }
  if (!j.is_array()) return json_parse_error(where, fmt::format("expected a number or an array of 3 numbers, got {}", j.type_name()));
  return read_vec3(j, where, kScaleRange);
}

// A path (non-empty string) resolved against base_dir; existence is the renderer's business.
Result<std::filesystem::path> read_path(const json& j, const std::string& where, const std::filesystem::path& base_dir) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  if (s.empty()) return json_parse_error(where, "the path must not be empty");
  if (s.find('\0') != std::string::npos) return json_parse_error(where, "the path contains a NUL character");
  const std::filesystem::path p(s);
  return p.is_absolute() ? p : base_dir / p;
}

// An optional "name": an identifier, unique in `seen`.
Status read_name(const json& j, const std::string& where, std::set<std::string>& seen, std::string& out, const char* what) {
  if (!j.contains("name")) return {};
  const std::string w = json_child(where, "name");
  MOTE_TRY_ASSIGN(out, read_string(j["name"], w));
  if (!is_identifier(out))
    return json_parse_error(w, fmt::format("'{}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64)", out));
  if (!seen.insert(out).second) return json_parse_error(w, fmt::format("duplicate {} name '{}'", what, out));
  return {};
}

// A "transform" reference: "" (none) or the name of a transform in `declared`.
Status read_transform_ref(const json& j, const std::string& where, const std::set<std::string>& declared, std::string& out) {
  if (!j.contains("transform")) return {};
  const std::string w = json_child(where, "transform");
  MOTE_TRY_ASSIGN(out, read_string(j["transform"], w));
  if (!out.empty() && !declared.count(out)) return json_parse_error(w, fmt::format("no transform named '{}'", out));
  return {};
}

Result<const json*> read_array(const json& j, const std::string& where, size_t max_size) {
  if (!j.is_array()) return json_parse_error(where, fmt::format("expected an array, got {}", j.type_name()));
  if (j.size() > max_size) return json_parse_error(where, fmt::format("more than {} entries", max_size));
  return &j;
}

Status read_camera_key(const json& j, const std::string& where, CameraKey& key) {
  MOTE_TRY(check_object(j, where, {"time", "position", "target", "fov_y_degrees"}));
  for (const char* k : {"time", "position", "target"}) MOTE_TRY(require(j, where, k));
  MOTE_TRY_ASSIGN(key.time, read_number(j["time"], json_child(where, "time"), {0.0, kMaxSeconds}));
  MOTE_TRY_ASSIGN(key.position, read_vec3(j["position"], json_child(where, "position"), kAny));
  MOTE_TRY_ASSIGN(key.target, read_vec3(j["target"], json_child(where, "target"), kAny));
  if (j.contains("fov_y_degrees")) {
    MOTE_TRY_ASSIGN(key.fov_y_degrees, read_number(j["fov_y_degrees"], json_child(where, "fov_y_degrees"), {1.0, 179.0, true, true}));
  }
  if (glm::length(key.target - key.position) < float(kZeroLength))
    return json_parse_error(json_child(where, "target"), "the target must differ from the position");
  return {};
}

Status read_orbit(const json& j, const std::string& where, CameraOrbit& o) {
  MOTE_TRY(check_object(j, where, {"center", "radius", "height", "target_height", "start_degrees", "degrees_per_second"}));
  if (j.contains("center")) { MOTE_TRY_ASSIGN(o.center, read_vec3(j["center"], json_child(where, "center"), kAny)); }
  if (j.contains("radius")) { MOTE_TRY_ASSIGN(o.radius, read_number(j["radius"], json_child(where, "radius"), kPositive)); }
  if (j.contains("height")) { MOTE_TRY_ASSIGN(o.height, read_number(j["height"], json_child(where, "height"), kAny)); }
  if (j.contains("target_height")) {
    MOTE_TRY_ASSIGN(o.target_height, read_number(j["target_height"], json_child(where, "target_height"), kAny));
  }
  if (j.contains("start_degrees")) {
    MOTE_TRY_ASSIGN(o.start_degrees, read_number(j["start_degrees"], json_child(where, "start_degrees"), {-kMaxDegrees, kMaxDegrees}));
  }
  if (j.contains("degrees_per_second")) {
    MOTE_TRY_ASSIGN(o.degrees_per_second,
                    read_number(j["degrees_per_second"], json_child(where, "degrees_per_second"), {-kMaxDegrees, kMaxDegrees}));
  }
  return {};
}

Status read_camera(const json& j, const std::string& where, Camera& cam) {
  MOTE_TRY(check_object(j, where, {"fov_y_degrees", "position", "target", "keys", "interpolation", "orbit", "near", "far"}));
  MOTE_TRY(exclusive(j, where, "keys", "orbit"));
  const bool has_keys = j.contains("keys");
  const bool has_orbit = j.contains("orbit");
  if (has_keys || has_orbit) {
    for (const char* k : {"position", "target"})
      if (j.contains(k))
        return json_parse_error(json_child(where, k), fmt::format("'{}' is for a still camera; a camera with '{}' takes it from there", k,
                                                        has_keys ? "keys" : "orbit"));
  }
  if (has_keys && j.contains("fov_y_degrees"))
    return json_parse_error(json_child(where, "fov_y_degrees"), "a camera with 'keys' takes 'fov_y_degrees' from each key");
  if (!has_keys && j.contains("interpolation")) return json_parse_error(json_child(where, "interpolation"), "'interpolation' needs 'keys'");

  if (j.contains("fov_y_degrees")) {
    MOTE_TRY_ASSIGN(cam.still.fov_y_degrees, read_number(j["fov_y_degrees"], json_child(where, "fov_y_degrees"), {1.0, 179.0, true, true}));
  }
  if (j.contains("position")) { MOTE_TRY_ASSIGN(cam.still.position, read_vec3(j["position"], json_child(where, "position"), kAny)); }
  if (j.contains("target")) { MOTE_TRY_ASSIGN(cam.still.target, read_vec3(j["target"], json_child(where, "target"), kAny)); }
  if (!has_keys && !has_orbit && glm::length(cam.still.target - cam.still.position) < float(kZeroLength))
    return json_parse_error(json_child(where, j.contains("target") ? "target" : "position"), "the target must differ from the position");

  if (has_keys) {
    const std::string kw = json_child(where, "keys");
    MOTE_TRY_ASSIGN(const json* keys, read_array(j["keys"], kw, kMaxCameraKeys));
    if (keys->empty()) return json_parse_error(kw, "a camera path needs at least one key");
    for (size_t i = 0; i < keys->size(); ++i) {
      CameraKey key;
      MOTE_TRY(read_camera_key((*keys)[i], json_child(kw, i), key));
      if (!cam.keys.empty() && !(key.time > cam.keys.back().time))
        return json_parse_error(json_child(json_child(kw, i), "time"),
                           fmt::format("key times must increase strictly: {} follows {}", key.time, cam.keys.back().time));
      cam.keys.push_back(key);
    }
  }
  if (j.contains("interpolation")) {
    MOTE_TRY_ASSIGN(std::string s, read_choice(j["interpolation"], json_child(where, "interpolation"), {"linear", "catmull_rom"}));
    cam.interpolation = s == "linear" ? CameraInterpolation::kLinear : CameraInterpolation::kCatmullRom;
  }
  if (has_orbit) {
    CameraOrbit orbit;
    MOTE_TRY(read_orbit(j["orbit"], json_child(where, "orbit"), orbit));
    cam.orbit = orbit;
  }
  if (j.contains("near")) { MOTE_TRY_ASSIGN(cam.near_plane, read_number(j["near"], json_child(where, "near"), kPositive)); }
  if (j.contains("far")) { MOTE_TRY_ASSIGN(cam.far_plane, read_number(j["far"], json_child(where, "far"), {0.0, 1e7, true})); }
  if (!(cam.far_plane > cam.near_plane)) {
    const char* at = j.contains("far") ? "far" : "near";
    return json_parse_error(json_child(where, at), fmt::format("far ({}) must be greater than near ({})", cam.far_plane, cam.near_plane));
  }
  return {};
}

Status read_sun(const json& j, const std::string& where, DirectionalLight& sun) {
  MOTE_TRY(check_object(j, where, {"direction", "color", "intensity", "shadows", "shadow_map_size"}));
  if (j.contains("direction")) { MOTE_TRY_ASSIGN(sun.direction, read_direction(j["direction"], json_child(where, "direction"))); }
  else sun.direction = glm::normalize(sun.direction);
  if (j.contains("color")) { MOTE_TRY_ASSIGN(sun.color, read_vec3(j["color"], json_child(where, "color"), kRadiance)); }
  if (j.contains("intensity")) { MOTE_TRY_ASSIGN(sun.intensity, read_number(j["intensity"], json_child(where, "intensity"), kIntensity)); }
  if (j.contains("shadows")) { MOTE_TRY_ASSIGN(sun.shadows, read_bool(j["shadows"], json_child(where, "shadows"))); }
  if (j.contains("shadow_map_size")) {
    MOTE_TRY_ASSIGN(sun.shadow_map_size, read_uint(j["shadow_map_size"], json_child(where, "shadow_map_size"), 256, 8192));
  }
  return {};
}

Status read_point_light(const json& j, const std::string& where, const std::set<std::string>& transforms, PointLight& l) {
  MOTE_TRY(check_object(j, where, {"transform", "position", "color", "intensity", "range"}));
  MOTE_TRY(read_transform_ref(j, where, transforms, l.transform));
  if (j.contains("position")) { MOTE_TRY_ASSIGN(l.position, read_vec3(j["position"], json_child(where, "position"), kAny)); }
  if (j.contains("color")) { MOTE_TRY_ASSIGN(l.color, read_vec3(j["color"], json_child(where, "color"), kRadiance)); }
  if (j.contains("intensity")) { MOTE_TRY_ASSIGN(l.intensity, read_number(j["intensity"], json_child(where, "intensity"), kIntensity)); }
  if (j.contains("range")) { MOTE_TRY_ASSIGN(l.range, read_number(j["range"], json_child(where, "range"), kPositive)); }
  return {};
}

Status read_environment(const json& j, const std::string& where, Environment& e) {
  MOTE_TRY(check_object(j, where, {"sky_color", "ground_color", "ambient_intensity", "background"}));
  if (j.contains("sky_color")) { MOTE_TRY_ASSIGN(e.sky_color, read_vec3(j["sky_color"], json_child(where, "sky_color"), kRadiance)); }
  if (j.contains("ground_color")) {
    MOTE_TRY_ASSIGN(e.ground_color, read_vec3(j["ground_color"], json_child(where, "ground_color"), kRadiance));
  }
  if (j.contains("ambient_intensity")) {
    MOTE_TRY_ASSIGN(e.ambient_intensity, read_number(j["ambient_intensity"], json_child(where, "ambient_intensity"), kIntensity));
  }
  if (j.contains("background")) { MOTE_TRY_ASSIGN(e.background, read_vec3(j["background"], json_child(where, "background"), kRadiance)); }
  return {};
}

Status read_transform(const json& j, const std::string& where, std::set<std::string>& declared, Transform& t) {
  MOTE_TRY(check_object(j, where, {"name", "parent", "position", "rotation", "euler_degrees", "scale", "spin_axis",
                                   "spin_degrees_per_second", "bob_amplitude", "bob_hz"}));
  MOTE_TRY(require(j, where, "name"));
  if (j.contains("parent")) {
    const std::string w = json_child(where, "parent");
    MOTE_TRY_ASSIGN(t.parent, read_string(j["parent"], w));
    // `declared` holds the transforms before this one, so naming itself or a later one fails.
    if (!t.parent.empty() && !declared.count(t.parent))
      return json_parse_error(w, fmt::format("'{}' is not a transform declared before this one (parents come first)", t.parent));
  }
  MOTE_TRY(read_name(j, where, declared, t.name, "transform"));
  if (j.contains("position")) { MOTE_TRY_ASSIGN(t.position, read_vec3(j["position"], json_child(where, "position"), kAny)); }
  MOTE_TRY(read_rotation(j, where, t.rotation));
  if (j.contains("scale")) { MOTE_TRY_ASSIGN(t.scale, read_scale(j["scale"], json_child(where, "scale"))); }
  if (j.contains("spin_axis")) { MOTE_TRY_ASSIGN(t.spin_axis, read_direction(j["spin_axis"], json_child(where, "spin_axis"))); }
  if (j.contains("spin_degrees_per_second")) {
    MOTE_TRY_ASSIGN(t.spin_degrees_per_second,
                    read_number(j["spin_degrees_per_second"], json_child(where, "spin_degrees_per_second"), {-kMaxDegrees, kMaxDegrees}));
  }
  if (j.contains("bob_amplitude")) {
    MOTE_TRY_ASSIGN(t.bob_amplitude, read_number(j["bob_amplitude"], json_child(where, "bob_amplitude"), kNonNegative));
  }
  if (j.contains("bob_hz")) { MOTE_TRY_ASSIGN(t.bob_hz, read_number(j["bob_hz"], json_child(where, "bob_hz"), {0.0, 1000.0})); }
  return {};
}

Status read_material(const json& j, const std::string& where, Material& m) {
  MOTE_TRY(check_object(j, where, {"base_color", "roughness", "metallic", "emissive"}));
  if (j.contains("base_color")) { MOTE_TRY_ASSIGN(m.base_color, read_vec3(j["base_color"], json_child(where, "base_color"), kUnit)); }
  if (j.contains("roughness")) { MOTE_TRY_ASSIGN(m.roughness, read_number(j["roughness"], json_child(where, "roughness"), {0.02, 1.0})); }
  if (j.contains("metallic")) { MOTE_TRY_ASSIGN(m.metallic, read_number(j["metallic"], json_child(where, "metallic"), kUnit)); }
  if (j.contains("emissive")) { MOTE_TRY_ASSIGN(m.emissive, read_vec3(j["emissive"], json_child(where, "emissive"), kRadiance)); }
  return {};
}

bool ends_with_ci(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

Status read_object(const json& j, const std::string& where, const std::set<std::string>& transforms, std::set<std::string>& names,
                   const std::filesystem::path& base_dir, Object& o) {
  MOTE_TRY(check_object(j, where, {"name", "shape", "mesh", "transform", "position", "rotation", "euler_degrees", "scale", "material",
                                   "casts_shadow"}));
  MOTE_TRY(read_name(j, where, names, o.name, "object"));
  MOTE_TRY(require(j, where, "shape"));
  MOTE_TRY_ASSIGN(std::string shape, read_choice(j["shape"], json_child(where, "shape"), {"plane", "box", "sphere", "mesh"}));
  o.shape = shape == "plane" ? ObjectShape::kPlane : shape == "box" ? ObjectShape::kBox : shape == "sphere" ? ObjectShape::kSphere
                                                                                                            : ObjectShape::kMesh;
  if (o.shape == ObjectShape::kMesh) {
    if (!j.contains("mesh")) return json_parse_error(where, "shape 'mesh' needs a 'mesh' (a .gltf or .glb file)");
    const std::string w = json_child(where, "mesh");
    MOTE_TRY_ASSIGN(o.mesh, read_path(j["mesh"], w, base_dir));
    const std::string s = j["mesh"].get<std::string>();
    if (!ends_with_ci(s, ".gltf") && !ends_with_ci(s, ".glb")) return json_parse_error(w, fmt::format("'{}' is not a .gltf or .glb file", s));
  } else if (j.contains("mesh")) {
    return json_parse_error(json_child(where, "mesh"), fmt::format("'mesh' is only for shape 'mesh', not '{}'", shape));
  }
  MOTE_TRY(read_transform_ref(j, where, transforms, o.transform));
  if (j.contains("position")) { MOTE_TRY_ASSIGN(o.position, read_vec3(j["position"], json_child(where, "position"), kAny)); }
  MOTE_TRY(read_rotation(j, where, o.rotation));
  if (j.contains("scale")) { MOTE_TRY_ASSIGN(o.scale, read_scale(j["scale"], json_child(where, "scale"))); }
  if (j.contains("material")) MOTE_TRY(read_material(j["material"], json_child(where, "material"), o.material));
  if (j.contains("casts_shadow")) { MOTE_TRY_ASSIGN(o.casts_shadow, read_bool(j["casts_shadow"], json_child(where, "casts_shadow"))); }
  return {};
}

// {"name": number | [1..16 numbers], ...}, returned in the key order nlohmann::json keeps, which
// is sorted by name (the document's order is not preserved); the names are checked against the
// effect when it loads.
Result<std::vector<FieldValue>> read_field_values(const json& j, const std::string& where) {
  if (!j.is_object()) return json_parse_error(where, fmt::format("expected an object of name: value, got {}", j.type_name()));
  constexpr Range kValue{-3.4e38, 3.4e38};
  std::vector<FieldValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string w = json_child(where, it.key());
    if (!is_identifier(it.key())) return json_parse_error(w, fmt::format("'{}' is not an identifier", it.key()));
    FieldValue f;
    f.name = it.key();
    const json& v = it.value();
    if (v.is_number()) {
      MOTE_TRY_ASSIGN(float x, read_number(v, w, kValue));
      f.values.push_back(x);
    } else if (v.is_array() && !v.empty() && v.size() <= 16) {
      for (size_t k = 0; k < v.size(); ++k) {
        MOTE_TRY_ASSIGN(float x, read_number(v[k], json_child(w, k), kValue));
        f.values.push_back(x);
      }
    } else {
      return json_parse_error(w, "expected a number or an array of 1 to 16 numbers");
    }
    out.push_back(std::move(f));
  }
  return out;
}

Status read_emitter(const json& j, const std::string& where, const std::set<std::string>& transforms, std::set<std::string>& names,
                    const std::filesystem::path& base_dir, Emitter& e) {
  MOTE_TRY(check_object(j, where, {"name", "effect", "transform", "position", "rotation", "euler_degrees", "seed", "fields", "globals",
                                   "start_time"}));
  MOTE_TRY(read_name(j, where, names, e.name, "emitter"));
  MOTE_TRY(require(j, where, "effect"));
  MOTE_TRY_ASSIGN(e.effect, read_path(j["effect"], json_child(where, "effect"), base_dir));
  MOTE_TRY(read_transform_ref(j, where, transforms, e.transform));
  if (!e.transform.empty()) {
    // The pose comes from the transform row; a silently ignored offset would be a trap.
    for (const char* k : {"position", "rotation", "euler_degrees"})
      if (j.contains(k))
        return json_parse_error(json_child(where, k), fmt::format("an emitter at a transform takes its pose from it; '{}' is for an emitter "
                                                        "without one (put the offset on a child transform)", k));
  }
  if (j.contains("position")) { MOTE_TRY_ASSIGN(e.position, read_vec3(j["position"], json_child(where, "position"), kAny)); }
  MOTE_TRY(read_rotation(j, where, e.rotation));
  if (j.contains("seed")) { MOTE_TRY_ASSIGN(e.seed, read_uint(j["seed"], json_child(where, "seed"), 0, 0xffffffffu)); }
  if (j.contains("fields")) { MOTE_TRY_ASSIGN(e.fields, read_field_values(j["fields"], json_child(where, "fields"))); }
  if (j.contains("globals")) { MOTE_TRY_ASSIGN(e.globals, read_field_values(j["globals"], json_child(where, "globals"))); }
  if (j.contains("start_time")) { MOTE_TRY_ASSIGN(e.start_time, read_number(j["start_time"], json_child(where, "start_time"), {0.0, kMaxSeconds})); }
  return {};
}

Status read_output(const json& j, const std::string& where, Output& o) {
  MOTE_TRY(check_object(j, where, {"width", "height", "frames", "fps", "dt", "seed", "warmup_seconds", "exposure", "tonemap"}));
  if (j.contains("width")) { MOTE_TRY_ASSIGN(o.width, read_uint(j["width"], json_child(where, "width"), 16, 8192)); }
  if (j.contains("height")) { MOTE_TRY_ASSIGN(o.height, read_uint(j["height"], json_child(where, "height"), 16, 8192)); }
  if (j.contains("frames")) { MOTE_TRY_ASSIGN(o.frames, read_uint(j["frames"], json_child(where, "frames"), 1, 100000)); }
  if (j.contains("fps")) { MOTE_TRY_ASSIGN(o.fps, read_number(j["fps"], json_child(where, "fps"), {0.0, 1000.0, true})); }
  if (j.contains("dt")) { MOTE_TRY_ASSIGN(o.dt, read_number(j["dt"], json_child(where, "dt"), {0.0, 1.0})); }
  if (j.contains("seed")) { MOTE_TRY_ASSIGN(o.seed, read_uint(j["seed"], json_child(where, "seed"), 0, 0xffffffffu)); }
  if (j.contains("warmup_seconds")) {
    MOTE_TRY_ASSIGN(o.warmup_seconds, read_number(j["warmup_seconds"], json_child(where, "warmup_seconds"), {0.0, 600.0}));
  }
  if (j.contains("exposure")) { MOTE_TRY_ASSIGN(o.exposure, read_number(j["exposure"], json_child(where, "exposure"), {0.0, 1e6, true})); }
  if (j.contains("tonemap")) {
    MOTE_TRY_ASSIGN(std::string s, read_choice(j["tonemap"], json_child(where, "tonemap"), {"aces", "agx"}));
    o.tonemap = s == "aces" ? Tonemap::kAces : Tonemap::kAgx;
  }
  return {};
}

// nlohmann::json keeps the last of two equal keys in an object without a word; a scene file
// with "shadows" twice is a mistake, so the parse callback finds the first duplicate and its
// pointer. Each frame is an open object or array and the element being read in it.
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.emplace_back().array = false; break;
      case json::parse_event_t::array_start: frames_.emplace_back().array = true; break;
      case json::parse_event_t::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && !found_) found_ = json_parse_error(pointer(), fmt::format("duplicate key '{}'", top.key));
        break;
      }
      case json::parse_event_t::value: element_done(); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
    }
    return true;
  }
  const std::optional<Error>& found() const { return found_; }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;  // arrays: the element being read
    std::string key;   // objects: the key being read
    std::set<std::string> keys;
  };
  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  std::string pointer() const {
    std::string out;
    for (const Frame& f : frames_) out = f.array ? json_child(out, f.index) : json_child(out, f.key);
    return out;
  }
  std::vector<Frame> frames_;
  std::optional<Error> found_;
};

}  // namespace

Result<Scene> load_scene(std::string_view json_text, const std::filesystem::path& base_dir) {
  json j;
  DuplicateKeyFinder duplicates;
  try {
    j = json::parse(json_text.begin(), json_text.end(), std::ref(duplicates));
  } catch (const json::exception& e) {
    return json_parse_error("/", fmt::format("not valid JSON: {}", e.what()));
  }
  if (duplicates.found()) return *duplicates.found();
  const std::string root;
  MOTE_TRY(check_object(j, root, {"version", "name", "camera", "sun", "point_lights", "environment", "transforms", "objects", "emitters",
                                  "output"}));
  MOTE_TRY(require(j, root, "version"));
  MOTE_TRY(read_uint(j["version"], "/version", 1, 1));
  Scene scene;
  scene.base_dir = base_dir;
  if (j.contains("name")) {
    MOTE_TRY_ASSIGN(scene.name, read_string(j["name"], "/name"));
    if (scene.name.empty() || scene.name.size() > 256) return json_parse_error("/name", "the name must have 1 to 256 characters");
  }
  // Transforms first: every other section refers to them.
  std::set<std::string> transform_names;
  if (j.contains("transforms")) {
    MOTE_TRY_ASSIGN(const json* arr, read_array(j["transforms"], "/transforms", kMaxTransforms));
    for (size_t i = 0; i < arr->size(); ++i) {
      Transform t;
      MOTE_TRY(read_transform((*arr)[i], json_child("/transforms", i), transform_names, t));
      scene.transforms.push_back(std::move(t));
    }
  }
  if (j.contains("camera")) MOTE_TRY(read_camera(j["camera"], "/camera", scene.camera));
  if (j.contains("sun") && !j["sun"].is_null()) {
    DirectionalLight sun;
    MOTE_TRY(read_sun(j["sun"], "/sun", sun));
    scene.sun = sun;
  }
  if (j.contains("point_lights")) {
    MOTE_TRY_ASSIGN(const json* arr, read_array(j["point_lights"], "/point_lights", kMaxPointLights));
    for (size_t i = 0; i < arr->size(); ++i) {
      PointLight l;
      MOTE_TRY(read_point_light((*arr)[i], json_child("/point_lights", i), transform_names, l));
      scene.point_lights.push_back(std::move(l));
    }
  }
  if (j.contains("environment")) MOTE_TRY(read_environment(j["environment"], "/environment", scene.environment));
  if (j.contains("objects")) {
    MOTE_TRY_ASSIGN(const json* arr, read_array(j["objects"], "/objects", kMaxObjects));
    std::set<std::string> names;
    for (size_t i = 0; i < arr->size(); ++i) {
      Object o;
      MOTE_TRY(read_object((*arr)[i], json_child("/objects", i), transform_names, names, base_dir, o));
      scene.objects.push_back(std::move(o));
    }
  }
  if (j.contains("emitters")) {
    MOTE_TRY_ASSIGN(const json* arr, read_array(j["emitters"], "/emitters", kMaxEmitters));
    std::set<std::string> names;
    for (size_t i = 0; i < arr->size(); ++i) {
      Emitter e;
      MOTE_TRY(read_emitter((*arr)[i], json_child("/emitters", i), transform_names, names, base_dir, e));
      scene.emitters.push_back(std::move(e));
    }
  }
  if (j.contains("output")) MOTE_TRY(read_output(j["output"], "/output", scene.output));
  return scene;
}

Result<Scene> load_scene_file(const std::filesystem::path& path) {
  // Scene files are small; 64 MiB is far beyond any real one and bounds what a bad path costs.
  auto text = read_file_text(path.string(), size_t(64) << 20);
  if (!text.ok()) return make_error(ErrorCode::kIo, text.error().message, text.error().where);
  return load_scene(*text, path.parent_path());
}

}  // namespace mote::scene
