// The scene's emitters and event bindings on its particle system, through the public API
// (docs/design/scene.md): each emitter's EmitterDesc, and each event binding
// (docs/design/events.md, mote/particle_events.hpp) made as soon as both of its emitters have
// been added (an emitter with a start_time joins later).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "mote/particles.hpp"
#include "mote/result.hpp"
#include "scene/scene.hpp"

namespace mote::render {

// The emitter's seed: the author's, or one derived from the output seed and its index so two
// emitters of one effect do not draw the same particles.
uint32_t emitter_seed(const scene::Scene& s, size_t index);
// What the system is given for scene.emitters[index]: its seed, constant pose, overrides and
// transform row (rows are the transforms' indices).
EmitterDesc scene_emitter_desc(const scene::Scene& s, size_t index);

// Binds every binding of scene.events not yet `bound` whose source and target emitters (by index
// in scene.emitters) `added` returns; errors at /events/N (an output the source's effect does
// not declare: /events/N/output).
Status bind_due_events(ParticleSystem& system, const scene::Scene& scene,
                       const std::function<std::optional<EmitterId>(size_t emitter)>& added, std::vector<bool>& bound);

}  // namespace mote::render
