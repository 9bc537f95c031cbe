// bench/ribbons: ribbons built and drawn (docs/design/ribbons.md), no simulation. A pool is filled
// by hand with --ribbons strips of --points points each (one emitter row whose ribbon id is a
// field, the alive list shuffled as a frame's is), and each frame is the particle renderer's
// record_prepare (the draw arguments and the ribbon build: three radix sorts, points, links, two
// scans, pieces) and record_transparent (the raster path, weighted blended OIT, drawing the
// pieces), GPU timestamps around each. Each repeat is its own submission after warm-up frames;
// the figures are medians.
//
//   bench_ribbons [--width W] [--height H] [--ribbons N] [--points P] [--subdivisions S]
//                 [--repeats R] [--warmup W] [--seed S] [--device SEL]
//   (the issue's case on the H200 is the default: 1920 x 1080, 100,000 ribbons x 32 points; on
//    lavapipe: --width 320 --height 180 --ribbons 500 --points 16 --repeats 2 --warmup 1)
//
// The strips: each starts at a point uniform in a box 4 m wide, as tall as the aspect makes it,
// 3-8 m in front of the camera (origin, looking down -Z, 60° field of view), and walks 32 steps of
// 2-4 cm along a wavy line; widths 1-3 cm, alpha-blended, colour alpha 0.5, the soft disc texture.
// Figures, one JSON object per line: build_ms (record_prepare: draw args + ribbon build), draw_ms
// (record_transparent), pieces and segments from the build's counts (checked: segments must be
// ribbons x (points - 1), the exit status is 1 otherwise).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/commands.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "mote/effect.hpp"
#include "render/particle_renderer.hpp"
#include "render/render_targets.hpp"
#include "render/render_view.hpp"
#include "shared/particle_render.h"

namespace {

using namespace mote;

struct Options {
  uint32_t width = 1920, height = 1080;
  uint32_t ribbons = 100000, points = 32, subdivisions = 1;
  uint32_t repeats = 10, warmup = 3, seed = 1;
  std::string device;
};

[[noreturn]] void usage() {
  fmt::print(stderr, "usage: bench_ribbons [--width W] [--height H] [--ribbons N] [--points P] [--subdivisions S]\n"
                     "                     [--repeats R] [--warmup W] [--seed S] [--device SEL]\n");
  std::exit(2);
}

uint32_t parse_u32(const char* text, uint32_t lo, uint32_t hi) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) usage();
  return uint32_t(v);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--width") o.width = parse_u32(next(), 16, 8192);
    else if (a == "--height") o.height = parse_u32(next(), 16, 8192);
    else if (a == "--ribbons") o.ribbons = parse_u32(next(), 1, 1u << 22);
    else if (a == "--points") o.points = parse_u32(next(), 2, 1024);
    else if (a == "--subdivisions") o.subdivisions = parse_u32(next(), 1, 8);
    else if (a == "--repeats") o.repeats = parse_u32(next(), 1, 1000);
    else if (a == "--warmup") o.warmup = parse_u32(next(), 0, 1000);
    else if (a == "--seed") o.seed = parse_u32(next(), 0, UINT32_MAX);
    else if (a == "--device") o.device = next();
    else usage();
  }
  if (uint64_t(o.ribbons) * o.points > (1u << 26)) usage();
  return o;
}

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_ribbons: {}: {}\n", what, e.to_string());
  return 1;
}

// A ribbon effect with its id from a field: the layout the pool is written in.
Result<CompiledEffect> ribbon_effect(uint32_t subdivisions) {
  return compile_effect(fmt::format(
      R"({{"version": 1, "name": "bench_ribbons", "particle_fields": [{{"name": "position", "width": 3}},
      {{"name": "size", "width": 1}}, {{"name": "color", "width": 4}}, {{"name": "ribbon_serial", "width": 1}},
      {{"name": "trail", "width": 1}}],
      "render": {{"projection": "ribbon", "ribbon": {{"id_field": "trail", "subdivisions": {}}}}},
      "init": {{"nodes": []}}, "update": {{"nodes": []}}}})",
      subdivisions));
}

struct Pool {
  std::vector<uint32_t> words, alive;
  uint32_t record_words = 0, capacity = 0;
};

Pool fill_pool(const Options& o, const CompiledEffect& effect) {
  const Program& program = effect.program;
  Pool p;
  p.record_words = program.particle_record_words();
  p.capacity = o.ribbons * o.points;
  p.words.assign(size_t(p.capacity) * p.record_words, 0u);
  const uint32_t position = *program.particle_field_offset("position"), size = *program.particle_field_offset("size"),
                 color = *program.particle_field_offset("color"),
                 serial = *program.particle_field_offset("ribbon_serial"),
                 trail = *program.particle_field_offset("trail");
  std::mt19937 rng(o.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float half_height = 2.0f * float(o.height) / float(o.width);
  for (uint32_t r = 0; r < o.ribbons; ++r) {
    glm::vec3 at(4.0f * unit(rng) - 2.0f, half_height * (2.0f * unit(rng) - 1.0f), -3.0f - 5.0f * unit(rng));
    const float phase = 6.2832f * unit(rng), step = 0.02f + 0.02f * unit(rng), width = 0.01f + 0.02f * unit(rng);
    for (uint32_t k = 0; k < o.points; ++k) {
      uint32_t* w = &p.words[(size_t(r) * o.points + k) * p.record_words];
      w[0] = 0u | (1u << shader::kFrameHeaderRowBits);  // row 0, generation 1
      at += glm::vec3(step, step * std::sin(phase + 0.4f * float(k)), 0.0f);
      for (int c = 0; c < 3; ++c) w[position + uint32_t(c)] = std::bit_cast<uint32_t>(at[c]);
      w[size] = std::bit_cast<uint32_t>(width);
      const float rgba[4] = {unit(rng), unit(rng), unit(rng), 0.5f};
      for (int c = 0; c < 4; ++c) w[color + uint32_t(c)] = std::bit_cast<uint32_t>(rgba[c]);
      w[serial] = std::bit_cast<uint32_t>(float(k));
      w[trail] = std::bit_cast<uint32_t>(float(r));
    }
  }
  p.alive.resize(p.capacity);
  for (uint32_t i = 0; i < p.capacity; ++i) p.alive[i] = i;
  std::shuffle(p.alive.begin(), p.alive.end(), rng);
  return p;
}

}  // namespace

