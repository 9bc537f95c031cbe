#include "render/scene_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "core/file.hpp"
#include "api/api_access.hpp"
#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "render/draw_records.hpp"
#include "render/render_view.hpp"
#include "render/scene_emitters.hpp"
#include "shared/render_passes.h"

namespace mote::render {

namespace {

constexpr uint32_t kMaxPool = 1u << 24;

glm::mat4 trs(const glm::vec3& position, const glm::quat& rotation, const glm::vec3& scale) {
  return glm::translate(glm::mat4(1.0f), position) * glm::mat4_cast(rotation) * glm::scale(glm::mat4(1.0f), scale);
}

std::string emitter_where(size_t i) { return fmt::format("/emitters/{}/effect", i); }

constexpr double kMaxWarmupSteps = 1e6;
constexpr double kMaxStepsPerFrame = 1e4;

// An emitter's overrides must name fields the effect declares, with 1 value (splatted) or the
// field's width; checked when the scene loads, not when the emitter starts.
Status check_overrides(const scene::Emitter& e, const CompiledEffect& effect, size_t index) {
  for (const FieldValue& v : e.fields) {
    const FieldDecl* decl = nullptr;
    for (const FieldDecl& f : effect.program.emitter_fields)
      if (f.name == v.name) decl = &f;
    const std::string where = fmt::format("/emitters/{}/fields/{}", index, v.name);
    if (!decl)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("effect '{}' has no emitter field named '{}'", effect.name, v.name), where);
    if (v.values.size() != 1 && v.values.size() != decl->width)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("emitter field '{}' has width {}; give 1 or {} values", v.name, decl->width,
                                    decl->width),
                        where);
  }
  for (const FieldValue& v : e.globals) {
    const GlobalImport* decl = nullptr;
    for (const GlobalImport& g : effect.program.global_imports)
      if (g.name == v.name) decl = &g;
    const std::string where = fmt::format("/emitters/{}/globals/{}", index, v.name);
    if (!decl)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("effect '{}' reads no global field named '{}'", effect.name, v.name), where);
    if (v.values.size() != 1 && v.values.size() != decl->width)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("global field '{}' has width {}; give 1 or {} values", v.name, decl->width,
                                    decl->width),
                        where);
  }
  return ok_status();
}

}  // namespace

SceneRenderer::~SceneRenderer() {
  if (device_) (void)device_->wait_idle();
}

Result<std::unique_ptr<SceneRenderer>> SceneRenderer::create(gpu::Device& device, const scene::Scene& scene,
                                                             const SceneRenderOptions& options) {
  if (!device.description().queue_has_graphics)
    return make_error(ErrorCode::kUnsupported, "the device's queue cannot draw (no graphics queue)");
  std::unique_ptr<SceneRenderer> r(new SceneRenderer());
  r->device_ = &device;
  r->scene_ = scene;
  r->options_ = options;
  MOTE_TRY(r->load(options));
  return r;
}

Result<const GpuMesh*> SceneRenderer::mesh_for(scene::ObjectShape shape, const std::filesystem::path& path,
                                               const std::string& where) {
  std::string key;
  switch (shape) {
    case scene::ObjectShape::kPlane: key = "builtin:plane"; break;
    case scene::ObjectShape::kBox: key = "builtin:box"; break;
    case scene::ObjectShape::kSphere: key = "builtin:sphere"; break;
    case scene::ObjectShape::kMesh: key = path.string(); break;
  }
  auto it = meshes_.find(key);
  if (it != meshes_.end()) return it->second.get();
  assets::Mesh mesh;
  switch (shape) {
    case scene::ObjectShape::kPlane: mesh = assets::make_plane(); break;
    case scene::ObjectShape::kBox: mesh = assets::make_box(); break;
    case scene::ObjectShape::kSphere: mesh = assets::make_sphere(); break;
    case scene::ObjectShape::kMesh: {
      auto loaded = assets::load_gltf(path);
      if (!loaded.ok()) {
        Error e = loaded.take_error();
        e.message = fmt::format("{} (mesh '{}'{})", e.message, path.string(), e.where.empty() ? "" : " at " + e.where);
        e.where = where;
        return e;
      }
      mesh = std::move(loaded).value();
      break;
    }
  }
  MOTE_TRY_ASSIGN(GpuMesh gpu_mesh, GpuMesh::upload(*device_, mesh, "mote.mesh." + key));
  auto stored = std::make_unique<GpuMesh>(std::move(gpu_mesh));
  const GpuMesh* out = stored.get();
  meshes_.emplace(key, std::move(stored));
  return out;
}

