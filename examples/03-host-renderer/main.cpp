// Example 03: Mote inside a host renderer. The host owns everything a frame is made of — its HDR
// colour image, its reversed-Z depth image, its command pool and command buffers, its fence, its
// camera — and records Mote into them: the particle frame (ParticleSystem::record) and the
// particle draw (ParticleRenderer::record), between its own clears and its own readback. Only
// include/mote/ and raw Vulkan are used. Writes the last frame as a PNG (tonemapped on the CPU).
//   example_host_renderer [OUT.png] [FRAMES] [raster|compute]
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

using namespace example;

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : "host_renderer.png";
  const int frames = std::max(argc > 2 ? std::atoi(argv[2]) : 90, 1);
  const bool compute = argc > 3 && std::string(argv[3]) == "compute";

  auto context = mote::Context::create();
  if (!context.ok()) return fail("context", context.error());
  std::printf("device: %s\n", context.value()->device_name().c_str());
  auto fire = mote::compile_effect_file(std::string(MOTE_EXAMPLE_EFFECTS) + "/fire.json");
  auto sparkles = mote::compile_effect_file(std::string(MOTE_EXAMPLE_EFFECTS) + "/sparkles.json");
  if (!fire.ok()) return fail("fire.json", fire.error());
  if (!sparkles.ok()) return fail("sparkles.json", sparkles.error());
  auto system = mote::ParticleSystem::create(*context.value(), {.capacity = 1u << 15, .max_emitters = 8});
  if (!system.ok()) return fail("system", system.error());
  mote::ParticleSystem& particles = *system.value();
  if (auto e = particles.add_emitter(fire.value(), {.seed = 1}); !e.ok()) return fail("fire emitter", e.error());
  auto renderer = mote::ParticleRenderer::create(
      particles,
      // The effect's flipbook texture lies beside it, in the effects folder: that is the asset root.
      {.width = kWidth,
       .height = kHeight,
       .path = compute ? mote::DrawPath::kCompute : mote::DrawPath::kRaster,
       .asset_root = MOTE_EXAMPLE_EFFECTS});
  if (!renderer.ok()) return fail("renderer", renderer.error());

  Host host;
  if (!host.create(*context.value())) return 1;
  const mote::ParticleTargets targets{host.color, host.color_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      host.depth, host.depth_view, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  for (int frame = 0; frame < frames; ++frame) {
    // Sparkles join at the first second: the renderer takes the new emitter in by itself.
    if (frame == 60)
      if (auto e = particles.add_emitter(sparkles.value(), {.seed = 2, .position = {0.0f, 1.5f, 0.0f}}); !e.ok())
        return fail("sparkles emitter", e.error());
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
    // Mote submits on this queue too (set-up, readbacks): one thread at a time, as the API says.
    if (!check(vkQueueSubmit(host.vk.queue, 1, &submit, host.fence), "vkQueueSubmit")) return 1;
    if (!check(vkWaitForFences(host.vk.device, 1, &host.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences")) return 1;
    if (!check(vkResetFences(host.vk.device, 1, &host.fence), "vkResetFences")) return 1;
  }
  auto stats = particles.read_stats();
  if (!stats.ok()) return fail("stats", stats.error());
  void* mapped = nullptr;
  if (!check(vkMapMemory(host.vk.device, host.readback_memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory")) return 1;
  const mote::ImageRgba8 image = tonemap(mapped);
  vkUnmapMemory(host.vk.device, host.readback_memory);
  for (const std::string& w : renderer.value()->warnings()) std::printf("warning: %s\n", w.c_str());
  if (auto written = mote::write_png(out_path, image); !written.ok()) return fail("png", written.error());
  std::printf("%d frames on the %s path, %u particles alive; wrote %s (%ux%u)\n", frames,
              compute ? "compute" : "raster", stats.value().alive, out_path.c_str(), kWidth, kHeight);
  return 0;
}
