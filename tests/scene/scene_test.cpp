// The scene-file loader (every key, every rejection with its JSON pointer), the camera path and
// transform animation, the scene files in scenes/, and a deterministic mutation fuzz.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scene/scene.hpp"

namespace {

using mote::ErrorCode;
using nlohmann::json;
using namespace mote::scene;
namespace fs = std::filesystem;

// Every key of the format, with values different from the defaults.
constexpr const char* kFull = R"({
  "version": 1,
  "name": "test scene",
  "camera": {
    "keys": [
      {"time": 0.0, "position": [0, 2, 6], "target": [0, 1, 0], "fov_y_degrees": 40},
      {"time": 2.0, "position": [4, 2, 4], "target": [0, 1, 0]},
      {"time": 5.0, "position": [6, 3, 0], "target": [0, 0.5, 0], "fov_y_degrees": 60}
    ],
    "interpolation": "linear",
    "near": 0.1,
    "far": 200
  },
  "sun": {"direction": [0, -2, 0], "color": [0.5, 0.6, 1.0], "intensity": 0.25, "shadows": false, "shadow_map_size": 1024},
  "point_lights": [
    {"transform": "fire", "position": [0, 0.5, 0], "color": [1.0, 0.6, 0.3], "intensity": 40, "range": 8},
    {"position": [3, 1, 3]}
  ],
  "environment": {"sky_color": [0.01, 0.02, 0.05], "ground_color": [0.02, 0.02, 0.02], "ambient_intensity": 0.3,
                  "background": [0.005, 0.01, 0.02]},
  "transforms": [
    {"name": "fire", "position": [1, 0, 2]},
    {"name": "turntable", "parent": "fire", "rotation": [0, 0, 2, 2], "scale": 2, "spin_axis": [0, 0, 3],
     "spin_degrees_per_second": 45, "bob_amplitude": 0.25, "bob_hz": 0.5},
    {"name": "tilted", "parent": "turntable", "euler_degrees": [90, 90, 0], "scale": [1, 2, 3]}
  ],
  "objects": [
    {"name": "ground", "shape": "plane", "scale": [20, 1, 20],
     "material": {"base_color": [0.2, 0.18, 0.15], "roughness": 0.9, "metallic": 0.0, "emissive": [0, 0, 0]}},
    {"name": "log", "shape": "box", "transform": "fire", "position": [0.3, 0.1, 0], "euler_degrees": [0, 30, 0],
     "scale": [0.8, 0.15, 0.15], "casts_shadow": false},
    {"shape": "sphere", "position": [1, 0.2, 1], "material": {"metallic": 1.0, "roughness": 0.02, "emissive": [2, 1, 0]}},
    {"name": "statue", "shape": "mesh", "mesh": "meshes/statue.glb", "transform": "tilted"}
  ],
  "emitters": [
    {"name": "flame", "effect": "../effects/bonfire_flame.json", "transform": "fire", "seed": 7,
     "fields": {"rate": 200, "color_min": [1, 0.5, 0.1]}, "globals": {"wind": [1, 0, 0]}, "start_time": 0.5},
    {"effect": "/abs/sparkles.json", "position": [2, 1, -1], "rotation": [0, 1, 0, 0]}
  ],
  "volumes": [
    {"name": "bank", "transform": "fire", "position": [0, 1, 0], "euler_degrees": [0, 90, 0], "scale": [20, 2, 10],
     "density": 0.3, "fade_distance": 1.5, "albedo": [0.9, 0.8, 0.7], "noise_strength": 0.8, "noise_scale": 16,
     "noise_warp": 0.2, "noise_velocity": [1, 0, 0.5], "noise_wind_factor": 0.5, "noise_texture": 0},
    {"rotation": [0, 0, 0, 1]}
  ],
  "fog": {"grid": [80, 45, 32], "near": 1, "far": 150, "anisotropy": 0.5, "history_weight": 0.9, "wind": [2, 0, 0]},
  "wind": {"velocity": [3, 0, -1], "gust_strength": 0.5, "gust_period": 4, "turbulence_amplitude": 1.5,
           "turbulence_frequency": 0.25, "turbulence_scroll": 2},
  "output": {"width": 480, "height": 270, "frames": 48, "fps": 24, "dt": 0.01, "seed": 9, "warmup_seconds": 2,
             "exposure": 1.5, "tonemap": "agx"}
})";

const fs::path kBase = "/base/scenes";

void expect_vec3(const glm::vec3& got, const glm::vec3& want, float tol = 1e-6f) {
  EXPECT_NEAR(got.x, want.x, tol);
  EXPECT_NEAR(got.y, want.y, tol);
  EXPECT_NEAR(got.z, want.z, tol);
}

void expect_quat(const glm::quat& got, const glm::quat& want, float tol = 1e-6f) {
  // q and -q are the same rotation.
  const float d = std::fabs(glm::dot(got, want));
  EXPECT_NEAR(d, 1.0f, tol) << "got (" << got.x << ", " << got.y << ", " << got.z << ", " << got.w << ")";
}

glm::quat quat_xyzw(float x, float y, float z, float w) {
  glm::quat q;
  q.x = x;
  q.y = y;
  q.z = z;
  q.w = w;
  return q;
}

