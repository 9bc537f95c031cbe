// bench/media: the froxel fog's passes (src/media/froxel_fog.hpp) at 1920 x 1080 over a depth
// target, GPU timestamps per pass, median of the repeats, for each grid (default 160 x 90 x 64
// and 240 x 135 x 128) and each scene:
//   empty     no volume: what the fog costs a scene that has none
//   uniform   --volumes boxes at noise_strength 0 (the taps branched around)
//   noisy     the same boxes at noise_strength 0.8 with the warp (two taps each)
//   one_tap   the same at noise_warp 0 (one tap)
// The noise's share of the injection pass is (noisy - uniform) / noisy. Then, per grid, the froxel
// irradiance volume lit particles read (src/media/irradiance_volume.hpp: pass "irradiance", no
// medium, the same sun and lights; scene "lights"). Four point lights and a
// sun (its shadow tap taken, from a 1 x 1 stand-in map) light the medium. The same-run copy
// roofline (bench/lib/copy_roofline.hpp) is printed first; of_roofline is each pass's compulsory
// bytes (the froxel volumes it reads and writes once, RGBA16F; the colour and depth per pixel for
// the composite) over its time, against it. One JSON object per line. Run on the H200
// (docs/PERFORMANCE.md); for lavapipe:
//   bench_media --width 320 --height 180 --grids 40x23x32 --volumes 8 --repeats 2 --roofline-mib 16
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <string>
#include <vector>

#include "copy_roofline.hpp"
#include "gpu/commands.hpp"
#include "gpu/image.hpp"
#include "gpu/profiler.hpp"
#include "media/froxel_fog.hpp"
#include "media/irradiance_volume.hpp"
#include "media/noise_bake.hpp"
#include "media/tile_atlas.hpp"
#include "media/volume_table.hpp"
#include "render/render_view.hpp"

using namespace mote;

namespace {

struct Options {
  uint32_t width = 1920, height = 1080;
  std::vector<glm::uvec3> grids{{160, 90, 64}, {240, 135, 128}};
  uint32_t volumes = 64;
  uint32_t repeats = 20;
  uint64_t roofline_mib = 1024;
  std::string device;
};

glm::uvec3 parse_grid(const std::string& s) {
  glm::uvec3 g(0);
  if (std::sscanf(s.c_str(), "%ux%ux%u", &g.x, &g.y, &g.z) != 3 || !g.x || !g.y || !g.z) {
    fmt::print(stderr, "bench_media: a grid is WxHxD, got '{}'\n", s);
    std::exit(2);
  }
  return g;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "bench_media: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--width") o.width = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--height") o.height = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--volumes") o.volumes = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--repeats") o.repeats = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else if (a == "--roofline-mib") o.roofline_mib = std::max(1ul, std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--device") o.device = next();
    else if (a == "--grids") {
      o.grids.clear();
      std::string list = next();
      for (size_t start = 0; start <= list.size();) {
        const size_t comma = std::min(list.find(',', start), list.size());
        o.grids.push_back(parse_grid(list.substr(start, comma - start)));
        start = comma + 1;
      }
    } else {
      fmt::print(stderr, "usage: bench_media [--width W] [--height H] [--grids WxHxD,...] [--volumes N] [--repeats R]\n"
                         "                   [--roofline-mib M] [--device SEL]\n");
      std::exit(2);
    }
  }
  if (o.width == 0 || o.height == 0 || o.volumes == 0 || o.volumes > 4096) {
    fmt::print(stderr, "bench_media: width, height and volumes (1..4096) must be positive\n");
    std::exit(2);
  }
  return o;
}

int fail(const Error& e) {
  fmt::print(stderr, "bench_media: {}\n", e.to_string());
  return 1;
}

// `count` boxes 6..14 m across spread over the view from 5 to 120 m, overlapping.
std::vector<shader::MediaVolume> make_volumes(uint32_t count, float strength, float warp) {
  std::vector<shader::MediaVolume> rows;
  uint32_t state = 12345u;
  auto unit = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / 16777216.0f;
  };
  for (uint32_t i = 0; i < count; ++i) {
    const float z = -5.0f - 115.0f * unit();
    const float half_width = -z * 0.7f;
    media::VolumeParams p;
    p.transform = glm::scale(glm::translate(glm::mat4(1.0f),
                                            glm::vec3((2.0f * unit() - 1.0f) * half_width, 1.0f + 6.0f * unit(), z)),
                             glm::vec3(6.0f + 8.0f * unit(), 3.0f + 5.0f * unit(), 6.0f + 8.0f * unit()));
    p.density = 0.02f + 0.1f * unit();
    p.fade_distance = 1.0f;
    p.noise_strength = strength;
    p.noise_scale = 24.0f;
    p.noise_warp = warp;
    media::NoisePhase phase;
    phase.base = {unit(), unit(), unit()};
    phase.warp = {unit(), unit(), unit()};
    rows.push_back(media::make_volume_row(p, phase));
  }
  return rows;
}