namespace {

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

// The host's part of a frame: colour cleared to a dark blue, depth to far, each moved to the
// layout the particle renderer is handed them in.
void record_clear(VkCommandBuffer cmd, const render::RenderTargets& t) {
  gpu::image_barrier(cmd, t.hdr, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
  gpu::image_barrier(cmd, t.depth, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const VkClearColorValue color{{0.02f, 0.03f, 0.06f, 1.0f}};
  const VkClearDepthStencilValue depth{0.0f, 0};
  const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(cmd, t.hdr.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &color_range);
  vkCmdClearDepthStencilImage(cmd, t.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &depth, 1, &depth_range);
  gpu::image_barrier(cmd, t.hdr, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages,
                     VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  gpu::image_barrier(cmd, t.depth, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail("device", created.error());
  gpu::Device& device = **created;
  auto effect = ribbon_effect(opt.subdivisions);
  if (!effect.ok()) return fail("effect", effect.error());
  const Pool pool = fill_pool(opt, effect.value());
  std::vector<gpu::Buffer> buffers;
  buffers.reserve(3);
  Status status = ok_status();
  const std::vector<uint32_t> counters{pool.capacity, 0, 0, 0};
  gpu::Buffer* pool_buffer = make_buffer(device, buffers, pool.words, "bench.pool", status);
  gpu::Buffer* alive_buffer = make_buffer(device, buffers, pool.alive, "bench.alive", status);
  gpu::Buffer* counters_buffer = make_buffer(device, buffers, counters, "bench.counters", status);
  if (!status.ok()) return fail("buffers", status.error());
  auto renderer = render::ParticleRenderer::create(
      device, {.width = opt.width, .height = opt.height, .capacity = pool.capacity, .max_emitters = 1});
  if (!renderer.ok()) return fail("renderer", renderer.error());
  if (Status set = renderer->set_emitter(0, effect.value(), 1); !set.ok()) return fail("set_emitter", set.error());
  auto targets = render::RenderTargets::create(device, opt.width, opt.height, 1);
  if (!targets.ok()) return fail("targets", targets.error());
  auto profiler = gpu::GpuProfiler::create(device, 4);
  if (!profiler.ok()) return fail("profiler", profiler.error());
  render::ViewSetup setup;
  setup.camera = {.position = glm::vec3(0.0f), .target = glm::vec3(0.0f, 0.0f, -1.0f), .fov_y_degrees = 60.0f};
  setup.width = opt.width;
  setup.height = opt.height;
  const shader::RenderView view = render::make_render_view(setup);
  const render::ParticleBuffers particles{.pool = pool_buffer,
                                          .record_words = pool.record_words,
                                          .capacity = pool.capacity,
                                          .alive = alive_buffer,
                                          .counters = counters_buffer,
                                          .alive_count_word = 0};
  const render::ParticleTargets frame_targets{.color = &targets->hdr,
                                              .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                              .depth = &targets->depth,
                                              .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  std::vector<double> build_ms, draw_ms;
  for (uint32_t frame = 0; frame < opt.warmup + opt.repeats; ++frame) {
    Status recorded = ok_status();
    const Status done = device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler->reset(cmd);
      record_clear(cmd, *targets);
      profiler->begin(cmd, "build");
      recorded = renderer->record_prepare(cmd, particles, view, {});
      profiler->end(cmd);
      profiler->begin(cmd, "draw");
      if (recorded.ok()) recorded = renderer->record_transparent(cmd, frame_targets);
      profiler->end(cmd);
    });
    if (!done.ok()) return fail("frame", done.error());
    if (!recorded.ok()) return fail("record", recorded.error());
    auto times = profiler->resolve();
    if (!times.ok()) return fail("timestamps", times.error());
    if (frame < opt.warmup || times->size() != 2) continue;
    build_ms.push_back((*times)[0].ms);
    draw_ms.push_back((*times)[1].ms);
  }
  auto counts = gpu::readback_as<uint32_t>(device, renderer->ribbon_pass().counts(), shader::kRibbonCountWords);
  if (!counts.ok()) return fail("counts", counts.error());
  const uint32_t pieces = (*counts)[shader::kRibbonCountPieces], segments = (*counts)[shader::kRibbonCountSegments];
  const uint64_t expected = uint64_t(opt.ribbons) * (opt.points - 1);
  fmt::print(R"({{"bench": "ribbons", "width": {}, "height": {}, "ribbons": {}, "points": {}, "subdivisions": {}, )"
             R"("build_ms": {:.4f}, "draw_ms": {:.4f}, "pieces": {}, "segments": {}}})"
             "\n",
             opt.width, opt.height, opt.ribbons, opt.points, opt.subdivisions, median(build_ms), median(draw_ms),
             pieces, segments);
  if (segments != expected || pieces != expected * opt.subdivisions) {
    fmt::print(stderr, "bench_ribbons: the build made {} segments and {} pieces, expected {} and {}\n", segments,
               pieces, expected, expected * opt.subdivisions);
    return 1;
  }
  return 0;
}
