#include "render/scene_emitters.hpp"

#include <fmt/format.h>

#include <span>

#include "core/hash.hpp"

#include "mote/particle_events.hpp"

namespace mote::render {

namespace {

std::optional<size_t> emitter_named(const scene::Scene& scene, const std::string& name) {
  for (size_t i = 0; i < scene.emitters.size(); ++i)
    if (scene.emitters[i].name == name) return i;
  return std::nullopt;
}

}  // namespace

uint32_t emitter_seed(const scene::Scene& s, size_t index) {
  const scene::Emitter& e = s.emitters[index];
  if (e.seed != 0) return e.seed;
  const uint32_t words[2] = {s.output.seed, uint32_t(index)};
  const uint64_t h = fnv1a64(std::span(reinterpret_cast<const uint8_t*>(words), sizeof(words)));
  const uint32_t folded = uint32_t(h ^ (h >> 32));
  return folded == 0 ? 1u : folded;
}

EmitterDesc scene_emitter_desc(const scene::Scene& s, size_t index) {
  const scene::Emitter& e = s.emitters[index];
  EmitterDesc o;
  o.seed = emitter_seed(s, index);
  o.position = {e.position.x, e.position.y, e.position.z};
  o.rotation = {e.rotation.x, e.rotation.y, e.rotation.z, e.rotation.w};
  o.fields = e.fields;
  o.globals = e.globals;
  if (!e.transform.empty()) o.transform.row = *s.find_transform(e.transform);
  return o;
}

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
