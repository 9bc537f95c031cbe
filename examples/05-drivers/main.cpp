// Example 05: the three drivers in one scene (docs/design/drivers.md). A GPU-driven fire (the
// frame's own simulation), a CPU-driven swarm of sparkles pulled by a custom force towards a point
// that circles the fire, and a manual spline — a helix of particles the application writes itself
// and re-uploads as it turns. Drawn by a minimal host renderer (the one of example 03: its own HDR
// colour and reversed-Z depth images, command buffer and fence; only include/mote/ and raw Vulkan).
// Writes the last frame as a PNG (tonemapped on the CPU).
//   example_drivers [OUT.png] [FRAMES]
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mote/files.hpp"
#include "mote/image.hpp"
#include "mote/particle_renderer.hpp"
#include "mote/particles.hpp"
#include "mote/vulkan_interop.hpp"
#include "minimal_host.hpp"

namespace {

using namespace example;

// Where the swarm's attractor is at `time`: a circle of radius 1.2 around the fire, 1 m up.
std::array<float, 3> attractor_at(float time) {
  return {1.2f * std::cos(0.9f * time), 1.0f + 0.3f * std::sin(1.7f * time), 1.2f * std::sin(0.9f * time)};
}

// The manual spline: a helix of `n` particles turned by `turn` radians, its colour running from
// blue at the bottom to white at the top.
mote::Status write_helix(mote::ManualEmitter& spline, uint32_t n, float turn) {
  std::vector<mote::Particle> helix(n);
  for (uint32_t i = 0; i < n; ++i) {
    const float s = float(i) / float(n);
    const float t = s * 4.0f * 3.14159265f + turn;
    mote::Particle& p = helix[i];
    p.position = {1.7f * std::cos(t), 0.1f + 2.2f * s, 1.7f * std::sin(t)};
    p.size = 0.05f;
    p.lifetime = 1.0f;
    p.color = {0.3f + 0.7f * s, 0.5f + 0.5f * s, 1.0f, 0.9f};
  }
  if (auto s = spline.write_range(0, helix); !s.ok()) return s;
  return spline.set_count(n);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : "drivers.png";
  const int frames = std::max(argc > 2 ? std::atoi(argv[2]) : 120, 1);

  auto context = mote::Context::create();
  if (!context.ok()) return fail("context", context.error());
  std::printf("device: %s\n", context.value()->device_name().c_str());
  auto fire = mote::compile_effect_file(std::string(MOTE_EXAMPLE_EFFECTS) + "/fire.json");
  // The cpu and manual drivers need an effect whose record is the standard particle
  // (mote/particle.hpp): every preset that declares its ten members is one.
  auto sparkles = mote::compile_effect_file(std::string(MOTE_EXAMPLE_EFFECTS) + "/sparkles.json");
  if (!fire.ok()) return fail("fire.json", fire.error());
  if (!sparkles.ok()) return fail("sparkles.json", sparkles.error());
  auto system = mote::ParticleSystem::create(*context.value(), {.capacity = 1u << 15, .max_emitters = 8});
  if (!system.ok()) return fail("system", system.error());
  mote::ParticleSystem& particles = *system.value();

  // gpu: today's frame. cpu: the same bytecode on the host, plus a force towards the attractor
  // (a damped spring; the view's time says where the attractor is this frame).
  if (auto e = particles.add_emitter(fire.value(), {.seed = 1}); !e.ok()) return fail("fire emitter", e.error());
  const mote::CustomForce attract = [](const mote::Particle& p, const mote::SceneView& view) {
    const std::array<float, 3> target = attractor_at(view.time);
    std::array<float, 3> f{};
    for (int c = 0; c < 3; ++c) f[c] = 9.0f * (target[c] - p.position[c]) - 2.0f * p.velocity[c];
    return f;
  };
  auto swarm = particles.add_cpu_emitter(sparkles.value(), {.emitter = {.seed = 2, .position = {1.2f, 1.0f, 0.0f}},
                                                            .max_count = 2048,
                                                            .forces = {attract}});
  if (!swarm.ok()) return fail("cpu swarm", swarm.error());
  // manual: the application's own records, drawn with the sparkles' look.
  auto spline = particles.add_manual_emitter(sparkles.value(), 256, {.seed = 3});
  if (!spline.ok()) return fail("manual spline", spline.error());

  // The presets' textures lie beside them, in the effects folder: that is the asset root.
  auto renderer = mote::ParticleRenderer::create(particles, {.width = kWidth,
                                                             .height = kHeight,
                                                             .asset_root = MOTE_EXAMPLE_EFFECTS});
  if (!renderer.ok()) return fail("renderer", renderer.error());
  Host host;
  if (!host.create(*context.value())) return 1;
  const mote::ParticleTargets targets{host.color, host.color_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      host.depth, host.depth_view, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  for (int frame = 0; frame < frames; ++frame) {
    // The spline turns a little every fourth frame: one upload then, nothing in between.
    if (frame % 4 == 0) {
      if (auto s = write_helix(spline.value(), 200, 0.05f * float(frame)); !s.ok()) return fail("spline", s.error());
      if (auto s = spline->upload(); !s.ok()) return fail("spline upload", s.error());
    }
    const bool last = frame == frames - 1;
    if (!check(vkResetCommandBuffer(host.cmd, 0), "vkResetCommandBuffer")) return 1;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (!check(vkBeginCommandBuffer(host.cmd, &begin), "vkBeginCommandBuffer")) return 1;
    record_clears(host);
    if (auto s = particles.record(host.cmd, kDt); !s.ok()) return fail("particle frame", s.error());
    if (auto s = renderer.value()->record(host.cmd, camera(float(frame) * kDt), targets); !s.ok())
      return fail("particle draw", s.error());
    if (last) record_readback(host);
    if (!check(vkEndCommandBuffer(host.cmd), "vkEndCommandBuffer")) return 1;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &host.cmd;
    if (!check(vkQueueSubmit(host.vk.queue, 1, &submit, host.fence), "vkQueueSubmit")) return 1;
    if (!check(vkWaitForFences(host.vk.device, 1, &host.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences")) return 1;
    if (!check(vkResetFences(host.vk.device, 1, &host.fence), "vkResetFences")) return 1;
  }
  auto stats = particles.read_stats();
  if (!stats.ok()) return fail("stats", stats.error());
  auto swarm_count = particles.read_alive_count(swarm->id());
  auto spline_count = particles.read_alive_count(spline->id());
  if (!swarm_count.ok() || !spline_count.ok())
    return fail("counts", swarm_count.ok() ? spline_count.error() : swarm_count.error());
  void* mapped = nullptr;
  if (!check(vkMapMemory(host.vk.device, host.readback_memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory")) return 1;
  const mote::ImageRgba8 image = tonemap(mapped);
  vkUnmapMemory(host.vk.device, host.readback_memory);
  if (auto written = mote::write_png(out_path, image); !written.ok()) return fail("png", written.error());
  std::printf("%d frames: %u particles alive (cpu swarm %u, manual spline %u, the rest gpu fire); wrote %s\n", frames,
              stats.value().alive, swarm_count.value(), spline_count.value(), out_path.c_str());
  // The spline is exactly what was uploaded, whatever else ran.
  return spline_count.value() == 200 && swarm_count.value() > 0 ? 0 : 1;
}
