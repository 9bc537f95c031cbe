// A scene file (JSON, docs/design/scene.md, docs/scene.schema.json): the input of `mote render`.
// It names an opaque set (ground plane, boxes, spheres, glTF meshes), lights (one directional
// with an optional shadow map, point lights, a sky/ground ambient), a camera with a path over
// time, a transform hierarchy (rows of the GPU TransformTable) that objects and emitters stand
// at, the emitters (effect file, transform, seed, field overrides) and the output settings.
// load_scene is strict like effect documents: every key known, every number finite and in range,
// every reference resolved; the first problem stops loading with a JSON pointer to it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "mote/result.hpp"
#include "mote/simulation.hpp"  // FieldValue
#include "scene/scene_events.hpp"
#include "scene/scene_vector_fields.hpp"

namespace mote::scene {

// Most entries load_scene accepts per list (a longer list is a kParse error at the list). They
// bound what an untrusted file makes us allocate; the renderer may have tighter limits of its own.
inline constexpr uint32_t kMaxTransforms = 1u << 20;
inline constexpr uint32_t kMaxObjects = 1u << 16;
inline constexpr uint32_t kMaxEmitters = 1u << 20;
inline constexpr uint32_t kMaxPointLights = 1024;
inline constexpr uint32_t kMaxCameraKeys = 4096;
inline constexpr uint32_t kMaxVolumes = 4096;

// One key of a camera path: where the eye is and what it looks at, at `time` seconds.
struct CameraKey {
  float time = 0.0f;
  glm::vec3 position{0.0f, 2.0f, 6.0f};
  glm::vec3 target{0.0f, 1.0f, 0.0f};
  float fov_y_degrees = 45.0f;
};

// A circular path around `center`: the eye at `radius` from it in the XZ plane, `height` above
// it, starting at `start_degrees` (0 = +Z, counter-clockwise seen from +Y) and turning
// `degrees_per_second`; it looks at `center` + (0, target_height, 0).
struct CameraOrbit {
  glm::vec3 center{0.0f};
  float radius = 6.0f;
  float height = 2.0f;
  float target_height = 1.0f;
  float start_degrees = 0.0f;
  float degrees_per_second = 0.0f;
};

enum class CameraInterpolation { kLinear, kCatmullRom };

struct Camera {
  // The still camera when neither keys nor orbit are given.
  CameraKey still;
  // When non-empty (sorted by time, strictly increasing): the path. Before the first key and
  // after the last the camera holds that key.
  std::vector<CameraKey> keys;
  CameraInterpolation interpolation = CameraInterpolation::kCatmullRom;
  std::optional<CameraOrbit> orbit;  // keys and orbit are exclusive
  float near_plane = 0.05f;
  float far_plane = 500.0f;
};

// The camera evaluated at one time (evaluate_camera): a right-handed look-at with +Y up.
struct CameraPose {
  glm::vec3 position{0.0f};
  glm::vec3 target{0.0f, 0.0f, -1.0f};
  float fov_y_degrees = 45.0f;
  float near_plane = 0.05f;
  float far_plane = 500.0f;
};

struct DirectionalLight {
  glm::vec3 direction{-0.4f, -1.0f, -0.3f};  // the way the light travels (normalised on load)
  glm::vec3 color{1.0f};
  float intensity = 3.0f;
  bool shadows = true;
  uint32_t shadow_map_size = 2048;  // texels per side, 256 .. 8192
};

struct PointLight {
  std::string transform;     // a transform's name it stands at ("" = the world origin + position)
  glm::vec3 position{0.0f};  // relative to the transform
  glm::vec3 color{1.0f};
  float intensity = 10.0f;  // radiant intensity scale; falls off with 1/d^2, windowed by range
  float range = 10.0f;      // metres; the light is zero beyond it
};

// A point light whose light leaves in a cone about `direction` (unit, in its transform's frame:
// a transform moves and turns it): full within inner_degrees of it, none past outer_degrees (half-angles), the
// ramp between as light_cone_factor (shaders/shared/particle_render.h) gives it.
struct SpotLight {
  std::string transform;  // a transform's name it stands at ("" = the world origin + position)
  glm::vec3 position{0.0f};
  glm::vec3 direction{0.0f, -1.0f, 0.0f};
  glm::vec3 color{1.0f};
  float intensity = 10.0f;
  float range = 10.0f;
  float inner_degrees = 20.0f;  // 0 .. outer_degrees
  float outer_degrees = 30.0f;  // above 0, at most 90
};

// Hemisphere ambient plus the background the sky shows where nothing is drawn.
struct Environment {
  glm::vec3 sky_color{0.35f, 0.45f, 0.6f};
  glm::vec3 ground_color{0.15f, 0.13f, 0.12f};
  float ambient_intensity = 0.5f;
  glm::vec3 background{0.35f, 0.45f, 0.6f};  // radiance behind everything (linear)
};

struct Material {
  glm::vec3 base_color{0.8f};
  float roughness = 0.6f;  // 0.02 .. 1
  float metallic = 0.0f;   // 0 .. 1
  glm::vec3 emissive{0.0f};
};

enum class ObjectShape { kPlane, kBox, kSphere, kMesh };

// A node of the transform hierarchy. Rows of the runtime's TransformTable are created in file
// order (parents must come before their children). The animation is evaluated on the host per
// frame and written as the row's local pose: local = base pose, then spin about `spin_axis` by
// `spin_degrees_per_second * t`, then translated by `bob_amplitude * sin(2 pi bob_hz t)` along +Y.
// Both act in the parent's frame and leave the scale alone: rotation = spin(t) * base rotation
// (the axis passes through the transform's own origin, so the position does not orbit), and
// position = base position + (0, bob(t), 0). evaluate_transform is the one implementation.
struct Transform {
  std::string name;    // unique identifier
  std::string parent;  // "" = a root
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // from the file's [x, y, z, w] or euler_degrees
  glm::vec3 scale{1.0f};
  glm::vec3 spin_axis{0.0f, 1.0f, 0.0f};
  float spin_degrees_per_second = 0.0f;
  float bob_amplitude = 0.0f;
  float bob_hz = 0.0f;
};

struct Object {
  std::string name;  // optional, for messages
  ObjectShape shape = ObjectShape::kBox;
  std::filesystem::path mesh;  // kMesh: a glTF file (.gltf/.glb), resolved against the scene's folder
  std::string transform;       // "" = placed by position/rotation/scale in the world
  glm::vec3 position{0.0f};    // relative to the transform
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};  // plane: X/Z extent (unit plane is 1 x 1 centred); box: unit cube; sphere: unit diameter
  Material material;
  bool casts_shadow = true;
};

