// Example 02: the public runtime API only (include/mote/): a context, a particle system, two
// emitters — one standing at a spinning transform — a global field changed at run time, and the
// frame loop. Prints the counters every 30 frames and the Vulkan handles a renderer would use.
//   example_embed_particles [EFFECTS_DIR]
#include <cmath>
#include <cstdio>
#include <string>

#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/particles.hpp"
#include "mote/vulkan_interop.hpp"

namespace {

int fail(const char* what, const mote::Error& e) {
  std::fprintf(stderr, "%s: %s\n", what, e.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string effects = argc > 1 ? argv[1] : MOTE_EXAMPLE_EFFECTS;
  auto fire = mote::compile_effect_file(effects + "/fire.json");
  if (!fire.ok()) return fail("fire.json", fire.error());
  auto sparkles = mote::compile_effect_file(effects + "/sparkles.json");
  if (!sparkles.ok()) return fail("sparkles.json", sparkles.error());

  auto context = mote::Context::create();
  if (!context.ok()) return fail("context", context.error());
  std::printf("device: %s\n", context.value()->device_name().c_str());
  auto system = mote::ParticleSystem::create(*context.value(), {.capacity = 1u << 14, .max_emitters = 8});
  if (!system.ok()) return fail("system", system.error());
  mote::ParticleSystem& particles = *system.value();

  auto pivot = particles.add_transform();
  auto arm = pivot.ok() ? particles.add_transform(pivot.value()) : pivot;
  if (!arm.ok()) return fail("transform", arm.error());
  (void)particles.set_transform(arm.value(), {2.0f, 0.0f, 0.0f}, {0, 0, 0, 1});
  auto campfire = particles.add_emitter(fire.value(), {.seed = 1});
  auto orbiting = particles.add_emitter(sparkles.value(), {.seed = 2, .transform = arm.value()});
  if (!campfire.ok()) return fail("fire emitter", campfire.error());
  if (!orbiting.ok()) return fail("sparkles emitter", orbiting.error());

  for (int frame = 1; frame <= 120; ++frame) {
    const float t = frame / 60.0f;
    // Spin the pivot: the sparkles' emitter circles the fire (composed on the GPU).
    (void)particles.set_transform(pivot.value(), {0, 0, 0}, {0.0f, std::sin(t), 0.0f, std::cos(t)});
    if (frame == 60) (void)particles.burst(campfire.value(), 200);
    if (auto s = particles.execute(1.0f / 60.0f); !s.ok()) return fail("execute", s.error());
    if (frame % 30 == 0) {
      auto stats = particles.read_stats();  // a readback: for a HUD, never to size a frame
      if (!stats.ok()) return fail("stats", stats.error());
      std::printf("frame %3d: alive %u, born %u, dropped %u, free %u\n", frame, stats.value().alive,
                  stats.value().newborns, stats.value().dropped, stats.value().free);
    }
  }
  const mote::ParticleDrawBuffers draw = mote::draw_buffers(particles);
  std::printf("draw: pool %p, alive list %p, count at word %u of %p, %u words a record; ready at timeline %llu\n",
              static_cast<void*>(draw.pool), static_cast<void*>(draw.alive), draw.alive_count_word,
              static_cast<void*>(draw.counters), draw.record_words, static_cast<unsigned long long>(draw.frame_serial));
  return 0;
}
