// mote bake smoke|flame|spark|all: bakes the presets' flipbook textures from periodic 3-D noise.
// Each texture is a grid of frames (left to right, top to bottom) that a particle plays over its
// life (render "flipbook"); the noise's third axis is the frame's time and is periodic, so the
// puffs and flames change smoothly from frame to frame. Deterministic: the same options write the
// same bytes, which is how effects/textures/*.png are checked (tests/cli: baked again, compared).
// RGB is the texel's brightness (the particle's colour multiplies it), alpha its coverage. The
// fog's noise (shaders/shared/media_density.h) is inside the library, and the CLI links the
// public API only (docs/design/api.md), so the bake has its own small periodic noise here.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/image.hpp"

namespace mote::cli {
namespace {

struct BakeArgs {
  std::string kind;
  std::string out;  // a PNG file, or (kind "all") a folder
  uint32_t frame_size = 64;
  uint32_t columns = 4;
  uint32_t rows = 4;
  uint32_t seed = 1;
};

// An integer hash of a lattice point (a few rounds of multiply-xorshift), in [0, 1).
float lattice(int x, int y, int z, uint32_t seed) {
  uint32_t h = seed * 0x9E3779B9u;
  for (int v : {x, y, z}) {
    h ^= uint32_t(v) + 0x7F4A7C15u + (h << 6) + (h >> 2);
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
  }
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

int wrap(int v, int period) { return ((v % period) + period) % period; }

float fade(float t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }

// Value noise on a lattice of `period` cells per axis: tiles with that period in x, y and z.
float value_noise(float x, float y, float z, int period, uint32_t seed) {
  const int xi = int(std::floor(x)), yi = int(std::floor(y)), zi = int(std::floor(z));
  const float fx = fade(x - float(xi)), fy = fade(y - float(yi)), fz = fade(z - float(zi));
  float corner[8];
  for (int c = 0; c < 8; ++c)
    corner[c] = lattice(wrap(xi + (c & 1), period), wrap(yi + ((c >> 1) & 1), period),
                        wrap(zi + ((c >> 2) & 1), period), seed);
  auto mix = [](float a, float b, float t) { return a + (b - a) * t; };
  const float x00 = mix(corner[0], corner[1], fx), x10 = mix(corner[2], corner[3], fx);
  const float x01 = mix(corner[4], corner[5], fx), x11 = mix(corner[6], corner[7], fx);
  return mix(mix(x00, x10, fy), mix(x01, x11, fy), fz);
}

// Four octaves of value noise over the unit cube (coordinates in [0, 1) per period), in [0, 1].
float fbm(float x, float y, float z, uint32_t seed) {
  float sum = 0.0f, amplitude = 0.5f, norm = 0.0f;
  int period = 4;
  for (int octave = 0; octave < 4; ++octave) {
    sum += amplitude *
           value_noise(x * float(period), y * float(period), z * float(period), period, seed + uint32_t(octave));
    norm += amplitude;
    amplitude *= 0.5f;
    period *= 2;
  }
  return sum / norm;
}

float smoothstep(float e0, float e1, float x) {
  const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

struct Texel {
  float r, g, b, a;
};

// u, v in [-1, 1] (v up); t the frame's place in the flipbook, [0, 1).
Texel smoke_texel(float u, float v, float t, uint32_t seed) {
  const float n = fbm(0.5f + 0.25f * u, 0.5f + 0.25f * v, t, seed);
  const float detail = fbm(0.3f + 0.5f * u, 0.7f + 0.5f * v, t, seed + 17u);
  const float grow = 0.72f + 0.22f * t;  // the puff billows out over its life
  const float r = std::sqrt(u * u + v * v) / grow;
  const float edge = 0.62f + 0.5f * (n - 0.5f);
  float density = smoothstep(edge + 0.3f, edge - 0.35f, r) * (0.45f + 1.1f * (detail - 0.3f));
  density = std::clamp(density * (1.0f - 0.35f * t), 0.0f, 1.0f);
  const float light = std::clamp(0.72f + 0.22f * v + 0.3f * (detail - 0.5f), 0.0f, 1.0f);  // lit from above
  return {light, light, light, density};
}

Texel flame_texel(float u, float v, float t, uint32_t seed) {
  const float y = 0.5f * (v + 1.0f);  // 0 at the base, 1 at the tip
  const float sway = fbm(0.5f + 0.2f * u, 0.5f + 0.35f * v - 0.25f * t, t, seed) - 0.5f;
  const float x = u + 0.55f * sway * y;
  const float width = 0.62f * std::pow(std::max(1.0f - y, 0.0f), 0.7f) * (0.85f + 0.15f * std::sin(6.2831853f * t));
  float density = smoothstep(width, 0.35f * width, std::fabs(x)) * smoothstep(0.0f, 0.12f, y);
  const float tongues = fbm(0.5f + 0.4f * x, 0.5f + 0.6f * v - 0.5f * t, t, seed + 29u);
  density = std::clamp(density * (0.35f + 1.3f * tongues) * smoothstep(1.0f, 0.55f, y + 0.25f * (tongues - 0.5f)), 0.0f,
                       1.0f);
  const float core = density * density;  // white-yellow core, orange rim: brightness and hue together
  return {1.0f, 0.55f + 0.45f * core, 0.2f + 0.75f * core * core, density};
}

Texel spark_texel(float u, float v, float t, uint32_t seed) {
  const float r2 = u * u + v * v;
  const float flicker = 0.8f + 0.4f * (value_noise(0.5f, 0.5f, 16.0f * t, 16, seed) - 0.5f);
  const float core = std::exp(-r2 / 0.012f);
  const float halo = 0.35f * std::exp(-r2 / 0.14f);
  const float rays = 0.25f * std::exp(-(u * u) / 0.002f - (v * v) / 0.3f) +
                     0.25f * std::exp(-(v * v) / 0.002f - (u * u) / 0.3f);
  const float a = std::clamp((core + halo + rays) * flicker, 0.0f, 1.0f);
  const float warm = std::clamp(core * 1.5f, 0.0f, 1.0f);
  return {1.0f, 0.8f + 0.2f * warm, 0.55f + 0.45f * warm, a};
}

uint8_t to_byte(float x) { return uint8_t(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); }

ImageRgba8 bake(const std::string& kind, const BakeArgs& a) {
  ImageRgba8 image;
  image.width = a.frame_size * a.columns;
  image.height = a.frame_size * a.rows;
  image.pixels.assign(size_t(image.width) * image.height * 4, 0);
  const uint32_t frames = a.columns * a.rows;
  for (uint32_t f = 0; f < frames; ++f) {
    const float t = float(f) / float(frames);
    const uint32_t x0 = (f % a.columns) * a.frame_size, y0 = (f / a.columns) * a.frame_size;
    for (uint32_t py = 0; py < a.frame_size; ++py)
      for (uint32_t px = 0; px < a.frame_size; ++px) {
        const float u = (float(px) + 0.5f) / float(a.frame_size) * 2.0f - 1.0f;
        const float v = 1.0f - (float(py) + 0.5f) / float(a.frame_size) * 2.0f;
        const Texel c = kind == "smoke"   ? smoke_texel(u, v, t, a.seed)
                        : kind == "flame" ? flame_texel(u, v, t, a.seed)
                                          : spark_texel(u, v, t, a.seed);
        uint8_t* p = &image.pixels[(size_t(y0 + py) * image.width + x0 + px) * 4];
        p[0] = to_byte(c.r);
        p[1] = to_byte(c.g);
        p[2] = to_byte(c.b);
        p[3] = to_byte(c.a);
      }
  }
  return image;
}

int run(const BakeArgs& a) {
  const bool all = a.kind == "all";
  if (!all && a.kind != "smoke" && a.kind != "flame" && a.kind != "spark")
    return usage_error("bake", "the texture is smoke, flame, spark or all, not '" + a.kind + "'");
  if (a.frame_size < 8 || a.frame_size > 512 || a.columns < 1 || a.columns > 16 || a.rows < 1 || a.rows > 16)
    return usage_error("bake", "--frame-size is 8..512, --columns and --rows 1..16");
  std::vector<std::pair<std::string, std::filesystem::path>> jobs;
  if (all) {
    const std::string folder = a.out.empty() ? "." : a.out;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
      return report_error("bake", folder, make_error(ErrorCode::kIo, "cannot create the folder: " + ec.message()),
                          kExitSystem);
    for (const char* k : {"smoke", "flame", "spark"})
      jobs.emplace_back(k, std::filesystem::path(folder) / (std::string(k) + "_flipbook.png"));
  } else {
    jobs.emplace_back(a.kind, a.out.empty() ? a.kind + "_flipbook.png" : a.out);
  }
  for (const auto& [kind, path] : jobs) {
    if (Status s = write_png(path, bake(kind, a)); !s)
      return report_error("bake", path.string(), s.error(), kExitSystem);
    std::printf("wrote %s (%ux%u frames of %u px)\n", path.string().c_str(), a.columns, a.rows, a.frame_size);
  }
  return kExitOk;
}

}  // namespace

void add_bake_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BakeArgs>();
  CLI::App* cmd = app.add_subcommand("bake", "Bake the smoke, flame and spark flipbook textures from 3-D noise");
  cmd->add_option("texture", args->kind, "smoke | flame | spark | all")->required();
  cmd->add_option("--out", args->out, "the PNG to write (all: the folder; default: KIND_flipbook.png here)");
  cmd->add_option("--frame-size", args->frame_size, "pixels per frame side")->capture_default_str();
  cmd->add_option("--columns", args->columns, "frames across")->capture_default_str();
  cmd->add_option("--rows", args->rows, "frames down")->capture_default_str();
  cmd->add_option("--seed", args->seed, "noise seed")->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace mote::cli