struct Emitter {
  std::string name;              // optional, for messages and stats
  std::filesystem::path effect;  // an effect document, resolved against the scene's folder
  std::string transform;         // "" = placed by position/rotation in the world
  glm::vec3 position{0.0f};      // used when transform is ""
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  uint32_t seed = 0;                // 0 = derived from the output seed and the emitter's index
  std::vector<FieldValue> fields;   // emitter field overrides (names checked when the effect loads)
  std::vector<FieldValue> globals;  // global field overrides
  float start_time = 0.0f;          // seconds of scene time before the emitter is added
};

// A fog volume (docs/design/media.md): the unit box [-0.5, 0.5]^3 scaled, turned and placed (at
// a transform when one is named: the volume follows it), filled with a scattering medium whose
// density the noise modulates. The ranges are the loader's; the renderer checks the noise
// texture exists.
struct Volume {
  std::string name;          // optional, for messages
  std::string transform;     // "" = placed by position/rotation/scale in the world
  glm::vec3 position{0.0f};  // relative to the transform
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};           // the box's size in metres along its axes
  float density = 0.1f;            // extinction per metre, 0 .. 1000
  float fade_distance = 0.0f;      // metres of soft edge inside each face
  glm::vec3 albedo{1.0f};          // scattering colour, 0 .. 1
  float noise_strength = 0.0f;     // 0 .. 1
  float noise_scale = 32.0f;       // metres per tile repeat
  float noise_warp = 0.1f;         // tile units, 0 .. 16
  glm::vec3 noise_velocity{0.0f};  // m/s
  float noise_wind_factor = 1.0f;
  uint32_t noise_texture = 0;  // atlas slot; 0 = the built-in tile (a scene has no other)
};

