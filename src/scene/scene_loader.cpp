// The strict scene-file reader (docs/design/scene.md, docs/scene.schema.json): every key known,
// every number finite and in range, every name an identifier and unique, every reference
// resolved. The first problem stops loading with ErrorCode::kParse and a JSON pointer to it, the
// same contract as the effect-document loader (src/graph/document_loader.cpp).
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/asset_path.hpp"
#include "core/file.hpp"
#include "core/json_reader.hpp"
#include "mote/emitter.hpp"
#include "scene/scene.hpp"
#include "scene/scene_values.hpp"
#include "scene/scene_events.hpp"
#include "scene/scene_vector_fields.hpp"
#include "scene/scene_wind.hpp"

namespace mote::scene {

std::optional<uint32_t> Scene::find_transform(std::string_view transform_name) const {
  // The loader's index when it covers the list (the renderer asks once per transform per frame);
  // a scene built by hand is searched.
  if (transform_index.size() == transforms.size()) {
    const auto it = transform_index.find(transform_name);
    return it == transform_index.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  }
  for (size_t i = 0; i < transforms.size(); ++i)
    if (transforms[i].name == transform_name) return uint32_t(i);
  return std::nullopt;
}

namespace {

using nlohmann::json;
using namespace core;  // the strict reader: check_object, read_number, ... (src/core/json_reader.hpp)

using namespace detail;  // the numbers, vectors, rotations and scales (scene/scene_values.hpp)

// An optional "name": an identifier, unique in `seen`.
Status read_name(const json& j, const std::string& where, std::set<std::string>& seen, std::string& out,
                 const char* what) {
  if (!j.contains("name")) return {};
  const std::string w = json_child(where, "name");
  MOTE_TRY_ASSIGN(out, read_identifier(j["name"], w));
  if (!seen.insert(out).second) return json_parse_error(w, fmt::format("duplicate {} name '{}'", what, out));
  return {};
}

// A "transform" reference: "" (none) or the name of a transform in `declared`.
Status read_transform_ref(const json& j, const std::string& where, const std::set<std::string>& declared,
                          std::string& out) {
  if (!j.contains("transform")) return {};
  const std::string w = json_child(where, "transform");
  MOTE_TRY_ASSIGN(out, read_string(j["transform"], w));
  if (!out.empty() && !declared.count(out)) return json_parse_error(w, fmt::format("no transform named '{}'", out));
  return {};
}

Status read_camera_key(const json& j, const std::string& where, CameraKey& key) {
  MOTE_TRY(check_object(j, where, {"time", "position", "target", "fov_y_degrees"}));
  for (const char* k : {"time", "position", "target"}) MOTE_TRY(require(j, where, k));
  MOTE_TRY_ASSIGN(key.time, read_number(j["time"], json_child(where, "time"), {0.0, kMaxSeconds}));
  MOTE_TRY_ASSIGN(key.position, read_vec3(j["position"], json_child(where, "position"), kAny));
  MOTE_TRY_ASSIGN(key.target, read_vec3(j["target"], json_child(where, "target"), kAny));
  MOTE_TRY(read_optional_number(j, where, "fov_y_degrees", {1.0, 179.0, true, true}, key.fov_y_degrees));
  if (glm::length(key.target - key.position) < float(kZeroLength))
    return json_parse_error(json_child(where, "target"), "the target must differ from the position");
  return {};
}

Status read_orbit(const json& j, const std::string& where, CameraOrbit& o) {
  MOTE_TRY(check_object(j, where,
                        {"center", "radius", "height", "target_height", "start_degrees", "degrees_per_second"}));
  MOTE_TRY(read_optional_vec3(j, where, "center", kAny, o.center));
  MOTE_TRY(read_optional_number(j, where, "radius", kPositive, o.radius));
  MOTE_TRY(read_optional_number(j, where, "height", kAny, o.height));
  MOTE_TRY(read_optional_number(j, where, "target_height", kAny, o.target_height));
  MOTE_TRY(read_optional_number(j, where, "start_degrees", {-kMaxDegrees, kMaxDegrees}, o.start_degrees));
  MOTE_TRY(read_optional_number(j, where, "degrees_per_second", {-kMaxDegrees, kMaxDegrees}, o.degrees_per_second));
  return {};
}

Status read_camera(const json& j, const std::string& where, Camera& cam) {
  MOTE_TRY(check_object(j, where,
                        {"fov_y_degrees", "position", "target", "keys", "interpolation", "orbit", "near", "far"}));
  MOTE_TRY(exclusive(j, where, "keys", "orbit"));
  const bool has_keys = j.contains("keys");
  const bool has_orbit = j.contains("orbit");
  if (has_keys || has_orbit) {
    for (const char* k : {"position", "target"})
      if (j.contains(k))
        return json_parse_error(json_child(where, k),
                                fmt::format("'{}' is for a still camera; a camera with '{}' takes it from there", k,
                                            has_keys ? "keys" : "orbit"));
  }
  if (has_keys && j.contains("fov_y_degrees"))
    return json_parse_error(json_child(where, "fov_y_degrees"),
                            "a camera with 'keys' takes 'fov_y_degrees' from each key");
  if (!has_keys && j.contains("interpolation"))
    return json_parse_error(json_child(where, "interpolation"), "'interpolation' needs 'keys'");

  MOTE_TRY(read_optional_number(j, where, "fov_y_degrees", {1.0, 179.0, true, true}, cam.still.fov_y_degrees));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, cam.still.position));
  MOTE_TRY(read_optional_vec3(j, where, "target", kAny, cam.still.target));
  if (!has_keys && !has_orbit && glm::length(cam.still.target - cam.still.position) < float(kZeroLength))
    return json_parse_error(json_child(where, j.contains("target") ? "target" : "position"),
                            "the target must differ from the position");