TEST(SceneLoader, FullSceneHasEveryValue) {
  auto r = load_scene(kFull, kBase);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Scene& s = *r;
  EXPECT_EQ(s.name, "test scene");
  EXPECT_EQ(s.base_dir, kBase);

  // Camera
  ASSERT_EQ(s.camera.keys.size(), 3u);
  EXPECT_EQ(s.camera.keys[1].time, 2.0f);
  expect_vec3(s.camera.keys[1].position, {4, 2, 4});
  EXPECT_EQ(s.camera.keys[0].fov_y_degrees, 40.0f);
  EXPECT_EQ(s.camera.keys[1].fov_y_degrees, 45.0f);  // default
  expect_vec3(s.camera.keys[2].target, {0, 0.5f, 0});
  EXPECT_EQ(s.camera.interpolation, CameraInterpolation::kLinear);
  EXPECT_FALSE(s.camera.orbit.has_value());
  EXPECT_FLOAT_EQ(s.camera.near_plane, 0.1f);
  EXPECT_FLOAT_EQ(s.camera.far_plane, 200.0f);

  // Sun: the direction is normalised.
  ASSERT_TRUE(s.sun.has_value());
  expect_vec3(s.sun->direction, {0, -1, 0});
  expect_vec3(s.sun->color, {0.5f, 0.6f, 1.0f});
  EXPECT_FLOAT_EQ(s.sun->intensity, 0.25f);
  EXPECT_FALSE(s.sun->shadows);
  EXPECT_EQ(s.sun->shadow_map_size, 1024u);

  ASSERT_EQ(s.point_lights.size(), 2u);
  EXPECT_EQ(s.point_lights[0].transform, "fire");
  expect_vec3(s.point_lights[0].position, {0, 0.5f, 0});
  expect_vec3(s.point_lights[0].color, {1.0f, 0.6f, 0.3f});
  EXPECT_FLOAT_EQ(s.point_lights[0].intensity, 40.0f);
  EXPECT_FLOAT_EQ(s.point_lights[0].range, 8.0f);
  EXPECT_EQ(s.point_lights[1].transform, "");
  EXPECT_FLOAT_EQ(s.point_lights[1].intensity, 10.0f);  // default
  EXPECT_FLOAT_EQ(s.point_lights[1].range, 10.0f);      // default

  expect_vec3(s.environment.sky_color, {0.01f, 0.02f, 0.05f});
  expect_vec3(s.environment.ground_color, {0.02f, 0.02f, 0.02f});
  EXPECT_FLOAT_EQ(s.environment.ambient_intensity, 0.3f);
  expect_vec3(s.environment.background, {0.005f, 0.01f, 0.02f});

  // Transforms: the quaternion is normalised, scale splats, the spin axis is normalised.
  ASSERT_EQ(s.transforms.size(), 3u);
  EXPECT_EQ(s.transforms[0].name, "fire");
  EXPECT_EQ(s.transforms[0].parent, "");
  expect_vec3(s.transforms[0].position, {1, 0, 2});
  EXPECT_EQ(s.transforms[1].parent, "fire");
  const float h = std::sqrt(0.5f);
  EXPECT_NEAR(s.transforms[1].rotation.x, 0.0f, 1e-6f);
  EXPECT_NEAR(s.transforms[1].rotation.z, h, 1e-6f);
  EXPECT_NEAR(s.transforms[1].rotation.w, h, 1e-6f);
  expect_vec3(s.transforms[1].scale, {2, 2, 2});
  expect_vec3(s.transforms[1].spin_axis, {0, 0, 1});
  EXPECT_FLOAT_EQ(s.transforms[1].spin_degrees_per_second, 45.0f);
  EXPECT_FLOAT_EQ(s.transforms[1].bob_amplitude, 0.25f);
  EXPECT_FLOAT_EQ(s.transforms[1].bob_hz, 0.5f);
  expect_vec3(s.transforms[2].scale, {1, 2, 3});
  // euler_degrees [90, 90, 0]: X first (+Y -> +Z), then Y (+Z -> +X), about the fixed axes.
  expect_vec3(s.transforms[2].rotation * glm::vec3(0, 1, 0), {1, 0, 0}, 1e-5f);
  expect_vec3(s.transforms[2].rotation * glm::vec3(1, 0, 0), {0, 0, -1}, 1e-5f);  // X keeps +X, Y turns it to -Z
  expect_vec3(s.transforms[2].rotation * glm::vec3(0, 0, 1), {0, -1, 0}, 1e-5f);  // +Z -> -Y -> -Y
  EXPECT_NEAR(glm::length(s.transforms[2].rotation), 1.0f, 1e-6f);
  EXPECT_EQ(s.find_transform("fire"), 0u);
  EXPECT_EQ(s.find_transform("tilted"), 2u);
  EXPECT_FALSE(s.find_transform("nope").has_value());
  EXPECT_FALSE(s.find_transform("").has_value());

  // Objects
  ASSERT_EQ(s.objects.size(), 4u);
  EXPECT_EQ(s.objects[0].name, "ground");
  EXPECT_EQ(s.objects[0].shape, ObjectShape::kPlane);
  expect_vec3(s.objects[0].scale, {20, 1, 20});
  expect_vec3(s.objects[0].material.base_color, {0.2f, 0.18f, 0.15f});
  EXPECT_FLOAT_EQ(s.objects[0].material.roughness, 0.9f);
  EXPECT_TRUE(s.objects[0].casts_shadow);
  EXPECT_EQ(s.objects[1].shape, ObjectShape::kBox);
  EXPECT_EQ(s.objects[1].transform, "fire");
  expect_vec3(s.objects[1].position, {0.3f, 0.1f, 0});
  expect_quat(s.objects[1].rotation, glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 1, 0)));
  EXPECT_FALSE(s.objects[1].casts_shadow);
  EXPECT_EQ(s.objects[2].name, "");
  EXPECT_EQ(s.objects[2].shape, ObjectShape::kSphere);
  EXPECT_FLOAT_EQ(s.objects[2].material.metallic, 1.0f);
  EXPECT_FLOAT_EQ(s.objects[2].material.roughness, 0.02f);
  expect_vec3(s.objects[2].material.emissive, {2, 1, 0});
  expect_vec3(s.objects[2].material.base_color, {0.8f, 0.8f, 0.8f});  // default
  EXPECT_EQ(s.objects[3].shape, ObjectShape::kMesh);
  EXPECT_EQ(s.objects[3].mesh, kBase / "meshes/statue.glb");
  EXPECT_EQ(s.objects[3].transform, "tilted");

  // Emitters: relative effects join base_dir, absolute ones stay; fields come sorted by name.
  ASSERT_EQ(s.emitters.size(), 2u);
  const Emitter& e = s.emitters[0];
  EXPECT_EQ(e.name, "flame");
  EXPECT_EQ(e.effect, kBase / "../effects/bonfire_flame.json");
  EXPECT_EQ(e.transform, "fire");
  EXPECT_EQ(e.seed, 7u);
  ASSERT_EQ(e.fields.size(), 2u);
  EXPECT_EQ(e.fields[0].name, "color_min");
  EXPECT_EQ(e.fields[0].values, (std::vector<float>{1.0f, 0.5f, 0.1f}));
  EXPECT_EQ(e.fields[1].name, "rate");
  EXPECT_EQ(e.fields[1].values, (std::vector<float>{200.0f}));
  ASSERT_EQ(e.globals.size(), 1u);
  EXPECT_EQ(e.globals[0].name, "wind");
  EXPECT_EQ(e.globals[0].values, (std::vector<float>{1.0f, 0.0f, 0.0f}));
  EXPECT_FLOAT_EQ(e.start_time, 0.5f);
  const Emitter& e2 = s.emitters[1];
  EXPECT_EQ(e2.effect, fs::path("/abs/sparkles.json"));
  EXPECT_EQ(e2.transform, "");
  expect_vec3(e2.position, {2, 1, -1});
  expect_quat(e2.rotation, quat_xyzw(0, 1, 0, 0));
  EXPECT_EQ(e2.seed, 0u);
  EXPECT_TRUE(e2.fields.empty());

  EXPECT_EQ(s.output.width, 480u);
  EXPECT_EQ(s.output.height, 270u);
  EXPECT_EQ(s.output.frames, 48u);
  EXPECT_FLOAT_EQ(s.output.fps, 24.0f);
  EXPECT_FLOAT_EQ(s.output.dt, 0.01f);
  EXPECT_FLOAT_EQ(s.output.step(), 0.01f);
  EXPECT_EQ(s.output.seed, 9u);
  EXPECT_FLOAT_EQ(s.output.warmup_seconds, 2.0f);
  EXPECT_FLOAT_EQ(s.output.exposure, 1.5f);
  EXPECT_EQ(s.output.tonemap, Tonemap::kAgx);

  ASSERT_EQ(s.volumes.size(), 2u);
  const Volume& v = s.volumes[0];
  EXPECT_EQ(v.name, "bank");
  EXPECT_EQ(v.transform, "fire");
  expect_vec3(v.position, {0, 1, 0});
  expect_quat(v.rotation, glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)), 1e-6f);
  expect_vec3(v.scale, {20, 2, 10});
  EXPECT_FLOAT_EQ(v.density, 0.3f);
  EXPECT_FLOAT_EQ(v.fade_distance, 1.5f);
  expect_vec3(v.albedo, {0.9f, 0.8f, 0.7f});
  EXPECT_FLOAT_EQ(v.noise_strength, 0.8f);
  EXPECT_FLOAT_EQ(v.noise_scale, 16.0f);
  EXPECT_FLOAT_EQ(v.noise_warp, 0.2f);
  expect_vec3(v.noise_velocity, {1, 0, 0.5f});
  EXPECT_FLOAT_EQ(v.noise_wind_factor, 0.5f);
  EXPECT_EQ(v.noise_texture, 0u);
  const Volume defaults;
  EXPECT_FLOAT_EQ(s.volumes[1].density, defaults.density);
  EXPECT_FLOAT_EQ(s.volumes[1].noise_scale, 32.0f);
  EXPECT_FLOAT_EQ(s.volumes[1].noise_warp, 0.1f);
  EXPECT_EQ(s.fog.grid, glm::uvec3(80, 45, 32));
  EXPECT_FLOAT_EQ(s.fog.near_distance, 1.0f);
  EXPECT_FLOAT_EQ(s.fog.far_distance, 150.0f);
  EXPECT_FLOAT_EQ(s.fog.anisotropy, 0.5f);
  EXPECT_FLOAT_EQ(s.fog.history_weight, 0.9f);
  expect_vec3(s.fog.wind, {2, 0, 0});
  EXPECT_EQ(s.wind.velocity, (std::array<float, 3>{3, 0, -1}));
  EXPECT_FLOAT_EQ(s.wind.gust_strength, 0.5f);
  EXPECT_FLOAT_EQ(s.wind.gust_period, 4.0f);
  EXPECT_FLOAT_EQ(s.wind.turbulence_amplitude, 1.5f);
  EXPECT_FLOAT_EQ(s.wind.turbulence_frequency, 0.25f);
  EXPECT_FLOAT_EQ(s.wind.turbulence_scroll, 2.0f);
}

TEST(SceneLoader, MinimalSceneTakesTheDefaults) {
  auto r = load_scene(R"({"version": 1})", "");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Scene& s = *r;
  const Scene d;
  EXPECT_EQ(s.name, "");
  EXPECT_TRUE(s.camera.keys.empty());
  EXPECT_FALSE(s.camera.orbit.has_value());
  expect_vec3(s.camera.still.position, d.camera.still.position);
  expect_vec3(s.camera.still.target, d.camera.still.target);
  EXPECT_EQ(s.camera.still.fov_y_degrees, 45.0f);
  EXPECT_EQ(s.camera.interpolation, CameraInterpolation::kCatmullRom);
  EXPECT_EQ(s.camera.near_plane, 0.05f);
  EXPECT_EQ(s.camera.far_plane, 500.0f);
  EXPECT_FALSE(s.sun.has_value());
  EXPECT_TRUE(s.point_lights.empty() && s.transforms.empty() && s.objects.empty() && s.emitters.empty());
  expect_vec3(s.environment.sky_color, d.environment.sky_color);
  EXPECT_EQ(s.output.width, 640u);
  EXPECT_EQ(s.output.height, 360u);
  EXPECT_EQ(s.output.frames, 60u);
  EXPECT_EQ(s.output.fps, 30.0f);
  EXPECT_EQ(s.output.dt, 0.0f);
  EXPECT_FLOAT_EQ(s.output.step(), 1.0f / 30.0f);
  EXPECT_EQ(s.output.seed, 1u);
  EXPECT_EQ(s.output.tonemap, Tonemap::kAces);
  EXPECT_TRUE(s.volumes.empty());
  EXPECT_EQ(s.fog.grid, glm::uvec3(160, 90, 64));
  EXPECT_FLOAT_EQ(s.fog.history_weight, 0.95f);
}

