// The public particle renderer (include/mote/particle_renderer.hpp) over render::ParticleRenderer:
// it follows the system's emitter rows (what each draws, by the version the public ParticleSystem
// bumps on every add, swap and removal), resolves and loads their textures and meshes, turns the
// host's camera and lights into the view block, and wraps the host's images.
#include "mote/particle_renderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <glm/gtc/type_ptr.hpp>
#include <map>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "api/fog_state.hpp"
#include "api/host_frame.hpp"
#include "assets/mesh.hpp"
#include "core/asset_path.hpp"
#include "gpu/image.hpp"
#include "render/gpu_mesh.hpp"
#include "render/particle_renderer.hpp"

namespace mote {

using detail::ApiAccess;
using detail::borrow;
using detail::BorrowedTargets;
using detail::check_view;
using detail::point_lights;
using detail::render_view;

namespace {

// A path an effect names (`key`: "texture" or "mesh"), against the directory of the document it
// came from, inside the renderer's asset root when it has one.
Result<std::filesystem::path> resolve(const ParticleRenderer::State& s, const CompiledEffect& effect,
                                      const std::string& path, const char* key) {
  const std::filesystem::path dir = std::filesystem::path(effect.source_path).parent_path();
  if (!s.asset_root.empty()) {
    const std::string where = (effect.source_path.empty() ? effect.name : effect.source_path) + "#/render/" + key;
    return core::resolve_asset_path(path, dir.empty() ? std::filesystem::path(".") : dir, s.asset_root, where);
  }
  const std::filesystem::path p(path);
  if (p.is_absolute() || effect.source_path.empty()) return p;
  return dir / p;
}

Result<const render::GpuMesh*> mesh_for(ParticleRenderer::State& s, const CompiledEffect& effect) {
  const std::string& name = effect.render.mesh;
  std::string key = "builtin:" + (name.empty() ? "box" : name);
  if (!name.empty() && name != "box" && name != "sphere") {
    MOTE_TRY_ASSIGN(const std::filesystem::path resolved, resolve(s, effect, name, "mesh"));
    key = resolved.string();
  }
  if (auto it = s.meshes.find(key); it != s.meshes.end()) return it->second.get();
  assets::Mesh mesh;
  if (key == "builtin:box") {
    mesh = assets::make_box();
  } else if (key == "builtin:sphere") {
    mesh = assets::make_sphere();
  } else {
    auto loaded = assets::load_gltf(key);
    if (!loaded.ok())
      return make_error(loaded.error().code,
                        fmt::format("effect '{}': mesh '{}': {}", effect.name, key, loaded.error().message),
                        loaded.error().where);
    mesh = std::move(loaded).value();
  }
  MOTE_TRY_ASSIGN(render::GpuMesh uploaded, render::GpuMesh::upload(*s.device, mesh, "mote.particle_mesh." + key));
  auto stored = std::make_unique<render::GpuMesh>(std::move(uploaded));
  const render::GpuMesh* out = stored.get();
  s.meshes.emplace(key, std::move(stored));
  return out;
}

// Takes in the rows whose effect changed since the renderer last looked: the new textures in
// one atlas rebuild, then each row's draw record.
Status sync_rows(ParticleRenderer::State& s) {
  detail::ParticleSystemState& system = ApiAccess::state(*s.system);
  s.synced.resize(system.rows.size(), 0);
  std::vector<assets::AtlasRequest> textures;
  for (size_t row = 0; row < system.rows.size(); ++row) {
    const auto& effect = system.rows[row].effect;
    if (system.rows[row].version == s.synced[row] || !effect || effect->render.texture.empty()) continue;
    MOTE_TRY_ASSIGN(const std::filesystem::path path, resolve(s, *effect, effect->render.texture, "texture"));
    textures.push_back({path.string(), path});
  }
  if (!textures.empty()) MOTE_TRY(s.renderer.add_textures(textures));
  for (size_t row = 0; row < system.rows.size(); ++row) {
    const detail::ParticleSystemState::Row& r = system.rows[row];
    if (r.version == s.synced[row]) continue;
    if (!r.effect) {
      MOTE_TRY(s.renderer.clear_emitter(uint32_t(row)));
    } else {
      // The record looks its texture up by the effect's name for it: the resolved path here.
      CompiledEffect drawn = *r.effect;
      if (!drawn.render.texture.empty()) {
        MOTE_TRY_ASSIGN(const std::filesystem::path path, resolve(s, *r.effect, drawn.render.texture, "texture"));
        drawn.render.texture = path.string();
      }
      const render::GpuMesh* mesh = nullptr;
      if (drawn.render.projection == "mesh") {
        MOTE_TRY_ASSIGN(mesh, mesh_for(s, *r.effect));
      }
      MOTE_TRY(s.renderer.set_emitter(uint32_t(row), drawn, system.system.generation(uint32_t(row)), mesh));
    }
    s.synced[row] = r.version;
  }
  return ok_status();
}

Status preload_effect(ParticleRenderer::State& s, const CompiledEffect& effect) {
  if (!effect.render.texture.empty()) {
    MOTE_TRY_ASSIGN(const std::filesystem::path resolved, resolve(s, effect, effect.render.texture, "texture"));
    const std::string path = resolved.string();
    const assets::AtlasRequest request{path, path};
    MOTE_TRY(s.renderer.add_textures(std::span(&request, 1)));
  }
  if (effect.render.projection == "mesh") {
    MOTE_TRY_ASSIGN(const render::GpuMesh* mesh, mesh_for(s, effect));
    (void)mesh;
  }
  return ok_status();
}

}  // namespace

ParticleRenderer::ParticleRenderer() : state_(std::make_unique<State>()) {}
ParticleRenderer::~ParticleRenderer() = default;

Result<std::unique_ptr<ParticleRenderer>> ParticleRenderer::create(ParticleSystem& system,
                                                                   const ParticleRendererDesc& desc) {
  return core::guard_allocation("ParticleRenderer::create", [&]() -> Result<std::unique_ptr<ParticleRenderer>> {
    if (desc.width == 0 || desc.height == 0 || desc.width > 8192 || desc.height > 8192)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("a particle renderer of {}x{}: the size must be 1 .. 8192 each way", desc.width,
                                    desc.height));
    std::unique_ptr<ParticleRenderer> r(new ParticleRenderer());
    State& s = *r->state_;
    detail::ParticleSystemState& state = ApiAccess::state(system);
    s.system = &system;
    s.device = &ApiAccess::device(*state.context);
    s.desc = desc;
    MOTE_TRY_ASSIGN(s.asset_root, core::canonical_asset_root(desc.asset_root));
    if (!s.device->description().queue_has_graphics && desc.path == DrawPath::kRaster)
      return make_error(ErrorCode::kUnsupported, "the raster path needs a queue that draws (no graphics queue)");
    const render::ParticleRendererOptions options{
        .width = desc.width,
        .height = desc.height,
        .path = desc.path == DrawPath::kCompute ? render::DrawPath::kCompute : render::DrawPath::kRaster,
        .transparency = desc.transparency == Transparency::kSorted   ? render::Transparency::kSorted
                        : desc.transparency == Transparency::kAvboit ? render::Transparency::kAvboit
                                                                     : render::Transparency::kOit,
        .capacity = system.capacity(),
        .max_emitters = system.max_emitters(),
        .frames_in_flight = state.system.frames_in_flight(),
        .lighting_grid = {desc.lighting_grid[0], desc.lighting_grid[1], desc.lighting_grid[2]},
        .lighting_near = desc.lighting_near,
        .lighting_far = desc.lighting_far,
        .avboit_grid = {desc.avboit_grid[0], desc.avboit_grid[1], desc.avboit_grid[2]},
        .max_particle_lights = desc.max_particle_lights,
        .cluster_particle_lights = desc.cluster_particle_lights,
        .particle_light_cluster_entries = desc.particle_light_cluster_entries};
    MOTE_TRY_ASSIGN(s.renderer, render::ParticleRenderer::create(*s.device, options));
    return r;
  });
}

