// Example 01: render a scene file with the public API only (include/mote/) — load the scene,
// create a context (the GPU if there is one, lavapipe otherwise), render frames and write the
// last one as a PNG.
//   example_render_scene [SCENE.json] [OUT.png] [FRAMES]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mote/image.hpp"
#include "mote/particles.hpp"
#include "mote/scene.hpp"

int main(int argc, char** argv) {
  const std::string scene_path = argc > 1 ? argv[1] : MOTE_EXAMPLE_SCENE;
  const std::string out_path = argc > 2 ? argv[2] : "showcase.png";
  const int frames = argc > 3 ? std::atoi(argv[3]) : 24;

  auto scene = mote::Scene::load_file(scene_path);
  if (!scene.ok()) {
    std::fprintf(stderr, "scene: %s\n", scene.error().to_string().c_str());
    return 1;
  }
  auto context = mote::Context::create();
  if (!context.ok()) {
    std::fprintf(stderr, "device: %s\n", context.error().to_string().c_str());
    return 1;
  }
  auto renderer = mote::SceneRenderer::create(*context.value(), scene.value());
  if (!renderer.ok()) {
    std::fprintf(stderr, "renderer: %s\n", renderer.error().to_string().c_str());
    return 1;
  }
  for (const std::string& w : renderer.value()->warnings()) std::printf("warning: %s\n", w.c_str());
  mote::ImageRgba8 image;
  for (int f = 0; f < std::max(frames, 1); ++f) {
    mote::SceneFrameReport report;
    auto frame = renderer.value()->render_next(&report);
    if (!frame.ok()) {
      std::fprintf(stderr, "frame %d: %s\n", f, frame.error().to_string().c_str());
      return 1;
    }
    image = std::move(frame).value();
    std::printf("frame %u: %u particles\n", report.index, report.alive);
  }
  if (auto written = mote::write_png(out_path, image); !written.ok()) {
    std::fprintf(stderr, "png: %s\n", written.error().to_string().c_str());
    return 1;
  }
  std::printf("wrote %s (%ux%u)\n", out_path.c_str(), image.width, image.height);
  return 0;
}