// "$schema" points an editor at docs/scene.schema.json: a string, accepted and not read.
TEST(SceneLoader, MayNameItsSchema) {
  EXPECT_TRUE(load_scene(R"({"$schema": "../docs/scene.schema.json", "version": 1})", "").ok());
  auto wrong = load_scene(R"({"$schema": false, "version": 1})", "");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().where, "/$schema");
}

// Spot lights: every key read, the direction normalised, the defaults, and each rule refused at
// its pointer (the cone's half-angles 0 <= inner <= outer <= 90, outer above 0).
TEST(SceneLoader, SpotLightsAreReadAndTheirConesChecked) {
  auto r = load_scene(R"({"version": 1, "transforms": [{"name": "lamp"}],
    "spot_lights": [{"transform": "lamp", "position": [1, 3, 0], "direction": [0, -2, 0], "color": [1, 0.9, 0.8],
                     "intensity": 6, "range": 12, "inner_degrees": 10, "outer_degrees": 25}, {}]})",
                      "");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Scene& s = r.value();
  ASSERT_EQ(s.spot_lights.size(), 2u);
  EXPECT_EQ(s.spot_lights[0].transform, "lamp");
  expect_vec3(s.spot_lights[0].position, {1, 3, 0});
  expect_vec3(s.spot_lights[0].direction, {0, -1, 0});
  expect_vec3(s.spot_lights[0].color, {1, 0.9f, 0.8f});
  EXPECT_FLOAT_EQ(s.spot_lights[0].intensity, 6.0f);
  EXPECT_FLOAT_EQ(s.spot_lights[0].range, 12.0f);
  EXPECT_FLOAT_EQ(s.spot_lights[0].inner_degrees, 10.0f);
  EXPECT_FLOAT_EQ(s.spot_lights[0].outer_degrees, 25.0f);
  expect_vec3(s.spot_lights[1].direction, {0, -1, 0});  // defaults
  EXPECT_FLOAT_EQ(s.spot_lights[1].inner_degrees, 20.0f);
  EXPECT_FLOAT_EQ(s.spot_lights[1].outer_degrees, 30.0f);
  EXPECT_TRUE(s.point_lights.empty());
  const std::pair<const char*, const char*> bad[] = {
      {R"({"version": 1, "spot_lights": [{"inner_degrees": 40}]})", "/spot_lights/0/inner_degrees"},
      {R"({"version": 1, "spot_lights": [{"outer_degrees": 0}]})", "/spot_lights/0/outer_degrees"},
      {R"({"version": 1, "spot_lights": [{"outer_degrees": 91}]})", "/spot_lights/0/outer_degrees"},
      {R"({"version": 1, "spot_lights": [{"direction": [0, 0, 0]}]})", "/spot_lights/0/direction"},
      {R"({"version": 1, "spot_lights": [{"transform": "nowhere"}]})", "/spot_lights/0/transform"},
      {R"({"version": 1, "spot_lights": [{"cone": 3}]})", "/spot_lights/0/cone"}};
  for (const auto& [text, where] : bad) {
    auto refused = load_scene(text, "");
    ASSERT_FALSE(refused.ok()) << text;
    EXPECT_EQ(refused.error().code, ErrorCode::kParse);
    EXPECT_EQ(refused.error().where, where) << refused.error().to_string();
  }
}

TEST(SceneLoader, SunNullAbsentOrDefaults) {
  auto none = load_scene(R"({"version": 1, "sun": null})", "");
  ASSERT_TRUE(none.ok()) << none.error().to_string();
  EXPECT_FALSE(none->sun.has_value());
  auto defaults = load_scene(R"({"version": 1, "sun": {}})", "");
  ASSERT_TRUE(defaults.ok()) << defaults.error().to_string();
  ASSERT_TRUE(defaults->sun.has_value());
  EXPECT_NEAR(glm::length(defaults->sun->direction), 1.0f, 1e-6f);
  expect_vec3(defaults->sun->direction, glm::normalize(glm::vec3(-0.4f, -1.0f, -0.3f)));
  EXPECT_TRUE(defaults->sun->shadows);
  EXPECT_EQ(defaults->sun->shadow_map_size, 2048u);
}

TEST(SceneLoader, OrbitAndStillCameras) {
  auto orbit = load_scene(R"({"version": 1, "camera": {"fov_y_degrees": 50, "far": 80,
      "orbit": {"center": [1, 0, 2], "radius": 4.5, "height": 1.6, "target_height": 0.8, "start_degrees": -30,
                "degrees_per_second": 7.5}}})",
                          "");
  ASSERT_TRUE(orbit.ok()) << orbit.error().to_string();
  ASSERT_TRUE(orbit->camera.orbit.has_value());
  const CameraOrbit& o = *orbit->camera.orbit;
  expect_vec3(o.center, {1, 0, 2});
  EXPECT_FLOAT_EQ(o.radius, 4.5f);
  EXPECT_FLOAT_EQ(o.height, 1.6f);
  EXPECT_FLOAT_EQ(o.target_height, 0.8f);
  EXPECT_FLOAT_EQ(o.start_degrees, -30.0f);
  EXPECT_FLOAT_EQ(o.degrees_per_second, 7.5f);
  EXPECT_FLOAT_EQ(orbit->camera.still.fov_y_degrees, 50.0f);
  EXPECT_FLOAT_EQ(orbit->camera.far_plane, 80.0f);

  auto still = load_scene(R"({"version": 1, "camera": {"position": [3, 4, 5], "target": [0, 1, 0], "fov_y_degrees": 30,
      "interpolation": "catmull_rom", "keys": [{"time": 1, "position": [0, 0, 1], "target": [0, 0, 0]}]}})",
                          "");
  ASSERT_FALSE(still.ok());  // position with keys
  auto plain =
      load_scene(R"({"version": 1, "camera": {"position": [3, 4, 5], "target": [0, 1, 0], "fov_y_degrees": 30}})", "");
  ASSERT_TRUE(plain.ok()) << plain.error().to_string();
  expect_vec3(plain->camera.still.position, {3, 4, 5});
  expect_vec3(plain->camera.still.target, {0, 1, 0});
  EXPECT_FLOAT_EQ(plain->camera.still.fov_y_degrees, 30.0f);
}

// ---- Rejections: one edit of kFull each, with the exact pointer of the error. ----

struct Rejection {
  const char* pointer;  // where the edit goes (RFC 6901)
  const char* value;    // JSON text to put there, or nullptr to remove the key or element
  const char* where;    // the error's expected pointer
};

std::string apply(const Rejection& c) {
  json doc = json::parse(kFull);
  const json::json_pointer p(c.pointer);
  if (c.value) {
    doc[p] = json::parse(c.value);
  } else {
    json& parent = doc[p.parent_pointer()];
    if (parent.is_array()) parent.erase(size_t(std::stoul(p.back())));
    else parent.erase(p.back());
  }
  return doc.dump();
}