  if (has_keys) {
    const std::string kw = json_child(where, "keys");
    MOTE_TRY_ASSIGN(const json* keys, read_array(j["keys"], kw, kMaxCameraKeys));
    if (keys->empty()) return json_parse_error(kw, "a camera path needs at least one key");
    for (size_t i = 0; i < keys->size(); ++i) {
      CameraKey key;
      MOTE_TRY(read_camera_key((*keys)[i], json_child(kw, i), key));
      if (!cam.keys.empty() && !(key.time > cam.keys.back().time))
        return json_parse_error(json_child(json_child(kw, i), "time"),
                                fmt::format("key times must increase strictly: {} follows {}", key.time,
                                            cam.keys.back().time));
      cam.keys.push_back(key);
    }
  }
  if (j.contains("interpolation")) {
    MOTE_TRY_ASSIGN(std::string s,
                    read_choice(j["interpolation"], json_child(where, "interpolation"), {"linear", "catmull_rom"}));
    cam.interpolation = s == "linear" ? CameraInterpolation::kLinear : CameraInterpolation::kCatmullRom;
  }
  if (has_orbit) {
    CameraOrbit orbit;
    MOTE_TRY(read_orbit(j["orbit"], json_child(where, "orbit"), orbit));
    cam.orbit = orbit;
  }
  MOTE_TRY(read_optional_number(j, where, "near", kPositive, cam.near_plane));
  MOTE_TRY(read_optional_number(j, where, "far", {0.0, 1e7, true}, cam.far_plane));
  if (!(cam.far_plane > cam.near_plane)) {
    const char* at = j.contains("far") ? "far" : "near";
    return json_parse_error(json_child(where, at),
                            fmt::format("far ({}) must be greater than near ({})", cam.far_plane, cam.near_plane));
  }
  return {};
}

Status read_sun(const json& j, const std::string& where, DirectionalLight& sun) {
  MOTE_TRY(check_object(j, where, {"direction", "color", "intensity", "shadows", "shadow_map_size"}));
  if (j.contains("direction")) {
    MOTE_TRY_ASSIGN(sun.direction, read_direction(j["direction"], json_child(where, "direction")));
  } else sun.direction = glm::normalize(sun.direction);
  MOTE_TRY(read_optional_vec3(j, where, "color", kRadiance, sun.color));
  MOTE_TRY(read_optional_number(j, where, "intensity", kIntensity, sun.intensity));
  MOTE_TRY(read_optional_bool(j, where, "shadows", sun.shadows));
  MOTE_TRY(read_optional_uint(j, where, "shadow_map_size", 256, 8192, sun.shadow_map_size));
  return {};
}

