// Example 04: a shipped program's side of an effect — the runtime alone (mote::runtime, no
// compiler). It loads a cooked effect (`mote compile fire.json -o fire.mfe`, done by this
// example's build), runs it for two seconds on a particle system and checks that it lives: the
// cooked file carries the program, the emitter defaults, the emission and render settings.
//   example_cooked_effect [EFFECT.mfe]
#include <cstdio>
#include <string>

#include "mote/cooked_effect.hpp"
#include "mote/particles.hpp"

namespace {

int fail(const char* what, const mote::Error& e) {
  std::fprintf(stderr, "%s: %s\n", what, e.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : MOTE_EXAMPLE_COOKED;
  auto effect = mote::load_cooked_effect_file(path);
  if (!effect.ok()) return fail("cooked effect", effect.error());
  std::printf("%s: '%s', %zu particle fields, %.0f particles/s, capacity %u, %s blend\n", path.c_str(),
              effect.value().name.c_str(), effect.value().program.particle_fields.size(),
              double(effect.value().emission.rate), effect.value().emission.capacity_hint,
              effect.value().render.blend.c_str());

  auto context = mote::Context::create();
  if (!context.ok()) return fail("context", context.error());
  auto system = mote::ParticleSystem::create(*context.value(), {.capacity = 1u << 14, .max_emitters = 4});
  if (!system.ok()) return fail("system", system.error());
  auto emitter = system.value()->add_emitter(effect.value(), {.seed = 7});
  if (!emitter.ok()) return fail("emitter", emitter.error());
  for (int frame = 0; frame < 120; ++frame)
    if (auto s = system.value()->execute(1.0f / 60.0f); !s.ok()) return fail("execute", s.error());
  auto stats = system.value()->read_stats();
  if (!stats.ok()) return fail("stats", stats.error());
  std::printf("after 120 frames: alive %u, dropped %u\n", stats.value().alive, stats.value().dropped);
  if (stats.value().alive == 0) {
    std::fprintf(stderr, "the cooked effect spawned nothing\n");
    return 1;
  }
  return 0;
}