const Rejection kRejections[] = {
    // top level
    {"/colour", "1", "/colour"},
    {"/version", nullptr, "/"},
    {"/version", "2", "/version"},
    {"/version", "1.0", "/version"},
    {"/name", "\"\"", "/name"},
    {"/name", "3", "/name"},
    {"/transforms", "{}", "/transforms"},
    {"/objects", "null", "/objects"},
    {"/emitters", "\"fire\"", "/emitters"},
    {"/point_lights", "{}", "/point_lights"},
    {"/camera", "[]", "/camera"},
    {"/environment", "0", "/environment"},
    {"/output", "[]", "/output"},
    {"/sun", "3", "/sun"},
    // transforms
    {"/transforms/0/name", nullptr, "/transforms/0"},
    {"/transforms/0/name", "\"1fire\"", "/transforms/0/name"},
    {"/transforms/0/name", "\"fi re\"", "/transforms/0/name"},
    {"/transforms/1/name", "\"fire\"", "/transforms/1/name"},
    {"/transforms/1/parent", "\"tilted\"", "/transforms/1/parent"},     // declared later
    {"/transforms/1/parent", "\"turntable\"", "/transforms/1/parent"},  // itself
    {"/transforms/1/parent", "\"nothing\"", "/transforms/1/parent"},
    {"/transforms/1/parent", "7", "/transforms/1/parent"},
    {"/transforms/0/extra", "1", "/transforms/0/extra"},
    {"/transforms/1/euler_degrees", "[0, 0, 0]", "/transforms/1/euler_degrees"},
    {"/transforms/1/rotation", "[0, 0, 0, 0]", "/transforms/1/rotation"},
    {"/transforms/1/rotation", "[0, 0, 1]", "/transforms/1/rotation"},
    {"/transforms/1/rotation/2", "\"z\"", "/transforms/1/rotation/2"},
    {"/transforms/2/euler_degrees", "[0, 0]", "/transforms/2/euler_degrees"},
    {"/transforms/2/euler_degrees/1", "1e300", "/transforms/2/euler_degrees/1"},
    {"/transforms/1/scale", "0", "/transforms/1/scale"},
    {"/transforms/1/scale", "-2", "/transforms/1/scale"},
    {"/transforms/1/scale", "\"big\"", "/transforms/1/scale"},
    {"/transforms/2/scale/1", "0", "/transforms/2/scale/1"},
    {"/transforms/2/scale", "[1, 2]", "/transforms/2/scale"},
    {"/transforms/1/spin_axis", "[0, 0, 0]", "/transforms/1/spin_axis"},
    {"/transforms/1/spin_degrees_per_second", "true", "/transforms/1/spin_degrees_per_second"},
    {"/transforms/1/bob_amplitude", "-0.1", "/transforms/1/bob_amplitude"},
    {"/transforms/1/bob_hz", "1001", "/transforms/1/bob_hz"},
    {"/transforms/0/position/0", "1e7", "/transforms/0/position/0"},
    // camera
    {"/camera/orbit", "{}", "/camera/orbit"},
    {"/camera/position", "[0, 1, 2]", "/camera/position"},
    {"/camera/target", "[0, 1, 2]", "/camera/target"},
    {"/camera/fov_y_degrees", "50", "/camera/fov_y_degrees"},
    {"/camera/keys", "[]", "/camera/keys"},
    {"/camera/keys", "{}", "/camera/keys"},
    {"/camera/keys/1/time", "0", "/camera/keys/1/time"},  // equal
    {"/camera/keys/2/time", "1", "/camera/keys/2/time"},  // decreasing
    {"/camera/keys/0/time", "-1", "/camera/keys/0/time"},
    {"/camera/keys/0/time", nullptr, "/camera/keys/0"},
    {"/camera/keys/1/target", nullptr, "/camera/keys/1"},
    {"/camera/keys/1/position", "[0, 1, 0]", "/camera/keys/1/target"},  // looks at itself
    {"/camera/keys/0/position", "[0, 2]", "/camera/keys/0/position"},
    {"/camera/keys/0/fov_y_degrees", "1", "/camera/keys/0/fov_y_degrees"},
    {"/camera/keys/0/fov_y_degrees", "179", "/camera/keys/0/fov_y_degrees"},
    {"/camera/keys/0/speed", "1", "/camera/keys/0/speed"},
    {"/camera/interpolation", "\"cubic\"", "/camera/interpolation"},
    {"/camera/near", "0", "/camera/near"},
    {"/camera/near", "-1", "/camera/near"},
    {"/camera/far", "0.1", "/camera/far"},  // equal to near
    {"/camera/far", "0.05", "/camera/far"},
    {"/camera/near", "300", "/camera/far"},
    {"/camera", R"({"near": 600})", "/camera/near"},  // beyond the default far
    {"/camera", R"({"interpolation": "linear"})", "/camera/interpolation"},
    {"/camera", R"({"fov_y_degrees": 0.5})", "/camera/fov_y_degrees"},
    {"/camera", R"({"fov_y_degrees": 180})", "/camera/fov_y_degrees"},
    {"/camera", R"({"position": [0, 1, 0], "target": [0, 1, 0]})", "/camera/target"},
    {"/camera", R"({"position": [0, 1, 0]})", "/camera/position"},  // the default target
    {"/camera", R"({"orbit": {"radius": 0}})", "/camera/orbit/radius"},
    {"/camera", R"({"orbit": {"radius": 3, "tilt": 2}})", "/camera/orbit/tilt"},
    {"/camera", R"({"orbit": {"center": [0, 0]}})", "/camera/orbit/center"},
    {"/camera", R"({"orbit": {"degrees_per_second": "fast"}})", "/camera/orbit/degrees_per_second"},
    {"/camera", R"({"orbit": {}, "target": [0, 0, 0]})", "/camera/target"},
    {"/camera", R"({"orbit": 4})", "/camera/orbit"},
    // sun
    {"/sun/direction", "[0, 0, 0]", "/sun/direction"},
    {"/sun/direction", "[0, -1]", "/sun/direction"},
    {"/sun/color/1", "-0.5", "/sun/color/1"},
    {"/sun/intensity", "-1", "/sun/intensity"},
    {"/sun/shadows", "\"yes\"", "/sun/shadows"},
    {"/sun/shadow_map_size", "255", "/sun/shadow_map_size"},
    {"/sun/shadow_map_size", "8193", "/sun/shadow_map_size"},
    {"/sun/shadow_map_size", "1024.5", "/sun/shadow_map_size"},
    {"/sun/size", "1", "/sun/size"},
    // point lights
    {"/point_lights/0/transform", "\"camp\"", "/point_lights/0/transform"},
    {"/point_lights/0/range", "0", "/point_lights/0/range"},
    {"/point_lights/0/intensity", "-3", "/point_lights/0/intensity"},
    {"/point_lights/1/color", "[1, 1, -1]", "/point_lights/1/color/2"},
    {"/point_lights/1/flicker", "1", "/point_lights/1/flicker"},
    // environment
    {"/environment/ambient_intensity", "-0.1", "/environment/ambient_intensity"},
    {"/environment/sky_color/0", "-1", "/environment/sky_color/0"},
    {"/environment/ground_color", "[0, 0]", "/environment/ground_color"},
    {"/environment/background", "\"black\"", "/environment/background"},
    {"/environment/fog", "1", "/environment/fog"},
    // objects
    {"/objects/1/shape", nullptr, "/objects/1"},
    {"/objects/1/shape", "\"cone\"", "/objects/1/shape"},
    {"/objects/1/mesh", "\"log.glb\"", "/objects/1/mesh"},
    {"/objects/3/mesh", nullptr, "/objects/3"},
    {"/objects/3/mesh", "\"\"", "/objects/3/mesh"},
    {"/objects/3/mesh", "\"statue.obj\"", "/objects/3/mesh"},
    {"/objects/3/mesh", "4", "/objects/3/mesh"},
    {"/objects/1/transform", "\"camp\"", "/objects/1/transform"},
    {"/objects/1/name", "\"ground\"", "/objects/1/name"},
    {"/objects/1/name", "\"\"", "/objects/1/name"},
    {"/objects/1/rotation", "[0, 0, 0, 1]", "/objects/1/euler_degrees"},
    {"/objects/1/casts_shadow", "0", "/objects/1/casts_shadow"},
    {"/objects/0/material/roughness", "0.01", "/objects/0/material/roughness"},
    {"/objects/0/material/roughness", "1.01", "/objects/0/material/roughness"},
    {"/objects/0/material/metallic", "1.5", "/objects/0/material/metallic"},
    {"/objects/0/material/base_color/0", "1.2", "/objects/0/material/base_color/0"},
    {"/objects/0/material/emissive/2", "-1", "/objects/0/material/emissive/2"},
    {"/objects/0/material/opacity", "1", "/objects/0/material/opacity"},
    {"/objects/0/scale", "[20, 0, 20]", "/objects/0/scale/1"},
    {"/objects/2/position/1", "null", "/objects/2/position/1"},
    // emitters
    {"/emitters/0/effect", nullptr, "/emitters/0"},
    {"/emitters/0/effect", "\"\"", "/emitters/0/effect"},
    {"/emitters/0/effect", "5", "/emitters/0/effect"},
    {"/emitters/0/transform", "\"camp\"", "/emitters/0/transform"},
    {"/emitters/0/position", "[0, 1, 0]", "/emitters/0/position"},
    {"/emitters/0/euler_degrees", "[0, 1, 0]", "/emitters/0/euler_degrees"},
    {"/emitters/1/name", "\"flame\"", "/emitters/1/name"},
    {"/emitters/1/rotation", "[0, 0, 0, 0]", "/emitters/1/rotation"},
    {"/emitters/1/euler_degrees", "[0, 0, 0]", "/emitters/1/euler_degrees"},
    {"/emitters/0/seed", "-1", "/emitters/0/seed"},
    {"/emitters/0/seed", "4294967296", "/emitters/0/seed"},
    {"/emitters/0/seed", "1.5", "/emitters/0/seed"},
    {"/emitters/0/start_time", "-1", "/emitters/0/start_time"},
    {"/emitters/0/fields", "[]", "/emitters/0/fields"},
    {"/emitters/0/fields/rate", "\"fast\"", "/emitters/0/fields/rate"},
    {"/emitters/0/fields/rate", "[]", "/emitters/0/fields/rate"},
    {"/emitters/0/fields/rate", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]", "/emitters/0/fields/rate"},
    {"/emitters/0/fields/color_min/1", "true", "/emitters/0/fields/color_min/1"},
    {"/emitters/0/fields/color_min/1", "1e39", "/emitters/0/fields/color_min/1"},
    {"/emitters/0/fields/a-b", "1", "/emitters/0/fields/a-b"},
    {"/emitters/0/fields/a~1b", "1", "/emitters/0/fields/a~1b"},  // the key "a/b", escaped in the pointer
    {"/emitters/0/globals", "3", "/emitters/0/globals"},
    {"/emitters/0/globals/wind", "{}", "/emitters/0/globals/wind"},
    {"/emitters/0/rate", "3", "/emitters/0/rate"},
    // output
    {"/output/width", "15", "/output/width"},
    {"/output/width", "8193", "/output/width"},
    {"/output/height", "-270", "/output/height"},
    {"/output/height", "270.5", "/output/height"},
    {"/output/frames", "0", "/output/frames"},
    {"/output/frames", "100001", "/output/frames"},
    {"/output/fps", "0", "/output/fps"},
    {"/output/fps", "1000.5", "/output/fps"},
    {"/output/dt", "-0.01", "/output/dt"},
    {"/output/dt", "1.5", "/output/dt"},
    {"/output/seed", "-1", "/output/seed"},
    {"/output/warmup_seconds", "-1", "/output/warmup_seconds"},
    {"/output/exposure", "0", "/output/exposure"},
    {"/output/tonemap", "\"reinhard\"", "/output/tonemap"},
    {"/output/format", "\"png\"", "/output/format"},
    // volumes and fog
    {"/volumes", "{}", "/volumes"},
    {"/volumes/0/density", "-1", "/volumes/0/density"},
    {"/volumes/0/density", "1001", "/volumes/0/density"},
    {"/volumes/0/transform", "\"nowhere\"", "/volumes/0/transform"},
    {"/volumes/0/scale", "0", "/volumes/0/scale"},
    {"/volumes/0/scale/1", "-2", "/volumes/0/scale/1"},
    {"/volumes/0/fade_distance", "-0.5", "/volumes/0/fade_distance"},
    {"/volumes/0/albedo/1", "2", "/volumes/0/albedo/1"},
    {"/volumes/0/noise_strength", "1.5", "/volumes/0/noise_strength"},
    {"/volumes/0/noise_scale", "0", "/volumes/0/noise_scale"},
    {"/volumes/0/noise_warp", "17", "/volumes/0/noise_warp"},
    {"/volumes/0/noise_velocity", "[1, 2]", "/volumes/0/noise_velocity"},
    {"/volumes/0/noise_texture", "-1", "/volumes/0/noise_texture"},
    {"/volumes/0/noise_texture", "0.5", "/volumes/0/noise_texture"},
    {"/volumes/0/colour", "1", "/volumes/0/colour"},
    {"/volumes/1/euler_degrees", "[0, 0, 0]", "/volumes/1/euler_degrees"},
    {"/volumes/1/name", "\"bank\"", "/volumes/1/name"},
    {"/fog", "[]", "/fog"},
    {"/fog/grid", "[1, 1]", "/fog/grid"},
    {"/fog/grid/0", "0", "/fog/grid/0"},
    {"/fog/grid/2", "513", "/fog/grid/2"},
    {"/fog/far", "0.5", "/fog/far"},
    {"/fog/near", "0", "/fog/near"},
    {"/fog/anisotropy", "1", "/fog/anisotropy"},
    {"/fog/history_weight", "1", "/fog/history_weight"},
    {"/fog/wind/2", "null", "/fog/wind/2"},
    {"/fog/colour", "1", "/fog/colour"},
    {"/wind", "[]", "/wind"},
    {"/wind/velocity", "[1, 2]", "/wind/velocity"},
    {"/wind/velocity/1", "1e5", "/wind/velocity/1"},
    {"/wind/gust_strength", "1.5", "/wind/gust_strength"},
    {"/wind/gust_period", "-1", "/wind/gust_period"},
    {"/wind/turbulence_amplitude", "-2", "/wind/turbulence_amplitude"},
    {"/wind/turbulence_frequency", "0", "/wind/turbulence_frequency"},
    {"/wind/turbulence_scroll", "\"fast\"", "/wind/turbulence_scroll"},
    {"/wind/gusts", "1", "/wind/gusts"},
};

