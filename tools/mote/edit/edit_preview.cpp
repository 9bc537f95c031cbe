// The live preview (edit_preview.hpp).
#include "edit_preview.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <system_error>
#include <utility>

#include "../preview_stage.hpp"
#include "mote/device.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"

namespace mote::cli {
namespace {

namespace fs = std::filesystem;

// A jump forward longer than this makes a new renderer (a warm-up is cheaper than rendering
// every frame in between).
constexpr float kMaxStepForward = 0.5f;
constexpr float kFps = 24.0f;

// The document is written beside the file it stands for (so its relative texture paths resolve
// as they will once saved) for as long as the renderer takes to load it, then removed.
class PreviewFile {
 public:
  explicit PreviewFile(const fs::path& effect_file)
      : path_(effect_file.parent_path() / ("." + effect_file.stem().string() + ".mote-edit-preview.json")) {}
  ~PreviewFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  PreviewFile(const PreviewFile&) = delete;
  PreviewFile& operator=(const PreviewFile&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

EditPreview::EditPreview(fs::path root, std::string device) : root_(std::move(root)), device_(std::move(device)) {}

EditPreview::~EditPreview() = default;

std::string EditPreview::device_name() {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_name_;
}

Status EditPreview::restart(const fs::path& effect_file, std::string_view document, float time, uint32_t width,
                            uint32_t height) {
  renderer_.reset();
  has_frame_ = false;
  MOTE_TRY_ASSIGN(const CompiledEffect compiled, compile_effect(document));
  if (!context_) {
    MOTE_TRY_ASSIGN(context_, Context::create({.device = device_}));
    device_name_ = describe_device(*context_).chosen.name;
  }
  const Framing framing = frame_effect(compiled, uint32_t(2.0f * kFps), 1.0f / kFps);
  const StageOptions stage{.frames = 100000,
                           .fps = kFps,
                           .width = width,
                           .height = height,
                           .warmup = warmup_seconds(compiled) + time,
                           .orbit_degrees = 0.0f};
  const PreviewFile file(effect_file);
  MOTE_TRY(write_text_file(file.path(), document));
  MOTE_TRY_ASSIGN(const Scene scene, Scene::parse(stage_scene(file.path().filename(), framing, stage),
                                                  effect_file.parent_path(), {.asset_root = root_}));
  MOTE_TRY_ASSIGN(renderer_, SceneRenderer::create(*context_, scene));
  start_ = time;
  fps_ = kFps;
  return ok_status();
}

Result<PreviewFrame> EditPreview::frame(const fs::path& effect_file, std::string_view document, float time,
                                        uint32_t width, uint32_t height) {
  if (!(width >= 64 && width <= 1920 && height >= 64 && height <= 1080))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the preview size must be 64..1920 x 64..1080, not {}x{}", width, height));
  if (!(time >= 0.0f && time <= 600.0f))
    return make_error(ErrorCode::kInvalidArgument, fmt::format("the time must be in [0, 600] seconds, not {}", time));
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string key = fmt::format("{}\n{}x{}\n{:x}", effect_file.string(), width, height,
                                      std::hash<std::string_view>{}(document));
  const float half_frame = 0.5f / fps_;
  const bool same = renderer_ && key == key_;
  if (same && has_frame_ && std::fabs(last_.time - time) < half_frame) return last_;
  const float next = has_frame_ ? last_.time + 1.0f / fps_ : start_;
  if (!same || time < next - half_frame || time > next + kMaxStepForward) {
    key_.clear();
    MOTE_TRY(restart(effect_file, document, time, width, height));
    key_ = key;
  }
  // Frames until the one nearest `time` (one at least: the renderer's first frame is at start_).
  do {
    SceneFrameReport report;
    Result<ImageRgba8> image = renderer_->render_next(&report);
    if (!image) {
      key_.clear();
      renderer_.reset();
      return image.error();
    }
    last_.image = std::move(image).value();
    last_.time = start_ + report.time;
    last_.alive = report.alive;
    has_frame_ = true;
  } while (last_.time < time - half_frame);
  return last_;
}

}  // namespace mote::cli
