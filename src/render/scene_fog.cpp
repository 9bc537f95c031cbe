#include "render/scene_fog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>

namespace mote::render {

namespace {

FogVolume fog_volume(const scene::Volume& v, const glm::mat4& world) {
  const glm::mat4 local = glm::translate(glm::mat4(1.0f), v.position) * glm::mat4_cast(v.rotation) *
                          glm::scale(glm::mat4(1.0f), v.scale);
  const glm::mat4 m = world * local;
  FogVolume out;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) out.transform[size_t(c * 4 + r)] = m[c][r];
  out.density = v.density;
  out.fade_distance = v.fade_distance;
  out.albedo = {v.albedo.x, v.albedo.y, v.albedo.z};
  out.noise_strength = v.noise_strength;
  out.noise_scale = v.noise_scale;
  out.noise_warp = v.noise_warp;
  out.noise_velocity = {v.noise_velocity.x, v.noise_velocity.y, v.noise_velocity.z};
  out.noise_wind_factor = v.noise_wind_factor;
  out.noise_texture = v.noise_texture;
  return out;
}

glm::mat4 world_of(const scene::Scene& scene, const scene::Volume& v, const std::vector<glm::mat4>& worlds) {
  if (v.transform.empty()) return glm::mat4(1.0f);
  const auto row = scene.find_transform(v.transform);
  return row && *row < worlds.size() ? worlds[*row] : glm::mat4(1.0f);
}

Error at_volume(const Error& e, size_t index) {
  return make_error(e.code, e.message, fmt::format("/volumes/{}{}", index, e.where));
}

}  // namespace

Result<SceneFog> SceneFog::create(Context& context, const scene::Scene& scene, uint32_t width, uint32_t height) {
  SceneFog out;
  out.scene_ = &scene;
  if (scene.volumes.empty()) return out;
  const scene::FogSettings& f = scene.fog;
  auto fog = Fog::create(context, {.width = width,
                                   .height = height,
                                   .grid = {f.grid.x, f.grid.y, f.grid.z},
                                   .near_distance = f.near_distance,
                                   .far_distance = f.far_distance,
                                   .anisotropy = f.anisotropy,
                                   .history_weight = f.history_weight,
                                   .max_volumes = uint32_t(std::max<size_t>(1, scene.volumes.size()))});
  if (!fog.ok()) return make_error(fog.error().code, fog.error().message, "/fog" + fog.error().where);
  out.fog_ = std::move(fog).value();
  MOTE_TRY(out.fog_->set_wind({f.wind.x, f.wind.y, f.wind.z}));
  const std::vector<glm::mat4> identity(scene.transforms.size(), glm::mat4(1.0f));
  for (size_t i = 0; i < scene.volumes.size(); ++i) {
    auto id = out.fog_->add_volume(fog_volume(scene.volumes[i], world_of(scene, scene.volumes[i], identity)));
    if (!id.ok()) return at_volume(id.error(), i);
    out.ids_.push_back(id.value());
  }
  return out;
}

Status SceneFog::update(double time, const std::vector<glm::mat4>& worlds) {
  if (!fog_) return ok_status();
  for (size_t i = 0; i < ids_.size(); ++i) {
    const scene::Volume& v = scene_->volumes[i];
    if (v.transform.empty()) continue;
    if (Status set = fog_->set_volume(ids_[i], fog_volume(v, world_of(*scene_, v, worlds))); !set.ok())
      return at_volume(set.error(), i);
  }
  MOTE_TRY(fog_->advance(started_ ? std::max(0.0, time - time_) : 0.0));
  time_ = time;
  started_ = true;
  return ok_status();
}

}  // namespace mote::render