TEST(SceneLoader, EveryRuleRejectsWithItsPointer) {
  ASSERT_TRUE(load_scene(kFull, kBase).ok());
  for (const Rejection& c : kRejections) {
    SCOPED_TRACE(std::string(c.pointer) + " = " + (c.value ? c.value : "(removed)"));
    const std::string text = apply(c);
    auto r = load_scene(text, kBase);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().where, c.where) << r.error().to_string();
    EXPECT_FALSE(r.error().message.empty());
  }
}

TEST(SceneLoader, BoundaryValuesAreAccepted) {
  const Rejection accepted[] = {
      {"/output/width", "16", ""},
      {"/output/width", "8192", ""},
      {"/output/frames", "1", ""},
      {"/output/frames", "100000", ""},
      {"/output/fps", "1000", ""},
      {"/output/fps", "0.5", ""},
      {"/output/dt", "0", ""},
      {"/output/dt", "1", ""},
      {"/sun/shadow_map_size", "256", ""},
      {"/sun/shadow_map_size", "8192", ""},
      {"/camera/keys/0/fov_y_degrees", "1.01", ""},
      {"/camera/keys/0/fov_y_degrees", "178.9", ""},
      {"/objects/0/material/roughness", "0.02", ""},
      {"/objects/0/material/roughness", "1", ""},
      {"/objects/0/material/metallic", "0", ""},
      {"/sun", "null", ""},
      {"/sun/intensity", "0", ""},
      {"/point_lights/0/intensity", "0", ""},
      {"/point_lights/0/transform", "\"\"", ""},
      {"/objects/3/mesh", "\"STATUE.GLTF\"", ""},
      {"/emitters/0/seed", "4294967295", ""},
      {"/emitters/0/fields/rate", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]", ""},
      {"/transforms/1/parent", "\"\"", ""},
      {"/camera/keys/2/time", "2.001", ""},
  };
  for (const Rejection& c : accepted) {
    SCOPED_TRACE(std::string(c.pointer) + " = " + c.value);
    auto r = load_scene(apply(c), kBase);
    EXPECT_TRUE(r.ok()) << r.error().to_string();
  }
}

TEST(SceneLoader, NotJsonOrNotAnObject) {
  for (const char* text : {"", "{", "{\"version\": 1,}", "[1]", "\"scene\"", "null", "{\"version\": 1} x"}) {
    auto r = load_scene(text, "");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().where, "/") << text;
  }
}

TEST(SceneLoader, DuplicateKeysAreRejectedWithTheirPointer) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"version": 1, "version": 1})", "/version"},
      {R"({"version": 1, "output": {"width": 100, "width": 200}})", "/output/width"},
      {R"({"version": 1, "objects": [{"shape": "box"}, {"shape": "box", "shape": "sphere"}]})", "/objects/1/shape"},
      {R"({"version": 1, "camera": {"keys": [{"time": 0, "position": [0, 0, 1], "target": [0, 0, 0]},
          {"time": 1, "position": [0, 0, 1], "target": [0, 0, 0], "time": 2}]}})",
       "/camera/keys/1/time"},
      {R"({"version": 1, "transforms": [{"name": "a", "position": [1, [2], {"x": 3}], "name": "b"}]})",
       "/transforms/0/name"},
      {R"({"version": 1, "emitters": [{"effect": "a.json", "fields": {"a~b": 1, "a~b": 2}}]})",
       "/emitters/0/fields/a~0b"},
  };
  for (const auto& [text, where] : cases) {
    auto r = load_scene(text, "");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().where, where) << r.error().to_string();
  }
  // Equal keys in different objects are fine.
  EXPECT_TRUE(load_scene(R"({"version": 1, "objects": [{"shape": "box"}, {"shape": "box"}]})", "").ok());
}

TEST(SceneLoader, DeepNestingIsRefusedWithItsPointer) {
  // The root, "emitters", the emitter and "fields" are levels 1 to 4; the arrays of "a" follow.
  const std::string deep = std::string(200, '[') + "1" + std::string(200, ']');
  auto r = load_scene(R"({"version": 1, "emitters": [{"effect": "a.json", "fields": {"a": )" + deep + "}}]}", "");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  std::string where = "/emitters/0/fields/a";
  for (size_t i = 0; i < mote::core::kMaxJsonDepth - 4; ++i) where += "/0";
  EXPECT_EQ(r.error().where, where) << r.error().to_string();
}

TEST(SceneLoader, CountLimits) {
  json doc = {{"version", 1}, {"point_lights", json::array()}};
  for (uint32_t i = 0; i <= kMaxPointLights; ++i) doc["point_lights"].push_back(json::object());
  auto r = load_scene(doc.dump(), "");
  ASSERT_FALSE(r.ok());
  // Refused while reading, at the first entry past the limit (docs/design/reliability.md).
  EXPECT_EQ(r.error().where, "/point_lights/" + std::to_string(kMaxPointLights));
  doc["point_lights"].erase(0);
  EXPECT_TRUE(load_scene(doc.dump(), "").ok());
}