Status read_point_light(const json& j, const std::string& where, const std::set<std::string>& transforms,
                        PointLight& l) {
  MOTE_TRY(check_object(j, where, {"transform", "position", "color", "intensity", "range"}));
  MOTE_TRY(read_transform_ref(j, where, transforms, l.transform));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, l.position));
  MOTE_TRY(read_optional_vec3(j, where, "color", kRadiance, l.color));
  MOTE_TRY(read_optional_number(j, where, "intensity", kIntensity, l.intensity));
  MOTE_TRY(read_optional_number(j, where, "range", kPositive, l.range));
  return {};
}

Status read_spot_light(const json& j, const std::string& where, const std::set<std::string>& transforms, SpotLight& l) {
  MOTE_TRY(check_object(j, where,
                        {"transform", "position", "direction", "color", "intensity", "range", "inner_degrees",
                         "outer_degrees"}));
  MOTE_TRY(read_transform_ref(j, where, transforms, l.transform));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, l.position));
  if (j.contains("direction")) {
    MOTE_TRY_ASSIGN(l.direction, read_direction(j["direction"], json_child(where, "direction")));
  }
  MOTE_TRY(read_optional_vec3(j, where, "color", kRadiance, l.color));
  MOTE_TRY(read_optional_number(j, where, "intensity", kIntensity, l.intensity));
  MOTE_TRY(read_optional_number(j, where, "range", kPositive, l.range));
  MOTE_TRY(read_optional_number(j, where, "outer_degrees", NumberRange{0.0, 90.0, true}, l.outer_degrees));
  MOTE_TRY(read_optional_number(j, where, "inner_degrees", NumberRange{0.0, 90.0}, l.inner_degrees));
  if (l.inner_degrees > l.outer_degrees)
    return json_parse_error(json_child(where, "inner_degrees"),
                            fmt::format("inner_degrees ({}) must be at most outer_degrees ({})", l.inner_degrees,
                                        l.outer_degrees));
  return {};
}

Status read_environment(const json& j, const std::string& where, Environment& e) {
  MOTE_TRY(check_object(j, where, {"sky_color", "ground_color", "ambient_intensity", "background"}));
  MOTE_TRY(read_optional_vec3(j, where, "sky_color", kRadiance, e.sky_color));
  MOTE_TRY(read_optional_vec3(j, where, "ground_color", kRadiance, e.ground_color));
  MOTE_TRY(read_optional_number(j, where, "ambient_intensity", kIntensity, e.ambient_intensity));
  MOTE_TRY(read_optional_vec3(j, where, "background", kRadiance, e.background));
  return {};
}

Status read_transform(const json& j, const std::string& where, std::set<std::string>& declared, Transform& t) {
  MOTE_TRY(check_object(j, where,
                        {"name", "parent", "position", "rotation", "euler_degrees", "scale", "spin_axis",
                         "spin_degrees_per_second", "bob_amplitude", "bob_hz"}));
  MOTE_TRY(require(j, where, "name"));
  if (j.contains("parent")) {
    const std::string w = json_child(where, "parent");
    MOTE_TRY_ASSIGN(t.parent, read_string(j["parent"], w));
    // `declared` holds the transforms before this one, so naming itself or a later one fails.
    if (!t.parent.empty() && !declared.count(t.parent))
      return json_parse_error(w, fmt::format("'{}' is not a transform declared before this one (parents come first)",
                                             t.parent));
  }
  MOTE_TRY(read_name(j, where, declared, t.name, "transform"));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, t.position));
  MOTE_TRY(read_rotation(j, where, t.rotation));
  if (j.contains("scale")) {
    MOTE_TRY_ASSIGN(t.scale, read_scale(j["scale"], json_child(where, "scale")));
  }
  if (j.contains("spin_axis")) {
    MOTE_TRY_ASSIGN(t.spin_axis, read_direction(j["spin_axis"], json_child(where, "spin_axis")));
  }
  MOTE_TRY(read_optional_number(j, where, "spin_degrees_per_second", {-kMaxDegrees, kMaxDegrees},
                                t.spin_degrees_per_second));
  MOTE_TRY(read_optional_number(j, where, "bob_amplitude", kNonNegative, t.bob_amplitude));
  MOTE_TRY(read_optional_number(j, where, "bob_hz", {0.0, 1000.0}, t.bob_hz));
  return {};
}

