// bench/depth_collision: what depth-buffer collision costs (docs/design/depth_collision.md) in
// the GPU runtime frame — ~1M and ~16M ballistic particles at steady state (bench/runtime_frame's
// scenarios 1 and 2), each without collision and with a SAMPLE_DEPTH collision
// (bench::frame_bench_depth_effect) against a --width x --height (1920 x 1080) depth of a ground
// plane seen from above, the particles falling through the camera's view onto it. One JSON object
// per line: the copy roofline first (bench/lib/copy_roofline.hpp), then per scenario and variant
// bench/runtime_frame's line (frame_ms, simulate_ms, their share of the roofline) and a summary
// with simulate's ms per million particles and what collision adds to it.
//
//   bench_depth_collision [--frames K] [--device SEL] [--max-particles N] [--width W] [--height H]
//                         [--roofline-mib M]
// For lavapipe: --max-particles 65536 --width 320 --height 180 --frames 3 --roofline-mib 16.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "copy_roofline.hpp"
#include "frame_bench.hpp"
#include "gpu/device.hpp"
#include "mote/depth_image.hpp"

using namespace mote;

namespace {

struct Options {
  std::string device;
  uint32_t width = 1920, height = 1080;
  bench::FrameBenchOptions bench;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "bench_depth_collision: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&]() { return uint32_t(std::strtoul(next().c_str(), nullptr, 10)); };
    if (a == "--frames") o.bench.frames = std::max(1u, number());
    else if (a == "--device") o.device = next();
    else if (a == "--max-particles") o.bench.max_particles = std::clamp(number(), 64u, bench::kFrameMaxCapacity);
    else if (a == "--width") o.width = std::clamp(number(), 1u, kMaxDepthImageSize);
    else if (a == "--height") o.height = std::clamp(number(), 1u, kMaxDepthImageSize);
    else if (a == "--roofline-mib") o.bench.roofline_mib = std::strtoull(next().c_str(), nullptr, 10);
    else {
      fmt::print(stderr, "usage: bench_depth_collision [--frames K] [--device SEL] [--max-particles N] [--width W] "
                         "[--height H] [--roofline-mib M]\n");
      std::exit(2);
    }
  }
  return o;
}

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_depth_collision: {}: {}\n", what, e.to_string());
  return 1;
}

// The reversed-Z depth of the ground y = -0.5 seen from (0, 4, 6) toward the emitter at the
// origin, through the renderer's projection (render_perspective, y flipped; far at infinity).
DepthImage ground_depth(uint32_t width, uint32_t height) {
  const float f = 1.0f / std::tan(0.5f * glm::radians(60.0f)), near_plane = 0.1f;
  const glm::mat4 projection(glm::vec4(f * float(height) / float(width), 0.0f, 0.0f, 0.0f),
                             glm::vec4(0.0f, -f, 0.0f, 0.0f), glm::vec4(0.0f, 0.0f, 0.0f, -1.0f),
                             glm::vec4(0.0f, 0.0f, near_plane, 0.0f));
  const glm::vec3 eye(0.0f, 4.0f, 6.0f);
  const glm::mat4 vp = projection * glm::lookAt(eye, glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::mat4 inv = glm::inverse(vp);
  DepthImage d;
  d.width = width;
  d.height = height;
  std::memcpy(d.view_proj.data(), &vp[0][0], 64);
  std::memcpy(d.inv_view_proj.data(), &inv[0][0], 64);
  d.depths.assign(size_t(width) * height, 0.0f);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const glm::vec4 h = inv * glm::vec4((float(x) + 0.5f) * 2.0f / float(width) - 1.0f,
                                          (float(y) + 0.5f) * 2.0f / float(height) - 1.0f, 0.5f, 1.0f);
      const glm::vec3 dir = glm::vec3(h) / h.w - eye;
      if (dir.y >= 0.0f) continue;  // the sky: nothing drawn
      const glm::vec4 clip = vp * glm::vec4(eye + dir * ((-0.5f - eye.y) / dir.y), 1.0f);
      d.depths[size_t(y) * width + x] = std::clamp(clip.z / clip.w, 0.0f, 1.0f);
    }
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail("device", created.error());
  gpu::Device& device = **created;
  auto plain = bench::frame_bench_effect(0);
  if (!plain.ok()) return fail("assemble", plain.error());
  auto colliding = bench::frame_bench_depth_effect();
  if (!colliding.ok()) return fail("assemble", colliding.error());
  const DepthImage depth = ground_depth(opt.width, opt.height);
  if (Status checked = check_depth_image(depth); !checked.ok()) return fail("depth", checked.error());
  fmt::print("{{\"bench\":\"depth_collision\",\"device\":\"{}\",\"depth\":[{},{}],\"max_particles\":{},"
             "\"update_instructions\":[{},{}]}}\n",
             device.description().name, opt.width, opt.height, opt.bench.max_particles, plain->program.update.size(),
             colliding->program.update.size());
  double roofline_gbps = 0.0;
  if (opt.bench.roofline_mib > 0) {
    auto roofline = bench::measure_copy_roofline(device, opt.bench.roofline_mib << 20, 10);
    if (!roofline.ok()) return fail("roofline", roofline.error());
    roofline_gbps = roofline->gbps;
    fmt::print("{{\"roofline\":\"copy\",\"bytes_each_way\":{},\"median_ms\":{:.4f},\"gbps\":{:.1f}}}\n",
               roofline->bytes, roofline->median_ms, roofline->gbps);
  }
  int rc = 0;
  for (const bench::Scenario& sc : bench::kScenarios) {
    if (sc.id != 1 && sc.id != 2) continue;
    double simulate_ms[2] = {0.0, 0.0};
    uint32_t alive[2] = {0, 0};
    for (int variant = 0; variant < 2; ++variant) {
      bench::FrameBenchOptions o = opt.bench;
      o.collision_depth = variant == 1 ? &depth : nullptr;
      auto result = bench::run_frame_scenario(device, o, sc, variant == 1 ? *colliding : *plain, roofline_gbps);
      if (!result.ok()) {
        rc |= fail(sc.name, result.error());
        continue;
      }
      fmt::print("{{\"collision\":{},\"frame\":{}}}\n", variant == 1 ? "\"depth\"" : "\"none\"", result->json);
      simulate_ms[variant] = result->simulate_ms;
      alive[variant] = result->alive;
      rc |= result->pool_ok ? 0 : 1;
    }
    auto per_million = [](double ms, uint32_t n) { return n ? ms / (double(n) / 1e6) : 0.0; };
    fmt::print("{{\"scenario\":{},\"alive\":[{},{}],\"simulate_ms_per_million\":[{:.4f},{:.4f}],"
               "\"collision_adds_ms_per_million\":{:.4f}}}\n",
               sc.id, alive[0], alive[1], per_million(simulate_ms[0], alive[0]), per_million(simulate_ms[1], alive[1]),
               per_million(simulate_ms[1], alive[1]) - per_million(simulate_ms[0], alive[0]));
    std::fflush(stdout);
  }
  return rc;
}
