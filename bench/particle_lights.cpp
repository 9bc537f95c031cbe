// bench/particle_lights: particles that light the scene (docs/design/particle_lights.md), no
// simulation. For each N of --lights a pool is filled by hand with N light-emitting particles
// (row 0: tiny additive sprites whose render "light" makes each a point light of range size x 40, 0.8-2 m,
// spread over a 24 m square of ground at 0.2-1 m up) and --lit lit sprites (row 1: smoke-like
// puffs lit from the froxel irradiance volume), and each frame is, GPU timestamps around each:
//   select       ParticleRenderer::record_prepare (the draw arguments and the light selection:
//                candidates, two radix sorts of them, the list, and with the clusters their binning)
//   opaque       the opaque pass: a ground plane at 1920 x 1080 shaded by the list
//   transparent  record_transparent: the irradiance volume (every froxel sums its lights) and the
//                sprites (raster path, weighted blended OIT)
// once per --max-lights value (the list's capacity) up to N, each twice: "clustered" (every pixel
// and froxel loops over its cluster's lights; docs/design/particle_lights.md, "The clustered
// list") and the old loop over the whole list ("clustered": false; not with --no-loop), and once
// with the light records off (the same pool and draws, no particle lights: the baseline).
// bin_ms is the clustered select_ms less the loop's (the binning is all that differs). Each repeat
// is its own submission after warm-up frames; the figures are medians, one JSON object per line,
// with the list's and the grid's headers read back (the selection must keep min(lights, capacity)
// and count the rest, and the grid must not run out of entries: exit status 1 otherwise).
//
//   bench_particle_lights [--width W] [--height H] [--lights N,M,...] [--lit N] [--max-lights A,B,...]
//                         [--cluster-entries E] [--no-loop] [--repeats R] [--warmup W] [--seed S]
//                         [--device SEL]
//   (the issue's case on the H200 is the default: 1920 x 1080, 10,000 and 16,384 lights, 2,000 lit
//    sprites, lists of 256, 4096, 10000 and 16384, 2^26 cluster entries; on lavapipe: --width 320
//    --height 180 --lights 500 --lit 100 --max-lights 16,500 --repeats 2 --warmup 1)
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "assets/mesh.hpp"
#include "gpu/commands.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "mote/effect.hpp"
#include "render/gpu_mesh.hpp"
#include "render/opaque_pass.hpp"
#include "render/particle_renderer.hpp"
#include "render/render_targets.hpp"
#include "render/render_view.hpp"
#include "shared/particle_lights.h"
#include "shared/particle_render.h"

namespace {

using namespace mote;

struct Options {
  uint32_t width = 1920, height = 1080;
  std::vector<uint32_t> lights{10000, 16384};
  uint32_t lit = 2000;
  std::vector<uint32_t> max_lights{256, 4096, 10000, 16384};
  uint32_t cluster_entries = 1u << 26;
  bool loop = true;
  uint32_t repeats = 10, warmup = 3, seed = 1;
  std::string device;
};

[[noreturn]] void usage() {
  fmt::print(stderr, "usage: bench_particle_lights [--width W] [--height H] [--lights N,M,...] [--lit N]\n"
                     "                             [--max-lights A,B,...] [--cluster-entries E] [--no-loop]\n"
                     "                             [--repeats R] [--warmup W] [--seed S] [--device SEL]\n");
  std::exit(2);
}

uint32_t parse_u32(const std::string& text, uint32_t lo, uint32_t hi) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi) usage();
  return uint32_t(v);
}

std::vector<uint32_t> parse_list(const std::string& text, uint32_t lo, uint32_t hi) {
  std::vector<uint32_t> out;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) out.push_back(parse_u32(item, lo, hi));
  if (out.empty()) usage();
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--width") o.width = parse_u32(next(), 16, 8192);
    else if (a == "--height") o.height = parse_u32(next(), 16, 8192);
    else if (a == "--lights") o.lights = parse_list(next(), 1, 1u << 22);
    else if (a == "--lit") o.lit = parse_u32(next(), 0, 1u << 22);
    else if (a == "--max-lights") o.max_lights = parse_list(next(), 1, shader::kParticleLightsMaxCapacity);
    else if (a == "--cluster-entries")
      o.cluster_entries = parse_u32(next(), 1, shader::kParticleLightClusterMaxEntries);
    else if (a == "--no-loop") o.loop = false;
    else if (a == "--repeats") o.repeats = parse_u32(next(), 1, 1000);
    else if (a == "--warmup") o.warmup = parse_u32(next(), 0, 1000);
    else if (a == "--seed") o.seed = parse_u32(next(), 0, UINT32_MAX);
    else if (a == "--device") o.device = next();
    else usage();
  }
  return o;
}

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_particle_lights: {}: {}\n", what, e.to_string());
  return 1;
}