Status read_material(const json& j, const std::string& where, Material& m) {
  MOTE_TRY(check_object(j, where, {"base_color", "roughness", "metallic", "emissive"}));
  MOTE_TRY(read_optional_vec3(j, where, "base_color", kUnit, m.base_color));
  MOTE_TRY(read_optional_number(j, where, "roughness", {0.02, 1.0}, m.roughness));
  MOTE_TRY(read_optional_number(j, where, "metallic", kUnit, m.metallic));
  MOTE_TRY(read_optional_vec3(j, where, "emissive", kRadiance, m.emissive));
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

Status read_object(const json& j, const std::string& where, const std::set<std::string>& transforms,
                   std::set<std::string>& names, const PathBase& base_dir, Object& o) {
  MOTE_TRY(check_object(j, where,
                        {"name", "shape", "mesh", "transform", "position", "rotation", "euler_degrees", "scale",
                         "material", "casts_shadow"}));
  MOTE_TRY(read_name(j, where, names, o.name, "object"));
  MOTE_TRY(require(j, where, "shape"));
  MOTE_TRY_ASSIGN(std::string shape,
                  read_choice(j["shape"], json_child(where, "shape"), {"plane", "box", "sphere", "mesh"}));
  o.shape = shape == "plane"    ? ObjectShape::kPlane
            : shape == "box"    ? ObjectShape::kBox
            : shape == "sphere" ? ObjectShape::kSphere
                                : ObjectShape::kMesh;
  if (o.shape == ObjectShape::kMesh) {
    if (!j.contains("mesh")) return json_parse_error(where, "shape 'mesh' needs a 'mesh' (a .gltf or .glb file)");
    const std::string w = json_child(where, "mesh");
    MOTE_TRY_ASSIGN(o.mesh, read_path(j["mesh"], w, base_dir));
    const std::string s = j["mesh"].get<std::string>();
    if (!ends_with_ci(s, ".gltf") && !ends_with_ci(s, ".glb"))
      return json_parse_error(w, fmt::format("'{}' is not a .gltf or .glb file", s));
  } else if (j.contains("mesh")) {
    return json_parse_error(json_child(where, "mesh"), fmt::format("'mesh' is only for shape 'mesh', not '{}'", shape));
  }
  MOTE_TRY(read_transform_ref(j, where, transforms, o.transform));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, o.position));
  MOTE_TRY(read_rotation(j, where, o.rotation));
  if (j.contains("scale")) {
    MOTE_TRY_ASSIGN(o.scale, read_scale(j["scale"], json_child(where, "scale")));
  }
  if (j.contains("material")) MOTE_TRY(read_material(j["material"], json_child(where, "material"), o.material));
  MOTE_TRY(read_optional_bool(j, where, "casts_shadow", o.casts_shadow));
  return {};
}

// {"name": number | [1..16 numbers], ...}, returned in the key order nlohmann::json keeps, which
// is sorted by name (the document's order is not preserved); the names are checked against the
// effect when it loads.
Result<std::vector<FieldValue>> read_field_values(const json& j, const std::string& where) {
  if (!j.is_object())
    return json_parse_error(where, fmt::format("expected an object of name: value, got {}", j.type_name()));
  std::vector<FieldValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string w = json_child(where, it.key());
    if (!is_identifier(it.key())) return json_parse_error(w, fmt::format("'{}' is not an identifier", it.key()));
    FieldValue f;
    f.name = it.key();
    const json& v = it.value();
    if (v.is_number()) {
      MOTE_TRY_ASSIGN(float x, read_number(v, w, kAnyFloat));
      f.values.push_back(x);
    } else if (v.is_array() && !v.empty() && v.size() <= 16) {
      MOTE_TRY_ASSIGN(f.values, read_number_elements(v, w, kAnyFloat));
    } else {
      return json_parse_error(w, "expected a number or an array of 1 to 16 numbers");
    }
    out.push_back(std::move(f));
  }
  return out;
}

