// Renders a scene file's frames headless: loads and compiles its effects, uploads its meshes,
// and per frame records shadow → opaque set → particles → tonemap, then reads the picture back.
// Its particles go through the public API as any host's do: a mote::ParticleSystem (with the
// scene's transforms as its hierarchy) simulates them, and a mote::ParticleRenderer
// (mote/particle_renderer.hpp) draws them — mesh particles into its shadow map and opaque set,
// sprites on the raster path (OIT or depth-sorted) or the compute path — into this renderer's
// targets as it would into a host engine's. Frames are produced in order; the simulation advances
// by the scene's dt until the frame's time. docs/design/render.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "assets/image.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "render/gpu_mesh.hpp"
#include "render/opaque_pass.hpp"
#include "render/particle_renderer.hpp"
#include "render/render_targets.hpp"
#include "render/scene_fog.hpp"
#include "render/tonemap_pass.hpp"
#include "mote/particle_renderer.hpp"
#include "mote/particles.hpp"
#include "scene/scene.hpp"
#include "shared/particle_render.h"

namespace mote::render {

struct SceneRenderOptions {
  uint32_t width = 0;  // 0 = the scene's output size
  uint32_t height = 0;
  DrawPath path = DrawPath::kRaster;
  Transparency transparency = Transparency::kOit;  // raster path only
  uint32_t min_capacity = 4096;                    // the pool holds at least this many particles
  bool profile = true;                             // per-pass GPU timestamps in each FrameReport
  // The froxel grid lit sprites are lit from (mote::ParticleRendererDesc::lighting_grid; a zero:
  // a froxel per 16 x 16 pixels, 64 slices).
  glm::uvec3 lighting_grid{0, 0, 0};
  // AVBOIT's volume (mote::ParticleRendererDesc::avboit_grid; a zero: a column per 16 x 16 pixels
  // and 64 slices).
  glm::uvec3 avboit_grid{0, 0, 0};
  // The particle-light list's capacity (mote::ParticleRendererDesc::max_particle_lights).
  uint32_t max_particle_lights = 256;
  // Its cluster grid (mote::ParticleRendererDesc::cluster_particle_lights; false: every reader
  // loops over the whole list).
  bool cluster_particle_lights = true;
  uint32_t particle_light_cluster_entries = 0;  // mote::ParticleRendererDesc's (0: 32 a cluster)
};

struct FrameReport {
  uint32_t index = 0;
  float time = 0.0f;                           // scene time of the frame (seconds after warm-up)
  uint32_t alive = 0;                          // particles drawn (read back for the report only, after the frame)
  uint32_t steps = 0;                          // simulation steps taken since the previous frame
  std::vector<gpu::PassTime> simulate_passes;  // the last step's frame passes
  std::vector<gpu::PassTime> render_passes;
};

// Everything one frame's particle compositing saw and produced, for the CPU reference to redo
// (tests at small sizes; capture_next). HDR values are linear, premultiplied, rows top to bottom.
struct FrameCapture {
  shader::RenderView view{};
  std::vector<shader::PointLightGpu> point_lights;  // the view's point_light_count of them
  uint32_t record_words = 0;
  std::vector<uint32_t> pool;
  std::vector<uint32_t> alive;  // the slots drawn, in alive-list order
  std::vector<shader::ParticleDrawRecord> records;
  std::vector<shader::RibbonRecord> ribbons;  // beside records (docs/design/ribbons.md)
  // The particle lights (docs/design/particle_lights.md): the rows' light records, and the list
  // the GPU selected for the frame (its header and its first header.count lights).
  std::vector<shader::ParticleLightRecord> light_records;
  shader::ParticleLightHeader particle_light_header{};
  shader::ParticleLightClusterHeader particle_light_clusters{};  // the list's cluster grid (all zero: none)
  std::vector<shader::PointLightGpu> particle_lights;
  // The GPU's ribbon build of the frame (render/ribbon_pass.hpp): its counts block and a point per
  // alive-list place, in (row, id, serial) order; empty without a ribbon row.
  std::vector<uint32_t> ribbon_counts;
  std::vector<shader::RibbonPoint> ribbon_points;
  std::vector<float> depth;              // reversed-Z per pixel
  std::vector<glm::vec4> opaque;         // the HDR target before the particles
  std::vector<glm::vec4> composited;     // after the particles (before tonemapping)
  const assets::Atlas* atlas = nullptr;  // the renderer's (valid while it lives)
};

class SceneRenderer {
 public:
  static Result<std::unique_ptr<SceneRenderer>> create(gpu::Device& device, const scene::Scene& scene,
                                                       const SceneRenderOptions& options = {});
  ~SceneRenderer();

