// How the CPU reference lights a lit sprite (render/reference_renderer.hpp): the frame's lights
// evaluated exactly at the fragment's world point — no froxel grid, no jitter, no shadow map —
// and projected to the model the irradiance volume stores (shared/particle_lighting.h: luma SH L1,
// constant chroma), so what the draw paths' error against it measures is the volume's sampling.
#pragma once

#include <span>

#include <glm/glm.hpp>

#include "shared/particle_lighting.h"
#include "shared/particle_render.h"

namespace mote::render {

// The hemisphere ambient, the sun (unshadowed), the first view.point_light_count of `lights` and
// every one of `particle_lights` (the frame's selected particle lights) at world point `p`, as
// froxel_irradiance.comp sums them.
shader::IrradianceSh reference_irradiance(const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                                          glm::vec3 p, std::span<const shader::PointLightGpu> particle_lights = {});

}  // namespace mote::render
