// The CPU reference of the particle-light selection (docs/design/particle_lights.md;
// render/particle_light_pass.hpp on the GPU): the same candidates — every alive slot of a live
// row with a live light record, of weight above 0 — ordered by (particle_light_key, slot) and the
// first max_lights kept, so the GPU's list can be checked light for light.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shared/particle_lights.h"
#include "shared/particle_render.h"

namespace mote::render {

struct ReferenceParticleLights {
  shader::ParticleLightHeader header{};
  std::vector<shader::PointLightGpu> lights;  // header.count of them, the brightest first
};

// `pool`: capacity * record_words words; `alive_slots` in alive-list order; `records` and
// `light_records` indexed by row. Slots past the pool, rows past the records and field words past
// the record are skipped (read as no light), as the GPU pass clamps them.
ReferenceParticleLights select_reference_particle_lights(std::span<const uint32_t> pool, uint32_t record_words,
                                                         std::span<const uint32_t> alive_slots,
                                                         std::span<const shader::ParticleDrawRecord> records,
                                                         std::span<const shader::ParticleLightRecord> light_records,
                                                         uint32_t max_lights);

}  // namespace mote::render