// The froxel fog's settings and the wind the volumes' noise feels (used when there are volumes).
struct FogSettings {
  glm::uvec3 grid{160, 90, 64};  // froxels across, down and in depth, 1 .. 512 each
  float near_distance = 0.5f;    // metres: the first slice's start
  float far_distance = 200.0f;   // the last slice's end
  float anisotropy = 0.2f;       // Henyey-Greenstein g, -0.95 .. 0.95
  float history_weight = 0.95f;  // temporal accumulation, 0 .. 0.99
  glm::vec3 wind{0.0f};          // m/s
};

enum class Tonemap { kAces, kAgx };

struct Output {
  uint32_t width = 640;   // 16 .. 8192
  uint32_t height = 360;  // 16 .. 8192
  uint32_t frames = 60;   // 1 .. 100000
  float fps = 30.0f;      // frame rate of the written sequence
  float dt = 0.0f;        // simulation step; 0 = 1 / fps
  uint32_t seed = 1;
  float warmup_seconds = 0.0f;  // simulated before the first written frame (as well as prewarm)
  float exposure = 1.0f;        // linear scale before tonemapping
  Tonemap tonemap = Tonemap::kAces;

  float step() const { return dt > 0.0f ? dt : 1.0f / fps; }
};

struct Scene {
  std::string name;
  Camera camera;
  std::optional<DirectionalLight> sun;
  std::vector<PointLight> point_lights;
  std::vector<SpotLight> spot_lights;  // drawn after the point lights: 16 of both in all are used
  Environment environment;
  std::vector<Transform> transforms;
  std::vector<Object> objects;
  std::vector<Emitter> emitters;
  std::vector<Volume> volumes;
  FogSettings fog;
  Wind wind;                         // what SAMPLE_WIND reads in every effect (the `wind` object; still air by default)
  std::vector<EventBinding> events;  // emitters' event outputs bound to emitters (the `events` list)
  std::vector<SceneVectorField> vector_fields;  // .mvf files the effects' vector_field nodes sample
  Output output;
  std::filesystem::path base_dir;  // where relative paths resolve (the scene file's folder)
  // The folder every file the scene names, and every texture and mesh its effects name, must
  // resolve inside (canonical, src/core/asset_path.hpp); empty: not confined (an internal caller
  // that trusts its files — the public mote::Scene always has one).
  std::filesystem::path asset_root;
  // name -> index in `transforms`, filled by load_scene (find_transform searches without it).
  std::map<std::string, uint32_t, std::less<>> transform_index;

  // Index of the transform named `name` in `transforms`, or nullopt.
  std::optional<uint32_t> find_transform(std::string_view name) const;
};

// Parses and validates a scene document. Relative paths (meshes, effects) are resolved against
// `base_dir`; their existence is NOT checked here (the renderer reports a missing file with the
// object's or emitter's pointer). With an `asset_root` (canonical, core::canonical_asset_root)
// every path must be relative and resolve inside it (absolute paths and escapes refused, at the
// path's pointer); without one, absolute paths are taken as they are. Errors: kParse with a JSON
// pointer in `where` ("/emitters/2/fields/rate").
Result<Scene> load_scene(std::string_view json_text, const std::filesystem::path& base_dir,
                         const std::filesystem::path& asset_root = {});
// Reads `path` (kIo on failure) and calls load_scene with its folder as base_dir.
Result<Scene> load_scene_file(const std::filesystem::path& path, const std::filesystem::path& asset_root = {});

// The camera at `time` seconds (keys interpolated, orbit turned, or the still camera).
CameraPose evaluate_camera(const Camera& camera, float time);

// A transform's local pose at `time` (its base pose with its spin and bob applied).
struct LocalPose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};
LocalPose evaluate_transform(const Transform& transform, float time);

}  // namespace mote::scene
