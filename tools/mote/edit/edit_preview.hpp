// The live preview behind `mote edit` (docs/design/editor.md): the document being edited, on
// preview_stage.hpp's stage with the camera standing still, rendered by the engine on its device
// and handed to the page one frame at a time. The renderer is kept between requests, so playing
// forward renders only the frames in between; a jump back (scrub, restart) or a changed document
// makes a new one whose warm-up is the time asked for.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "mote/image.hpp"
#include "mote/particles.hpp"
#include "mote/result.hpp"
#include "mote/scene.hpp"

namespace mote::cli {

struct PreviewFrame {
  ImageRgba8 image;
  float time = 0.0f;  // the effect's time of the frame (seconds after its warm-up)
  uint32_t alive = 0;
};

class EditPreview {
 public:
  // `root`: the folder every file the preview reads must stay inside (the asset root).
  EditPreview(std::filesystem::path root, std::string device);
  ~EditPreview();

  // The frame at `time` of `document` as if saved at `effect_file` (its textures resolve from
  // that file's folder). Errors: the document's (with its pointer), kVulkan / kUnavailable (no
  // device), kInvalidArgument (a size out of 64 .. 1920 x 64 .. 1080, a time out of 0 .. 600).
  // One request at a time: the others wait.
  Result<PreviewFrame> frame(const std::filesystem::path& effect_file, std::string_view document, float time,
                             uint32_t width, uint32_t height);
  // The device's name, once a frame has made the context ("" before).
  std::string device_name();

 private:
  Status restart(const std::filesystem::path& effect_file, std::string_view document, float time, uint32_t width,
                 uint32_t height);

  std::mutex mutex_;
  std::filesystem::path root_;
  std::string device_;
  std::unique_ptr<Context> context_;  // before renderer_: destroyed after it
  std::string device_name_;
  std::unique_ptr<SceneRenderer> renderer_;
  std::string key_;     // what renderer_ renders: the file, the size and the document
  float start_ = 0.0f;  // the effect time renderer_'s frame 0 shows
  float fps_ = 24.0f;
  bool has_frame_ = false;
  PreviewFrame last_;
};

}  // namespace mote::cli