Status SceneRenderer::load_effects() {
  // Effects, compiled once per file.
  std::map<std::string, size_t> effect_by_path;
  for (size_t i = 0; i < scene_.emitters.size(); ++i) {
    const std::filesystem::path& path = scene_.emitters[i].effect;
    auto found = effect_by_path.find(path.string());
    if (found == effect_by_path.end()) {
      auto text = read_file_text(path.string());
      if (!text.ok())
        return make_error(text.error().code,
                          fmt::format("cannot read effect '{}': {}", path.string(), text.error().message),
                          emitter_where(i));
      auto compiled = compile_effect(text.value());
      if (!compiled.ok())
        return make_error(compiled.error().code,
                          fmt::format("effect '{}' at {}: {}", path.string(), compiled.error().where,
                                      compiled.error().message),
                          emitter_where(i));
      effects_.push_back({std::move(compiled).value()});
      effects_.back().effect.source_path = path.string();
      found = effect_by_path.emplace(path.string(), effects_.size() - 1).first;
    }
    emitters_.push_back({found->second, UINT32_MAX, false});
    MOTE_TRY(check_overrides(scene_.emitters[i], effects_[found->second].effect, i));
  }

  // The simulation's step count is bounded before anything runs: a hostile dt or warm-up must
  // not keep the renderer busy for hours.
  const double dt = scene_.output.step();
  // An effect's own pre-warm runs on the GPU when its emitter is added (the particle system's
  // pre-warm pipeline, docs/design/runtime_frame.md): only the scene's warm-up takes steps.
  const double warmup_steps = double(scene_.output.warmup_seconds) / dt;
  const double steps_per_frame = 1.0 / (double(scene_.output.fps) * dt);
  if (warmup_steps > kMaxWarmupSteps)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the warm-up needs {:.0f} simulation steps of {} s; at most {}", warmup_steps, dt,
                                  kMaxWarmupSteps),
                      "/output/warmup_seconds");
  if (steps_per_frame > kMaxStepsPerFrame)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("each frame needs {:.0f} simulation steps (dt {} s at {} fps); at most {}",
                                  steps_per_frame, dt, scene_.output.fps, kMaxStepsPerFrame),
                      "/output/dt");
  return ok_status();
}

Status SceneRenderer::load_meshes() {
  // The objects' meshes (the mesh particles' are the particle renderer's).
  for (size_t i = 0; i < scene_.objects.size(); ++i) {
    const scene::Object& o = scene_.objects[i];
    MOTE_TRY_ASSIGN(const GpuMesh* mesh, mesh_for(o.shape, o.mesh, fmt::format("/objects/{}/mesh", i)));
    object_meshes_.push_back(mesh);
  }
  return ok_status();
}

