// The CPU reference of the froxel fog (docs/design/media.md, "The reference estimator"): for one
// pixel of a static scene, the view ray marched in fine steps from the fog's near depth to the
// surface (or its far depth), with the same density function (media_density_at over the atlas's
// texels) and the same light model as the light pass — the ambient, the sun (unshadowed: the
// reference has no shadow map), point lights, the Henyey-Greenstein phase — integrated as the
// integrate pass integrates a slab, but over steps far finer than a froxel. The froxel result,
// converged over frames, must come out close to it (tests/media/froxel_fog_test.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "shared/media_density.h"
#include "shared/particle_render.h"

namespace mote::media {

struct ReferenceScene {
  shader::RenderView view{};                  // camera, sun, ambient as the passes read them
  std::vector<shader::PointLightGpu> lights;  // view.point_light_count of them are used
  std::vector<shader::MediaVolume> volumes;   // the rows, as uploaded
  shader::MediaNoiseAtlasView atlas;          // the atlas's texels (r8unorm)
  float near_distance = 0.5f;                 // the fog's depth range (view depth, metres)
  float far_distance = 200.0f;
  float anisotropy = 0.2f;
};

struct ReferenceFog {
  glm::vec3 in_scattered{0.0f};  // radiance the medium sends towards the eye along the ray
  float transmittance = 1.0f;    // of the medium in front of the surface
};

// The fog in front of the surface at view depth `surface_depth` (infinity for none) along the ray
// through viewport coordinate uv in [0, 1]^2, marched in `steps` equal steps of view depth.
ReferenceFog estimate_fog(const ReferenceScene& scene, glm::vec2 uv, float surface_depth, uint32_t steps);

// The radiance scattered towards `eye` per unit scattering coefficient at p (the light pass's
// in_scattering without the shadow map).
glm::vec3 reference_in_scattering(const ReferenceScene& scene, const glm::vec3& p, const glm::vec3& eye);

}  // namespace mote::media
