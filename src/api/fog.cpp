// The public fog (include/mote/volumes.hpp) over src/media/: the volumes' table and phases, the
// noise atlas with the built-in tile baked on the device, and the froxel passes.
#include "mote/volumes.hpp"

#include <fmt/format.h>

#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "api/fog_state.hpp"
#include "api/host_frame.hpp"
#include "shared/media_density.h"

namespace mote {

using detail::ApiAccess;

namespace {

Status check_desc(const FogDesc& d) {
  auto bad = [](const std::string& where, const std::string& message) {
    return make_error(ErrorCode::kInvalidArgument, message, where);
  };
  if (d.width == 0 || d.height == 0 || d.width > 8192 || d.height > 8192)
    return bad("/width", fmt::format("fog target {}x{} is outside 1..8192", d.width, d.height));
  for (uint32_t g : d.grid)
    if (g == 0 || g > 512)
      return bad("/grid",
                 fmt::format("froxel grid {}x{}x{}: each count must be 1..512", d.grid[0], d.grid[1], d.grid[2]));
  if (!std::isfinite(d.near_distance) || !(d.near_distance > 0.0f))
    return bad("/near_distance", fmt::format("near_distance {} must be a positive number of metres", d.near_distance));
  if (!std::isfinite(d.far_distance) || !(d.far_distance > d.near_distance) || d.far_distance > 1e6f)
    return bad("/far_distance", fmt::format("far_distance {} must lie past near_distance ({}) and within 1e6 m",
                                            d.far_distance, d.near_distance));
  if (!(d.anisotropy >= -0.95f && d.anisotropy <= 0.95f))
    return bad("/anisotropy", fmt::format("anisotropy {} is outside -0.95..0.95", d.anisotropy));
  if (!(d.history_weight >= 0.0f && d.history_weight <= 0.99f))
    return bad("/history_weight", fmt::format("history_weight {} is outside 0..0.99", d.history_weight));
  if (d.max_volumes == 0 || d.max_volumes > 4096)
    return bad("/max_volumes", fmt::format("max_volumes {} is outside 1..4096", d.max_volumes));
  return ok_status();
}

media::VolumeParams to_params(const FogVolume& v) {
  media::VolumeParams p;
  p.transform = glm::make_mat4(v.transform.data());
  p.density = v.density;
  p.fade_distance = v.fade_distance;
  p.albedo = glm::vec3(v.albedo[0], v.albedo[1], v.albedo[2]);
  p.noise_strength = v.noise_strength;
  p.noise_scale = v.noise_scale;
  p.noise_warp = v.noise_warp;
  p.noise_velocity = glm::vec3(v.noise_velocity[0], v.noise_velocity[1], v.noise_velocity[2]);
  p.noise_wind_factor = v.noise_wind_factor;
  p.noise_texture = v.noise_texture;
  return p;
}

Status check_params(const Fog::State& s, const media::VolumeParams& p) {
  return media::check_volume(
      p, [&](uint32_t slot) { return slot == 0 || s.host_tiles.count(slot) > 0; }, "");
}

}  // namespace

Fog::Fog() : state_(std::make_unique<State>()) {}
Fog::~Fog() = default;

Result<std::unique_ptr<Fog>> Fog::create(Context& context, const FogDesc& desc) {
  MOTE_TRY(check_desc(desc));
  std::unique_ptr<Fog> fog(new Fog());
  State& s = *fog->state_;
  s.device = &ApiAccess::device(context);
  s.desc = desc;
  s.table = media::VolumeTable(desc.max_volumes);
  // The volumetrics atlas: r8unorm, 128 + 1 border, the built-in tile and a spare.
  MOTE_TRY_ASSIGN(s.atlas, media::TileAtlas3D::create(*s.device, {.format = VK_FORMAT_R8_UNORM,
                                                                  .content = shader::kMediaNoiseContent,
                                                                  .border = shader::kMediaNoiseBorder,
                                                                  .slots_x = 2,
                                                                  .slots_y = 1,
                                                                  .capacity = 2,
                                                                  .name = "mote.media.noise_atlas"}));
  MOTE_TRY_ASSIGN(const uint32_t builtin, s.atlas.allocate());
  MOTE_TRY_ASSIGN(s.bake, media::NoiseBake::create(*s.device));
  MOTE_TRY(media::bake_noise_tile(*s.device, s.bake, s.atlas, builtin, shader::kMediaNoiseOctaves));
  MOTE_TRY_ASSIGN(s.froxels, media::FroxelFog::create(*s.device, {.width = desc.width,
                                                                  .height = desc.height,
                                                                  .grid = {desc.grid[0], desc.grid[1], desc.grid[2]},
                                                                  .near_distance = desc.near_distance,
                                                                  .far_distance = desc.far_distance,
                                                                  .anisotropy = desc.anisotropy,
                                                                  .history_weight = desc.history_weight,
                                                                  .max_volumes = desc.max_volumes}));
  return fog;
}

Result<VolumeId> Fog::add_volume(const FogVolume& volume) {
  const media::VolumeParams p = to_params(volume);
  MOTE_TRY(check_params(*state_, p));
  MOTE_TRY_ASSIGN(const media::VolumeHandle h, state_->table.add(p));
  return VolumeId{h.index, h.generation};
}

Status Fog::set_volume(VolumeId id, const FogVolume& volume) {
  const media::VolumeParams p = to_params(volume);
  MOTE_TRY(check_params(*state_, p));
  return state_->table.set({id.index, id.generation}, p);
}

Status Fog::remove_volume(VolumeId id) { return state_->table.remove({id.index, id.generation}); }

uint32_t Fog::volume_count() const { return state_->table.live_count(); }

Status Fog::set_wind(const std::array<float, 3>& wind_m_s) {
  for (float w : wind_m_s)
    if (!std::isfinite(w) || std::abs(w) > media::kMaxNoiseSpeed)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("wind ({}, {}, {}) m/s: each component must be finite and within {} m/s",
                                    wind_m_s[0], wind_m_s[1], wind_m_s[2], media::kMaxNoiseSpeed),
                        "set_wind");
  state_->wind = glm::dvec3(wind_m_s[0], wind_m_s[1], wind_m_s[2]);
  return ok_status();
}