Status SceneRenderer::make_particles(uint32_t width, uint32_t height) {
  // The pool: twice the effects' expected populations, at least min_capacity.
  uint64_t capacity = options_.min_capacity;
  uint32_t record_words = 2;
  uint64_t expected = 0;
  for (const EmitterSlot& slot : emitters_) {
    expected += effects_[slot.effect].effect.emission.capacity_hint;
    record_words = std::max(record_words, effects_[slot.effect].effect.program.particle_record_words());
  }
  capacity = std::min<uint64_t>(std::max<uint64_t>(capacity, expected * 2), kMaxPool);
  // Kernels compiled before the frame that first needs them, so every run renders the same.
  MOTE_TRY_ASSIGN(particles_,
                  mote::ParticleSystem::create(*context_,
                                               {.capacity = uint32_t(capacity),
                                                .record_words = record_words,
                                                .max_emitters = std::max<uint32_t>(1, uint32_t(emitters_.size())),
                                                .max_transforms = uint32_t(scene_.transforms.size()),
                                                .compiled_simulate = true,
                                                .compile_in_background = false,
                                                .profile = options_.profile}));
  MOTE_TRY(particles_->set_wind(scene_.wind));  // SAMPLE_WIND in every effect of the scene
  MOTE_TRY(bind_vector_fields());               // SAMPLE_FIELD's slots, by the effects' names
  // The scene's transforms as the system's hierarchy: rows are handed out in order on a fresh
  // table, parents before children, so row == the transform's index.
  for (const scene::Transform& t : scene_.transforms) {
    TransformId parent;
    if (!t.parent.empty()) parent.row = *scene_.find_transform(t.parent);
    MOTE_TRY_ASSIGN(const TransformId row, particles_->add_transform(parent));
    (void)row;
  }
  const mote::ParticleRendererDesc desc{
      .width = width,
      .height = height,
      .path = options_.path == DrawPath::kCompute ? mote::DrawPath::kCompute : mote::DrawPath::kRaster,
      .transparency = options_.transparency == Transparency::kSorted   ? mote::Transparency::kSorted
                      : options_.transparency == Transparency::kAvboit ? mote::Transparency::kAvboit
                                                                       : mote::Transparency::kOit,
      .lighting_grid = {options_.lighting_grid.x, options_.lighting_grid.y, options_.lighting_grid.z},
      .avboit_grid = {options_.avboit_grid.x, options_.avboit_grid.y, options_.avboit_grid.z},
      .max_particle_lights = options_.max_particle_lights,
      .cluster_particle_lights = options_.cluster_particle_lights,
      .particle_light_cluster_entries = options_.particle_light_cluster_entries};
  MOTE_TRY_ASSIGN(renderer_, mote::ParticleRenderer::create(*particles_, desc));
  // The effects' textures and meshes stay inside the scene's asset root (none: not confined).
  detail::ApiAccess::set_asset_root(*renderer_, scene_.asset_root);
  // Every effect's texture and mesh now: a problem is the scene's, found before the first frame.
  for (const LoadedEffect& e : effects_)
    if (Status loaded = renderer_->preload(e.effect); !loaded.ok())
      return make_error(loaded.error().code, loaded.error().message,
                        loaded.error().where.find("#/render/") != std::string::npos ? loaded.error().where
                                                                                    : e.effect.name + "#/render/mesh");
  return ok_status();
}

Status SceneRenderer::load(const SceneRenderOptions& options) {
  gpu::Device& device = *device_;
  const uint32_t width = options.width ? options.width : scene_.output.width;
  const uint32_t height = options.height ? options.height : scene_.output.height;
  if (width == 0 || height == 0 || width > 8192 || height > 8192)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("render size {}x{} is outside 1..8192", width, height));
  MOTE_TRY(load_effects());
  MOTE_TRY(load_meshes());
  context_ = detail::ApiAccess::wrap(device);
  MOTE_TRY(make_particles(width, height));
  MOTE_TRY_ASSIGN(fog_, SceneFog::create(*context_, scene_, width, height));
  if (fog_.active()) renderer_->set_fog(fog_.fog());
  const uint32_t shadow_size = scene_.sun && scene_.sun->shadows
                                   ? std::min(scene_.sun->shadow_map_size, device.limits().maxImageDimension2D)
                                   : 1;
  MOTE_TRY_ASSIGN(targets_, RenderTargets::create(device, width, height, shadow_size));
  MOTE_TRY_ASSIGN(opaque_, OpaquePass::create(device));
  MOTE_TRY_ASSIGN(tonemap_, TonemapPass::create(device));
  MOTE_TRY_ASSIGN(readback_, gpu::Buffer::create(device, {.size = uint64_t(width) * height * 4,
                                                          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                          .memory = gpu::MemoryUsage::kReadback,
                                                          .name = "mote.render.readback"}));
  if (options.profile) {
    MOTE_TRY_ASSIGN(render_profiler_, gpu::GpuProfiler::create(device, 16));
  }
  fit_shadow_bounds();

  // Warm-up: the scene's own (the effects' pre-warms run on the GPU as their emitters are added).
  warmup_ = scene_.output.warmup_seconds;
  return ok_status();
}

