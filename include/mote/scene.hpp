// Scene files and the headless scene renderer (`mote render`, examples/01-render-a-scene).
//
// A scene file (JSON; docs/design/scene.md, docs/scene.schema.json) names an opaque set, lights,
// a camera path, a transform hierarchy, the emitters (effect documents) and the output settings.
// The renderer loads and compiles its effects, runs them on the GPU particle runtime and, per
// frame, draws the opaque set, the particles (raster path with order-independent transparency or
// depth-sorted, or the compute path) and tonemaps, then reads the picture back. docs/design/render.md.
//
// Threading: a Scene is a value (any thread); a SceneRenderer is used with its Context from one
// thread at a time. Errors are values (mote/result.hpp): a scene problem carries the JSON pointer
// of its cause in `where` ("/emitters/2/fields/rate"), whether found by the loader or the renderer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mote/image.hpp"
#include "mote/particles.hpp"
#include "mote/render_options.hpp"
#include "mote/result.hpp"

namespace mote {

// The output block of a scene file.
struct SceneOutput {
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t frames = 0;  // frames the scene asks for
  float fps = 0.0f;     // frame rate of the written sequence
  float dt = 0.0f;      // the simulation step (the file's dt, else 1 / fps)
};

// Where the files a scene names may come from (docs/design/reliability.md, "Asset paths"): the
// effects and meshes a scene file names, and the textures and meshes its effects name, resolve
// relative to the file that names them and must stay inside `asset_root` — absolute paths and
// paths that leave it ("../../etc/passwd", a symbolic link out) are refused at the path's JSON
// pointer, so a downloaded scene cannot read the machine's files.
struct SceneLoadOptions {
  std::filesystem::path asset_root;  // empty: the current directory
};

// A loaded, validated scene file. Loading is strict: every key known, every number finite and in
// range, every reference resolved; the first problem stops it (kParse, with a JSON pointer).
// Paths inside (effects, meshes) resolve against the file's folder; the files themselves are
// read by the renderer.
class Scene {
 public:
  // Reads `path` (kIo / kNotFound) and loads it with its folder as the base of relative paths.
  static Result<Scene> load_file(const std::filesystem::path& path, const SceneLoadOptions& options = {});
  static Result<Scene> parse(std::string_view json_text, const std::filesystem::path& base_dir,
                             const SceneLoadOptions& options = {});

  Scene(const Scene& other);
  Scene& operator=(const Scene& other);
  Scene(Scene&&) noexcept;
  Scene& operator=(Scene&&) noexcept;
  ~Scene();

  const std::string& name() const;
  SceneOutput output() const;
  uint32_t emitter_count() const;

 private:
  friend struct detail::ApiAccess;
  struct State;
  explicit Scene(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

struct SceneRendererOptions {
  uint32_t width = 0;  // 0 = the scene's output size (both or neither; 16 .. 8192)
  uint32_t height = 0;
  DrawPath path = DrawPath::kRaster;
  Transparency transparency = Transparency::kOit;  // raster path only
  bool profile = true;                             // per-pass GPU timestamps in each SceneFrameReport
};

struct SceneFrameReport {
  uint32_t index = 0;                     // 0-based, in render order
  float time = 0.0f;                      // scene time of the frame (seconds after the warm-up)
  uint32_t alive = 0;                     // particles drawn
  uint32_t steps = 0;                     // simulation steps taken since the previous frame
  std::vector<PassTime> simulate_passes;  // the last step's frame passes (with profile)
  std::vector<PassTime> render_passes;
};

// Renders a scene's frames in order on a Context's device; the Context must outlive it.
class SceneRenderer {
 public:
  // Loads and compiles every effect, packs the textures, uploads the meshes and runs the warm-up,
  // so a scene problem (a missing effect, an override naming no field, a warm-up too long) is
  // found here, before any frame. Errors: kInvalidArgument (options or the scene, with its
  // pointer), kNotFound / kIo / kParse / kFormat (a file it names, with the pointer), kVulkan,
  // kOutOfMemory. Waits for the GPU.
  static Result<std::unique_ptr<SceneRenderer>> create(Context& context, const Scene& scene,
                                                       const SceneRendererOptions& options = {});
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  // Simulates up to the next frame's time, renders it and reads it back (waits for the GPU).
  // `report`, when given, gets the frame's numbers.
  Result<ImageRgba8> render_next(SceneFrameReport* report = nullptr);

  uint32_t width() const;
  uint32_t height() const;
  uint32_t frames_rendered() const;
  // Non-fatal problems found while loading (a texture that fell back to the built-in disc, ...),
  // for a tool to print.
  const std::vector<std::string>& warnings() const;

 private:
  struct State;
  SceneRenderer();
  std::unique_ptr<State> state_;
};

}  // namespace mote
