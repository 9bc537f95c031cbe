// The draw paths' benchmark (draw_bench.hpp), shared by bench/render and `mote bench`.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/packing.hpp>

#include "copy_roofline.hpp"
#include "draw_bench.hpp"
#include "assets/atlas.hpp"
#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/image.hpp"
#include "gpu/profiler.hpp"
#include "gpu/sampler.hpp"
#include "gpu/transfer.hpp"
#include "render/opaque_pass.hpp"
#include "render/particle_compute_path.hpp"
#include "media/irradiance_volume.hpp"
#include "render/particle_inputs.hpp"
#include "render/particle_raster_path.hpp"
#include "render/particle_targets.hpp"
#include "render/render_targets.hpp"
#include "render/render_view.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "shared/frame.h"
#include "shared/gpu_selftest.h"
#include "shared/particle_render.h"

namespace mote::bench {

using namespace mote::gpu;

namespace {

// The pool record: what a small runtime effect carries. Only position, size and colour are bound
// by the draw records; the rest is there so the stride is a real one.
constexpr uint32_t kPositionWord = 1;  // 3 words
constexpr uint32_t kSizeWord = 4;
constexpr uint32_t kColorWord = 5;     // 4 words, straight alpha
constexpr uint32_t kVelocityWord = 9;  // 3 words (unbound: zero)
constexpr uint32_t kAgeWord = 12;
constexpr uint32_t kLifetimeWord = 13;
constexpr uint32_t kAliveCountWord = 0;  // of the bench's counters block
constexpr uint32_t kGeneration = 1;
constexpr uint32_t kRowAlpha = 0;
constexpr uint32_t kRowAdditive = 1;

constexpr float kNearPlane = 0.05f;
const glm::vec3 kBackground(0.0625f, 0.0625f, 0.078125f);  // exact in half floats

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// ---- The memory roofline: bench/roofline's copy kernel (bench/lib/copy_roofline.hpp) ----

using Roofline = mote::bench::CopyRoofline;

// ---- The particles ----

struct Sprite {
  glm::vec3 position{0.0f};
  float size = 0.0f;
  glm::vec4 color{1.0f};  // straight alpha
  bool additive = false;
};

struct Case {
  std::string name;
  std::vector<Sprite> sprites;
};

Case make_small(uint32_t n, uint32_t seed, float aspect) {
  Case c;
  c.name = "small";
  c.sprites.resize(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float half_w = 2.0f, half_h = 2.0f / aspect;
  for (Sprite& s : c.sprites) {
    s.position = glm::vec3((2.0f * u(rng) - 1.0f) * half_w, (2.0f * u(rng) - 1.0f) * half_h, -(3.0f + 5.0f * u(rng)));
    s.size = 0.01f + 0.02f * u(rng);
    s.additive = u(rng) < 0.1f;
    if (s.additive) {
      const float k = 0.5f + 1.5f * u(rng);  // sparks: warm, bright
      s.color = glm::vec4(k, 0.6f * k, 0.25f * k, 1.0f);
    } else {
      s.color = glm::vec4(0.2f + 0.8f * u(rng), 0.2f + 0.8f * u(rng), 0.2f + 0.8f * u(rng), 0.3f + 0.7f * u(rng));
    }
  }
  return c;
}

Case make_smoke(uint32_t n, uint32_t seed) {
  Case c;
  c.name = "smoke";
  c.sprites.resize(n);
  std::mt19937 rng(seed ^ 0x5EED5EEDu);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::normal_distribution<float> g(0.0f, 1.0f);
  constexpr int kClusters = 8;
  glm::vec3 centres[kClusters];
  for (glm::vec3& centre : centres)
    centre = glm::vec3(3.0f * u(rng) - 1.5f, 1.2f * u(rng) - 0.6f, -(4.0f + 3.0f * u(rng)));
  for (Sprite& s : c.sprites) {
    const glm::vec3& centre = centres[std::min(int(u(rng) * kClusters), kClusters - 1)];
    s.position = centre + glm::vec3(0.35f * g(rng), 0.35f * g(rng), 0.5f * g(rng));
    s.position.z = std::min(s.position.z, -1.0f);  // never at or behind the eye
    s.size = 0.5f + 1.5f * u(rng);
    const float grey = 0.3f + 0.3f * u(rng);
    s.color = glm::vec4(grey, grey, 1.05f * grey, 0.05f + 0.15f * u(rng));
    s.additive = false;
  }
  return c;
}

// What the CPU can say of a case's screen footprint (see the header): fragments, and the tiles
// the compute path's binning covers (its rule: the projected box plus one pixel, in 16 x 16 tiles).
struct Footprint {
  double fragments = 0.0;
  uint64_t tile_pairs = 0;
  uint32_t on_screen = 0;
};

Footprint footprint(const std::vector<Sprite>& sprites, const shader::RenderView& view, uint32_t width,
                    uint32_t height) {
  Footprint f;
  const double w = width, h = height;
  const double focal_px = std::abs(double(view.projection[1][1])) * 0.5 * h;
  const int tiles_x = int((width + render::kComputeTileSize - 1) / render::kComputeTileSize);
  const int tiles_y = int((height + render::kComputeTileSize - 1) / render::kComputeTileSize);
  for (const Sprite& s : sprites) {
    const glm::vec4 clip = view.view_projection * glm::vec4(s.position, 1.0f);
    if (clip.w <= kNearPlane) continue;
    const double cx = (double(clip.x) / clip.w * 0.5 + 0.5) * w;
    const double cy = (double(clip.y) / clip.w * 0.5 + 0.5) * h;
    const double half = 0.5 * double(s.size) * focal_px / double(clip.w);
    const double x0 = cx - half, x1 = cx + half, y0 = cy - half, y1 = cy + half;
    const double cover_x = std::max(0.0, std::min(x1, w) - std::max(x0, 0.0));
    const double cover_y = std::max(0.0, std::min(y1, h) - std::max(y0, 0.0));
    f.fragments += cover_x * cover_y;
    const double lo_x = x0 - 1.0, hi_x = x1 + 1.0, lo_y = y0 - 1.0, hi_y = y1 + 1.0;
    if (!(hi_x >= 0.0 && hi_y >= 0.0 && lo_x < w && lo_y < h)) continue;
    ++f.on_screen;
    const int px0 = int(std::max(std::floor(lo_x), 0.0)), py0 = int(std::max(std::floor(lo_y), 0.0));
    const int px1 = int(std::min(std::floor(hi_x), w - 1.0)), py1 = int(std::min(std::floor(hi_y), h - 1.0));
    const int tile = int(render::kComputeTileSize);
    const int t0x = std::min(px0 / tile, tiles_x - 1), t1x = std::min(px1 / tile, tiles_x - 1);
    const int t0y = std::min(py0 / tile, tiles_y - 1), t1y = std::min(py1 / tile, tiles_y - 1);
    f.tile_pairs += uint64_t(t1x - t0x + 1) * uint64_t(t1y - t0y + 1);
  }
  return f;
}

shader::ParticleDrawRecord draw_record(bool additive, bool lit) {
  shader::ParticleDrawRecord r{};
  r.position_word = kPositionWord;
  r.size_word = kSizeWord;
  r.color_word = kColorWord;
  r.flags = shader::kDrawFlagLive | shader::kProjectionBillboard | (additive ? shader::kDrawFlagAdditive : 0u) |
            (lit ? shader::kDrawFlagLit : 0u);
  r.generation = kGeneration;
  r.flipbook_columns = 1;
  r.flipbook_rows = 1;
  r.size_scale = 1.0f;
  r.atlas_rect = glm::vec4(0.0f, 0.0f, 1.0f, 1.0f);
  r.tint = glm::vec4(1.0f);
  return r;
}

std::vector<uint32_t> make_pool(const std::vector<Sprite>& sprites, uint32_t record_words) {
  std::vector<uint32_t> pool(sprites.size() * record_words, 0u);
  for (size_t i = 0; i < sprites.size(); ++i) {
    const Sprite& s = sprites[i];
    uint32_t* w = &pool[i * record_words];
    w[0] = (s.additive ? kRowAdditive : kRowAlpha) | (kGeneration << shader::kFrameHeaderRowBits);
    for (int k = 0; k < 3; ++k) w[kPositionWord + k] = std::bit_cast<uint32_t>(s.position[k]);
    w[kSizeWord] = std::bit_cast<uint32_t>(s.size);
    for (int k = 0; k < 4; ++k) w[kColorWord + k] = std::bit_cast<uint32_t>(s.color[k]);
    w[kAgeWord] = std::bit_cast<uint32_t>(0.5f);
    w[kLifetimeWord] = std::bit_cast<uint32_t>(1.0f);
    // kVelocityWord stays zero: the sprites are at rest.
  }
  return pool;
}

std::vector<glm::vec4> unpack_rgba16f(const std::vector<uint8_t>& bytes) {
  std::vector<glm::vec4> out(bytes.size() / 8);
  for (size_t i = 0; i < out.size(); ++i) {
    uint16_t h[4];
    std::memcpy(h, bytes.data() + i * 8, 8);
    out[i] = glm::vec4(glm::unpackHalf1x16(h[0]), glm::unpackHalf1x16(h[1]), glm::unpackHalf1x16(h[2]),
                       glm::unpackHalf1x16(h[3]));
  }
  return out;
}

double mean_abs_rgb(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const glm::vec3 d = glm::abs(glm::vec3(a[i]) - glm::vec3(b[i]));
    sum += (double(d.x) + d.y + d.z) / 3.0;
  }
  return a.empty() ? 0.0 : sum / double(a.size());
}

// PSNR of `a` against `b` over RGB clamped to [0, 1] (as the tests' compare_images), in dB.
double psnr_rgb(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const glm::vec3 d = glm::clamp(glm::vec3(a[i]), 0.0f, 1.0f) - glm::clamp(glm::vec3(b[i]), 0.0f, 1.0f);
    sum += double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z;
  }
  const double mse = a.empty() ? 0.0 : sum / (3.0 * double(a.size()));
  return mse > 0.0 ? 10.0 * std::log10(1.0 / mse) : INFINITY;
}

// One (case, path) result.
// Everything shared by the cases: the device objects that do not depend on the particle count.
struct Bench {
  Device& device;
  const DrawBenchOptions& opt;
  double roofline_gbps = 0.0;
  render::RenderTargets targets;
  render::OpaquePass opaque;
  ComputePipeline draw_args_pipeline;
  ComputePipeline sort_keys_pipeline;
  GpuProfiler profiler;
  Image atlas;
  Sampler linear;
  Sampler nearest;
  Buffer view_buffer;
  Buffer lights;
  media::IrradianceVolume irradiance;  // what lit sprites read (built once)
  Buffer records;
  Buffer draw_args;
  Buffer draw_args_params;
  shader::RenderView view{};
  std::vector<Row> rows;
  bool failed = false;
};

Status create_shared(Bench& b) {
  Device& device = b.device;
  MOTE_TRY_ASSIGN(b.targets, render::RenderTargets::create(device, b.opt.width, b.opt.height, 1));
  MOTE_TRY_ASSIGN(b.opaque, render::OpaquePass::create(device));
  MOTE_TRY_ASSIGN(b.draw_args_pipeline, ComputePipeline::create(device, "render/draw_args"));
  MOTE_TRY_ASSIGN(b.sort_keys_pipeline, ComputePipeline::create(device, "render/sort_keys"));
  MOTE_TRY_ASSIGN(b.profiler, GpuProfiler::create(device, 4));

  const assets::ImageRgba8 disc = assets::make_soft_disc();
  MOTE_TRY_ASSIGN(b.atlas, Image::create(device, {.width = disc.width,
                                                  .height = disc.height,
                                                  .format = VK_FORMAT_R8G8B8A8_SRGB,
                                                  .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                  .name = "bench.render.atlas"}));
  MOTE_TRY(upload_image(device, b.atlas, disc.pixels));
  MOTE_TRY_ASSIGN(b.linear, Sampler::create(device, {.filter = VK_FILTER_LINEAR, .name = "bench.render.linear"}));
  MOTE_TRY_ASSIGN(b.nearest, Sampler::create(device, {.filter = VK_FILTER_NEAREST, .name = "bench.render.nearest"}));

  render::ViewSetup setup;
  setup.camera.position = glm::vec3(0.0f);
  setup.camera.target = glm::vec3(0.0f, 0.0f, -1.0f);
  setup.camera.fov_y_degrees = kFovYDegrees;
  setup.camera.near_plane = kNearPlane;
  setup.width = b.opt.width;
  setup.height = b.opt.height;
  setup.environment.background = kBackground;
  b.view = render::make_render_view(setup);

  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  constexpr VkBufferUsageFlags kUniform = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MOTE_TRY_ASSIGN(b.view_buffer,
                  Buffer::create(device,
                                 {.size = sizeof(shader::RenderView), .usage = kUniform, .name = "bench.render.view"}));
  MOTE_TRY(upload_span(device, b.view_buffer, std::span<const shader::RenderView>(&b.view, 1)));
  const std::vector<shader::PointLightGpu> no_lights(shader::kMaxPointLights, shader::PointLightGpu{});
  MOTE_TRY_ASSIGN(b.lights, Buffer::create(device, {.size = sizeof(shader::PointLightGpu) * shader::kMaxPointLights,
                                                    .usage = kStorage,
                                                    .name = "bench.render.point_lights"}));
  MOTE_TRY(upload_span(device, b.lights, std::span<const shader::PointLightGpu>(no_lights)));
  // The irradiance volume lit sprites read, built once: a sun, the ambient and four point lights.
  MOTE_TRY_ASSIGN(b.irradiance,
                  media::IrradianceVolume::create(device,
                                                  {.grid = media::irradiance_grid_for(b.opt.width, b.opt.height)}));
  shader::RenderView lit_view = b.view;
  lit_view.sun_direction = glm::vec4(glm::normalize(glm::vec3(0.3f, -1.0f, -0.4f)), 1.0f);
  lit_view.sun_radiance = glm::vec4(2.0f, 1.9f, 1.7f, 0.0f);
  lit_view.sky_ambient = glm::vec4(0.3f, 0.35f, 0.45f, 0.0f);
  lit_view.ground_ambient = glm::vec4(0.1f, 0.08f, 0.06f, 0.0f);
  std::vector<shader::PointLightGpu> lights;
  for (int i = 0; i < 4; ++i)
    lights.push_back({glm::vec4(-2.0f + 1.3f * float(i), 0.5f, -4.0f - float(i), 6.0f), glm::vec4(6.0f)});
  lit_view.point_light_count = uint32_t(lights.size());
  Status built = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    built = b.irradiance.record(cmd, lit_view, lights, {});
  }));
  MOTE_TRY(built);
  const shader::ParticleDrawRecord rows[2] = {draw_record(false, b.opt.lit), draw_record(true, false)};
  MOTE_TRY_ASSIGN(b.records,
                  Buffer::create(device,
                                 {.size = sizeof(rows), .usage = kStorage, .name = "bench.render.draw_records"}));
  MOTE_TRY(upload_span(device, b.records, std::span<const shader::ParticleDrawRecord>(rows)));
  MOTE_TRY_ASSIGN(b.draw_args, Buffer::create(device, {.size = shader::kDrawArgsWords * 4,
                                                       .usage = kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                                       .name = "bench.render.draw_args"}));
  MOTE_TRY_ASSIGN(b.draw_args_params, Buffer::create(device, {.size = sizeof(shader::DrawArgsParams),
                                                              .usage = kUniform,
                                                              .name = "bench.render.draw_args_params"}));
  return ok_status();
}