void SceneRenderer::fit_shadow_bounds() {
  // The sun's shadow map covers the objects' bounds at t = 0 (a sphere around their boxes).
  const std::vector<glm::mat4> worlds = world_matrices(0.0f);
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (size_t i = 0; i < scene_.objects.size(); ++i) {
    const scene::Object& o = scene_.objects[i];
    glm::mat4 model = trs(o.position, o.rotation, o.scale);
    if (!o.transform.empty()) model = worlds[*scene_.find_transform(o.transform)] * model;
    const GpuMesh& m = *object_meshes_[i];
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner((c & 1) ? m.bounds_max.x : m.bounds_min.x, (c & 2) ? m.bounds_max.y : m.bounds_min.y,
                             (c & 4) ? m.bounds_max.z : m.bounds_min.z);
      const glm::vec3 w = glm::vec3(model * glm::vec4(corner, 1.0f));
      lo = glm::min(lo, w);
      hi = glm::max(hi, w);
    }
  }
  if (!scene_.objects.empty()) {
    shadow_center_ = 0.5f * (lo + hi);
    shadow_radius_ = std::clamp(0.5f * glm::length(hi - lo), 1.0f, 100.0f);
  }
}

std::vector<glm::mat4> SceneRenderer::world_matrices(float time) const {
  std::vector<glm::mat4> worlds(scene_.transforms.size(), glm::mat4(1.0f));
  for (size_t i = 0; i < scene_.transforms.size(); ++i) {
    const scene::Transform& t = scene_.transforms[i];
    const scene::LocalPose pose = scene::evaluate_transform(t, time);
    glm::mat4 local = trs(pose.position, pose.rotation, pose.scale);
    worlds[i] = t.parent.empty() ? local : worlds[*scene_.find_transform(t.parent)] * local;  // parents come first
  }
  return worlds;
}

Status SceneRenderer::add_due_emitters() {
  for (size_t i = 0; i < emitters_.size(); ++i) {
    EmitterSlot& slot = emitters_[i];
    const scene::Emitter& e = scene_.emitters[i];
    const float due = e.start_time > 0.0f ? warmup_ + e.start_time : 0.0f;
    if (slot.added || sim_time_ + 1e-6f < due) continue;
    auto id = particles_->add_emitter(effects_[slot.effect].effect, scene_emitter_desc(scene_, i));
    if (!id.ok())
      return make_error(id.error().code, id.error().message,
                        fmt::format("/emitters/{}{}", i, id.error().where.empty() ? "" : " " + id.error().where));
    slot.id = id.value();
    slot.added = true;
  }
  auto added = [&](size_t i) { return emitters_[i].added ? std::optional(emitters_[i].id) : std::nullopt; };
  return bind_due_events(*particles_, scene_, added, events_bound_);
}

Status SceneRenderer::step_simulation(float dt) {
  for (size_t i = 0; i < scene_.transforms.size(); ++i) {
    const scene::LocalPose pose = scene::evaluate_transform(scene_.transforms[i], sim_time_);
    const glm::quat& q = pose.rotation;
    MOTE_TRY(particles_->set_transform(TransformId{uint32_t(i)}, {pose.position.x, pose.position.y, pose.position.z},
                                       {q.x, q.y, q.z, q.w}, {pose.scale.x, pose.scale.y, pose.scale.z}));
  }
  // Emitters that cull are tested against the camera as the scene places it at this step.
  ViewSetup setup;
  setup.camera = scene::evaluate_camera(scene_.camera, sim_time_ + dt);
  setup.width = targets_.width;
  setup.height = targets_.height;
  const glm::mat4 view_projection = make_render_view(setup).view_projection;
  std::array<float, 16> camera{};
  std::copy_n(glm::value_ptr(view_projection), 16, camera.begin());
  particles_->set_camera(camera);
  MOTE_TRY(particles_->execute(dt));
  sim_time_ += dt;
  ++steps_since_frame_;
  return ok_status();
}

Result<assets::ImageRgba8> SceneRenderer::render_next(FrameReport* report) { return render(report, nullptr); }

Result<assets::ImageRgba8> SceneRenderer::capture_next(FrameCapture& capture, FrameReport* report) {
  if (!capture_opaque_.valid()) {
    const uint64_t texels = uint64_t(targets_.width) * targets_.height;
    auto make = [&](uint64_t bytes, const char* name) {
      return gpu::Buffer::create(*device_, {.size = bytes,
                                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            .memory = gpu::MemoryUsage::kReadback,
                                            .name = name});
    };
    MOTE_TRY_ASSIGN(capture_opaque_, make(texels * 8, "mote.render.capture_opaque"));
    MOTE_TRY_ASSIGN(capture_depth_, make(texels * 4, "mote.render.capture_depth"));
    MOTE_TRY_ASSIGN(capture_composited_, make(texels * 8, "mote.render.capture_composited"));
  }
  return render(report, &capture);
}

