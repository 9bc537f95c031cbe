// The scene's event bindings on its particle system (docs/design/scene.md, docs/design/events.md):
// each binding is made as soon as both of its emitters have been added (an emitter with a
// start_time joins later), through the public API (mote/particle_events.hpp).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "mote/particles.hpp"
#include "mote/result.hpp"
#include "scene/scene.hpp"

namespace mote::render {

// Binds every binding of scene.events not yet `bound` whose source and target emitters (by index
// in scene.emitters) `added` returns; errors at /events/N (an output the source's effect does
// not declare: /events/N/output).
Status bind_due_events(ParticleSystem& system, const scene::Scene& scene,
                       const std::function<std::optional<EmitterId>(size_t emitter)>& added, std::vector<bool>& bound);

}  // namespace mote::render