Status ParticleRenderer::preload(const CompiledEffect& effect) { return preload_effect(*state_, effect); }

void ParticleRenderer::set_fog(const Fog* fog) {
  if (!fog) {
    state_->renderer.set_fog({});
    return;
  }
  const media::FroxelFog& froxels = ApiAccess::state(*fog).froxels;
  state_->renderer.set_fog({froxels.integrated_view(), froxels.sampler(), &froxels.sampling_buffer()});
}

Status ParticleRenderer::record(VkCommandBuffer cmd, const ParticleView& view, const ParticleTargets& targets) {
  return core::guard_allocation("ParticleRenderer::record", [&]() -> Status {
    MOTE_TRY(record_prepare(cmd, view));
    MOTE_TRY(record_opaque(cmd, targets));
    return record_transparent(cmd, targets);
  });
}

Status ParticleRenderer::record_prepare(VkCommandBuffer cmd, const ParticleView& view) {
  return core::guard_allocation("ParticleRenderer::record_prepare", [&]() -> Status {
    State& s = *state_;
    if (cmd == VK_NULL_HANDLE) return make_error(ErrorCode::kInvalidArgument, "record_prepare needs a command buffer");
    MOTE_TRY(check_view(view));
    MOTE_TRY(sync_rows(s));
    const std::vector<shader::PointLightGpu> lights = point_lights(view);
    const shader::RenderView block = render_view(view, s.desc.width, s.desc.height, uint32_t(lights.size()));
    return s.renderer.record_prepare(cmd, render::particle_buffers(ApiAccess::state(*s.system).system), block, lights);
  });
}