Status Fog::advance(double dt_s) {
  if (!std::isfinite(dt_s) || dt_s < 0.0)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("dt {} s must be finite and not negative", dt_s),
                      "advance");
  state_->table.advance(state_->wind, dt_s);
  return ok_status();
}

Result<uint32_t> Fog::add_noise_texture(std::span<const uint8_t> texels) {
  const size_t c = shader::kMediaNoiseContent;
  if (texels.size() != c * c * c)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a noise texture is {}^3 = {} texels; got {}", c, c * c * c, texels.size()),
                      "add_noise_texture");
  MOTE_TRY_ASSIGN(const uint32_t slot, state_->atlas.allocate());
  if (Status written = state_->atlas.write(slot, texels); !written.ok()) {
    (void)state_->atlas.free(slot);
    return written.error();
  }
  state_->host_tiles.insert(slot);
  return slot;
}

Status Fog::remove_noise_texture(uint32_t slot) {
  if (!state_->host_tiles.count(slot))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("slot {} is not a noise texture add_noise_texture handed out", slot),
                      "remove_noise_texture");
  if (state_->table.uses_slot(slot))
    return make_error(ErrorCode::kInvalidArgument, fmt::format("a volume still reads noise texture {}", slot),
                      "remove_noise_texture");
  MOTE_TRY(state_->atlas.free(slot));
  state_->host_tiles.erase(slot);
  return ok_status();
}

Status Fog::record(VkCommandBuffer cmd, const ParticleView& view, const ParticleTargets& targets,
                   const ParticleShadowMap* shadow_map, const ParticleRenderer* particle_lights) {
  return core::guard_allocation("Fog::record", [&]() -> Status {
    State& s = *state_;
    if (cmd == VK_NULL_HANDLE) return make_error(ErrorCode::kInvalidArgument, "Fog::record needs a command buffer");
    MOTE_TRY(detail::check_view(view));
    const std::vector<shader::PointLightGpu> lights = detail::point_lights(view);
    const shader::RenderView block = detail::render_view(view, s.desc.width, s.desc.height, uint32_t(lights.size()));
    detail::BorrowedTargets b;
    MOTE_TRY(detail::borrow(targets, s.desc.width, s.desc.height, b));
    media::FogShadowMap shadow;
    if (shadow_map) {
      if (shadow_map->view == VK_NULL_HANDLE || (shadow_map->layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL &&
                                                 shadow_map->layout != VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL))
        return make_error(
            ErrorCode::kInvalidArgument,
            "the shadow map needs its view, in SHADER_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL",
            "Fog::record");
      shadow = {shadow_map->view, shadow_map->layout};
    }
    const std::vector<shader::MediaVolume> rows = s.table.rows();
    const render::ParticleRenderer* lit_by = particle_lights ? &detail::ApiAccess::renderer(*particle_lights) : nullptr;
    return s.froxels.record(cmd, block, lights, rows, s.atlas, b.targets, shadow,
                            lit_by ? &lit_by->particle_lights_buffer() : nullptr,
                            lit_by ? &lit_by->particle_light_clusters_buffer() : nullptr);
  });
}

void Fog::reset_history() { state_->froxels.reset_history(); }

const FogDesc& Fog::desc() const { return state_->desc; }

}  // namespace mote
