// One headless render of a scene to PNG frames, a contact sheet, frames.gif and (with ffmpeg)
// videos: `mote render` runs it on a scene file, `mote preview` on the stage it makes for an
// effect (cmd_render.cpp does the work).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace mote::cli {

struct RenderJob {
  std::string verb = "render";     // for messages: "mote VERB: FILE: where: what"
  std::string scene;               // the scene file, or what the messages call a made-up scene
  std::string scene_text;          // a scene made in memory (then scene is only its name)
  std::filesystem::path base_dir;  // where scene_text's relative paths resolve
  std::string out = "out";
  std::string size;  // WxH
  uint32_t frames = 0;
  std::string path = "raster";
  std::string transparency = "oit";
  std::string device;
  std::vector<std::string> video = {"mp4"};
  std::string asset_root;  // "" = the current directory (docs/design/reliability.md, "Asset paths")
  bool no_video = false;
  bool json_output = false;
};

// The options both verbs take (--out, --size, --frames, --path, ...).
void add_render_options(CLI::App* cmd, RenderJob& job);
// Exit 2 (after the usage message) when an option is wrong; 0 otherwise.
int check_render_usage(const RenderJob& job);
int run_render_job(const RenderJob& job);

}  // namespace mote::cli
