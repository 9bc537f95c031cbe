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

namespace {

constexpr uint32_t kWidth = 640;
constexpr uint32_t kHeight = 360;
constexpr float kDt = 1.0f / 60.0f;

bool check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return true;
  std::fprintf(stderr, "%s: VkResult %d\n", what, int(r));
  return false;
}

int fail(const char* what, const mote::Error& e) {
  std::fprintf(stderr, "%s: %s\n", what, e.to_string().c_str());
  return 1;
}

// What a host renderer owns: its images, a readback buffer, a command pool and a fence.
struct Host {
  mote::VulkanContext vk;
  VkImage color = VK_NULL_HANDLE, depth = VK_NULL_HANDLE;
  VkImageView color_view = VK_NULL_HANDLE, depth_view = VK_NULL_HANDLE;
  VkDeviceMemory color_memory = VK_NULL_HANDLE, depth_memory = VK_NULL_HANDLE, readback_memory = VK_NULL_HANDLE;
  VkBuffer readback = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  ~Host() {
    VkDevice d = vk.device;
    if (d == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(d);
    vkDestroyFence(d, fence, nullptr);
    vkDestroyCommandPool(d, pool, nullptr);
    vkDestroyBuffer(d, readback, nullptr);
    vkDestroyImageView(d, color_view, nullptr);
    vkDestroyImageView(d, depth_view, nullptr);
    vkDestroyImage(d, color, nullptr);
    vkDestroyImage(d, depth, nullptr);
    for (VkDeviceMemory m : {color_memory, depth_memory, readback_memory}) vkFreeMemory(d, m, nullptr);
  }

  bool allocate(VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory& memory) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(vk.physical_device, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
      if (!(req.memoryTypeBits & (1u << i)) || (props.memoryTypes[i].propertyFlags & want) != want) continue;
      VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, i};
      return check(vkAllocateMemory(vk.device, &info, nullptr, &memory), "vkAllocateMemory");
    }
    std::fprintf(stderr, "no memory type fits\n");
    return false;
  }

  bool make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage& image,
                  VkDeviceMemory& memory, VkImageView& view) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {kWidth, kHeight, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.usage = usage;
    if (!check(vkCreateImage(vk.device, &info, nullptr, &image), "vkCreateImage")) return false;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(vk.device, image, &req);
    if (!allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, memory)) return false;
    if (!check(vkBindImageMemory(vk.device, image, memory, 0), "vkBindImageMemory")) return false;
    VkImageViewCreateInfo v{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    v.image = image;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = format;
    v.subresourceRange = {aspect, 0, 1, 0, 1};
    return check(vkCreateImageView(vk.device, &v, nullptr, &view), "vkCreateImageView");
  }

  bool create(mote::Context& context) {
    vk = mote::vulkan_context(context);
    constexpr VkImageUsageFlags kColor = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    constexpr VkImageUsageFlags kDepth = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (!make_image(VK_FORMAT_R16G16B16A16_SFLOAT, kColor, VK_IMAGE_ASPECT_COLOR_BIT, color, color_memory, color_view))
      return false;
    if (!make_image(VK_FORMAT_D32_SFLOAT, kDepth, VK_IMAGE_ASPECT_DEPTH_BIT, depth, depth_memory, depth_view))
      return false;
    VkBufferCreateInfo b{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    b.size = VkDeviceSize(kWidth) * kHeight * 8;
    b.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (!check(vkCreateBuffer(vk.device, &b, nullptr, &readback), "vkCreateBuffer")) return false;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk.device, readback, &req);
    if (!allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, readback_memory))
      return false;
    if (!check(vkBindBufferMemory(vk.device, readback, readback_memory, 0), "vkBindBufferMemory")) return false;
    VkCommandPoolCreateInfo p{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    p.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    p.queueFamilyIndex = vk.queue_family;
    if (!check(vkCreateCommandPool(vk.device, &p, nullptr, &pool), "vkCreateCommandPool")) return false;
    VkCommandBufferAllocateInfo a{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    if (!check(vkAllocateCommandBuffers(vk.device, &a, &cmd), "vkAllocateCommandBuffers")) return false;
    VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    return check(vkCreateFence(vk.device, &f, nullptr, &fence), "vkCreateFence");
  }
};

void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
             VkPipelineStageFlags2 src, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst,
             VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect, 0, 1, 0, 1};
  VkDependencyInfo d{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  d.imageMemoryBarrierCount = 1;
  d.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &d);
}