// The layout the pool is written in; `light`: the render "light" object (or none) and `lit`.
Result<CompiledEffect> effect(const char* name, const char* render) {
  return compile_effect(fmt::format(
      R"({{"version": 1, "name": "{}", "particle_fields": [{{"name": "position", "width": 3}},
      {{"name": "size", "width": 1}}, {{"name": "color", "width": 4}}],
      "render": {}, "init": {{"nodes": []}}, "update": {{"nodes": []}}}})",
      name, render));
}

struct Pool {
  std::vector<uint32_t> words, alive;
  uint32_t record_words = 0, capacity = 0;
};

Pool fill_pool(const Options& o, uint32_t lights, const CompiledEffect& layout) {
  const Program& program = layout.program;
  Pool p;
  p.record_words = program.particle_record_words();
  p.capacity = lights + o.lit;
  p.words.assign(size_t(p.capacity) * p.record_words, 0u);
  const uint32_t position = *program.particle_field_offset("position"), size = *program.particle_field_offset("size"),
                 color = *program.particle_field_offset("color");
  std::mt19937 rng(o.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (uint32_t i = 0; i < p.capacity; ++i) {
    const bool light = i < lights;
    uint32_t* w = &p.words[size_t(i) * p.record_words];
    w[0] = (light ? 0u : 1u) | (1u << shader::kFrameHeaderRowBits);  // row 0 or 1, generation 1
    const glm::vec3 at = light
                             ? glm::vec3(24.0f * unit(rng) - 12.0f, 0.2f + 0.8f * unit(rng), -2.0f - 24.0f * unit(rng))
                             : glm::vec3(8.0f * unit(rng) - 4.0f, 0.5f + 2.0f * unit(rng), -4.0f - 8.0f * unit(rng));
    for (int c = 0; c < 3; ++c) w[position + uint32_t(c)] = std::bit_cast<uint32_t>(at[c]);
    w[size] = std::bit_cast<uint32_t>(light ? 0.02f + 0.03f * unit(rng) : 0.6f + 0.6f * unit(rng));
    const float rgba[4] = {1.0f, 0.3f + 0.5f * unit(rng), 0.1f + 0.2f * unit(rng), light ? 1.0f : 0.3f};
    for (int c = 0; c < 4; ++c) w[color + uint32_t(c)] = std::bit_cast<uint32_t>(rgba[c]);
  }
  p.alive.resize(p.capacity);
  for (uint32_t i = 0; i < p.capacity; ++i) p.alive[i] = i;
  std::shuffle(p.alive.begin(), p.alive.end(), rng);
  return p;
}

gpu::Buffer* make_buffer(gpu::Device& device, std::vector<gpu::Buffer>& keep, std::span<const uint32_t> words,
                         const char* name, Status& status) {
  auto created = gpu::Buffer::create(device, {.size = std::max<VkDeviceSize>(words.size_bytes(), 16), .name = name});
  if (!created.ok()) {
    status = created.error();
    return nullptr;
  }
  keep.push_back(std::move(created).value());
  if (Status up = gpu::upload_span(device, keep.back(), words); !up.ok()) status = up;
  return &keep.back();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Frame {
  gpu::Device& device;
  const Options& opt;
  uint32_t lights;  // light-emitting particles in the pool
  const render::ParticleBuffers& particles;
  const shader::RenderView& view;
  render::RenderTargets& targets;
  render::OpaquePass& opaque;
  const render::OpaqueDraw& ground;
  gpu::GpuProfiler& profiler;
};

// What a configuration measured (medians, ms).
struct Measured {
  double select = 0, opaque = 0, transparent = 0;
};

// One configuration: `max_lights` 0 is the baseline (the effects without their light); `loop_select`:
// the same capacity's loop-over-the-list select_ms, for bin_ms (negative: not measured).
int run(Frame& f, const CompiledEffect& lights, const CompiledEffect& lit, uint32_t max_lights, bool clustered,
        double loop_select, Measured& measured) {
  auto renderer = render::ParticleRenderer::create(f.device, {.width = f.opt.width,
                                                              .height = f.opt.height,
                                                              .capacity = f.particles.capacity,
                                                              .max_emitters = 2,
                                                              .max_particle_lights = std::max(max_lights, 1u),
                                                              .cluster_particle_lights = clustered,
                                                              .particle_light_cluster_entries = f.opt.cluster_entries});
  if (!renderer.ok()) return fail("renderer", renderer.error());
  CompiledEffect emitting = lights;
  if (max_lights == 0) emitting.render.light.enabled = false;
  if (Status set = renderer->set_emitter(0, emitting, 1); !set.ok()) return fail("set_emitter", set.error());
  if (Status set = renderer->set_emitter(1, lit, 1); !set.ok()) return fail("set_emitter", set.error());
  const render::ParticleTargets frame_targets{.color = &f.targets.hdr,
                                              .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                              .depth = &f.targets.depth,
                                              .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  std::vector<double> select_ms, opaque_ms, transparent_ms;
  for (uint32_t frame = 0; frame < f.opt.warmup + f.opt.repeats; ++frame) {
    Status recorded = ok_status();
    const Status done = f.device.submit_and_wait([&](VkCommandBuffer cmd) {
      f.profiler.reset(cmd);
      f.profiler.begin(cmd, "select");
      recorded = renderer->record_prepare(cmd, f.particles, f.view, {});
      f.profiler.end(cmd);
      if (!recorded.ok()) return;
      f.opaque.record_shadow(cmd, f.targets, false, {}, renderer->view_buffer());
      f.opaque.finish_shadow(cmd, f.targets);
      f.profiler.begin(cmd, "opaque");
      f.opaque.record_scene(cmd, f.targets, glm::vec3(0.01f, 0.012f, 0.02f), std::span(&f.ground, 1),
                            renderer->view_buffer(), renderer->point_lights_buffer(),
                            renderer->particle_lights_buffer(), renderer->particle_light_clusters_buffer());
      f.profiler.end(cmd);
      gpu::image_barrier(cmd, f.targets.depth, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, render::kTargetStages,
                         VK_ACCESS_2_MEMORY_WRITE_BIT, render::kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
      f.profiler.begin(cmd, "transparent");
      recorded = renderer->record_transparent(cmd, frame_targets);
      f.profiler.end(cmd);
    });
    if (!done.ok()) return fail("frame", done.error());
    if (!recorded.ok()) return fail("record", recorded.error());
    auto times = f.profiler.resolve();
    if (!times.ok()) return fail("timestamps", times.error());
    if (frame < f.opt.warmup || times->size() != 3) continue;
    select_ms.push_back((*times)[0].ms);
    opaque_ms.push_back((*times)[1].ms);
    transparent_ms.push_back((*times)[2].ms);
  }
  auto header = renderer->read_light_header();
  if (!header.ok()) return fail("header", header.error());
  auto grid = renderer->read_light_cluster_header();
  if (!grid.ok()) return fail("cluster header", grid.error());
  measured = {median(select_ms), median(opaque_ms), median(transparent_ms)};
  const std::string bin_ms = clustered && loop_select >= 0 ? fmt::format("{:.4f}", measured.select - loop_select)
                                                           : std::string("null");
  fmt::print(R"({{"bench": "particle_lights", "width": {}, "height": {}, "lights": {}, "lit_sprites": {}, )"
             R"("max_lights": {}, "clustered": {}, "select_ms": {:.4f}, "bin_ms": {}, "opaque_ms": {:.4f}, )"
             R"("transparent_ms": {:.4f}, "list": {}, "candidates": {}, "overflow": {}, "clusters": {}, )"
             R"("cluster_entries": {}, "cluster_overflow": {}}})"
             "\n",
             f.opt.width, f.opt.height, f.lights, f.opt.lit, max_lights, clustered, measured.select, bin_ms,
             measured.opaque, measured.transparent, header->count, header->candidates, header->overflow, grid->clusters,
             grid->entries, grid->overflow);
  const uint32_t expected = max_lights == 0 ? 0 : std::min(f.lights, max_lights);
  if (header->count != expected || header->candidates != (max_lights == 0 ? 0 : f.lights) ||
      header->count + header->overflow != header->candidates) {
    fmt::print(stderr, "bench_particle_lights: the list holds {} of {} candidates ({} over), expected {}\n",
               header->count, header->candidates, header->overflow, expected);
    return 1;
  }
  if (grid->overflow != 0) {
    fmt::print(stderr,
               "bench_particle_lights: the cluster grid ran out of entries ({} asked, {} left out): "
               "raise --cluster-entries\n",
               grid->entries, grid->overflow);
    return 1;
  }
  return 0;
}

// Every configuration over a pool of `count` lights.
int run_lights(gpu::Device& device, const Options& opt, uint32_t count, const CompiledEffect& lights,
               const CompiledEffect& lit) {
  const Pool pool = fill_pool(opt, count, lights);
  std::vector<gpu::Buffer> buffers;
  buffers.reserve(3);
  Status status = ok_status();
  const std::vector<uint32_t> counters{pool.capacity, 0, 0, 0};
  gpu::Buffer* pool_buffer = make_buffer(device, buffers, pool.words, "bench.pool", status);
  gpu::Buffer* alive_buffer = make_buffer(device, buffers, pool.alive, "bench.alive", status);
  gpu::Buffer* counters_buffer = make_buffer(device, buffers, counters, "bench.counters", status);
  if (!status.ok()) return fail("buffers", status.error());
  auto targets = render::RenderTargets::create(device, opt.width, opt.height, 1);
  if (!targets.ok()) return fail("targets", targets.error());
  auto opaque = render::OpaquePass::create(device);
  if (!opaque.ok()) return fail("opaque pass", opaque.error());
  auto plane = render::GpuMesh::upload(device, assets::make_plane(), "bench.ground");
  if (!plane.ok()) return fail("ground", plane.error());
  render::OpaqueDraw ground{.mesh = &plane.value(), .casts_shadow = false};
  ground.push.model = glm::scale(glm::mat4(1.0f), glm::vec3(60.0f, 1.0f, 60.0f));
  ground.push.base_color = glm::vec4(0.4f, 0.38f, 0.35f, 0.9f);
  auto profiler = gpu::GpuProfiler::create(device, 6);
  if (!profiler.ok()) return fail("profiler", profiler.error());
  // The camera 3 m up at the square's near edge, looking along it and down at the ground.
  render::ViewSetup setup;
  setup.camera = {.position = glm::vec3(0.0f, 3.0f, 1.0f),
                  .target = glm::vec3(0.0f, 0.0f, -10.0f),
                  .fov_y_degrees = 60.0f};
  setup.width = opt.width;
  setup.height = opt.height;
  setup.environment.sky_color = glm::vec3(0.02f, 0.025f, 0.05f);
  setup.environment.ground_color = glm::vec3(0.01f);
  setup.environment.ambient_intensity = 1.0f;
  const shader::RenderView view = render::make_render_view(setup);
  const render::ParticleBuffers particles{.pool = pool_buffer,
                                          .record_words = pool.record_words,
                                          .capacity = pool.capacity,
                                          .alive = alive_buffer,
                                          .counters = counters_buffer,
                                          .alive_count_word = 0};
  Frame frame{device, opt, count, particles, view, *targets, *opaque, ground, *profiler};
  Measured m;
  if (const int rc = run(frame, lights, lit, 0, false, -1.0, m); rc != 0) return rc;
  for (const uint32_t max_lights : opt.max_lights) {
    if (max_lights > count) continue;
    double loop_select = -1.0;
    if (opt.loop) {
      if (const int rc = run(frame, lights, lit, max_lights, false, -1.0, m); rc != 0) return rc;
      loop_select = m.select;
    }
    if (const int rc = run(frame, lights, lit, max_lights, true, loop_select, m); rc != 0) return rc;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail("device", created.error());
  gpu::Device& device = **created;
  auto lights = effect("bench_lights", R"({"blend": "additive", "light": {"intensity": 0.5, "radius_from_size": 40}})");
  if (!lights.ok()) return fail("effect", lights.error());
  auto lit = effect("bench_lit", R"({"lit": true})");
  if (!lit.ok()) return fail("effect", lit.error());
  for (const uint32_t count : opt.lights)
    if (const int rc = run_lights(device, opt, count, *lights, *lit); rc != 0) return rc;
  return 0;
}