Status read_emitter(const json& j, const std::string& where, const std::set<std::string>& transforms,
                    std::set<std::string>& names, const PathBase& base_dir, Emitter& e) {
  MOTE_TRY(check_object(j, where,
                        {"name", "effect", "transform", "position", "rotation", "euler_degrees", "seed", "fields",
                         "globals", "start_time"}));
  MOTE_TRY(read_name(j, where, names, e.name, "emitter"));
  MOTE_TRY(require(j, where, "effect"));
  MOTE_TRY_ASSIGN(e.effect, read_path(j["effect"], json_child(where, "effect"), base_dir));
  MOTE_TRY(read_transform_ref(j, where, transforms, e.transform));
  if (!e.transform.empty()) {
    // The pose comes from the transform row; a silently ignored offset would be a trap.
    for (const char* k : {"position", "rotation", "euler_degrees"})
      if (j.contains(k))
        return json_parse_error(json_child(where, k),
                                fmt::format("an emitter at a transform takes its pose from it; '{}' is for an emitter "
                                            "without one (put the offset on a child transform)",
                                            k));
  }
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, e.position));
  MOTE_TRY(read_rotation(j, where, e.rotation));
  MOTE_TRY(read_optional_uint(j, where, "seed", 0, 0xffffffffu, e.seed));
  if (j.contains("fields")) {
    MOTE_TRY_ASSIGN(e.fields, read_field_values(j["fields"], json_child(where, "fields")));
  }
  if (j.contains("globals")) {
    MOTE_TRY_ASSIGN(e.globals, read_field_values(j["globals"], json_child(where, "globals")));
  }
  MOTE_TRY(read_optional_number(j, where, "start_time", {0.0, kMaxSeconds}, e.start_time));
  return {};
}

Status read_volume(const json& j, const std::string& where, const std::set<std::string>& transforms,
                   std::set<std::string>& names, Volume& v) {
  MOTE_TRY(check_object(j, where,
                        {"name", "transform", "position", "rotation", "euler_degrees", "scale", "density",
                         "fade_distance", "albedo", "noise_strength", "noise_scale", "noise_warp", "noise_velocity",
                         "noise_wind_factor", "noise_texture"}));
  MOTE_TRY(read_name(j, where, names, v.name, "volume"));
  MOTE_TRY(read_transform_ref(j, where, transforms, v.transform));
  MOTE_TRY(read_optional_vec3(j, where, "position", kAny, v.position));
  MOTE_TRY(read_rotation(j, where, v.rotation));
  if (j.contains("scale")) {
    MOTE_TRY_ASSIGN(v.scale, read_scale(j["scale"], json_child(where, "scale")));
  }
  MOTE_TRY(read_optional_number(j, where, "density", {0.0, 1000.0}, v.density));
  MOTE_TRY(read_optional_number(j, where, "fade_distance", kNonNegative, v.fade_distance));
  MOTE_TRY(read_optional_vec3(j, where, "albedo", kUnit, v.albedo));
  MOTE_TRY(read_optional_number(j, where, "noise_strength", kUnit, v.noise_strength));
  MOTE_TRY(read_optional_number(j, where, "noise_scale", kPositive, v.noise_scale));
  MOTE_TRY(read_optional_number(j, where, "noise_warp", {0.0, 16.0}, v.noise_warp));
  MOTE_TRY(read_optional_vec3(j, where, "noise_velocity", {-1e4, 1e4}, v.noise_velocity));
  MOTE_TRY(read_optional_number(j, where, "noise_wind_factor", {-1000.0, 1000.0}, v.noise_wind_factor));
  MOTE_TRY(read_optional_uint(j, where, "noise_texture", 0, 0xffffffffu, v.noise_texture));
  return {};
}

Status read_fog(const json& j, const std::string& where, FogSettings& f) {
  MOTE_TRY(check_object(j, where, {"grid", "near", "far", "anisotropy", "history_weight", "wind"}));
  if (j.contains("grid")) {
    const std::string w = json_child(where, "grid");
    const json& g = j["grid"];
    if (!g.is_array() || g.size() != 3) return json_parse_error(w, "expected [across, down, slices]");
    for (size_t k = 0; k < 3; ++k) {
      MOTE_TRY_ASSIGN(f.grid[int(k)], read_uint(g[k], json_child(w, k), 1, 512));
    }
  }
  MOTE_TRY(read_optional_number(j, where, "near", kPositive, f.near_distance));
  MOTE_TRY(read_optional_number(j, where, "far", {0.0, 1e6, true}, f.far_distance));
  if (!(f.far_distance > f.near_distance)) {
    const char* at = j.contains("far") ? "far" : "near";
    return json_parse_error(json_child(where, at),
                            fmt::format("far ({}) must be greater than near ({})", f.far_distance, f.near_distance));
  }
  MOTE_TRY(read_optional_number(j, where, "anisotropy", {-0.95, 0.95}, f.anisotropy));
  MOTE_TRY(read_optional_number(j, where, "history_weight", {0.0, 0.99}, f.history_weight));
  MOTE_TRY(read_optional_vec3(j, where, "wind", {-1e4, 1e4}, f.wind));
  return {};
}