Status ParticleRenderer::record_shadow_casters(VkCommandBuffer cmd, const ParticleShadowMap& shadow_map) {
  if (shadow_map.image == VK_NULL_HANDLE || shadow_map.view == VK_NULL_HANDLE || shadow_map.size == 0)
    return make_error(ErrorCode::kInvalidArgument, "the shadow map needs its image, its view and its size");
  const gpu::Image image = gpu::Image::borrow(shadow_map.image, shadow_map.view, render::kDepthFormat, shadow_map.size,
                                              shadow_map.size, VK_IMAGE_ASPECT_DEPTH_BIT);
  return state_->renderer.record_shadow_casters(cmd, {&image, shadow_map.layout});
}

Status ParticleRenderer::record_opaque(VkCommandBuffer cmd, const ParticleTargets& targets,
                                       const ParticleShadowMap* shadow_map) {
  return core::guard_allocation("ParticleRenderer::record_opaque", [&]() -> Status {
    State& s = *state_;
    BorrowedTargets b;
    MOTE_TRY(borrow(targets, s.desc.width, s.desc.height, b));
    if (shadow_map == nullptr) return s.renderer.record_opaque(cmd, b.targets);
    if (shadow_map->image == VK_NULL_HANDLE || shadow_map->view == VK_NULL_HANDLE || shadow_map->size == 0)
      return make_error(ErrorCode::kInvalidArgument, "the shadow map needs its image, its view and its size");
    const gpu::Image shadow = gpu::Image::borrow(shadow_map->image, shadow_map->view, render::kDepthFormat,
                                                 shadow_map->size, shadow_map->size, VK_IMAGE_ASPECT_DEPTH_BIT);
    return s.renderer.record_opaque(cmd, b.targets, {&shadow, shadow_map->layout});
  });
}

Status ParticleRenderer::record_transparent(VkCommandBuffer cmd, const ParticleTargets& targets,
                                            const ParticleShadowMap* shadow_map) {
  return core::guard_allocation("ParticleRenderer::record_transparent", [&]() -> Status {
    State& s = *state_;
    BorrowedTargets b;
    MOTE_TRY(borrow(targets, s.desc.width, s.desc.height, b));
    if (shadow_map == nullptr) return s.renderer.record_transparent(cmd, b.targets);
    if (shadow_map->image == VK_NULL_HANDLE || shadow_map->view == VK_NULL_HANDLE || shadow_map->size == 0)
      return make_error(ErrorCode::kInvalidArgument, "the shadow map needs its image, its view and its size");
    const gpu::Image shadow = gpu::Image::borrow(shadow_map->image, shadow_map->view, render::kDepthFormat,
                                                 shadow_map->size, shadow_map->size, VK_IMAGE_ASPECT_DEPTH_BIT);
    return s.renderer.record_transparent(cmd, b.targets, {&shadow, shadow_map->layout});
  });
}

VkBuffer ParticleRenderer::particle_lights_buffer() const { return state_->renderer.particle_lights_buffer().handle(); }
VkBuffer ParticleRenderer::particle_light_clusters_buffer() const {
  return state_->renderer.particle_light_clusters_buffer().handle();
}

Result<ParticleLightStats> ParticleRenderer::read_light_stats() {
  return core::guard_allocation("ParticleRenderer::read_light_stats", [&]() -> Result<ParticleLightStats> {
    MOTE_TRY_ASSIGN(const shader::ParticleLightHeader h, state_->renderer.read_light_header());
    MOTE_TRY_ASSIGN(const shader::ParticleLightClusterHeader g, state_->renderer.read_light_cluster_header());
    return ParticleLightStats{h.count, h.candidates, h.overflow, h.capacity, g.clusters, g.entries, g.overflow};
  });
}

const std::vector<std::string>& ParticleRenderer::warnings() const { return state_->renderer.warnings(); }
uint32_t ParticleRenderer::width() const { return state_->desc.width; }
uint32_t ParticleRenderer::height() const { return state_->desc.height; }

}  // namespace mote