shader::RenderView SceneRenderer::frame_view(float frame_time, const std::vector<glm::mat4>& worlds,
                                             std::vector<shader::PointLightGpu>& lights) const {
  ViewSetup setup;
  setup.camera = scene::evaluate_camera(scene_.camera, frame_time);
  setup.width = targets_.width;
  setup.height = targets_.height;
  setup.exposure = scene_.output.exposure;
  setup.time = frame_time;
  setup.sun = scene_.sun;
  setup.shadow_center = shadow_center_;
  setup.shadow_radius = shadow_radius_;
  setup.shadow_map_size = targets_.shadow_size > 1 ? targets_.shadow_size : 0;
  setup.environment = scene_.environment;
  lights.clear();
  for (const scene::PointLight& light : scene_.point_lights) {
    if (lights.size() == shader::kMaxPointLights) break;
    glm::vec4 p(light.position, 1.0f);
    if (!light.transform.empty()) p = worlds[*scene_.find_transform(light.transform)] * p;
    lights.push_back(make_point_light(light, glm::vec3(p)));
  }
  for (const scene::SpotLight& light : scene_.spot_lights) {
    if (lights.size() == shader::kMaxPointLights) break;
    const bool placed = !light.transform.empty();
    lights.push_back(make_spot_light(light,
                                     placed ? worlds[*scene_.find_transform(light.transform)] : glm::mat4(1.0f)));
  }
  setup.point_light_count = uint32_t(lights.size());
  return make_render_view(setup);
}

std::vector<OpaqueDraw> SceneRenderer::opaque_draws(const std::vector<glm::mat4>& worlds) const {
  std::vector<OpaqueDraw> draws;
  for (size_t i = 0; i < scene_.objects.size(); ++i) {
    const scene::Object& o = scene_.objects[i];
    glm::mat4 model = trs(o.position, o.rotation, o.scale);
    if (!o.transform.empty()) model = worlds[*scene_.find_transform(o.transform)] * model;
    OpaqueDraw d;
    d.mesh = object_meshes_[i];
    d.push.model = model;
    d.push.base_color = glm::vec4(o.material.base_color, o.material.roughness);
    d.push.emissive = glm::vec4(o.material.emissive, o.material.metallic);
    d.casts_shadow = o.casts_shadow;
    draws.push_back(d);
  }
  return draws;
}

ParticleView SceneRenderer::particle_view(const shader::RenderView& view,
                                          std::span<const shader::PointLightGpu> lights) const {
  ParticleView v;
  std::copy_n(glm::value_ptr(view.view), 16, v.view.begin());
  std::copy_n(glm::value_ptr(view.projection), 16, v.projection.begin());
  std::copy_n(glm::value_ptr(view.sun_view_projection), 16, v.sun_view_projection.begin());
  v.near_plane = view.clip.x;
  v.far_plane = view.clip.y;
  v.exposure = view.clip.z;
  v.time = view.clip.w;
  if (view.sun_direction.w > 0.0f) {
    v.sun_direction = {view.sun_direction.x, view.sun_direction.y, view.sun_direction.z};
    v.sun_radiance = {view.sun_radiance.x, view.sun_radiance.y, view.sun_radiance.z};
  }
  v.shadow_map_size = view.sun_radiance.w > 0.0f ? targets_.shadow_size : 0;
  v.sky_ambient = {view.sky_ambient.x, view.sky_ambient.y, view.sky_ambient.z};
  v.ground_ambient = {view.ground_ambient.x, view.ground_ambient.y, view.ground_ambient.z};
  public_lights(lights, v);
  return v;
}