// The per-case buffers and path objects.
struct CaseGpu {
  Buffer pool, alive, counters, bounds;
  render::ParticleInputs inputs;
  render::ParticleRasterPath raster;
  std::optional<render::ParticleComputePath> compute;
  std::string compute_error;
  gpu::RadixSort sort;  // the sorted path's sort, timed on its own
  Buffer sort_keys, sort_values;
};

Status create_case(Bench& b, const Case& c, const Footprint& fp, CaseGpu& g) {
  Device& device = b.device;
  const uint32_t n = uint32_t(c.sprites.size());
  const uint32_t words = b.opt.record_words;
  {
    const std::vector<uint32_t> pool = make_pool(c.sprites, words);
    MOTE_TRY_ASSIGN(g.pool, Buffer::create(device, {.size = uint64_t(n) * words * 4, .name = "bench.render.pool"}));
    MOTE_TRY(upload_span(device, g.pool, std::span<const uint32_t>(pool)));
  }
  {
    std::vector<uint32_t> alive(n);
    for (uint32_t i = 0; i < n; ++i) alive[i] = i;
    MOTE_TRY_ASSIGN(g.alive, Buffer::create(device, {.size = uint64_t(n) * 4, .name = "bench.render.alive"}));
    MOTE_TRY(upload_span(device, g.alive, std::span<const uint32_t>(alive)));
  }
  const std::vector<uint32_t> counters{n, 0, 0, 0};
  MOTE_TRY_ASSIGN(g.counters, Buffer::create(device, {.size = 16, .name = "bench.render.counters"}));
  MOTE_TRY(upload_span(device, g.counters, std::span<const uint32_t>(counters)));
  shader::DrawArgsParams params{};
  params.alive_count_word = kAliveCountWord;
  params.capacity = n;
  MOTE_TRY(upload_span(device, b.draw_args_params, std::span<const shader::DrawArgsParams>(&params, 1)));

  g.inputs.pool = &g.pool;
  g.inputs.record_words = words;
  g.inputs.capacity = n;
  g.inputs.alive = &g.alive;
  g.inputs.counters = &g.counters;
  g.inputs.alive_count_word = kAliveCountWord;
  g.inputs.records = &b.records;
  g.inputs.record_count = 2;
  g.inputs.view = &b.view_buffer;
  g.inputs.point_lights = &b.lights;
  g.inputs.particle_lights = &b.lights;  // all zero: also a particle-light list of none
  g.inputs.atlas = b.atlas.view();
  g.inputs.atlas_sampler = b.linear.handle();
  // The rows' boxes as the runtime's bounds pass measures them (every sprite's centre +- its half
  // width along each axis, the most a billboard's quad reaches), for AVBOIT's occupancy.
  {
    std::array<shader::FrameEmitterBounds, 2> bounds{};
    for (shader::FrameEmitterBounds& row : bounds) {
      row.bounds_min = glm::vec4(INFINITY);
      row.bounds_max = glm::vec4(-INFINITY);
      row.generation = kGeneration;
    }
    for (const Sprite& s : c.sprites) {
      shader::FrameEmitterBounds& row = bounds[s.additive ? kRowAdditive : kRowAlpha];
      const glm::vec4 reach(s.size * 0.5f);
      row.bounds_min = glm::min(row.bounds_min, glm::vec4(s.position, 0.0f) - reach);
      row.bounds_max = glm::max(row.bounds_max, glm::vec4(s.position, 0.0f) + reach);
      ++row.alive;
    }
    MOTE_TRY_ASSIGN(g.bounds, Buffer::create(device, {.size = sizeof(bounds), .name = "bench.render.bounds"}));
    MOTE_TRY(upload_span(device, g.bounds, std::span<const shader::FrameEmitterBounds>(bounds)));
  }
  g.inputs.emitter_bounds = &g.bounds;
  g.inputs.emitter_bounds_rows = 2;
  g.inputs.lighting = {b.irradiance.luma_view(), b.irradiance.chroma_view(), b.irradiance.sampler(),
                       &b.irradiance.sampling_buffer()};

  const bool want_oit = std::count(b.opt.paths.begin(), b.opt.paths.end(), PathKind::kRasterOit) > 0 ||
                        std::count(b.opt.paths.begin(), b.opt.paths.end(), PathKind::kRasterAvboit) > 0;
  const bool want_sorted = std::count(b.opt.paths.begin(), b.opt.paths.end(), PathKind::kRasterSorted) > 0;
  const bool want_compute = std::count(b.opt.paths.begin(), b.opt.paths.end(), PathKind::kCompute) > 0;
  if (want_oit || want_sorted) {
    MOTE_TRY_ASSIGN(g.raster,
                    render::ParticleRasterPath::create(device,
                                                       {.capacity = n, .width = b.opt.width, .height = b.opt.height}));
  }
  if (want_sorted) {
    MOTE_TRY_ASSIGN(g.sort, gpu::RadixSort::create(device, n));
    MOTE_TRY_ASSIGN(g.sort_keys, Buffer::create(device, {.size = uint64_t(n) * 4, .name = "bench.render.sort_keys"}));
    MOTE_TRY_ASSIGN(g.sort_values,
                    Buffer::create(device, {.size = uint64_t(n) * 4, .name = "bench.render.sort_values"}));
  }
  if (want_compute) {
    // Room for the pairs the CPU counted, +25% and a floor, within one storage binding.
    const uint64_t binding_words = device.limits().maxStorageBufferRange / 4;
    const uint64_t wanted = fp.tile_pairs + fp.tile_pairs / 4 + (1u << 16);
    const uint64_t max_pairs = std::min<uint64_t>({wanted, binding_words, 1ull << 31});
    auto path = render::ParticleComputePath::create(device, {.max_particles = n,
                                                             .width = b.opt.width,
                                                             .height = b.opt.height,
                                                             .max_tile_pairs = uint32_t(max_pairs)});
    if (path.ok()) g.compute.emplace(std::move(path).value());
    else g.compute_error = path.error().to_string();
  }
  return ok_status();
}

