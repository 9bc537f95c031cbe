#include "render/scene_events.hpp"

#include <fmt/format.h>

#include "mote/particle_events.hpp"

namespace mote::render {

namespace {

std::optional<size_t> emitter_named(const scene::Scene& scene, const std::string& name) {
  for (size_t i = 0; i < scene.emitters.size(); ++i)
    if (scene.emitters[i].name == name) return i;
  return std::nullopt;
}

}  // namespace

Status bind_due_events(ParticleSystem& system, const scene::Scene& scene,
                       const std::function<std::optional<EmitterId>(size_t emitter)>& added, std::vector<bool>& bound) {
  bound.resize(scene.events.size(), false);
  for (size_t i = 0; i < scene.events.size(); ++i) {
    if (bound[i]) continue;
    const scene::EventBinding& b = scene.events[i];
    const std::string where = fmt::format("/events/{}", i);
    const std::optional<size_t> source = emitter_named(scene, b.source), target = emitter_named(scene, b.target);
    if (!source || !target) return make_error(ErrorCode::kInvalidArgument, "an emitter the scene does not name", where);
    const std::optional<EmitterId> from = added(*source), to = added(*target);
    if (!from || !to) continue;  // one of them starts later
    const Status made = b.output.empty() ? bind_event(system, *from, b.output_index, *to)
                                         : bind_event(system, *from, b.output, *to);
    if (!made.ok())
      return make_error(made.error().code, made.error().message,
                        made.error().where == "output" ? where + "/output" : where);
    bound[i] = true;
  }
  return ok_status();
}

}  // namespace mote::render
