#include "media/volume_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <glm/gtc/matrix_inverse.hpp>

namespace mote::media {

namespace {

Status out_of_range(const std::string& where, const char* field, const std::string& message) {
  return make_error(ErrorCode::kInvalidArgument, message, where + "/" + field);
}

Status check_number(float value, float lo, float hi, const std::string& where, const char* field) {
  if (!std::isfinite(value) || value < lo || value > hi)
    return out_of_range(where, field,
                        fmt::format("{} is {}; expected a finite number in [{}, {}]", field, value, lo, hi));
  return ok_status();
}

Status check_vec3(const glm::vec3& v, float lo, float hi, const std::string& where, const char* field) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(v[k]) || v[k] < lo || v[k] > hi)
      return out_of_range(where, field,
                          fmt::format("{}[{}] is {}; expected a finite number in [{}, {}]", field, k, v[k], lo, hi));
  return ok_status();
}

Status check_transform(const glm::mat4& t, const std::string& where) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(t[c][r]))
        return out_of_range(where, "transform", fmt::format("transform[{}][{}] is not finite", c, r));
  if (t[0][3] != 0.0f || t[1][3] != 0.0f || t[2][3] != 0.0f || t[3][3] != 1.0f)
    return out_of_range(where, "transform", "the transform must be affine (last row 0, 0, 0, 1)");
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r)
      if (std::abs(t[c][r]) > kMaxVolumeExtent)
        return out_of_range(where, "transform",
                            fmt::format("transform[{}][{}] = {} is past {} m", c, r, t[c][r], kMaxVolumeExtent));
  // A box must have a volume: a singular (or nearly) transform has no inverse to map points in.
  const glm::mat3 linear(t);
  const float size = glm::length(linear[0]) * glm::length(linear[1]) * glm::length(linear[2]);
  if (!(std::abs(glm::determinant(linear)) > 1e-6f * size) || !(size > 1e-12f))
    return out_of_range(where, "transform", "the box is flat: its transform has no inverse");
  return ok_status();
}

}  // namespace

Status check_volume(const VolumeParams& p, const std::function<bool(uint32_t)>& slot_exists, const std::string& where) {
  MOTE_TRY(check_transform(p.transform, where));
  MOTE_TRY(check_number(p.density, 0.0f, kMaxVolumeDensity, where, "density"));
  MOTE_TRY(check_number(p.fade_distance, 0.0f, kMaxVolumeExtent, where, "fade_distance"));
  MOTE_TRY(check_vec3(p.albedo, 0.0f, 1.0f, where, "albedo"));
  MOTE_TRY(check_number(p.noise_strength, 0.0f, 1.0f, where, "noise_strength"));
  if (!std::isfinite(p.noise_scale) || !(p.noise_scale > 0.0f) || p.noise_scale > kMaxVolumeExtent)
    return out_of_range(where, "noise_scale",
                        fmt::format("noise_scale is {}; expected metres in (0, {}]", p.noise_scale, kMaxVolumeExtent));
  MOTE_TRY(check_number(p.noise_warp, 0.0f, 16.0f, where, "noise_warp"));
  MOTE_TRY(check_vec3(p.noise_velocity, -kMaxNoiseSpeed, kMaxNoiseSpeed, where, "noise_velocity"));
  MOTE_TRY(check_number(p.noise_wind_factor, -1000.0f, 1000.0f, where, "noise_wind_factor"));
  if (!slot_exists(p.noise_texture))
    return out_of_range(where, "noise_texture",
                        fmt::format("noise texture {} does not exist in the volumes' atlas", p.noise_texture));
  return ok_status();
}

double wrap_phase(double x) {
  const double w = x - std::floor(x);
  return w >= 1.0 ? 0.0 : w;
}

bool advance_noise_phase(NoisePhase& phase, const glm::dvec3& velocity_m_s, double dt_s, double noise_scale) {
  const glm::dvec3 step = velocity_m_s * (dt_s / noise_scale);
  const double warp_rate = double(shader::kMediaWarpSpeedRatio) * double(shader::kMediaWarpFrequency);
  bool moved = false;
  for (int k = 0; k < 3; ++k) {
    if (step[k] == 0.0) continue;
    phase.base[size_t(k)] = wrap_phase(phase.base[size_t(k)] - step[k]);
    phase.warp[size_t(k)] = wrap_phase(phase.warp[size_t(k)] - warp_rate * step[k]);
    moved = true;
  }
  return moved;
}