// One frame: the draw arguments and the cleared targets (untimed), then the particle pass between
// timestamps. Leaves targets.hdr in COLOR_ATTACHMENT_OPTIMAL.
Status record_frame(Bench& b, CaseGpu& g, PathKind path) {
  Device& device = b.device;
  Status recorded = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    b.profiler.reset(cmd);
    // Uploads and last frame's writes → this frame's readers.
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    ComputeRecorder(device, cmd)
        .bind(b.draw_args_pipeline)
        .buffers({{0, &g.counters}, {1, &b.draw_args}, {2, &b.draw_args_params}})
        .dispatch(1);
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    // No particle lights: the zero point-light block reads as an empty list and a grid of none.
    b.opaque.record_scene(cmd, b.targets, kBackground, {}, b.view_buffer, b.lights, b.lights, b.lights);
    // The cleared depth to the read-only layout both paths test and sample it in (untimed, as a
    // host's own depth pass would leave it); the HDR target stays where the opaque pass left it.
    image_barrier(cmd, b.targets.depth, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                  VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, render::kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
    const render::ParticleTargets targets{.color = &b.targets.hdr,
                                          .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                          .depth = &b.targets.depth,
                                          .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
    b.profiler.begin(cmd, path_name(path));
    if (path == PathKind::kCompute) {
      g.compute->record(cmd, g.inputs, targets, b.nearest.handle());
    } else {
      const render::Transparency mode = path == PathKind::kRasterSorted   ? render::Transparency::kSorted
                                        : path == PathKind::kRasterAvboit ? render::Transparency::kAvboit
                                                                          : render::Transparency::kOit;
      recorded = g.raster.record(cmd, g.inputs, targets, mode, b.draw_args, b.nearest.handle());
    }
    b.profiler.end(cmd);
    memory_barrier(cmd, render::kTargetStages, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                   VK_ACCESS_2_MEMORY_READ_BIT);
  }));
  return recorded;
}

