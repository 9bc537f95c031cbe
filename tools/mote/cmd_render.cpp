// mote render SCENE.json --out DIR [--asset-root DIR] (and mote preview's stage, render_job.hpp):
// renders a scene's frames headless (mote/scene.hpp) and writes frame_NNNN.png, contact_sheet.png
// and frames.gif (giflib, always), and frames.mp4 /
// frames.webm when ffmpeg is on the PATH (run from an argument vector, never a shell). Prints one
// stats line per frame (alive particles, per-pass GPU milliseconds), or one JSON object per frame
// and a summary object with --json; on a terminal a progress bar stands in for the frame lines.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "render_job.hpp"
#include "mote/device.hpp"
#include "mote/image.hpp"
#include "mote/scene.hpp"

namespace mote::cli {

namespace {

using nlohmann::json;

std::string format_passes(const std::vector<PassTime>& passes) {
  std::string out;
  for (const PassTime& p : passes) out += fmt::format(" {}={:.3f}", p.name, p.ms);
  return out;
}

json passes_json(const std::vector<PassTime>& passes) {
  json out = json::object();
  for (const PassTime& p : passes) out[p.name] = p.ms;
  return out;
}

// "WxH", each side 16 .. 8192 in decimal digits only: sscanf's %u wrapped 4294967312 to 16
// (docs/design/reliability.md, finding 11).
bool parse_size(const std::string& text, uint32_t& width, uint32_t& height) {
  const size_t x = text.find('x');
  if (x == std::string::npos) return false;
  auto side = [](std::string_view digits, uint32_t& out) {
    if (digits.empty() || digits.size() > 4) return false;
    uint32_t v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + uint32_t(c - '0');
    }
    out = v;
    return v >= 16 && v <= 8192;
  };
  return side(std::string_view(text).substr(0, x), width) && side(std::string_view(text).substr(x + 1), height);
}

// The options CLI11 cannot check: exit 2 when one is wrong, before anything is read or rendered.
int check_usage(const RenderJob& a, SceneRendererOptions& options) {
  if (!a.size.empty()) {
    uint32_t w = 0, h = 0;
    if (!parse_size(a.size, w, h))
      return usage_error(a.verb, "--size must be WxH with 16 <= W, H <= 8192, not '" + a.size + "'");
    options.width = w;
    options.height = h;
  }
  if (a.path == "compute") options.path = DrawPath::kCompute;
  else if (a.path != "raster") return usage_error(a.verb, "--path is raster or compute, not '" + a.path + "'");
  if (a.transparency == "sorted") options.transparency = Transparency::kSorted;
  else if (a.transparency == "avboit") options.transparency = Transparency::kAvboit;
  else if (a.transparency != "oit")
    return usage_error(a.verb, "--transparency is oit, sorted or avboit, not '" + a.transparency + "'");
  for (const std::string& v : a.video)
    if (v != "mp4" && v != "webm") return usage_error(a.verb, "--video takes mp4 and webm, not '" + v + "'");
  return kExitOk;
}

// frames.mp4 / frames.webm from the PNG frames, by ffmpeg when it is installed.
void write_videos(const RenderJob& a, uint32_t fps, bool say) {
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty()) {
    if (say) std::printf("ffmpeg not found: no frames.mp4 (install ffmpeg for video)\n");
    return;
  }
  // The folder absolute, so no folder name reads as an ffmpeg option ("-x") or protocol
  // ("concat:") (docs/design/reliability.md, finding 6).
  std::error_code ec;
  const std::string folder = std::filesystem::absolute(a.out, ec).string();
  for (const std::string& kind : a.video) {
    std::vector<std::string> argv = {ffmpeg,       "-y",
                                     "-loglevel",  "error",
                                     "-framerate", std::to_string(fps),
                                     "-i",         folder + "/frame_%04d.png",
                                     "-vf",        "pad=ceil(iw/2)*2:ceil(ih/2)*2"};
    if (kind == "mp4") argv.insert(argv.end(), {"-c:v", "libx264", "-pix_fmt", "yuv420p"});
    else argv.insert(argv.end(), {"-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "36", "-pix_fmt", "yuv420p"});
    argv.push_back(folder + "/frames." + kind);
    Result<int> status = run_program(argv);
    if (!status.ok() || *status != 0)
      std::fprintf(stderr, "mote %s: %s/frames.%s: ffmpeg could not write it\n", a.verb.c_str(), a.out.c_str(),
                   kind.c_str());
    else if (say) std::printf("wrote frames.%s\n", kind.c_str());
  }
}

}  // namespace

int check_render_usage(const RenderJob& a) {
  SceneRendererOptions options;
  return check_usage(a, options);
}

int run_render_job(const RenderJob& a) {
  SceneRendererOptions options;
  if (int usage = check_usage(a, options); usage != kExitOk) return usage;
  const SceneLoadOptions load{.asset_root = a.asset_root};
  Result<Scene> scene = a.scene_text.empty() ? Scene::load_file(a.scene, load)
                                             : Scene::parse(a.scene_text, a.base_dir, load);
  if (!scene) return report_error(a.verb, a.scene, scene.error());
  const uint32_t frames = a.frames ? a.frames : scene->output().frames;
  const uint32_t fps = uint32_t(std::clamp(std::lround(scene->output().fps), 1L, 100L));

  Result<std::unique_ptr<Context>> context = Context::create({.device = a.device});
  if (!context) return report_error(a.verb, "", context.error(), kExitSystem);
  const DeviceReport device = describe_device(**context);
  const bool lines = !a.json_output;
  if (lines)
    std::printf("mote %s: %s on %s (%s), %s path%s\n", a.verb.c_str(), a.scene.c_str(), device.chosen.name.c_str(),
                device.choice_reason.c_str(), a.path.c_str(),
                options.path == DrawPath::kRaster ? (", " + a.transparency).c_str() : "");
  Result<std::unique_ptr<SceneRenderer>> renderer = SceneRenderer::create(**context, *scene, options);
  if (!renderer) return report_error(a.verb, a.scene, renderer.error());
  for (const std::string& w : (*renderer)->warnings())
    std::fprintf(stderr, "mote %s: warning: %s\n", a.verb.c_str(), w.c_str());

  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec)
    return report_error(a.verb, a.out, make_error(ErrorCode::kIo, "cannot create the folder: " + ec.message()),
                        kExitSystem);
  Result<std::unique_ptr<GifWriter>> gif = GifWriter::create(a.out + "/frames.gif", (*renderer)->width(),
                                                             (*renderer)->height(), fps);
  if (!gif) return report_error(a.verb, a.out + "/frames.gif", gif.error(), kExitSystem);
  std::vector<ImageRgba8> kept;  // for the contact sheet (at most 16 frames, evenly spaced)
  const uint32_t sheet_every = std::max(1u, frames / 16);
  ProgressBar progress("rendering", frames);
  const auto started = std::chrono::steady_clock::now();
  for (uint32_t f = 0; f < frames; ++f) {
    SceneFrameReport report;
    Result<ImageRgba8> image = (*renderer)->render_next(&report);
    if (!image) return report_error(a.verb, a.scene, image.error());
    const std::string name = fmt::format("{}/frame_{:04d}.png", a.out, f);
    if (Status s = write_png(name, *image); !s) return report_error(a.verb, name, s.error(), kExitSystem);
    if (Status s = (*gif)->add_frame(*image); !s)
      return report_error(a.verb, a.out + "/frames.gif", s.error(), kExitSystem);
    if (a.json_output) {
      const json line = {{"frame", f},
                         {"time", report.time},
                         {"alive", report.alive},
                         {"steps", report.steps},
                         {"simulate_ms", passes_json(report.simulate_passes)},
                         {"render_ms", passes_json(report.render_passes)}};
      std::printf("%s\n", line.dump().c_str());
    } else if (!progress.shown()) {
      std::printf("frame %u t=%.3f alive=%u steps=%u simulate:%s render:%s\n", f, report.time, report.alive,
                  report.steps, format_passes(report.simulate_passes).c_str(),
                  format_passes(report.render_passes).c_str());
    }
    progress.update(f + 1, fmt::format("alive {}", report.alive));
    if (f % sheet_every == 0 && kept.size() < 16) kept.push_back(std::move(image).value());
  }
  progress.finish();
  if (Status s = (*gif)->finish(); !s) return report_error(a.verb, a.out + "/frames.gif", s.error(), kExitSystem);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!kept.empty()) {
    Result<ImageRgba8> sheet = contact_sheet(kept, 4, 320);
    if (!sheet) return report_error(a.verb, a.out + "/contact_sheet.png", sheet.error());
    if (Status s = write_png(a.out + "/contact_sheet.png", *sheet); !s)
      return report_error(a.verb, a.out + "/contact_sheet.png", s.error(), kExitSystem);
  }
  if (lines)
    std::printf("wrote %u frames, contact_sheet.png and frames.gif to %s in %.1f s\n", frames, a.out.c_str(), seconds);
  if (!a.no_video && frames > 0) write_videos(a, fps, lines);
  if (a.json_output) {
    const json summary = {{"scene", a.scene},
                          {"device", device.chosen.name},
                          {"frames", frames},
                          {"width", (*renderer)->width()},
                          {"height", (*renderer)->height()},
                          {"seconds", seconds},
                          {"out", a.out}};
    std::printf("%s\n", summary.dump().c_str());
  }
  return kExitOk;
}