TEST(SceneLoader, FileLoadResolvesAgainstItsFolder) {
  const fs::path dir = fs::temp_directory_path() / "mote_scene_test";
  fs::create_directories(dir / "sub");
  const fs::path file = dir / "sub" / "s.json";
  {
    std::ofstream(file) << R"({"version": 1, "emitters": [{"effect": "../fx/a.json"}],
                              "objects": [{"shape": "mesh", "mesh": "m/b.gltf"}]})";
  }
  auto r = load_scene_file(file);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->base_dir, dir / "sub");
  EXPECT_EQ(r->emitters[0].effect, dir / "sub" / "../fx/a.json");
  EXPECT_EQ(r->objects[0].mesh, dir / "sub" / "m/b.gltf");

  auto missing = load_scene_file(dir / "nope.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_NE(missing.error().where.find("nope.json"), std::string::npos);

  { std::ofstream(file) << R"({"version": 1, "output": {"fps": -1}})"; }
  auto bad = load_scene_file(file);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kParse);
  EXPECT_EQ(bad.error().where, "/output/fps");
  fs::remove_all(dir);
}

// ---- Camera path ----

Camera keyed(CameraInterpolation interpolation, std::vector<CameraKey> keys) {
  Camera c;
  c.interpolation = interpolation;
  c.keys = std::move(keys);
  c.near_plane = 0.2f;
  c.far_plane = 90.0f;
  return c;
}

CameraKey key(float t, glm::vec3 p, glm::vec3 target, float fov) {
  CameraKey k;
  k.time = t;
  k.position = p;
  k.target = target;
  k.fov_y_degrees = fov;
  return k;
}

TEST(CameraPath, LinearMidpointIsExact) {
  const Camera c = keyed(CameraInterpolation::kLinear,
                         {key(0, {0, 0, 0}, {1, 1, 1}, 30), key(2, {4, 2, -6}, {3, 1, -1}, 60),
                          key(3, {0, 0, 0}, {0, 0, 0.5f}, 90)});
  CameraPose p = evaluate_camera(c, 1.0f);
  expect_vec3(p.position, {2, 1, -3});
  expect_vec3(p.target, {2, 1, 0});
  EXPECT_FLOAT_EQ(p.fov_y_degrees, 45.0f);
  EXPECT_FLOAT_EQ(p.near_plane, 0.2f);
  EXPECT_FLOAT_EQ(p.far_plane, 90.0f);
  p = evaluate_camera(c, 2.5f);  // the second segment
  expect_vec3(p.position, {2, 1, -3});
  EXPECT_FLOAT_EQ(p.fov_y_degrees, 75.0f);
  p = evaluate_camera(c, 0.5f);
  expect_vec3(p.position, {1, 0.5f, -1.5f});
}

TEST(CameraPath, HoldsBeforeTheFirstAndAfterTheLastKey) {
  for (auto interp : {CameraInterpolation::kLinear, CameraInterpolation::kCatmullRom}) {
    const Camera c = keyed(interp, {key(1, {1, 2, 3}, {0, 0, 0}, 30), key(2, {4, 5, 6}, {1, 1, 1}, 60)});
    for (float t : {-100.0f, 0.0f, 0.999f, 1.0f}) {
      const CameraPose p = evaluate_camera(c, t);
      expect_vec3(p.position, {1, 2, 3});
      EXPECT_EQ(p.fov_y_degrees, 30.0f);
    }
    for (float t : {2.0f, 2.5f, 1e6f}) {
      const CameraPose p = evaluate_camera(c, t);
      expect_vec3(p.position, {4, 5, 6});
      expect_vec3(p.target, {1, 1, 1});
      EXPECT_EQ(p.fov_y_degrees, 60.0f);
    }
    const CameraPose nan = evaluate_camera(c, std::nanf(""));
    expect_vec3(nan.position, {1, 2, 3});
  }
  const Camera one = keyed(CameraInterpolation::kCatmullRom, {key(5, {7, 8, 9}, {0, 0, 0}, 20)});
  for (float t : {0.0f, 5.0f, 10.0f}) expect_vec3(evaluate_camera(one, t).position, {7, 8, 9});
}

TEST(CameraPath, CatmullRomPassesThroughKeysAndCurvesBetween) {
  const std::vector<CameraKey> keys = {key(0, {0, 0, 0}, {0, 0, -1}, 40), key(1, {1, 2, 0}, {1, 0, -1}, 50),
                                       key(3, {3, 0, 1}, {2, 1, -1}, 70), key(4, {3, 4, 5}, {0, 0, -2}, 30)};
  const Camera c = keyed(CameraInterpolation::kCatmullRom, keys);
  for (const CameraKey& k : keys) {
    const CameraPose p = evaluate_camera(c, k.time);
    expect_vec3(p.position, k.position, 1e-5f);
    expect_vec3(p.target, k.target, 1e-5f);
    EXPECT_NEAR(p.fov_y_degrees, k.fov_y_degrees, 1e-4f);
  }
  // Just before a key the spline approaches it (continuity).
  expect_vec3(evaluate_camera(c, 3.0f - 1e-4f).position, keys[2].position, 2e-3f);
  // At u = 1/2 the uniform spline is (-p0 + 9 p1 + 9 p2 - p3) / 16.
  auto half = [](glm::vec3 p0, glm::vec3 p1, glm::vec3 p2, glm::vec3 p3) {
    return (-p0 + 9.0f * p1 + 9.0f * p2 - p3) / 16.0f;
  };
  expect_vec3(evaluate_camera(c, 2.0f).position,
              half(keys[0].position, keys[1].position, keys[2].position, keys[3].position), 1e-5f);
  // The end segments duplicate their end key.
  expect_vec3(evaluate_camera(c, 0.5f).position,
              half(keys[0].position, keys[0].position, keys[1].position, keys[2].position), 1e-5f);
  expect_vec3(evaluate_camera(c, 3.5f).target, half(keys[1].target, keys[2].target, keys[3].target, keys[3].target),
              1e-5f);
  EXPECT_NEAR(evaluate_camera(c, 2.0f).fov_y_degrees, (-40.0f + 9 * 50.0f + 9 * 70.0f - 30.0f) / 16.0f, 1e-4f);
  // And it is not the straight line.
  const glm::vec3 linear = glm::mix(keys[1].position, keys[2].position, 0.5f);
  EXPECT_GT(glm::length(evaluate_camera(c, 2.0f).position - linear), 0.1f);
}

TEST(CameraPath, CatmullRomFovStaysValid) {
  // Keys that would overshoot below 1 degree between them.
  const Camera c = keyed(CameraInterpolation::kCatmullRom,
                         {key(0, {0, 0, 1}, {0, 0, 0}, 170), key(1, {0, 0, 1}, {0, 0, 0}, 2),
                          key(2, {0, 0, 1}, {0, 0, 0}, 2), key(3, {0, 0, 1}, {0, 0, 0}, 170)});
  for (float t = 0.0f; t <= 3.0f; t += 0.01f) {
    const float fov = evaluate_camera(c, t).fov_y_degrees;
    EXPECT_GE(fov, 1.0f);
    EXPECT_LE(fov, 179.0f);
  }
}

TEST(CameraPath, OrbitTurnsCounterClockwiseFromPlusZ) {
  Camera c;
  c.still.fov_y_degrees = 55.0f;
  CameraOrbit o;
  o.center = {1, 0, 2};
  o.radius = 5;
  o.height = 1.6f;
  o.target_height = 0.8f;
  o.start_degrees = 90;
  o.degrees_per_second = 30;
  c.orbit = o;
  CameraPose p = evaluate_camera(c, 0.0f);  // 90 degrees: +X
  expect_vec3(p.position, {6, 1.6f, 2}, 1e-5f);
  expect_vec3(p.target, {1, 0.8f, 2});
  EXPECT_EQ(p.fov_y_degrees, 55.0f);
  p = evaluate_camera(c, 3.0f);  // 180 degrees: -Z
  expect_vec3(p.position, {1, 1.6f, -3}, 1e-5f);
  p = evaluate_camera(c, 4.5f);  // 225 degrees
  const float d = 5.0f * std::sqrt(0.5f);
  expect_vec3(p.position, {1 - d, 1.6f, 2 - d}, 1e-5f);
  // Counter-clockwise seen from +Y is a positive rotation about +Y.
  o.start_degrees = 0;
  o.degrees_per_second = 10;
  c.orbit = o;
  const glm::vec3 r0 = evaluate_camera(c, 0.0f).position - o.center;
  const glm::vec3 r1 = evaluate_camera(c, 1.0f).position - o.center;
  expect_vec3(r0, {0, 1.6f, 5}, 1e-5f);
  expect_vec3(glm::angleAxis(glm::radians(10.0f), glm::vec3(0, 1, 0)) * glm::vec3(r0.x, 0, r0.z) +
                  glm::vec3(0, 1.6f, 0),
              r1, 1e-5f);
  // A long render keeps the angle: one full turn every 36 s.
  expect_vec3(evaluate_camera(c, 36.0f * 1000.0f).position, evaluate_camera(c, 0.0f).position, 1e-3f);
}