// The sorted path's sort on its own: render/sort_keys and a RadixSort of the same size over the
// same inputs, count from the draw arguments, as ParticleRasterPath::record records them.
Status record_sort(Bench& b, CaseGpu& g) {
  Device& device = b.device;
  const shader::ParticleDrawPush push{
      g.inputs.record_words, g.inputs.record_count, g.inputs.capacity, g.inputs.alive_count_word, 0, 0, 0, 0};
  Status recorded = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    b.profiler.reset(cmd);
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    ComputeRecorder(device, cmd)
        .bind(b.draw_args_pipeline)
        .buffers({{0, &g.counters}, {1, &b.draw_args}, {2, &b.draw_args_params}})
        .dispatch(1);
    compute_to_compute(cmd);
    b.profiler.begin(cmd, "sort");
    ComputeRecorder(device, cmd)
        .bind(b.sort_keys_pipeline)
        .buffers({{0, g.inputs.view},
                  {1, g.inputs.pool},
                  {2, g.inputs.records},
                  {3, g.inputs.alive},
                  {4, g.inputs.counters},
                  {5, &g.sort_keys},
                  {6, &g.sort_values}})
        .push(push)
        .dispatch_threads(g.inputs.capacity);
    recorded = g.sort.record(cmd, g.sort_keys, g.sort_values,
                             gpu::ScanCount::from_buffer(b.draw_args, shader::kDrawArgsSortCountWord));
    b.profiler.end(cmd);
  }));
  return recorded;
}

