// The per-emitter draw record (shaders/shared/particle_render.h) from an effect's render settings
// and its program's particle layout: which record words hold the fields the settings name, the
// projection and blend flags, the flipbook grid and where the effect's texture lies in the atlas.
#pragma once

#include <cstdint>
#include <string>

#include "assets/atlas.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "shared/particle_lights.h"
#include "shared/particle_render.h"
#include "shared/ribbon.h"

namespace mote::render {

// The projection mode of a render settings' name ("billboard", "stretched", ...), or kInvalidArgument.
Result<uint32_t> projection_mode(const std::string& name);

// Builds the record for an emitter running `effect` at `generation`. A field the settings name
// that the program does not declare, or declares with the wrong width (position/velocity 3,
// size 1, color 4, rotation 1 or 4, uv_rect 4, frame 1), is an error naming it (where: the
// effect's name and "/render/fields/<channel>"); a channel the settings leave at its default
// name and the program lacks is simply unbound. Flipbook grids over 64 x 64 are refused.
Result<shader::ParticleDrawRecord> make_draw_record(const CompiledEffect& effect, const assets::AtlasEntry& texture,
                                                    uint32_t generation);

// The row's ribbon record (shaders/shared/ribbon.h) from the effect's RibbonSettings: flags 0 (no
// ribbon) for a projection other than "ribbon". The serial, id and normal fields must be declared
// with widths 1, 1 and 3 (an error naming the field, where: "<effect>#/render/ribbon/<key>").
Result<shader::RibbonRecord> make_ribbon_record(const CompiledEffect& effect);

// The row's light record (shaders/shared/particle_lights.h) from the effect's LightSettings:
// flags 0 (no light) when they are not enabled. Values outside the document format's ranges
// (docs/design/particle_lights.md: a negative or zero radius, an intensity that is not finite, ...)
// are refused (kInvalidArgument, where: "<effect>#/render/light/<key>"), as an effect built in code
// may hold anything.
Result<shader::ParticleLightRecord> make_light_record(const CompiledEffect& effect);

}  // namespace mote::render
