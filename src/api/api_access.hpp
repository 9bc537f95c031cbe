// The public API's private way in: what a Context, a ParticleSystem and a Scene hold, and
// detail::ApiAccess, the friend each public class declares, through which the rest of src/api/
// reaches those internals. No public header shows any of it.
#pragma once

#include <memory>

#include "gpu/device.hpp"
#include "mote/particles.hpp"
#include "mote/scene.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "scene/scene.hpp"

namespace mote {

namespace detail {

struct ContextState {
  std::unique_ptr<gpu::Device> device;
};

struct ParticleSystemState {
  Context* context = nullptr;
  runtime::TransformTable transforms;
  bool has_transforms = false;
  runtime::ParticleSystem system;
};

struct ApiAccess {
  static gpu::Device& device(Context& context) { return *context.state_->device; }
  static const gpu::Device& device(const Context& context) { return *context.state_->device; }
  static ParticleSystemState& state(ParticleSystem& system) { return *system.state_; }
  static const scene::Scene& scene(const Scene& scene);
};

}  // namespace detail

struct Scene::State {
  scene::Scene scene;
};

inline const scene::Scene& detail::ApiAccess::scene(const Scene& scene) { return scene.state_->scene; }

}  // namespace mote
