// mote preview EFFECT.json [--out DIR]: one effect on a default stage — a ground plane, a sun and
// sky light, a camera orbiting the effect — rendered as `mote render` renders a scene (PNG frames,
// contact sheet, frames.gif; render_job.hpp), with no scene file to write. The camera is framed
// on the effect's own extent: the reference simulation (mote/simulation.hpp) runs the frames to
// be rendered first and the camera circles the union of their particle bounds.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/files.hpp"
#include "mote/simulation.hpp"
#include "render_job.hpp"

namespace mote::cli {
namespace {

using nlohmann::json;

struct PreviewArgs {
  RenderJob job;
  std::string effect;
  float seconds = 2.0f;
  float fps = 24.0f;
};

constexpr float kFovDegrees = 40.0f;

struct Framing {
  std::array<float, 3> center{0.0f, 0.5f, 0.0f};
  float extent = 1.0f;  // half the largest side of the particles' bounds
};

// A continuous emitter is shown warmed up by a second; one that only bursts from its start.
float warmup_seconds(const CompiledEffect& effect) { return effect.emission.rate > 0.0f ? 1.0f : 0.0f; }

// The union of the particles' bounds over the clip (the default framing when nothing is alive).
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

// The stage as a scene document (its paths relative to the effect's folder, which is its base):
// the effect at the origin, dark ground under it, the camera
// circling a quarter turn over the clip at a distance that fits the effect's extent.
std::string stage_scene(const std::filesystem::path& effect, const Framing& f, float warmup, uint32_t frames, float fps,
                        uint32_t width, uint32_t height) {
  const float distance = 1.15f * f.extent / std::tan(0.5f * kFovDegrees * 3.14159265f / 180.0f);
  const float seconds = float(frames) / fps;
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
          {"degrees_per_second", 90.0f / std::max(seconds, 0.1f)}}},
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
      {"emitters", {{{"name", "effect"}, {"effect", effect.filename().string()}, {"position", {0, 0, 0}}}}},
      {"output",
       {{"width", width},
        {"height", height},
        {"frames", frames},
        {"fps", fps},
        {"seed", 1},
        {"warmup_seconds", warmup}}}};
  return scene.dump();
}

int run(PreviewArgs& a) {
  RenderJob& job = a.job;
  if (int usage = check_render_usage(job); usage != kExitOk) return usage;
  if (!(a.seconds > 0.0f && a.seconds <= 600.0f))
    return usage_error("preview", fmt::format("--seconds must be in (0, 600], not {}", a.seconds));
  if (!(a.fps >= 1.0f && a.fps <= 100.0f))
    return usage_error("preview", fmt::format("--fps must be in [1, 100], not {}", a.fps));
  std::error_code ec;
  const std::filesystem::path effect = std::filesystem::absolute(a.effect, ec);
  Result<CompiledEffect> compiled = compile_effect_file(effect);
  if (!compiled) return report_error("preview", a.effect, compiled.error());
  const uint32_t frames = job.frames ? job.frames : uint32_t(std::lround(a.seconds * a.fps));
  uint32_t width = 480, height = 270;
  if (!job.size.empty()) std::sscanf(job.size.c_str(), "%ux%u", &width, &height);  // checked above
  const Framing framing = frame_effect(*compiled, frames, 1.0f / a.fps);
  job.verb = "preview";
  job.scene = a.effect;
  job.scene_text = stage_scene(effect, framing, warmup_seconds(*compiled), frames, a.fps, width, height);
  job.base_dir = effect.parent_path();
  // The stage is made here: only the effect's own files are read, from its folder unless told.
  if (job.asset_root.empty()) job.asset_root = effect.parent_path().string();
  job.frames = frames;
  return run_render_job(job);
}

}  // namespace

void add_preview_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PreviewArgs>();
  args->job.out = "preview";
  CLI::App* cmd = app.add_subcommand("preview",
                                     "Render one effect on a default stage (ground, light, orbiting camera) to PNG "
                                     "frames and an animated GIF, without a scene file");
  cmd->add_option("effect", args->effect, "EFFECT.json")->required();
  cmd->add_option("--seconds", args->seconds, "length of the clip")->capture_default_str();
  cmd->add_option("--fps", args->fps, "frames per second")->capture_default_str();
  add_render_options(cmd, args->job);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace mote::cli