struct Targets {
  gpu::Image color, depth;
};

Result<Targets> make_targets(gpu::Device& device, uint32_t width, uint32_t height) {
  Targets t;
  MOTE_TRY_ASSIGN(t.color,
                  gpu::Image::create(device, {.width = width,
                                              .height = height,
                                              .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .name = "bench.media_color"}));
  MOTE_TRY_ASSIGN(t.depth,
                  gpu::Image::create(device, {.width = width,
                                              .height = height,
                                              .format = VK_FORMAT_D32_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "bench.media_depth"}));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    gpu::image_barrier(cmd, t.color, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearColorValue grey{{0.2f, 0.2f, 0.2f, 1.0f}};
    const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, t.color.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1, &color_range);
    gpu::image_barrier(cmd, t.color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages,
                       VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    gpu::image_barrier(cmd, t.depth, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearDepthStencilValue plane{0.1f / 80.0f, 0};  // a surface 80 m away (reversed-Z, near 0.1)
    const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, t.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &plane, 1, &depth_range);
    gpu::image_barrier(cmd, t.depth, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages,
                       VK_ACCESS_2_MEMORY_READ_BIT);
  }));
  return t;
}

shader::RenderView bench_view(uint32_t width, uint32_t height) {
  render::ViewSetup setup;
  setup.camera.position = {0.0f, 3.0f, 0.0f};
  setup.camera.target = {0.0f, 2.0f, -30.0f};
  setup.camera.fov_y_degrees = 60.0f;
  setup.camera.near_plane = 0.1f;
  setup.width = width;
  setup.height = height;
  setup.sun = scene::DirectionalLight{};
  setup.sun->shadows = false;
  setup.point_light_count = 4;
  shader::RenderView v = render::make_render_view(setup);
  // A shadowed sun: the light pass takes its shadow tap (from the fog's 1 x 1 stand-in map here).
  v.sun_radiance.w = 1.0f / 2048.0f;
  return v;
}

// The compulsory bytes of each pass: each froxel volume it reads or writes once (8 bytes a
// froxel), the composite's colour read and write and depth read per pixel.
std::map<std::string, double> pass_bytes(glm::uvec3 g, uint32_t width, uint32_t height) {
  const double froxels = double(g.x) * g.y * g.z, pixels = double(width) * height;
  return {{"fog_inject", 8.0 * froxels},
          {"fog_light", 24.0 * froxels},
          {"fog_integrate", 16.0 * froxels},
          {"fog_composite", 20.0 * pixels}};
}

