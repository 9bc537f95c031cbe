#include "render/reference_lighting.hpp"

#include <algorithm>

#include "shared/media_density.h"

namespace mote::render {

shader::IrradianceSh reference_irradiance(const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                                          glm::vec3 p) {
  shader::IrradianceSh sh = shader::irradiance_sh_ambient(glm::vec3(view.sky_ambient), glm::vec3(view.ground_ambient));
  if (view.sun_direction.w > 0.0f)
    sh = shader::irradiance_sh_add(sh, shader::irradiance_sh_light(glm::vec3(view.sun_radiance),
                                                                   -glm::vec3(view.sun_direction)));
  const size_t count = std::min<size_t>({view.point_light_count, shader::kMaxPointLights, lights.size()});
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 to_light = glm::vec3(lights[i].position_range) - p;
    const float d = glm::length(to_light);
    if (d <= 1e-4f) continue;
    const glm::vec3 e = glm::vec3(lights[i].radiance) *
                        shader::light_cone_factor(lights[i].radiance, lights[i].spot, -to_light / d) *
                        shader::media_point_falloff(d, lights[i].position_range.w);
    sh = shader::irradiance_sh_add(sh, shader::irradiance_sh_light(e, to_light / d));
  }
  return sh;
}

}  // namespace mote::render