Status SceneRenderer::record_frame(VkCommandBuffer cmd, const ParticleView& view, std::span<const OpaqueDraw> draws,
                                   bool capture) {
  const bool profile = options_.profile;
  auto pass = [&](const char* name) {
    if (profile) render_profiler_.begin(cmd, name);
  };
  auto pass_end = [&] {
    if (profile) render_profiler_.end(cmd);
  };
  if (profile) render_profiler_.reset(cmd);
  pass("setup");
  MOTE_TRY(renderer_->record_prepare(cmd, view));
  // The opaque set reads the view block and lights the particle renderer just wrote.
  const render::ParticleRenderer& particle_renderer = detail::ApiAccess::renderer(*renderer_);
  const gpu::Buffer& view_buffer = particle_renderer.view_buffer();
  pass_end();
  pass("shadow");
  const bool shadows = targets_.shadow_size > 1;
  opaque_.record_shadow(cmd, targets_, shadows, draws, view_buffer);
  if (shadows)
    MOTE_TRY(renderer_->record_shadow_casters(cmd, {targets_.shadow_map.handle(), targets_.shadow_map.view(),
                                                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                                    targets_.shadow_size}));
  opaque_.finish_shadow(cmd, targets_);
  pass_end();
  pass("opaque");
  opaque_.record_scene(cmd, targets_, glm::vec3(scene_.environment.background), draws, view_buffer,
                       particle_renderer.point_lights_buffer(), particle_renderer.particle_lights_buffer(),
                       particle_renderer.particle_light_clusters_buffer());
  const mote::ParticleShadowMap shadow_map{targets_.shadow_map.handle(), targets_.shadow_map.view(),
                                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, targets_.shadow_size};
  MOTE_TRY(renderer_->record_opaque(cmd,
                                    {targets_.hdr.handle(), targets_.hdr.view(),
                                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, targets_.depth.handle(),
                                     targets_.depth.view(), VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
                                    &shadow_map));
  if (fog_.active()) {
    pass_end();
    pass("fog");
    MOTE_TRY(fog_.fog()->record(cmd, view,
                                {targets_.hdr.handle(), targets_.hdr.view(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                 targets_.depth.handle(), targets_.depth.view(),
                                 VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
                                shadows ? &shadow_map : nullptr, renderer_.get()));
  }
  // For the sprites: the depth read-only (tested and sampled), the colour as a storage image (the
  // compute path's and the OIT resolve's layout, and the tonemapper's after).
  gpu::image_barrier(cmd, targets_.depth, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT,
                     kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
  if (capture) {
    copy_target(cmd, targets_.hdr, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, kTargetStages, capture_opaque_);
    copy_target(cmd, targets_.depth, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, kTargetStages, capture_depth_);
  }
  gpu::image_barrier(cmd, targets_.hdr, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                     kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT, kTargetStages,
                     VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  pass_end();
  pass("particles");
  const mote::ParticleTargets sprite_targets{targets_.hdr.handle(),   targets_.hdr.view(),
                                             VK_IMAGE_LAYOUT_GENERAL, targets_.depth.handle(),
                                             targets_.depth.view(),   VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  MOTE_TRY(renderer_->record_transparent(cmd, sprite_targets, shadows ? &shadow_map : nullptr));
  gpu::memory_barrier(cmd, kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  if (capture) copy_target(cmd, targets_.hdr, VK_IMAGE_LAYOUT_GENERAL, kTargetStages, capture_composited_);
  pass_end();
  pass("tonemap");
  tonemap_.record(cmd, targets_, scene_.output.tonemap, scene_.output.exposure);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {targets_.width, targets_.height, 1};
  vkCmdCopyImageToBuffer(cmd, targets_.ldr.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(), 1,
                         &region);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                      VK_ACCESS_2_HOST_READ_BIT);
  pass_end();
  return ok_status();
}

Result<assets::ImageRgba8> SceneRenderer::render(FrameReport* report, FrameCapture* capture) {
  gpu::Device& device = *device_;
  const float fps = scene_.output.fps;
  const float frame_time = float(frame_) / fps;
  const float target = warmup_ + frame_time;
  const float dt = scene_.output.step();
  MOTE_TRY(add_due_emitters());
  while (sim_time_ + 0.5f * dt < target) {
    MOTE_TRY(step_simulation(dt));
    MOTE_TRY(add_due_emitters());
  }
  MOTE_TRY(device.wait(device.last_submitted_serial()));

  // The view, lights and objects at this frame.
  const std::vector<glm::mat4> worlds = world_matrices(sim_time_);
  std::vector<shader::PointLightGpu> lights;
  const shader::RenderView view = frame_view(frame_time, worlds, lights);
  MOTE_TRY(fog_.update(frame_time, worlds));
  const std::vector<OpaqueDraw> draws = opaque_draws(worlds);
  Status recorded = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    recorded = record_frame(cmd, particle_view(view, lights), draws, capture != nullptr);
  }));
  MOTE_TRY(recorded);
  if (capture) {
    const size_t texels = size_t(targets_.width) * targets_.height;
    MOTE_TRY(capture_opaque_.invalidate());
    MOTE_TRY(capture_depth_.invalidate());
    MOTE_TRY(capture_composited_.invalidate());
    capture->view = view;
    capture->point_lights = lights;
    capture->record_words = particles_->record_words();
    // The pool as the draw read it: every live record at its slot (the rest zero, as free slots are).
    MOTE_TRY_ASSIGN(const AliveRecords alive, particles_->read_alive_records());
    capture->pool.assign(size_t(particles_->capacity()) * alive.record_words, 0u);
    for (size_t i = 0; i < alive.slots.size(); ++i)
      std::copy_n(alive.records.begin() + std::ptrdiff_t(i * alive.record_words), alive.record_words,
                  capture->pool.begin() + std::ptrdiff_t(size_t(alive.slots[i]) * alive.record_words));
    capture->alive = alive.slots;
    const render::ParticleRenderer& particle_renderer = detail::ApiAccess::renderer(*renderer_);
    const std::span<const shader::ParticleDrawRecord> records = particle_renderer.records();
    capture->records.assign(records.begin(), records.end());
    capture->ribbons.assign(particle_renderer.ribbon_records().begin(), particle_renderer.ribbon_records().end());
    capture->light_records.assign(particle_renderer.light_records().begin(), particle_renderer.light_records().end());
    MOTE_TRY_ASSIGN(capture->particle_light_header, particle_renderer.read_light_header());
    MOTE_TRY_ASSIGN(capture->particle_light_clusters, particle_renderer.read_light_cluster_header());
    capture->particle_lights.clear();
    if (const ParticleLightPass& selection = particle_renderer.light_pass();
        selection.valid() && capture->particle_light_header.count > 0) {
      MOTE_TRY_ASSIGN(capture->particle_lights,
                      gpu::readback_as<shader::PointLightGpu>(device, selection.list(),
                                                              std::min(capture->particle_light_header.count,
                                                                       selection.max_lights()),
                                                              shader::kParticleLightHeaderBytes));
    }
    if (const RibbonPass& ribbons = particle_renderer.ribbon_pass(); ribbons.capacity() != 0) {
      MOTE_TRY_ASSIGN(capture->ribbon_counts,
                      gpu::readback_as<uint32_t>(device, ribbons.counts(), shader::kRibbonCountWords));
      MOTE_TRY_ASSIGN(capture->ribbon_points,
                      gpu::readback_as<shader::RibbonPoint>(device, ribbons.points(), capture->alive.size()));
    }
    capture->depth.resize(texels);
    std::memcpy(capture->depth.data(), capture_depth_.mapped(), texels * sizeof(float));
    capture->opaque = unpack_rgba16f(capture_opaque_, texels);
    capture->composited = unpack_rgba16f(capture_composited_, texels);
    capture->atlas = &particle_renderer.atlas();
  }
  MOTE_TRY(readback_.invalidate());
  assets::ImageRgba8 image;
  image.width = targets_.width;
  image.height = targets_.height;
  image.pixels.resize(size_t(image.width) * image.height * 4);
  std::memcpy(image.pixels.data(), readback_.mapped(), image.pixels.size());

  if (report) {
    report->index = frame_;
    report->time = frame_time;
    report->steps = steps_since_frame_;
    MOTE_TRY_ASSIGN(const ParticleStats stats, particles_->read_stats());
    report->alive = stats.alive;
    report->simulate_passes.clear();
    report->render_passes.clear();
    if (options_.profile) {
      if (steps_since_frame_ > 0) {
        MOTE_TRY_ASSIGN(const std::vector<PassTime> passes, particles_->read_pass_times());
        for (const PassTime& p : passes) report->simulate_passes.push_back({p.name, p.ms});
      }
      MOTE_TRY_ASSIGN(report->render_passes, render_profiler_.resolve());
    }
  }
  steps_since_frame_ = 0;
  ++frame_;
  return image;
}

}  // namespace mote::render
