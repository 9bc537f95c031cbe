// The volumes on the host: what a volume is (VolumeParams, checked), its noise phases advanced in
// double precision and wrapped to [0, 1) once a frame, and the table of live volumes (ids with
// generations, rows packed from 0) that becomes the GPU's MediaVolume rows
// (shaders/shared/media_density.h). docs/design/media.md, "Volumes" and "The phases".
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "mote/result.hpp"
#include "shared/media_density.h"

namespace mote::media {

struct VolumeParams {
  glm::mat4 transform{1.0f};       // the unit box [-0.5, 0.5]^3 into the world
  float density = 0.1f;            // extinction per metre where the noise multiplier is 1, >= 0
  float fade_distance = 0.0f;      // metres of soft edge inside each face, >= 0
  glm::vec3 albedo{1.0f};          // scattering colour, each in [0, 1]
  float noise_strength = 0.0f;     // [0, 1]; 0 = uniform, no noise read
  float noise_scale = 32.0f;       // metres per tile repeat, > 0
  float noise_warp = 0.1f;         // tile units the warp may displace by, >= 0 (0: one tap)
  glm::vec3 noise_velocity{0.0f};  // m/s, the medium's own motion
  float noise_wind_factor = 1.0f;  // how much of the wind the medium feels
  uint32_t noise_texture = 0;      // the atlas slot of its tile; 0 = the built-in one
};

// Bounds on what a volume may say: they keep every value a finite float the passes can compute
// with (a box a million metres across, a density of a thousand per metre).
inline constexpr float kMaxVolumeDensity = 1000.0f;
inline constexpr float kMaxVolumeExtent = 1e6f;
inline constexpr float kMaxNoiseSpeed = 1e4f;  // m/s

// Errors (kInvalidArgument, `where` + the field: "/volumes/2/density"): a transform with a
// non-finite entry, a singular box or a box past kMaxVolumeExtent; a density, fade, colour,
// strength, scale, warp, velocity or wind factor out of its range or not finite; a noise texture
// `slot_exists` refuses.
Status check_volume(const VolumeParams& params, const std::function<bool(uint32_t)>& slot_exists,
                    const std::string& where);

// The two phases of a volume's noise, in tile units, each component in [0, 1).
struct NoisePhase {
  std::array<double, 3> base{0.0, 0.0, 0.0};
  std::array<double, 3> warp{0.0, 0.0, 0.0};
};
// One frame's advance: the base phase moves by -velocity * dt / noise_scale (so the field is
// carried along the velocity) and the warp's by kMediaWarpSpeedRatio * kMediaWarpFrequency times
// that, each a running sum wrapped to [0, 1) on the spot, so a change of velocity never jumps the
// field and no number grows with time. Returns whether anything moved.
bool advance_noise_phase(NoisePhase& phase, const glm::dvec3& velocity_m_s, double dt_s, double noise_scale);
// x - floor(x), and 0 where that rounds up to 1.
double wrap_phase(double x);

// The GPU row of a (checked) volume with its phases.
shader::MediaVolume make_volume_row(const VolumeParams& params, const NoisePhase& phase);

struct VolumeHandle {
  uint32_t index = UINT32_MAX;  // the table's slot
  uint32_t generation = 0;
};

// The live volumes. Slots are reused (a generation tells a stale handle from the new owner);
// rows() packs the live ones in slot order.
class VolumeTable {
 public:
  explicit VolumeTable(uint32_t max_volumes = 64) : max_volumes_(max_volumes) {}

  // kInvalidArgument with the number when the table already holds max_volumes.
  Result<VolumeHandle> add(const VolumeParams& params);
  // kInvalidArgument for a handle that is not live. set keeps the volume's phases.
  Status set(VolumeHandle handle, const VolumeParams& params);
  Status remove(VolumeHandle handle);
  const VolumeParams* find(VolumeHandle handle) const;
  const NoisePhase* phase(VolumeHandle handle) const;

  // Every live volume's phases advanced by its velocity (wind * noise_wind_factor +
  // noise_velocity) over dt seconds.
  void advance(const glm::dvec3& wind_m_s, double dt_s);
  // Whether a live volume reads atlas slot `slot`.
  bool uses_slot(uint32_t slot) const;

  std::vector<shader::MediaVolume> rows() const;
  uint32_t live_count() const { return live_count_; }
  uint32_t max_volumes() const { return max_volumes_; }

 private:
  struct Entry {
    VolumeParams params;
    NoisePhase phase;
    uint32_t generation = 0;
    bool live = false;
  };
  Status check_handle(VolumeHandle handle, const char* who) const;

  uint32_t max_volumes_;
  std::vector<Entry> entries_;
  uint32_t live_count_ = 0;
};

}  // namespace mote::media
