// mote render SCENE.json --out DIR [--asset-root DIR]: renders a scene file's frames headless (mote/scene.hpp) and
// writes frame_NNNN.png, contact_sheet.png, and — when ffmpeg is on the PATH — frames.gif and
// frames.mp4; prints one stats line per frame (alive particles, per-pass GPU milliseconds).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
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
  std::string asset_root;  // "" = the current directory
  bool no_video = false;
};

void print_error(const Error& e) { std::fprintf(stderr, "mote render: %s\n", e.to_string().c_str()); }

// Runs `args[0]`, found on the PATH, with exactly `args` and waits for it: no shell, so nothing in
// an argument (a folder named `a'$(rm -rf ~)'`) is ever interpreted (docs/design/reliability.md,
// finding 6). `quiet` sends its output to /dev/null. Its exit status, or -1 when it could not be
// started or did not exit normally.
int run_process(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0) return -1;
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool ffmpeg_available() { return run_process({"ffmpeg", "-version"}, true) == 0; }

// "WxH", each side 16 .. 8192 in decimal digits only: sscanf's %u wrapped 4294967312 to 16.
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

// The GIF and MP4 from the frames, through ffmpeg with an argument vector. The folder is passed
// absolute, so no folder name reads as an ffmpeg option ("-x") or protocol ("concat:").
void write_videos(const std::string& out, float fps) {
  if (!ffmpeg_available()) {
    std::printf("ffmpeg not found: no frames.gif / frames.mp4 (install ffmpeg for them)\n");
    return;
  }
  std::error_code ec;
  const std::string folder = std::filesystem::absolute(out, ec).string();
  const std::vector<std::string> input = {"ffmpeg",     "-y",
                                          "-loglevel",  "error",
                                          "-framerate", fmt::format("{}", fps),
                                          "-i",         folder + "/frame_%04d.png"};
  std::vector<std::string> gif = input;
  gif.insert(gif.end(), {"-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", folder + "/frames.gif"});
  std::vector<std::string> mp4 = input;
  mp4.insert(mp4.end(), {"-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                         folder + "/frames.mp4"});
  if (run_process(gif, false) != 0) std::printf("warning: ffmpeg could not write frames.gif\n");
  if (run_process(mp4, false) != 0) std::printf("warning: ffmpeg could not write frames.mp4\n");
  else std::printf("wrote frames.gif and frames.mp4\n");
}

std::string format_passes(const std::vector<PassTime>& passes) {
  std::string out;
  for (const PassTime& p : passes) out += fmt::format(" {}={:.3f}", p.name, p.ms);
  return out;
}

Status run(const RenderArgs& a) {
  MOTE_TRY_ASSIGN(Scene scene, Scene::load_file(a.scene, {.asset_root = a.asset_root}));
  SceneRendererOptions options;
  if (!a.size.empty()) {
    uint32_t w = 0, h = 0;
    if (!parse_size(a.size, w, h))
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
  if (!a.no_video) write_videos(a.out, scene.output().fps);
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
  // The scene file's own limit on output.frames.
  cmd->add_option("--frames", args->frames, "frames to render (default: the scene's)")->check(CLI::Range(1u, 100000u));
  cmd->add_option("--path", args->path, "raster | compute")->capture_default_str();
  cmd->add_option("--transparency", args->transparency, "raster path: oit | sorted")->capture_default_str();
  cmd->add_option("--device", args->device, "device index or name substring (see mote info)");
  cmd->add_option("--asset-root", args->asset_root,
                  "the folder every file the scene and its effects name must stay inside (default: the current "
                  "directory)");
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