// Warm-up frames, then `repeats` timed ones; the times of the timed ones.
Result<std::vector<double>> time_frames(Bench& b, const std::function<Status()>& frame) {
  for (uint32_t i = 0; i < b.opt.warmup; ++i) MOTE_TRY(frame());
  std::vector<double> ms;
  for (uint32_t i = 0; i < b.opt.repeats; ++i) {
    MOTE_TRY(frame());
    MOTE_TRY_ASSIGN(std::vector<PassTime> times, b.profiler.resolve());
    if (times.size() != 1) return make_error(ErrorCode::kInternal, "expected one timed pass per frame");
    ms.push_back(times[0].ms);
  }
  return ms;
}

Status run_case(Bench& b, const Case& c) {
  Device& device = b.device;
  const uint32_t n = uint32_t(c.sprites.size());
  const Footprint fp = footprint(c.sprites, b.view, b.opt.width, b.opt.height);
  CaseGpu g;
  MOTE_TRY(create_case(b, c, fp, g));
  const double bytes_per_particle = double(b.opt.record_words) * 4.0 + 4.0;

  std::vector<Row> rows;
  std::vector<std::vector<glm::vec4>> images;
  for (PathKind path : b.opt.paths) {
    Row row;
    row.case_name = c.name;
    row.particles = n;
    row.path = path;
    row.fragments = fp.fragments;
    if (path == PathKind::kCompute && !g.compute) {
      fmt::print(stderr, "bench_render: {} x {}: the compute path could not be created: {}\n", c.name, n,
                 g.compute_error);
      b.failed = true;
      continue;
    }
    MOTE_TRY_ASSIGN(std::vector<double> ms, time_frames(b, [&] { return record_frame(b, g, path); }));
    row.median_ms = median(ms);
    row.min_ms = *std::min_element(ms.begin(), ms.end());
    // The last frame's picture (the targets hold it: every frame clears and redraws them).
    MOTE_TRY_ASSIGN(std::vector<uint8_t> texels,
                    readback_image(device, b.targets.hdr, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 8));
    images.push_back(unpack_rgba16f(texels));
    if (path == PathKind::kRasterSorted) {
      MOTE_TRY_ASSIGN(std::vector<double> sort_ms, time_frames(b, [&] { return record_sort(b, g); }));
      row.sort_ms = median(sort_ms);
    }
    if (path == PathKind::kCompute) {
      MOTE_TRY_ASSIGN(render::ComputePathStats stats, g.compute->read_stats());
      row.pairs = stats.pairs;
      row.dropped = stats.dropped_pairs;
      if (stats.dropped_pairs > 0) b.failed = true;
    }
    row.gbps = double(n) * bytes_per_particle / (row.median_ms * 1e-3) / 1e9;
    row.of_roofline = b.roofline_gbps > 0.0 ? row.gbps / b.roofline_gbps : 0.0;
    rows.push_back(row);
  }

  // The pictures against the exact sorted one, and the sorted one against the bare background.
  const std::vector<glm::vec4> bare(size_t(b.opt.width) * b.opt.height, glm::vec4(kBackground, 1.0f));
  const std::vector<glm::vec4>* sorted = nullptr;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].path == PathKind::kRasterSorted) sorted = &images[i];
  for (size_t i = 0; i < rows.size(); ++i) {
    Row& row = rows[i];
    row.drawn = mean_abs_rgb(images[i], bare);
    if (row.drawn <= 0.0) {
      fmt::print(stderr, "bench_render: {} x {}: {} drew nothing\n", c.name, n, path_name(row.path));
      b.failed = true;
    }
    if (sorted) row.diff_vs_sorted = mean_abs_rgb(images[i], *sorted);
    if (sorted && row.path != PathKind::kRasterSorted) row.psnr_vs_sorted = psnr_rgb(images[i], *sorted);
    std::string extra;
    if (row.sort_ms) extra += fmt::format(",\"sort_ms\":{:.4f}", *row.sort_ms);
    if (row.pairs)
      extra += fmt::format(",\"pairs\":{},\"dropped_pairs\":{},\"pairs_estimated\":{}", *row.pairs, *row.dropped,
                           fp.tile_pairs);
    if (row.diff_vs_sorted) extra += fmt::format(",\"diff_vs_sorted\":{:.6f}", *row.diff_vs_sorted);
    if (row.psnr_vs_sorted) extra += fmt::format(",\"psnr_vs_sorted_db\":{:.2f}", *row.psnr_vs_sorted);
    row.json = fmt::format(
        "{{\"bench\":\"render\",\"case\":\"{}\",\"particles\":{},\"on_screen\":{},\"path\":\"{}\",\"width\":{},"
        "\"height\":{},\"median_ms\":{:.4f},\"min_ms\":{:.4f},\"fragments\":{:.0f},\"gfrag_s\":{:.3f},"
        "\"bytes_per_particle\":{:.0f},\"gbps\":{:.1f},\"of_roofline\":{:.4f}{},\"drawn\":{:.6f}}}\n",
        row.case_name, n, fp.on_screen, path_name(row.path), b.opt.width, b.opt.height, row.median_ms, row.min_ms,
        row.fragments, row.fragments / (row.median_ms * 1e-3) / 1e9, bytes_per_particle, row.gbps, row.of_roofline,
        extra, row.drawn);
    b.rows.push_back(row);
  }
  return device.wait_idle();
}

}  // namespace

