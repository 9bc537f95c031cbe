// Participating media: fog volumes — boxes of a scattering medium with a noisy density — and the
// froxel fog that draws them into the host's images (docs/design/media.md).
//
// A volume is the unit box [-0.5, 0.5]^3 posed by a transform, filled with a medium of
// `density` (extinction per metre), softened over `fade_distance` inside its faces and modulated
// by a tileable 3-D noise: density(p) = density × fade(p) × mix(1, noise(p), noise_strength),
// never above `density`. The noise repeats every `noise_scale` metres along each world axis and
// moves: each volume carries two phases the host advances once a frame (Fog::advance), in double
// precision and wrapped to [0, 1), by its velocity — the scene's wind × noise_wind_factor plus
// noise_velocity — so a change of wind never jumps the field and a session running for days never
// grows a number. `noise_warp` displaces the lookup by a second, slower tap of the same tile, so
// the field changes shape as it moves.
//
// The noise tiles live in one 3-D atlas (r8unorm, 128^3 texels a tile): slot 0 is the built-in
// tile, baked on the GPU when the Fog is created; add_noise_texture adds the host's own.
//
// A frame, in the host's command buffer (docs/design/media.md, "The froxel passes"):
//
//   fog.advance(dt)                        the phases, on the host
//   ... the host's opaque scene into colour + depth (and mesh particles: ParticleRenderer::record_opaque) ...
//   fog.record(cmd, view, targets, &sun)   the froxel passes, then the colour seen through the fog at
//                                          its depth
//   particles.record_transparent(cmd, ...) sprites, each fragment seen through the fog in front of it
//                                          (ParticleRenderer::set_fog(&fog), once)
//
// The images are the particle renderer's (mote/particle_renderer.hpp: colour R16G16B16A16_SFLOAT
// with STORAGE usage, depth D32_SFLOAT reversed-Z, sampled), handed in and given back in the
// host's layouts, its barriers the same. The fog's froxel grid spans view depth near_distance ..
// far_distance in logarithmic slices across the whole viewport.
//
// Threading: as the Context (one thread at a time). Errors are values.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "mote/particle_renderer.hpp"
#include "mote/particles.hpp"
#include "mote/result.hpp"

namespace mote {

struct FogVolume {
  // Column-major (element [column * 4 + row]): the unit box into the world. Affine, finite, not flat.
  std::array<float, 16> transform{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float density = 0.1f;                          // extinction per metre, 0 .. 1000
  float fade_distance = 0.0f;                    // metres of soft edge inside each face, >= 0
  std::array<float, 3> albedo{1, 1, 1};          // scattering colour, each 0 .. 1
  float noise_strength = 0.0f;                   // 0 (uniform, no noise read) .. 1
  float noise_scale = 32.0f;                     // metres per tile repeat, > 0
  float noise_warp = 0.1f;                       // tile units the warp may displace by, 0 .. 16; 0: one tap
  std::array<float, 3> noise_velocity{0, 0, 0};  // m/s: the medium's own motion
  float noise_wind_factor = 1.0f;                // how much of the wind (Fog::set_wind) it feels
  uint32_t noise_texture = 0;                    // the atlas slot of its tile; 0 = the built-in one
};

// A volume as the fog knows it: a slot and the generation it was given (a removed volume's id is
// refused even after its slot is reused).
struct VolumeId {
  uint32_t index = UINT32_MAX;
  uint32_t generation = 0;
};

struct FogDesc {
  uint32_t width = 0;  // the host's colour and depth size, 1 .. 8192
  uint32_t height = 0;
  std::array<uint32_t, 3> grid{160, 90, 64};  // froxels across, down and in depth (slices), 1 .. 512
  float near_distance = 0.5f;                 // metres (view depth) where the first slice starts
  float far_distance = 200.0f;                // where the last one ends; nothing is fogged past it
  float anisotropy = 0.2f;                    // Henyey-Greenstein g of the medium's scattering, -0.95 .. 0.95
  float history_weight = 0.95f;               // temporal accumulation: the previous frames' share, 0 .. 0.99
  uint32_t max_volumes = 64;                  // 1 .. 4096
};

class Fog {
 public:
  // The fog's atlas (the built-in noise tile baked on the GPU: set-up, waits on Mote's queue), its
  // froxel volumes and passes, for targets of desc.width x desc.height. Errors: kInvalidArgument
  // for a size, grid, depth range, anisotropy, history weight or volume count out of range;
  // kVulkan, kOutOfMemory.
  static Result<std::unique_ptr<Fog>> create(Context& context, const FogDesc& desc);
  ~Fog();
  Fog(const Fog&) = delete;
  Fog& operator=(const Fog&) = delete;

  // Errors (kInvalidArgument, `where` naming the field, "/density"): a value out of range or not
  // finite, a noise texture that does not exist, more than max_volumes volumes.
  Result<VolumeId> add_volume(const FogVolume& volume);
  // Replaces what the volume is (its phases go on from where they were). Errors: add_volume's, a
  // stale id.
  Status set_volume(VolumeId id, const FogVolume& volume);
  Status remove_volume(VolumeId id);
  uint32_t volume_count() const;

  // The wind every volume feels (m/s, scaled by its noise_wind_factor) from the next advance on.
  // kInvalidArgument for a non-finite or faster than 10 km/s component.
  Status set_wind(const std::array<float, 3>& wind_m_s);
  // Moves every volume's noise by dt seconds of its velocity: once a frame. Not called, the field
  // stands still. kInvalidArgument for a negative or non-finite dt.
  Status advance(double dt_s);

  // A tile of the host's own: 128^3 r8unorm texels (x fastest, then y, then z), a density
  // multiplier in [0, 1] that must tile seamlessly; its skirt is built here. Returns its slot for
  // FogVolume::noise_texture (set-up: waits on Mote's queue; the atlas grows when full). Errors:
  // kInvalidArgument for a size other than 128^3; kOutOfMemory when the atlas is at the device's
  // limit.
  Result<uint32_t> add_noise_texture(std::span<const uint8_t> texels);
  // Gives a tile's slot back. kInvalidArgument for slot 0, a slot not added, or one a volume reads.
  Status remove_noise_texture(uint32_t slot);

  // Records one frame of the fog into `cmd`: the volumes' rows with their phases, injection at
  // a per-frame jittered point in each froxel, lighting by the view's ambient, sun (through
  // `shadow_map` when given: the one drawn with view.sun_view_projection, in
  // SHADER_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL) and point lights, temporal
  // accumulation reprojected by the camera's motion, integration, and the composite over
  // targets.color at targets.depth. Waits for nothing. Errors (kInvalidArgument, nothing
  // recorded): a view check_view refuses (see ParticleRenderer), targets of another size or in
  // layouts the contract does not list, a shadow map without a view. `particle_lights`: a
  // renderer whose record_prepare was recorded earlier in `cmd`; its particle lights
  // (docs/design/particle_lights.md) light the medium too (null: the view's lights alone).
  Status record(VkCommandBuffer cmd, const ParticleView& view, const ParticleTargets& targets,
                const ParticleShadowMap* shadow_map = nullptr, const ParticleRenderer* particle_lights = nullptr);
  // The next record starts the accumulation over (after a camera cut).
  void reset_history();

  const FogDesc& desc() const;

  struct State;  // defined in src/api/

 private:
  friend struct detail::ApiAccess;
  Fog();
  std::unique_ptr<State> state_;
};

}  // namespace mote