Status read_output(const json& j, const std::string& where, Output& o) {
  MOTE_TRY(check_object(j, where,
                        {"width", "height", "frames", "fps", "dt", "seed", "warmup_seconds", "exposure", "tonemap"}));
  MOTE_TRY(read_optional_uint(j, where, "width", 16, 8192, o.width));
  MOTE_TRY(read_optional_uint(j, where, "height", 16, 8192, o.height));
  MOTE_TRY(read_optional_uint(j, where, "frames", 1, 100000, o.frames));
  MOTE_TRY(read_optional_number(j, where, "fps", {0.0, 1000.0, true}, o.fps));
  // A rate so small its frame interval is not a float (1e-45 fps) has no step to simulate with.
  if (!std::isfinite(1.0f / o.fps))
    return json_parse_error(json_child(where, "fps"), fmt::format("fps {} is too small to step by", o.fps));
  MOTE_TRY(read_optional_number(j, where, "dt", {0.0, 1.0}, o.dt));
  MOTE_TRY(read_optional_uint(j, where, "seed", 0, 0xffffffffu, o.seed));
  MOTE_TRY(read_optional_number(j, where, "warmup_seconds", {0.0, 600.0}, o.warmup_seconds));
  MOTE_TRY(read_optional_number(j, where, "exposure", {0.0, 1e6, true}, o.exposure));
  if (j.contains("tonemap")) {
    MOTE_TRY_ASSIGN(std::string s, read_choice(j["tonemap"], json_child(where, "tonemap"), {"aces", "agx"}));
    o.tonemap = s == "aces" ? Tonemap::kAces : Tonemap::kAgx;
  }
  return {};
}

// The lists' limits, enforced while the text is read: a file of 2^20 + 1 emitters is refused at
// the first one past the limit, before any DOM holds them.
constexpr JsonArrayLimit kListLimits[] = {
    {"/transforms", kMaxTransforms},    {"/objects", kMaxObjects},         {"/emitters", kMaxEmitters},
    {"/point_lights", kMaxPointLights}, {"/spot_lights", kMaxPointLights}, {"/camera/keys", kMaxCameraKeys},
    {"/volumes", kMaxVolumes},          {"/events", kMaxEventBindings},    {"/vector_fields", kMaxSceneVectorFields}};

// The transforms, parents first; each at most kMaxTransformLevels deep (mote/emitter.hpp), the
// level its parent's + 1, refused at its "parent".
Status read_transforms(const json& j, Scene& scene, std::set<std::string>& names) {
  MOTE_TRY_ASSIGN(const json* arr, read_array(j, "/transforms", kMaxTransforms));
  std::vector<uint32_t> levels;
  levels.reserve(arr->size());
  for (size_t i = 0; i < arr->size(); ++i) {
    Transform t;
    const std::string where = json_child("/transforms", i);
    MOTE_TRY(read_transform((*arr)[i], where, names, t));
    const uint32_t level = t.parent.empty() ? 1 : levels[scene.transform_index.at(t.parent)] + 1;
    if (level > kMaxTransformLevels)
      return json_parse_error(json_child(where, "parent"),
                              fmt::format("the transform would sit {} levels deep; the hierarchy is at most {} levels "
                                          "deep (kMaxTransformLevels)",
                                          level, kMaxTransformLevels));
    levels.push_back(level);
    scene.transform_index.emplace(t.name, uint32_t(i));
    scene.transforms.push_back(std::move(t));
  }
  return {};
}

}  // namespace

// Each element of the optional array `key` (at most `limit` of them), read by `read` (element, its
// pointer, the item) and appended to `out`.
template <typename T, typename Read>
Status read_list(const json& j, const char* key, size_t limit, std::vector<T>& out, Read read) {
  if (!j.contains(key)) return {};
  const std::string where = std::string("/") + key;
  MOTE_TRY_ASSIGN(const json* arr, read_array(j[key], where, limit));
  for (size_t i = 0; i < arr->size(); ++i) {
    T item;
    MOTE_TRY(read((*arr)[i], json_child(where, i), item));
    out.push_back(std::move(item));
  }
  return {};
}