void add_render_options(CLI::App* cmd, RenderJob& job) {
  cmd->add_option("--out", job.out, "output folder")->capture_default_str();
  cmd->add_option("--size", job.size, "WxH (default: the scene's output size)");
  // The scene file's own limit on output.frames.
  cmd->add_option("--frames", job.frames, "frames to render (default: the scene's)")->check(CLI::Range(1u, 100000u));
  cmd->add_option("--path", job.path, "raster | compute")->capture_default_str();
  cmd->add_option("--transparency", job.transparency, "raster path: oit | sorted | avboit")->capture_default_str();
  cmd->add_option("--device", job.device, "device index or name substring (see mote info)");
  cmd->add_option("--asset-root", job.asset_root,
                  "the folder every file the scene and its effects name must stay inside (default: the current "
                  "directory; preview: the effect's folder)");
  cmd->add_option("--video", job.video, "videos ffmpeg writes when installed: mp4, webm (repeatable)")
      ->capture_default_str();
  cmd->add_flag("--no-video", job.no_video, "no MP4/WebM even when ffmpeg is installed (the GIF is always written)");
  cmd->add_flag("--json", job.json_output, "one JSON object per frame, then a summary object");
}

void add_render_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RenderJob>();
  CLI::App* cmd = app.add_subcommand("render",
                                     "Render a scene file's frames headless to PNG and an animated GIF (and MP4/WebM "
                                     "with ffmpeg)");
  cmd->add_option("scene", args->scene, "SCENE.json")->required();
  add_render_options(cmd, *args);
  cmd->callback([args, &exit_code] { exit_code = run_render_job(*args); });
}

}  // namespace mote::cli
