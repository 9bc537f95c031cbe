// mote/scene.hpp over the scene loader (src/scene/) and render::SceneRenderer (src/render/).
#include "mote/scene.hpp"

#include <utility>

#include "api/api_access.hpp"
#include "assets/image.hpp"
#include "core/alloc_guard.hpp"
#include "core/asset_path.hpp"
#include "render/scene_renderer.hpp"

namespace mote {

Scene::Scene(std::unique_ptr<State> state) : state_(std::move(state)) {}
Scene::Scene(const Scene& other) : state_(std::make_unique<State>(*other.state_)) {}
Scene& Scene::operator=(const Scene& other) {
  if (this != &other) state_ = std::make_unique<State>(*other.state_);
  return *this;
}
Scene::Scene(Scene&&) noexcept = default;
Scene& Scene::operator=(Scene&&) noexcept = default;
Scene::~Scene() = default;

Result<Scene> Scene::load_file(const std::filesystem::path& path, const SceneLoadOptions& options) {
  return core::guard_allocation("Scene::load_file", [&]() -> Result<Scene> {
    MOTE_TRY_ASSIGN(const std::filesystem::path root, core::canonical_asset_root(options.asset_root));
    MOTE_TRY_ASSIGN(scene::Scene loaded, scene::load_scene_file(path, root));
    return Scene(std::make_unique<State>(State{std::move(loaded)}));
  });
}

Result<Scene> Scene::parse(std::string_view json_text, const std::filesystem::path& base_dir,
                           const SceneLoadOptions& options) {
  return core::guard_allocation("Scene::parse", [&]() -> Result<Scene> {
    MOTE_TRY_ASSIGN(const std::filesystem::path root, core::canonical_asset_root(options.asset_root));
    MOTE_TRY_ASSIGN(scene::Scene loaded, scene::load_scene(json_text, base_dir, root));
    return Scene(std::make_unique<State>(State{std::move(loaded)}));
  });
}

const std::string& Scene::name() const { return state_->scene.name; }

SceneOutput Scene::output() const {
  const scene::Output& o = state_->scene.output;
  return SceneOutput{o.width, o.height, o.frames, o.fps, o.step()};
}

uint32_t Scene::emitter_count() const { return uint32_t(state_->scene.emitters.size()); }

struct SceneRenderer::State {
  std::unique_ptr<render::SceneRenderer> renderer;
};

namespace {

std::vector<PassTime> to_pass_times(const std::vector<gpu::PassTime>& passes) {
  std::vector<PassTime> out;
  out.reserve(passes.size());
  for (const gpu::PassTime& p : passes) out.push_back({p.name, p.ms});
  return out;
}

Status check_size(const SceneRendererOptions& options) {
  if (options.width == 0 && options.height == 0) return ok_status();
  auto in_range = [](uint32_t v) { return v >= 16 && v <= 8192; };
  if (!in_range(options.width) || !in_range(options.height))
    return make_error(ErrorCode::kInvalidArgument,
                      "the image size must be 0 x 0 (the scene's) or W x H with 16 <= W, H <= 8192",
                      std::to_string(options.width) + "x" + std::to_string(options.height));
  return ok_status();
}

}  // namespace

SceneRenderer::SceneRenderer() : state_(std::make_unique<State>()) {}
SceneRenderer::~SceneRenderer() = default;

Result<std::unique_ptr<SceneRenderer>> SceneRenderer::create(Context& context, const Scene& scene,
                                                             const SceneRendererOptions& options) {
  MOTE_TRY(check_size(options));
  render::SceneRenderOptions internal;
  internal.width = options.width;
  internal.height = options.height;
  internal.path = options.path == DrawPath::kCompute ? render::DrawPath::kCompute : render::DrawPath::kRaster;
  internal.transparency = options.transparency == Transparency::kSorted   ? render::Transparency::kSorted
                          : options.transparency == Transparency::kAvboit ? render::Transparency::kAvboit
                                                                          : render::Transparency::kOit;
  internal.profile = options.profile;
  std::unique_ptr<SceneRenderer> made(new SceneRenderer());
  MOTE_TRY_ASSIGN(made->state_->renderer, render::SceneRenderer::create(detail::ApiAccess::device(context),
                                                                        detail::ApiAccess::scene(scene), internal));
  return made;
}

Result<ImageRgba8> SceneRenderer::render_next(SceneFrameReport* report) {
  render::FrameReport internal;
  MOTE_TRY_ASSIGN(assets::ImageRgba8 image, state_->renderer->render_next(&internal));
  if (report) {
    report->index = internal.index;
    report->time = internal.time;
    report->alive = internal.alive;
    report->steps = internal.steps;
    report->simulate_passes = to_pass_times(internal.simulate_passes);
    report->render_passes = to_pass_times(internal.render_passes);
  }
  return ImageRgba8{image.width, image.height, std::move(image.pixels)};
}

uint32_t SceneRenderer::width() const { return state_->renderer->width(); }
uint32_t SceneRenderer::height() const { return state_->renderer->height(); }
uint32_t SceneRenderer::frames_rendered() const { return state_->renderer->frames_rendered(); }
const std::vector<std::string>& SceneRenderer::warnings() const { return state_->renderer->warnings(); }

}  // namespace mote