Result<Scene> load_scene(std::string_view json_text, const std::filesystem::path& base_dir,
                         const std::filesystem::path& asset_root) {
  const PathBase paths{base_dir, asset_root};
  MOTE_TRY_ASSIGN(const json j, parse_json(json_text, kListLimits));
  const std::string root;
  MOTE_TRY(check_object(j, root,
                        {"$schema", "version", "name", "camera", "sun", "point_lights", "spot_lights", "environment",
                         "transforms", "objects", "emitters", "events", "volumes", "fog", "wind", "vector_fields",
                         "output"}));
  // "$schema" names the schema an editor checks the file against (docs/scene.schema.json): a
  // string, otherwise unread.
  if (j.contains("$schema")) MOTE_TRY(read_string(j["$schema"], "/$schema"));
  MOTE_TRY(require(j, root, "version"));
  MOTE_TRY(read_uint(j["version"], "/version", 1, 1));
  Scene scene;
  scene.base_dir = base_dir;
  scene.asset_root = asset_root;
  if (j.contains("name")) {
    MOTE_TRY_ASSIGN(scene.name, read_string(j["name"], "/name"));
    if (scene.name.empty() || scene.name.size() > 256)
      return json_parse_error("/name", "the name must have 1 to 256 characters");
  }
  // Transforms first: every other section refers to them.
  std::set<std::string> transform_names;
  if (j.contains("transforms")) MOTE_TRY(read_transforms(j["transforms"], scene, transform_names));
  if (j.contains("camera")) MOTE_TRY(read_camera(j["camera"], "/camera", scene.camera));
  if (j.contains("sun") && !j["sun"].is_null()) {
    DirectionalLight sun;
    MOTE_TRY(read_sun(j["sun"], "/sun", sun));
    scene.sun = sun;
  }
  MOTE_TRY(read_list(j, "point_lights", kMaxPointLights, scene.point_lights,
                     [&](const json& e, const std::string& w, PointLight& l) {
                       return read_point_light(e, w, transform_names, l);
                     }));
  MOTE_TRY(read_list(j, "spot_lights", kMaxPointLights, scene.spot_lights,
                     [&](const json& e, const std::string& w, SpotLight& l) {
                       return read_spot_light(e, w, transform_names, l);
                     }));
  if (j.contains("environment")) MOTE_TRY(read_environment(j["environment"], "/environment", scene.environment));
  std::set<std::string> object_names, emitter_names, volume_names;
  MOTE_TRY(read_list(j, "objects", kMaxObjects, scene.objects, [&](const json& e, const std::string& w, Object& o) {
    return read_object(e, w, transform_names, object_names, paths, o);
  }));
  MOTE_TRY(read_list(j, "emitters", kMaxEmitters, scene.emitters, [&](const json& e, const std::string& w, Emitter& m) {
    return read_emitter(e, w, transform_names, emitter_names, paths, m);
  }));
  MOTE_TRY(read_list(j, "volumes", kMaxVolumes, scene.volumes, [&](const json& e, const std::string& w, Volume& v) {
    return read_volume(e, w, transform_names, volume_names, v);
  }));
  if (j.contains("fog")) MOTE_TRY(read_fog(j["fog"], "/fog", scene.fog));
  if (j.contains("wind")) MOTE_TRY(read_wind(j["wind"], "/wind", scene.wind));
  if (j.contains("events")) MOTE_TRY(read_event_bindings(j["events"], "/events", emitter_names, scene.events));
  if (j.contains("vector_fields"))
    MOTE_TRY(read_vector_fields(j["vector_fields"], "/vector_fields", paths, scene.vector_fields));
  if (j.contains("output")) MOTE_TRY(read_output(j["output"], "/output", scene.output));
  return scene;
}

Result<Scene> load_scene_file(const std::filesystem::path& path, const std::filesystem::path& asset_root) {
  // Scene files are small; 64 MiB is far beyond any real one and bounds what a bad path costs.
  auto text = read_file_text(path.string(), size_t(64) << 20);
  if (!text.ok()) return make_error(ErrorCode::kIo, text.error().message, text.error().where);
  return load_scene(*text, path.parent_path(), asset_root);
}

}  // namespace mote::scene
