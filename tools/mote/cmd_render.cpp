// mote render SCENE.json --out DIR: renders a scene file's frames headless (mote/scene.hpp) and
// writes frame_NNNN.png, contact_sheet.png, and — when ffmpeg is on the PATH — frames.gif and
// frames.mp4; prints one stats line per frame (alive particles, per-pass GPU milliseconds).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mote/device.hpp"
#include "mote/image.hpp"
#include "mote/scene.hpp"

namespace mote::cli {

namespace {

struct RenderArgs {
  std::string scene;
  std::string out = "out";
  std::string size;  // WxH
  uint32_t frames = 0;
  std::string path = "raster";
  std::string transparency = "oit";
  std::string device;
  bool no_video = false;
};

void print_error(const Error& e) { std::fprintf(stderr, "mote render: %s\n", e.to_string().c_str()); }

bool ffmpeg_available() { return std::system("ffmpeg -version > /dev/null 2>&1") == 0; }

std::string format_passes(const std::vector<PassTime>& passes) {
  std::string out;
  for (const PassTime& p : passes) out += fmt::format(" {}={:.3f}", p.name, p.ms);
  return out;
}

Status run(const RenderArgs& a) {
  MOTE_TRY_ASSIGN(Scene scene, Scene::load_file(a.scene));
  SceneRendererOptions options;
  if (!a.size.empty()) {
    unsigned w = 0, h = 0;
    char extra = 0;
    if (std::sscanf(a.size.c_str(), "%ux%u%c", &w, &h, &extra) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192)
      return make_error(ErrorCode::kInvalidArgument, "--size must be WxH with 16 <= W, H <= 8192", a.size);
    options.width = w;
    options.height = h;
  }
  if (a.path == "compute") options.path = DrawPath::kCompute;
  else if (a.path != "raster") return make_error(ErrorCode::kInvalidArgument, "--path is raster or compute", a.path);
  if (a.transparency == "sorted") options.transparency = Transparency::kSorted;
  else if (a.transparency != "oit")
    return make_error(ErrorCode::kInvalidArgument, "--transparency is oit or sorted", a.transparency);
  const uint32_t frames = a.frames ? a.frames : scene.output().frames;

  MOTE_TRY_ASSIGN(std::unique_ptr<Context> context, Context::create({.device = a.device}));
  const DeviceReport device = describe_device(*context);
  std::printf("mote render: %s on %s (%s), %s path%s\n", a.scene.c_str(), device.chosen.name.c_str(),
              device.choice_reason.c_str(), a.path.c_str(),
              options.path == DrawPath::kRaster ? (", " + a.transparency).c_str() : "");
  MOTE_TRY_ASSIGN(std::unique_ptr<SceneRenderer> renderer, SceneRenderer::create(*context, scene, options));
  for (const std::string& w : renderer->warnings()) std::printf("warning: %s\n", w.c_str());

  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec) return make_error(ErrorCode::kIo, "cannot create the output folder: " + ec.message(), a.out);
  std::vector<ImageRgba8> kept;  // for the contact sheet (at most 16 frames, evenly spaced)
  const uint32_t sheet_every = std::max(1u, frames / 16);
  const auto started = std::chrono::steady_clock::now();
  for (uint32_t f = 0; f < frames; ++f) {
    SceneFrameReport report;
    MOTE_TRY_ASSIGN(ImageRgba8 image, renderer->render_next(&report));
    const std::string name = fmt::format("{}/frame_{:04d}.png", a.out, f);
    MOTE_TRY(write_png(name, image));
    std::printf("frame %u t=%.3f alive=%u steps=%u simulate:%s render:%s\n", f, report.time, report.alive, report.steps,
                format_passes(report.simulate_passes).c_str(), format_passes(report.render_passes).c_str());
    if (f % sheet_every == 0 && kept.size() < 16) kept.push_back(std::move(image));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MOTE_TRY_ASSIGN(ImageRgba8 sheet, contact_sheet(kept, 4, 320));
  MOTE_TRY(write_png(a.out + "/contact_sheet.png", sheet));
  std::printf("wrote %u frames and contact_sheet.png to %s in %.1f s\n", frames, a.out.c_str(), seconds);
  if (!a.no_video) {
    if (!ffmpeg_available()) {
      std::printf("ffmpeg not found: no frames.gif / frames.mp4 (install ffmpeg for them)\n");
    } else {
      const std::string input = fmt::format("-framerate {} -i '{}/frame_%04d.png'", scene.output().fps, a.out);
      const std::string gif = fmt::format(
          "ffmpeg -y -loglevel error {} -vf \"split[a][b];[a]palettegen[p];[b][p]paletteuse\" '{}/frames.gif'", input,
          a.out);
      const std::string mp4 = fmt::format(
          "ffmpeg -y -loglevel error {} -c:v libx264 -pix_fmt yuv420p -vf \"pad=ceil(iw/2)*2:ceil(ih/2)*2\" "
          "'{}/frames.mp4'",
          input, a.out);
      if (std::system(gif.c_str()) != 0) std::printf("warning: ffmpeg could not write frames.gif\n");
      if (std::system(mp4.c_str()) != 0) std::printf("warning: ffmpeg could not write frames.mp4\n");
      else std::printf("wrote frames.gif and frames.mp4\n");
    }
  }
  return ok_status();
}

}  // namespace

void add_render_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* cmd = app.add_subcommand("render",
                                     "Render a scene file's frames headless to PNG (and GIF/MP4 with ffmpeg)");
  cmd->add_option("scene", args->scene, "SCENE.json")->required();
  cmd->add_option("--out", args->out, "output folder")->capture_default_str();
  cmd->add_option("--size", args->size, "WxH (default: the scene's output size)");
  cmd->add_option("--frames", args->frames, "frames to render (default: the scene's)");
  cmd->add_option("--path", args->path, "raster | compute")->capture_default_str();
  cmd->add_option("--transparency", args->transparency, "raster path: oit | sorted")->capture_default_str();
  cmd->add_option("--device", args->device, "device index or name substring (see mote info)");
  cmd->add_flag("--no-video", args->no_video, "skip the GIF and MP4 even when ffmpeg is installed");
  cmd->callback([args, &exit_code] {
    const Status s = run(*args);
    if (!s.ok()) {
      print_error(s.error());
      exit_code = 1;
    }
  });
}

}  // namespace mote::cli