  // Simulates up to the next frame's time and renders it; `report` (optional) gets its stats.
  Result<assets::ImageRgba8> render_next(FrameReport* report = nullptr);
  // render_next that also captures the frame's particle inputs and HDR before/after (tests).
  Result<assets::ImageRgba8> capture_next(FrameCapture& capture, FrameReport* report = nullptr);

  uint32_t width() const { return targets_.width; }
  uint32_t height() const { return targets_.height; }
  uint32_t frames_rendered() const { return frame_; }
  // Non-fatal problems found while loading (texture fallbacks), for the CLI to print.
  const std::vector<std::string>& warnings() const { return renderer_->warnings(); }

 private:
  struct EmitterSlot {
    size_t effect = 0;  // index into effects_
    EmitterId id;       // once added
    bool added = false;
  };
  struct LoadedEffect {
    CompiledEffect effect;  // source_path set: its texture and mesh resolve against its file
  };

  SceneRenderer() = default;
  Result<assets::ImageRgba8> render(FrameReport* report, FrameCapture* capture);
  Status load(const SceneRenderOptions& options);
  Status add_due_emitters();
  Status step_simulation(float dt);
  Status load_effects();
  Status load_meshes();
  // The scene's vector_fields loaded and given to the system by the effects' names
  // (render/scene_vector_fields_binding.cpp).
  Status bind_vector_fields();
  Status make_particles(uint32_t width, uint32_t height);
  void fit_shadow_bounds();
  // The view at `frame_time` with the point lights (at most kMaxPointLights) it counts, and the
  // same camera and lights as the particle renderer takes them.
  shader::RenderView frame_view(float frame_time, const std::vector<glm::mat4>& worlds,
                                std::vector<shader::PointLightGpu>& lights) const;
  ParticleView particle_view(const shader::RenderView& view, std::span<const shader::PointLightGpu> lights) const;
  std::vector<OpaqueDraw> opaque_draws(const std::vector<glm::mat4>& worlds) const;
  Status record_frame(VkCommandBuffer cmd, const ParticleView& view, std::span<const OpaqueDraw> draws, bool capture);
  std::vector<glm::mat4> world_matrices(float time) const;
  Result<const GpuMesh*> mesh_for(scene::ObjectShape shape, const std::filesystem::path& path,
                                  const std::string& where);

  gpu::Device* device_ = nullptr;
  scene::Scene scene_;
  SceneRenderOptions options_;
  std::vector<LoadedEffect> effects_;
  std::vector<EmitterSlot> emitters_;
  std::vector<bool> events_bound_;  // scene_.events made on the system (render/scene_emitters.hpp)
  std::map<std::string, std::unique_ptr<GpuMesh>> meshes_;
  std::vector<const GpuMesh*> object_meshes_;
  std::unique_ptr<Context> context_;  // over device_: the public particle API's way in
  std::unique_ptr<mote::ParticleSystem> particles_;
  std::unique_ptr<mote::ParticleRenderer> renderer_;
  SceneFog fog_;  // the scene's volumes (none: inactive)
  RenderTargets targets_;
  OpaquePass opaque_;
  TonemapPass tonemap_;
  gpu::Buffer readback_;
  gpu::Buffer capture_opaque_;      // RGBA16F texels (capture_next only)
  gpu::Buffer capture_depth_;       // D32
  gpu::Buffer capture_composited_;  // RGBA16F
  gpu::GpuProfiler render_profiler_;
  float sim_time_ = 0.0f;  // seconds simulated, warm-up included
  float warmup_ = 0.0f;    // seconds simulated before frame 0
  uint32_t frame_ = 0;
  uint32_t steps_since_frame_ = 0;
  uint64_t last_serial_ = 0;
  glm::vec3 shadow_center_{0.0f};
  float shadow_radius_ = 10.0f;
};

}  // namespace mote::render