// The irradiance pass at `grid`: median of the repeats, and its compulsory bytes (two RGBA16F
// volumes written once).
Status bench_irradiance(gpu::Device& device, glm::uvec3 grid, const shader::RenderView& view,
                        std::span<const shader::PointLightGpu> lights, uint32_t repeats, double roofline_gbps) {
  MOTE_TRY_ASSIGN(media::IrradianceVolume volume,
                  media::IrradianceVolume::create(device, {.grid = grid, .far_distance = 200.0f}));
  MOTE_TRY_ASSIGN(gpu::GpuProfiler profiler, gpu::GpuProfiler::create(device, repeats + 1));
  volume.set_profiler(&profiler);
  MOTE_TRY(bench::warm_gpu(device, 200.0));
  Status recorded = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    profiler.reset(cmd);
    for (uint32_t r = 0; r <= repeats && recorded.ok(); ++r) recorded = volume.record(cmd, view, lights, {});
  }));
  MOTE_TRY(recorded);
  MOTE_TRY_ASSIGN(std::vector<gpu::PassTime> times, profiler.resolve());
  std::vector<double> ms;
  for (size_t i = 1; i < times.size(); ++i) ms.push_back(times[i].ms);  // the first is the warm-up
  if (ms.empty()) return ok_status();
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  const double gbps = 16.0 * double(grid.x) * grid.y * grid.z / (median * 1e-3) / 1e9;
  fmt::print("{{\"grid\":\"{}x{}x{}\",\"scene\":\"lights\",\"pass\":\"irradiance\",\"median_ms\":{:.4f},"
             "\"gbps\":{:.1f},\"of_roofline\":{:.4f}}}\n",
             grid.x, grid.y, grid.z, median, gbps, gbps / roofline_gbps);
  return ok_status();
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail(created.error());
  gpu::Device& device = **created;
  auto roofline = bench::measure_copy_roofline(device, opt.roofline_mib << 20, opt.repeats);
  if (!roofline.ok()) return fail(roofline.error());
  fmt::print("{{\"bench\":\"media\",\"device\":\"{}\",\"driver\":\"{}\",\"width\":{},\"height\":{},\"volumes\":{},"
             "\"repeats\":{},\"roofline_gbps\":{:.1f}}}\n",
             device.description().name, device.description().driver_info, opt.width, opt.height, opt.volumes,
             opt.repeats, roofline->gbps);
  auto atlas = media::TileAtlas3D::create(device, {});
  if (!atlas.ok()) return fail(atlas.error());
  auto bake = media::NoiseBake::create(device);
  if (!bake.ok()) return fail(bake.error());
  if (Status baked = media::bake_noise_tile(device, bake.value(), atlas.value(), atlas->allocate().value(),
                                            shader::kMediaNoiseOctaves);
      !baked.ok())
    return fail(baked.error());
  auto targets = make_targets(device, opt.width, opt.height);
  if (!targets.ok()) return fail(targets.error());
  const shader::RenderView view = bench_view(opt.width, opt.height);
  std::vector<shader::PointLightGpu> lights;
  for (int i = 0; i < 4; ++i)
    lights.push_back({glm::vec4(-12.0f + 8.0f * float(i), 2.0f, -10.0f - 10.0f * float(i), 25.0f), glm::vec4(40.0f)});
  const std::pair<const char*, std::vector<shader::MediaVolume>> scenes[] = {
      {"empty", {}},
      {"uniform", make_volumes(opt.volumes, 0.0f, 0.1f)},
      {"noisy", make_volumes(opt.volumes, 0.8f, 0.1f)},
      {"one_tap", make_volumes(opt.volumes, 0.8f, 0.0f)}};
  for (const glm::uvec3 grid : opt.grids) {
    auto fog = media::FroxelFog::create(
        device,
        {.width = opt.width, .height = opt.height, .grid = grid, .far_distance = 200.0f, .max_volumes = opt.volumes});
    if (!fog.ok()) return fail(fog.error());
    auto profiler = gpu::GpuProfiler::create(device, 5 * (opt.repeats + 1));
    if (!profiler.ok()) return fail(profiler.error());
    fog->set_profiler(&profiler.value());
    const std::map<std::string, double> bytes = pass_bytes(grid, opt.width, opt.height);
    std::map<std::string, double> inject_ms;
    for (const auto& [name, rows] : scenes) {
      if (Status warm = bench::warm_gpu(device, 200.0); !warm.ok()) return fail(warm.error());
      Status recorded = ok_status();
      const render::ParticleTargets t{&targets->color, VK_IMAGE_LAYOUT_GENERAL, &targets->depth,
                                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      if (Status run = device.submit_and_wait([&](VkCommandBuffer cmd) {
            profiler->reset(cmd);
            for (uint32_t r = 0; r <= opt.repeats && recorded.ok(); ++r)
              recorded = fog->record(cmd, view, lights, rows, atlas.value(), t, {});
          });
          !run.ok())
        return fail(run.error());
      if (!recorded.ok()) return fail(recorded.error());
      auto times = profiler->resolve();
      if (!times.ok()) return fail(times.error());
      std::map<std::string, std::vector<double>> by_pass;
      const size_t per_frame = 5;
      for (size_t i = per_frame; i < times->size(); ++i) by_pass[(*times)[i].name].push_back((*times)[i].ms);
      double total = 0.0;
      for (auto& [pass, ms] : by_pass) {
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        total += median;
        const auto b = bytes.find(pass);
        const double gbps = b != bytes.end() ? b->second / (median * 1e-3) / 1e9 : 0.0;
        fmt::print("{{\"grid\":\"{}x{}x{}\",\"scene\":\"{}\",\"pass\":\"{}\",\"median_ms\":{:.4f},\"gbps\":{:.1f},"
                   "\"of_roofline\":{:.4f}}}\n",
                   grid.x, grid.y, grid.z, name, pass, median, gbps, gbps / roofline->gbps);
        if (pass == "fog_inject") inject_ms[name] = median;
      }
      fmt::print("{{\"grid\":\"{}x{}x{}\",\"scene\":\"{}\",\"pass\":\"all\",\"median_ms\":{:.4f}}}\n", grid.x, grid.y,
                 grid.z, name, total);
    }
    if (inject_ms["noisy"] > 0.0)
      fmt::print("{{\"grid\":\"{}x{}x{}\",\"noise_share_of_inject\":{:.3f}}}\n", grid.x, grid.y, grid.z,
                 (inject_ms["noisy"] - inject_ms["uniform"]) / inject_ms["noisy"]);
    if (Status irradiance = bench_irradiance(device, grid, view, lights, opt.repeats, roofline->gbps); !irradiance.ok())
      return fail(irradiance.error());
  }
  return 0;
}
