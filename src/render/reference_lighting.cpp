#include "render/reference_lighting.hpp"

#include <algorithm>

#include "shared/media_density.h"

namespace mote::render {

namespace {

shader::IrradianceSh add_light(const shader::IrradianceSh& sh, const shader::PointLightGpu& light, glm::vec3 p) {
  const glm::vec3 to_light = glm::vec3(light.position_range) - p;
  const float d = glm::length(to_light);
  if (d <= 1e-4f) return sh;
  const glm::vec3 e = glm::vec3(light.radiance) * shader::light_cone_factor(light.radiance, light.spot, -to_light / d) *
                      shader::media_point_falloff(d, light.position_range.w);
  return shader::irradiance_sh_add(sh, shader::irradiance_sh_light(e, to_light / d));
}

}  // namespace

shader::IrradianceSh reference_irradiance(const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                                          glm::vec3 p, std::span<const shader::PointLightGpu> particle_lights) {
  shader::IrradianceSh sh = shader::irradiance_sh_ambient(glm::vec3(view.sky_ambient), glm::vec3(view.ground_ambient));
  if (view.sun_direction.w > 0.0f)
    sh = shader::irradiance_sh_add(sh, shader::irradiance_sh_light(glm::vec3(view.sun_radiance),
                                                                   -glm::vec3(view.sun_direction)));
  const size_t count = std::min<size_t>({view.point_light_count, shader::kMaxPointLights, lights.size()});
  for (size_t i = 0; i < count; ++i) sh = add_light(sh, lights[i], p);
  // Past its range a light adds nothing; froxel_irradiance.comp skips it, so does this.
  for (const shader::PointLightGpu& light : particle_lights)
    if (glm::length(glm::vec3(light.position_range) - p) < light.position_range.w) sh = add_light(sh, light, p);
  return sh;
}

}  // namespace mote::render
