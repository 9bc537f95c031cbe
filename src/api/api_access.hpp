// The public API's private way in: what a Context, a ParticleSystem and a Scene hold, and
// detail::ApiAccess, the friend each public class declares, through which the rest of src/api/
// reaches those internals. No public header shows any of it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <memory>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/particle_renderer.hpp"
#include "mote/particles.hpp"
#include "render/gpu_mesh.hpp"
#include "render/particle_renderer.hpp"
#include "mote/scene.hpp"
#include "mote/simulation.hpp"
#include "mote/volumes.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "scene/scene.hpp"

namespace mote {

namespace detail {

struct ContextState {
  gpu::Device* device = nullptr;       // the one Mote works on
  std::unique_ptr<gpu::Device> owned;  // when the Context made it (create, adopt)
};

struct ParticleSystemState {
  Context* context = nullptr;
  runtime::TransformTable transforms;
  bool has_transforms = false;
  runtime::ParticleSystem system;
  gpu::GpuProfiler profiler;    // desc.profile only
  bool profiled_frame = false;  // a frame has run with the profiler since create
  // What each emitter row draws, for the renderers that draw this system: the effect of the live
  // emitter there (null: a free row) and a version bumped whenever that changes (add, swap,
  // remove), so a renderer takes in exactly the rows that changed since it last looked.
  struct Row {
    std::shared_ptr<const CompiledEffect> effect;
    uint64_t version = 0;
  };
  std::vector<Row> rows;
  uint64_t next_version = 1;
  void row_changed(uint32_t row, const CompiledEffect* effect) {
    if (row >= rows.size()) rows.resize(size_t(row) + 1);
    rows[row].effect = effect ? std::make_shared<const CompiledEffect>(*effect) : nullptr;
    rows[row].version = next_version++;
  }
  // The cpu-driven emitters by row (src/api/cpu_emitter.cpp): each a simulation on the batch VM
  // whose live records go out through the row's manual driver every frame.
  struct CpuDriver {
    Simulation simulation;
    std::vector<CustomForce> forces;
    std::vector<Particle> records;  // this frame's live particles, the upload's source
    uint64_t rejected_forces = 0;
  };
  std::map<uint32_t, std::unique_ptr<CpuDriver>> cpu_emitters;
  // The rows whose driver was detached (detach_driver): inactive until set_driver attaches one.
  std::set<uint32_t> detached;
};

// Steps every cpu emitter of the system for a frame of `dt` and queues its upload.
Status step_cpu_emitters(ParticleSystemState& state, float dt);

struct ApiAccess;

}  // namespace detail

struct ParticleRenderer::State {
  ParticleSystem* system = nullptr;
  gpu::Device* device = nullptr;
  ParticleRendererDesc desc;
  // Where effects' textures and meshes must resolve (canonical); empty: not confined, for Mote's
  // own scene renderer over a scene loaded without a root.
  std::filesystem::path asset_root;
  render::ParticleRenderer renderer;
  std::map<std::string, std::unique_ptr<render::GpuMesh>> meshes;  // by resolved name
  std::vector<uint64_t> synced;                                    // per row: the system's row version the renderer has
};

namespace detail {

struct ApiAccess {
  static render::ParticleRenderer& renderer(ParticleRenderer& r) { return r.state_->renderer; }
  static const render::ParticleRenderer& renderer(const ParticleRenderer& r) { return r.state_->renderer; }
  // The scene renderer hands its scene's root on (empty when the scene has none).
  static void set_asset_root(ParticleRenderer& r, const std::filesystem::path& canonical_root) {
    r.state_->asset_root = canonical_root;
  }
  // A Context over a device the caller owns and keeps alive (Mote's own renderers run the public
  // particle API on the device they were given).
  static std::unique_ptr<Context> wrap(gpu::Device& device) {
    std::unique_ptr<Context> c(new Context());
    c->state_->device = &device;
    return c;
  }
  static gpu::Device& device(Context& context) { return *context.state_->device; }
  static const gpu::Device& device(const Context& context) { return *context.state_->device; }
  static ParticleSystemState& state(ParticleSystem& system) { return *system.state_; }
  static const scene::Scene& scene(const Scene& scene);
  static const Fog::State& state(const Fog& fog) { return *fog.state_; }
};

}  // namespace detail

struct Scene::State {
  scene::Scene scene;
};

inline const scene::Scene& detail::ApiAccess::scene(const Scene& scene) { return scene.state_->scene; }

}  // namespace mote