// The stages the particle renderer hands the images back in (mote/particle_renderer.hpp).
constexpr VkPipelineStageFlags2 kParticleStages = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                  VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                  VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                                                  VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                                  VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;

// The host's "opaque pass" here is two clears: a dusk sky, and depth at the far plane (0, reversed-Z).
void record_clears(const Host& h) {
  // Last frame's contents are discarded (UNDEFINED), after its writes.
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  barrier(h.cmd, h.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearColorValue sky{{0.05f, 0.07f, 0.12f, 1.0f}};
  const VkClearDepthStencilValue far{0.0f, 0};
  const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(h.cmd, h.color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sky, 1, &color_range);
  vkCmdClearDepthStencilImage(h.cmd, h.depth, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &depth_range);
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
          kParticleStages, VK_ACCESS_2_NONE);
  barrier(h.cmd, h.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
          VK_ACCESS_2_TRANSFER_WRITE_BIT, kParticleStages, VK_ACCESS_2_NONE);
}

void record_readback(const Host& h) {
  barrier(h.cmd, h.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kParticleStages, VK_ACCESS_2_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kWidth, kHeight, 1};
  vkCmdCopyImageToBuffer(h.cmd, h.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, h.readback, 1, &region);
}

// A right-handed look-at view and a reversed-Z infinite perspective into Vulkan's clip space
// (y down), column-major — the conventions mote::ParticleView documents.
mote::ParticleView camera(float time) {
  mote::ParticleView v;
  const float angle = 0.3f * time;
  const std::array<float, 3> eye{3.2f * std::sin(angle), 1.8f, 3.2f * std::cos(angle)};
  const std::array<float, 3> target{0.0f, 1.0f, 0.0f};
  std::array<float, 3> f{target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
  const float fl = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (float& c : f) c /= fl;
  std::array<float, 3> r{f[1] * 0.0f - f[2] * 1.0f, f[2] * 0.0f - f[0] * 0.0f, f[0] * 1.0f - f[1] * 0.0f};  // f × +Y
  const float rl = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (float& c : r) c /= rl;
  const std::array<float, 3> u{r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
  auto dot = [](const std::array<float, 3>& a, const std::array<float, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  v.view = {r[0], u[0], -f[0], 0, r[1],         u[1],         -f[1],       0,
            r[2], u[2], -f[2], 0, -dot(r, eye), -dot(u, eye), dot(f, eye), 1};
  const float near = 0.1f, focal = 1.0f / std::tan(0.5f * 0.9f), aspect = float(kWidth) / float(kHeight);
  v.projection = {focal / aspect, 0, 0, 0, 0, -focal, 0, 0, 0, 0, 0, -1, 0, 0, near, 0};
  v.near_plane = near;
  v.far_plane = 500.0f;
  v.time = time;
  v.sun_direction = {-0.3f, -1.0f, -0.2f};
  v.sun_radiance = {0.6f, 0.6f, 0.7f};
  v.sky_ambient = {0.15f, 0.18f, 0.25f};
  v.ground_ambient = {0.05f, 0.04f, 0.03f};
  v.point_lights.push_back({{0.0f, 0.8f, 0.0f}, 6.0f, {3.0f, 1.6f, 0.6f}});  // the fire's glow
  return v;
}

// RGBA16F (linear, premultiplied over an opaque sky) to sRGB RGBA8, a Reinhard curve on the CPU.
mote::ImageRgba8 tonemap(const void* halves) {
  auto half_to_float = [](uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    uint32_t bits = sign;
    if (exponent == 31) bits |= 0x7F800000u | (mantissa << 13);
    else if (exponent != 0) bits |= ((exponent + 112) << 23) | (mantissa << 13);
    else if (mantissa != 0) return (sign ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  mote::ImageRgba8 image{kWidth, kHeight, std::vector<uint8_t>(size_t(kWidth) * kHeight * 4)};
  const auto* in = static_cast<const uint16_t*>(halves);
  for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
    for (int c = 0; c < 3; ++c) {
      const float x = std::max(half_to_float(in[i * 4 + c]), 0.0f);
      const float mapped = x / (1.0f + x);
      const float srgb = mapped <= 0.0031308f ? 12.92f * mapped : 1.055f * std::pow(mapped, 1.0f / 2.4f) - 0.055f;
      image.pixels[i * 4 + c] = uint8_t(std::lround(std::clamp(srgb, 0.0f, 1.0f) * 255.0f));
    }
    image.pixels[i * 4 + 3] = 255;
  }
  return image;
}

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