TEST(CameraPath, StillCamera) {
  Camera c;
  c.still = key(0, {1, 2, 3}, {4, 5, 6}, 33);
  c.near_plane = 0.5f;
  c.far_plane = 50.0f;
  for (float t : {0.0f, 7.0f}) {
    const CameraPose p = evaluate_camera(c, t);
    expect_vec3(p.position, {1, 2, 3});
    expect_vec3(p.target, {4, 5, 6});
    EXPECT_EQ(p.fov_y_degrees, 33.0f);
    EXPECT_EQ(p.near_plane, 0.5f);
    EXPECT_EQ(p.far_plane, 50.0f);
  }
}

// ---- Transform animation ----

TEST(TransformAnimation, SpinTurnsTheBaseRotationAboutTheParentAxis) {
  Transform t;
  t.position = {1, 2, 3};
  t.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0));  // +Y -> +Z
  t.scale = {2, 3, 4};
  t.spin_axis = {0, 1, 0};
  t.spin_degrees_per_second = 90.0f;
  const LocalPose p0 = evaluate_transform(t, 0.0f);
  expect_vec3(p0.position, t.position);
  expect_quat(p0.rotation, t.rotation);
  const LocalPose p1 = evaluate_transform(t, 1.0f);
  // spin(t) * base: the base takes +Y to +Z, then 90 degrees about +Y takes +Z to +X.
  expect_vec3(p1.rotation * glm::vec3(0, 1, 0), {1, 0, 0}, 1e-5f);
  expect_vec3(p1.position, {1, 2, 3});  // the spin does not move the origin
  expect_vec3(p1.scale, {2, 3, 4});
  EXPECT_NEAR(glm::length(p1.rotation), 1.0f, 1e-6f);
  // Four seconds is a full turn; a negative rate turns the other way.
  expect_quat(evaluate_transform(t, 4.0f).rotation, t.rotation, 1e-5f);
  t.spin_degrees_per_second = -90.0f;
  expect_vec3(evaluate_transform(t, 1.0f).rotation * glm::vec3(0, 1, 0), {-1, 0, 0}, 1e-5f);
  // An axis that is not unit length is normalised; a zero axis does not spin (and gives no NaN).
  t.spin_axis = {0, 5, 0};
  expect_vec3(evaluate_transform(t, 1.0f).rotation * glm::vec3(0, 1, 0), {-1, 0, 0}, 1e-5f);
  t.spin_axis = {0, 0, 0};
  expect_quat(evaluate_transform(t, 1.0f).rotation, t.rotation);
}

TEST(TransformAnimation, BobMovesAlongPlusY) {
  Transform t;
  t.position = {1, 2, 3};
  t.bob_amplitude = 0.5f;
  t.bob_hz = 0.25f;
  expect_vec3(evaluate_transform(t, 0.0f).position, {1, 2, 3});
  expect_vec3(evaluate_transform(t, 1.0f).position, {1, 2.5f, 3}, 1e-6f);  // a quarter cycle
  expect_vec3(evaluate_transform(t, 2.0f).position, {1, 2, 3}, 1e-6f);
  expect_vec3(evaluate_transform(t, 3.0f).position, {1, 1.5f, 3}, 1e-6f);
  expect_vec3(evaluate_transform(t, 0.5f).position, {1, 2 + 0.5f * std::sqrt(0.5f), 3}, 1e-6f);
  expect_quat(evaluate_transform(t, 1.0f).rotation, glm::quat(1, 0, 0, 0));
  // Spin and bob together, evaluated from a loaded file.
  auto s =
      load_scene(R"({"version": 1, "transforms": [{"name": "t", "position": [0, 1, 0], "spin_degrees_per_second": 180,
                          "bob_amplitude": 0.2, "bob_hz": 1}]})",
                 "");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  const LocalPose p = evaluate_transform(s->transforms[0], 0.25f);
  expect_vec3(p.position, {0, 1.2f, 0}, 1e-6f);
  const float h = std::sqrt(0.5f);
  expect_vec3(p.rotation * glm::vec3(1, 0, 0), {h, 0, -h}, 1e-5f);  // 45 degrees about +Y
}

// ---- The scene files in scenes/ ----

std::vector<fs::path> scene_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(MOTE_SCENES_DIR))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(SceneFiles, EveryFileLoadsAndNamesExistingEffects) {
  const auto files = scene_files();
  std::set<std::string> stems;
  for (const auto& f : files) stems.insert(f.stem().string());
  for (const char* expected : {"bonfire", "showcase", "debris", "explosion", "fire", "fountain", "rain", "smoke",
                               "snow", "sparkles", "water_jet"})
    EXPECT_TRUE(stems.count(expected)) << "scenes/" << expected << ".json is missing";
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    auto r = load_scene_file(f);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_FALSE(r->emitters.empty());
    EXPECT_FALSE(r->name.empty());
    for (const Emitter& e : r->emitters) EXPECT_TRUE(fs::is_regular_file(e.effect)) << e.effect;
    for (const Object& o : r->objects) {
      if (o.shape == ObjectShape::kMesh) {
        EXPECT_TRUE(fs::is_regular_file(o.mesh)) << o.mesh;
      }
    }
  }
}

TEST(SceneFiles, PresetScenesShowTheirPreset) {
  for (const char* preset :
       {"debris", "explosion", "fire", "fountain", "rain", "smoke", "snow", "sparkles", "water_jet"}) {
    SCOPED_TRACE(preset);
    auto r = load_scene_file(fs::path(MOTE_SCENES_DIR) / (std::string(preset) + ".json"));
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    ASSERT_EQ(r->emitters.size(), 1u);
    EXPECT_EQ(r->emitters[0].effect.filename(), std::string(preset) + ".json");
    EXPECT_EQ(r->output.width, 320u);
    EXPECT_EQ(r->output.height, 180u);
    EXPECT_EQ(r->output.frames, 24u);
    EXPECT_TRUE(r->camera.keys.empty() && !r->camera.orbit.has_value());  // a still camera
    bool ground = false;
    for (const Object& o : r->objects) ground = ground || o.shape == ObjectShape::kPlane;
    EXPECT_TRUE(ground);
  }
}

TEST(SceneFiles, BonfireIsTheShowcaseOfTheMainCommand) {
  auto r = load_scene_file(fs::path(MOTE_SCENES_DIR) / "bonfire.json");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Scene& s = *r;
  std::set<std::string> effects;
  for (const Emitter& e : s.emitters) {
    effects.insert(e.effect.filename().string());
    EXPECT_EQ(e.transform, "fire");
  }
  EXPECT_EQ(effects, (std::set<std::string>{"bonfire_flame.json", "bonfire_embers.json", "bonfire_smoke.json",
                                            "bonfire_soot.json"}));
  const auto fire = s.find_transform("fire");
  ASSERT_TRUE(fire.has_value());
  expect_vec3(s.transforms[*fire].position, {0, 0, 0});
  ASSERT_TRUE(s.sun.has_value());
  EXPECT_TRUE(s.sun->shadows);
  EXPECT_GT(s.sun->color.b, s.sun->color.r);  // moonlight is bluish
  // The firelight is the flame's and the embers' own (their effects' render.light,
  // docs/design/particle_lights.md): no point light placed by hand at the fire.
  EXPECT_TRUE(s.point_lights.empty());
  for (const char* lit : {"bonfire_flame.json", "bonfire_embers.json"}) {
    std::ifstream file(fs::path(MOTE_SCENES_DIR) / ".." / "effects" / lit);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"light\""), std::string::npos) << lit << " carries no render.light";
  }
  ASSERT_TRUE(s.camera.orbit.has_value());
  EXPECT_GE(s.camera.orbit->radius, 4.0f);
  EXPECT_LE(s.camera.orbit->radius, 5.0f);
  EXPECT_FLOAT_EQ(s.camera.orbit->height, 1.6f);
  EXPECT_FLOAT_EQ(s.camera.orbit->target_height, 0.8f);
  EXPECT_NE(s.camera.orbit->degrees_per_second, 0.0f);
  EXPECT_EQ(s.output.width, 480u);
  EXPECT_EQ(s.output.height, 270u);
  EXPECT_EQ(s.output.frames, 48u);
  EXPECT_FLOAT_EQ(s.output.fps, 24.0f);
  EXPECT_FLOAT_EQ(s.output.warmup_seconds, 2.0f);
  EXPECT_EQ(s.output.seed, 1u);
  int planes = 0, others = 0;
  for (const Object& o : s.objects) (o.shape == ObjectShape::kPlane ? planes : others)++;
  EXPECT_EQ(planes, 1);
  EXPECT_GE(others, 2);
}