shader::MediaVolume make_volume_row(const VolumeParams& p, const NoisePhase& phase) {
  shader::MediaVolume v{};
  v.world_to_local = glm::affineInverse(p.transform);
  glm::vec3 lo(0.0f), hi(0.0f);
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner((c & 1) ? 0.5f : -0.5f, (c & 2) ? 0.5f : -0.5f, (c & 4) ? 0.5f : -0.5f);
    const glm::vec3 w = glm::vec3(p.transform * glm::vec4(corner, 1.0f));
    lo = c == 0 ? w : glm::min(lo, w);
    hi = c == 0 ? w : glm::max(hi, w);
  }
  v.bounds_min = glm::vec4(lo, p.fade_distance);
  v.bounds_max = glm::vec4(hi, p.density);
  v.albedo = glm::vec4(p.albedo, p.noise_strength);
  v.edge_scale = glm::vec4(glm::length(glm::vec3(p.transform[0])), glm::length(glm::vec3(p.transform[1])),
                           glm::length(glm::vec3(p.transform[2])), 1.0f / p.noise_scale);
  v.noise_offset = glm::vec4(float(phase.base[0]), float(phase.base[1]), float(phase.base[2]), p.noise_warp);
  v.noise_warp_offset = glm::vec4(float(phase.warp[0]), float(phase.warp[1]), float(phase.warp[2]), 0.0f);
  v.noise = glm::uvec4(p.noise_texture, 0u, 0u, 0u);
  return v;
}

Status VolumeTable::check_handle(VolumeHandle h, const char* who) const {
  if (h.index >= entries_.size() || !entries_[h.index].live || entries_[h.index].generation != h.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("volume {} (generation {}) is not a live volume", h.index, h.generation), who);
  return ok_status();
}

Result<VolumeHandle> VolumeTable::add(const VolumeParams& params) {
  if (live_count_ >= max_volumes_)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("the fog holds at most {} volumes", max_volumes_),
                      "add_volume");
  uint32_t index = 0;
  while (index < entries_.size() && entries_[index].live) ++index;
  if (index == entries_.size()) entries_.push_back({});
  Entry& e = entries_[index];
  e.params = params;
  e.phase = {};
  e.live = true;
  ++live_count_;
  return VolumeHandle{index, e.generation};
}

Status VolumeTable::set(VolumeHandle handle, const VolumeParams& params) {
  MOTE_TRY(check_handle(handle, "set_volume"));
  entries_[handle.index].params = params;
  return ok_status();
}

Status VolumeTable::remove(VolumeHandle handle) {
  MOTE_TRY(check_handle(handle, "remove_volume"));
  Entry& e = entries_[handle.index];
  e.live = false;
  ++e.generation;
  --live_count_;
  return ok_status();
}

const VolumeParams* VolumeTable::find(VolumeHandle handle) const {
  return check_handle(handle, "find").ok() ? &entries_[handle.index].params : nullptr;
}

const NoisePhase* VolumeTable::phase(VolumeHandle handle) const {
  return check_handle(handle, "phase").ok() ? &entries_[handle.index].phase : nullptr;
}

void VolumeTable::advance(const glm::dvec3& wind_m_s, double dt_s) {
  for (Entry& e : entries_) {
    if (!e.live) continue;
    const glm::dvec3 velocity = wind_m_s * double(e.params.noise_wind_factor) + glm::dvec3(e.params.noise_velocity);
    advance_noise_phase(e.phase, velocity, dt_s, double(e.params.noise_scale));
  }
}

bool VolumeTable::uses_slot(uint32_t slot) const {
  for (const Entry& e : entries_)
    if (e.live && e.params.noise_texture == slot) return true;
  return false;
}

std::vector<shader::MediaVolume> VolumeTable::rows() const {
  std::vector<shader::MediaVolume> out;
  out.reserve(live_count_);
  for (const Entry& e : entries_)
    if (e.live) out.push_back(make_volume_row(e.params, e.phase));
  return out;
}

}  // namespace mote::media
