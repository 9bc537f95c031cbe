// The default stage (preview_stage.hpp): `mote preview`'s and `mote edit`'s.
#include "preview_stage.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "mote/simulation.hpp"

namespace mote::cli {
namespace {

using nlohmann::json;

constexpr float kFovDegrees = 40.0f;

}  // namespace

float warmup_seconds(const CompiledEffect& effect) { return effect.emission.rate > 0.0f ? 1.0f : 0.0f; }

Framing frame_effect(const CompiledEffect& effect, uint32_t frames, float dt) {
  SimulationOptions options;
  options.dt = dt;
  options.emitter.seed = 1;
  const uint32_t warmup_frames = uint32_t(std::lround(warmup_seconds(effect) / dt));
  Result<std::vector<FrameReport>> reports = simulate(effect, options, warmup_frames + frames);
  Framing f;
  if (!reports.ok()) return f;
  std::array<float, 3> lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
  bool any = false;
  for (size_t frame = warmup_frames; frame < reports->size(); ++frame) {
    const FrameReport& r = (*reports)[frame];
    if (!r.has_bounds) continue;
    any = true;
    for (int i = 0; i < 3; ++i) {
      lo[size_t(i)] = std::min(lo[size_t(i)], r.bounds_min[i]);
      hi[size_t(i)] = std::max(hi[size_t(i)], r.bounds_max[i]);
    }
  }
  if (!any) return f;
  float extent = 0.0f;
  for (size_t i = 0; i < 3; ++i) {
    f.center[i] = 0.5f * (lo[i] + hi[i]);
    extent = std::max(extent, 0.5f * (hi[i] - lo[i]));
  }
  // Bounds of a few stray particles can be huge: keep the stage on a sensible scale.
  f.extent = std::clamp(extent, 0.25f, 200.0f);
  return f;
}

// The effect at the origin, dark ground under it, the camera at a distance that fits the effect's
// extent, circling `orbit_degrees` over the clip.
std::string stage_scene(const std::filesystem::path& effect, const Framing& f, const StageOptions& o) {
  const float distance = 1.15f * f.extent / std::tan(0.5f * kFovDegrees * 3.14159265f / 180.0f);
  const float seconds = float(o.frames) / o.fps;
  const json scene = {
      {"version", 1},
      {"name", "preview"},
      {"camera",
       {{"fov_y_degrees", kFovDegrees},
        {"orbit",
         {{"center", {f.center[0], 0.0f, f.center[2]}},
          {"radius", distance},
          {"height", f.center[1] + 0.35f * distance},
          {"target_height", f.center[1]},
          {"start_degrees", 20.0f},
          {"degrees_per_second", o.orbit_degrees / std::max(seconds, 0.1f)}}},
        {"far", std::max(1000.0f, 10.0f * distance)}}},
      {"sun", {{"direction", {-0.4, -1.0, -0.3}}, {"color", {1.0, 0.97, 0.92}}, {"intensity", 1.5}, {"shadows", true}}},
      {"environment",
       {{"sky_color", {0.3, 0.35, 0.45}},
        {"ground_color", {0.15, 0.14, 0.12}},
        {"ambient_intensity", 0.4},
        {"background", {0.06, 0.07, 0.09}}}},
      {"objects",
       {{{"name", "ground"},
         {"shape", "plane"},
         {"scale", {60.0f * distance, 1.0f, 60.0f * distance}},  // its edge beyond the horizon
         {"material", {{"base_color", {0.2, 0.19, 0.18}}, {"roughness", 0.9}}}}}},
      {"emitters", {{{"name", "effect"}, {"effect", effect.generic_string()}, {"position", {0, 0, 0}}}}},
      {"output",
       {{"width", o.width},
        {"height", o.height},
        {"frames", o.frames},
        {"fps", o.fps},
        {"seed", 1},
        {"warmup_seconds", o.warmup}}}};
  return scene.dump();
}

}  // namespace mote::cli