TEST(SceneFiles, TheDesignPageExampleLoads) {
  const std::string page = read_text(fs::path(MOTE_DOCS_DIR) / "design" / "scene.md");
  const size_t begin = page.find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  const size_t end = page.find("```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  auto r = load_scene(page.substr(begin + 8, end - begin - 8), kBase);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->transforms.size(), 2u);
  EXPECT_EQ(r->objects.size(), 4u);
  EXPECT_EQ(r->emitters.size(), 2u);
}

// ---- Fuzz ----

uint32_t next(uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

// What every successfully loaded scene must satisfy, whatever the input was.
void check_invariants(const Scene& s, const std::string& doc) {
  auto finite3 = [](const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
  auto unit = [](float len) { return std::fabs(len - 1.0f) < 1e-4f; };
  EXPECT_GT(s.camera.far_plane, s.camera.near_plane) << doc;
  EXPECT_GT(s.camera.near_plane, 0.0f) << doc;
  for (size_t i = 1; i < s.camera.keys.size(); ++i) EXPECT_GT(s.camera.keys[i].time, s.camera.keys[i - 1].time) << doc;
  EXPECT_FALSE(!s.camera.keys.empty() && s.camera.orbit.has_value()) << doc;
  for (const CameraKey& k : s.camera.keys)
    EXPECT_TRUE(finite3(k.position) && k.fov_y_degrees > 1 && k.fov_y_degrees < 179) << doc;
  const CameraPose pose = evaluate_camera(s.camera, 1.25f);
  EXPECT_TRUE(finite3(pose.position) && finite3(pose.target)) << doc;
  if (s.sun) {
    EXPECT_TRUE(unit(glm::length(s.sun->direction))) << doc;
    EXPECT_TRUE(s.sun->shadow_map_size >= 256 && s.sun->shadow_map_size <= 8192) << doc;
  }
  std::set<std::string> names;
  for (const Transform& t : s.transforms) {
    EXPECT_TRUE(t.parent.empty() || names.count(t.parent)) << doc;
    EXPECT_TRUE(names.insert(t.name).second) << doc;
    EXPECT_TRUE(unit(glm::length(t.rotation))) << doc;
    EXPECT_TRUE(unit(glm::length(t.spin_axis))) << doc;
    EXPECT_TRUE(t.scale.x > 0 && t.scale.y > 0 && t.scale.z > 0) << doc;
    const LocalPose p = evaluate_transform(t, 2.5f);
    EXPECT_TRUE(finite3(p.position) && unit(glm::length(p.rotation))) << doc;
  }
  for (const Object& o : s.objects) {
    EXPECT_TRUE(o.transform.empty() || names.count(o.transform)) << doc;
    EXPECT_EQ(o.shape == ObjectShape::kMesh, !o.mesh.empty()) << doc;
    EXPECT_TRUE(unit(glm::length(o.rotation))) << doc;
    EXPECT_TRUE(o.material.roughness >= 0.02f && o.material.roughness <= 1.0f) << doc;
  }
  for (const Emitter& e : s.emitters) {
    EXPECT_TRUE(e.transform.empty() || names.count(e.transform)) << doc;
    EXPECT_FALSE(e.effect.empty()) << doc;
    for (const auto& f : e.fields) EXPECT_TRUE(!f.values.empty() && f.values.size() <= 16) << doc;
  }
  for (const PointLight& l : s.point_lights) EXPECT_TRUE(l.transform.empty() || names.count(l.transform)) << doc;
  EXPECT_TRUE(s.output.width >= 16 && s.output.width <= 8192 && s.output.height >= 16 && s.output.height <= 8192)
      << doc;
  EXPECT_TRUE(s.output.fps > 0 && s.output.fps <= 1000 && s.output.step() > 0 && std::isfinite(s.output.step())) << doc;
}

void check_rejection(const mote::Error& e, const std::string& doc) {
  EXPECT_EQ(e.code, ErrorCode::kParse) << e.to_string() << "\n" << doc;
  EXPECT_FALSE(e.message.empty());
  ASSERT_FALSE(e.where.empty()) << doc;
  EXPECT_EQ(e.where[0], '/') << e.to_string();
}

std::vector<std::string> fuzz_corpus() {
  std::vector<std::string> docs = {kFull};
  for (const auto& f : scene_files()) docs.push_back(read_text(f));
  return docs;
}

TEST(SceneFuzz, ByteMutationsFailCleanly) {
  const auto docs = fuzz_corpus();
  const char* tokens[] = {"0",       "-1",          "1e39", "\"x\"", "[]", "{}",   "null", "true",
                          "[0,0,0]", "[1,2,3,4,5]", ",",    "]",     "}",  "\"\"", "1e-45"};
  uint32_t seed = 0x5ce4e5u;
  int rejected = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::string d = docs[next(seed) % docs.size()];
    const int edits = 1 + int(next(seed) % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = next(seed) % d.size();
      switch (next(seed) % 4) {
        case 0: d.erase(at, 1 + next(seed) % 8); break;
        case 1: d.insert(at, tokens[next(seed) % std::size(tokens)]); break;
        case 2: d[at] = char(next(seed) % 256); break;
        default: {  // a value after a colon swapped for a token: keeps the JSON valid more often
          const size_t colon = d.find(':', at);
          if (colon == std::string::npos) break;
          const size_t end = d.find_first_of(",}", colon);
          if (end == std::string::npos) break;
          d.replace(colon + 1, end - colon - 1, tokens[next(seed) % std::size(tokens)]);
        }
      }
      if (d.empty()) d = "{";
    }
    auto r = load_scene(d, kBase);
    if (r.ok()) {
      check_invariants(*r, d);
      continue;
    }
    ++rejected;
    check_rejection(r.error(), d);
  }
  EXPECT_GT(rejected, 1000);
}

// Every pointer in a document (objects, arrays and leaves).
void collect_pointers(const json& j, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string token;
      for (char c : it.key()) token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      collect_pointers(it.value(), at + "/" + token, out);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) collect_pointers(j[i], at + "/" + std::to_string(i), out);
  }
}

TEST(SceneFuzz, JsonEditsFailCleanlyAndPointAtTheDocument) {
  std::vector<json> docs;
  for (const auto& text : fuzz_corpus()) docs.push_back(json::parse(text));
  const char* values[] = {"0",
                          "-1",
                          "1e39",
                          "-1e-3",
                          "0.5",
                          "1",
                          "2",
                          "179",
                          "256",
                          "8193",
                          "4294967296",
                          "\"\"",
                          "\"x\"",
                          "\"fire\"",
                          "\"a.glb\"",
                          "\"linear\"",
                          "\"box\"",
                          "\"mesh\"",
                          "[]",
                          "{}",
                          "null",
                          "true",
                          "[0,0,0]",
                          "[0,1,0]",
                          "[0,0,0,0]",
                          "[1,2,3,4,5]",
                          "[1,0,0,0]",
                          "{\"radius\": 2}",
                          "[{\"time\": 0, \"position\": [0,0,1], \"target\": [0,0,0]}]"};
  const char* keys[] = {"rotation",      "euler_degrees", "keys", "orbit",    "mesh",
                        "transform",     "parent",        "name", "position", "target",
                        "fov_y_degrees", "interpolation", "near", "far",      "bogus"};
  uint32_t seed = 0xfeed5u;
  int rejected = 0, accepted = 0;
  for (int iter = 0; iter < 5000; ++iter) {
    json doc = docs[next(seed) % docs.size()];
    const int edits = 1 + int(next(seed) % 3);
    for (int e = 0; e < edits; ++e) {
      std::vector<std::string> pointers;
      collect_pointers(doc, "", pointers);
      const json::json_pointer p(pointers[next(seed) % pointers.size()]);
      json& node = doc[p];
      switch (next(seed) % 5) {
        case 0: node = json::parse(values[next(seed) % std::size(values)]); break;
        case 1:  // remove it
          if (!p.empty()) {
            json& parent = doc[p.parent_pointer()];
            if (parent.is_array()) parent.erase(size_t(std::stoul(p.back())));
            else parent.erase(p.back());
          }
          break;
        case 2:  // add a key (often one that is exclusive with another, or misplaced)
          if (node.is_object())
            node[keys[next(seed) % std::size(keys)]] = json::parse(values[next(seed) % std::size(values)]);
          break;
        case 3:  // duplicate an array element (duplicate names, repeated key times)
          if (node.is_array() && !node.empty()) node.push_back(node[next(seed) % node.size()]);
          break;
        default:  // nudge a number
          if (node.is_number()) {
            const double factors[] = {-1.0, 0.0, 1e3, 1e-3, 1.0 + 1e-7};
            node = node.get<double>() * factors[next(seed) % std::size(factors)];
          }
      }
    }
    const std::string text = doc.dump();
    auto r = load_scene(text, kBase);
    if (r.ok()) {
      ++accepted;
      check_invariants(*r, text);
      continue;
    }
    ++rejected;
    check_rejection(r.error(), text);
    // The pointer names a place that exists in the document (a missing key is reported at its object).
    const std::string& where = r.error().where;
    if (where != "/") {
      EXPECT_TRUE(doc.contains(json::json_pointer(where))) << r.error().to_string() << "\n" << text;
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(accepted, 200);
}

}  // namespace
