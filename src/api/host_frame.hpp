// The host's frame as Mote's internal layers take it, shared by the public renderers
// (src/api/particle_renderer.cpp, src/api/fog.cpp): the camera and lights of a ParticleView as
// the RenderView block and the point lights, and the host's images borrowed as gpu::Images.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/image.hpp"
#include "mote/particle_renderer.hpp"
#include "mote/result.hpp"
#include "render/particle_targets.hpp"
#include "shared/particle_render.h"

namespace mote::detail {

// The view block for targets of width x height, counting `lights` point lights.
shader::RenderView render_view(const ParticleView& v, uint32_t width, uint32_t height, uint32_t lights);
// kInvalidArgument for non-finite matrices, a bad near/far, a view matrix with no inverse.
Status check_view(const ParticleView& v);
// The first kMaxPointLights point lights as the shaders read them.
std::vector<shader::PointLightGpu> point_lights(const ParticleView& v);

// The host's images as the component takes them (borrowed: nothing is destroyed with them). Not
// movable: `targets` points at the two images beside it.
struct BorrowedTargets {
  BorrowedTargets() = default;
  BorrowedTargets(const BorrowedTargets&) = delete;
  BorrowedTargets& operator=(const BorrowedTargets&) = delete;
  gpu::Image color;
  gpu::Image depth;
  render::ParticleTargets targets;
};
// kInvalidArgument for a missing image or view.
Status borrow(const ParticleTargets& t, uint32_t width, uint32_t height, BorrowedTargets& b);

}  // namespace mote::detail