const char* path_name(PathKind p) {
  switch (p) {
    case PathKind::kRasterOit: return "raster_oit";
    case PathKind::kRasterSorted: return "raster_sorted";
    case PathKind::kCompute: return "compute";
    case PathKind::kRasterAvboit: return "raster_avboit";
  }
  return "?";
}

Result<DrawBenchResult> run_draw_bench(gpu::Device& device, const DrawBenchOptions& opt, double roofline_gbps,
                                       const std::function<void(const Row&)>& on_row) {
  if (!device.description().queue_has_graphics)
    return make_error(ErrorCode::kUnsupported, "the device's queue cannot draw");
  Bench b{.device = device, .opt = opt};
  b.roofline_gbps = roofline_gbps;
  MOTE_TRY(create_shared(b));
  auto run = [&](const Case& c) -> Status {
    const size_t before = b.rows.size();
    MOTE_TRY(run_case(b, c));
    if (on_row)
      for (size_t i = before; i < b.rows.size(); ++i) on_row(b.rows[i]);
    return ok_status();
  };
  const float aspect = float(opt.width) / float(opt.height);
  for (uint32_t n : opt.counts) MOTE_TRY(run(make_small(n, opt.seed + n, aspect)));
  if (opt.smoke > 0) MOTE_TRY(run(make_smoke(opt.smoke, opt.seed)));
  return DrawBenchResult{std::move(b.rows), b.failed};
}

}  // namespace mote::bench
