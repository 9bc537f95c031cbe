// mote preview EFFECT.json [--out DIR]: one effect on a default stage — a ground plane, a sun and
// sky light, a camera orbiting the effect — rendered as `mote render` renders a scene (PNG frames,
// contact sheet, frames.gif; render_job.hpp), with no scene file to write. The camera is framed
// on the effect's own extent: the reference simulation (mote/simulation.hpp) runs the frames to
// be rendered first and the camera circles the union of their particle bounds.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/files.hpp"
#include "preview_stage.hpp"
#include "render_job.hpp"

namespace mote::cli {
namespace {

struct PreviewArgs {
  RenderJob job;
  std::string effect;
  float seconds = 2.0f;
  float fps = 24.0f;
};

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
  const StageOptions stage{.frames = frames,
                           .fps = a.fps,
                           .width = width,
                           .height = height,
                           .warmup = warmup_seconds(*compiled),
                           .orbit_degrees = 90.0f};
  job.scene_text = stage_scene(effect.filename(), framing, stage);
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
