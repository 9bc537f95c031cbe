// bench/render: the particle draw paths measured alone — no simulation. A pool is filled by hand
// (as tests/render/compute_path_test.cpp does), the opaque pass clears the HDR and depth targets,
// and GPU timestamps go around the particle pass only: the raster path with weighted blended OIT
// (raster_oit), the raster path depth-sorted (raster_sorted: sort keys + radix sort + draw), the
// raster path with volume-based OIT (raster_avboit: occupancy from each row's box, splat,
// integrate, draw, resolve), and the compute path (bin, scan, sort, ranges, per-tile blend). Each repeat is its own
// submission (a frame), after warm-up frames; the figure is the median.
//
//   bench_render [--width W] [--height H] [--counts N,N,...] [--smoke N] [--repeats R] [--warmup W]
//                [--record-words K] [--roofline-mib M]
//                [--paths raster_oit,raster_sorted,compute,raster_avboit]
//                [--seed S] [--lit] [--device SEL]
//   (the cases on the H200 are the defaults; on lavapipe:
//    --width 320 --height 180 --counts 10000 --smoke 2000 --repeats 2 --roofline-mib 64)
//
// Cases. Camera at the origin looking down -Z, 60° vertical field of view, near plane 0.05 m.
//   small (one per --counts entry): sprites 0.01–0.03 m wide, uniform in a box 4 m wide (x), as
//     tall as the screen's aspect makes it (y), 3–8 m in front of the camera; 90% alpha-blended
//     (alpha 0.3–1), 10% additive.
//   smoke (--smoke, 0 = none): sprites 0.5–2 m wide, alpha 0.05–0.2, grey, alpha-blended, in 8
//     Gaussian clusters (sigma 0.35 m across, 0.5 m in depth) 4–7 m away: they overlap heavily —
//     the fill-rate case.
//   Every sprite is a camera-facing billboard textured with the built-in soft disc
//   (assets::make_soft_disc), no soft fade; the depth target is cleared to far. With --lit the
//   alpha-blended sprites are lit (kDrawFlagLit: per pixel from a froxel irradiance volume of a
//   froxel per 16 x 16 pixels and 64 slices, built once before the timed frames from a sun, the
//   hemisphere ambient and four point lights; docs/design/render.md, "Lighting"): a run with and
//   one without gives each path's lit minus unlit draw cost. The volume's own pass is
//   bench_media's "irradiance".
//
// Figures per (case, path), one JSON object per line, then a table:
//   median_ms / min_ms   the particle pass (timestamps around ParticleRasterPath::record or
//                        ParticleComputePath::record, each with its own moves of the HDR target
//                        from COLOR_ATTACHMENT_OPTIMAL, where the opaque pass leaves it, and back).
//   fragments            sum over particles of the projected square's area in pixels, clipped to
//                        the screen (size_px = size * focal_px / view distance: exact for
//                        billboards, whose corners share the centre's depth). What a rasterizer
//                        shades; the compute path's work is per tile, but the same count is the
//                        picture's content. gfrag_s = fragments / median.
//   bytes_per_particle   the pool record (record_words * 4) + its alive-list slot (4): what every
//                        path must read at least once. gbps = particles * that / median;
//                        of_roofline = gbps / the copy kernel's GB/s measured in this run
//                        (bench/roofline's kernel, --roofline-mib each way, median of --repeats).
//   sort_ms (raster_sorted)  render/sort_keys + RadixSort over the same alive list, timed in
//                        separate frames with the same shaders and inputs (the path records them
//                        inside record(), where no timestamp can go): the sort's share of median_ms.
//   pairs / dropped (compute)  tile-particle pairs of the last frame; max_tile_pairs is sized from
//                        the CPU's count of covered tiles (+25%), so dropped must be 0.
//   diff_vs_sorted       mean |RGB| difference of the final HDR image against raster_sorted's
//                        (both exact back-to-front per particle; OIT is an approximation by
//                        design); drawn = mean |RGB| of the sorted image against the background.
//   psnr_vs_sorted_db    the same comparison as PSNR (dB, RGB clamped to [0, 1]): each OIT mode's
//                        error beside its cost (AVBOIT vs WBOIT vs compute).
//   raster_avboit reads the rows' boxes as the runtime's bounds pass would publish them (every
//                        sprite's centre +- half its width), so its occupancy is adaptive as in a frame.
// The exit status is 1 when a path fails, the compute path drops pairs, or an image is blank.
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "copy_roofline.hpp"
#include "draw_bench.hpp"
#include "gpu/device.hpp"

using namespace mote;
using namespace mote::gpu;
using mote::bench::kAllPaths;
using mote::bench::kFovYDegrees;
using mote::bench::kMinRecordWords;
using mote::bench::path_name;
using mote::bench::PathKind;
using mote::bench::Row;
using Options = mote::bench::DrawBenchOptions;

namespace {

[[noreturn]] void usage() {
  fmt::print(stderr,
             "usage: bench_render [--width W] [--height H] [--counts N,N,...] [--smoke N] [--repeats R] [--warmup W]\n"
             "                    [--record-words K] [--roofline-mib M] [--paths "
             "raster_oit,raster_sorted,compute,raster_avboit]\n"
             "                    [--seed S] [--lit] [--device SEL]\n");
  std::exit(2);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    if (comma > at) out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

uint32_t parse_u32(const char* text, uint64_t lo, uint64_t hi) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) usage();
  return uint32_t(v);
}

Options parse(int argc, char** argv, std::string& device) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--width") o.width = parse_u32(next(), 16, 8192);
    else if (a == "--height") o.height = parse_u32(next(), 16, 8192);
    else if (a == "--counts") {
      o.counts.clear();
      for (const std::string& n : split(next())) o.counts.push_back(parse_u32(n.c_str(), 1, 1u << 26));
    } else if (a == "--smoke") o.smoke = parse_u32(next(), 0, 1u << 24);
    else if (a == "--repeats") o.repeats = parse_u32(next(), 1, 1000);
    else if (a == "--warmup") o.warmup = parse_u32(next(), 0, 1000);
    else if (a == "--record-words") o.record_words = parse_u32(next(), kMinRecordWords, 256);
    else if (a == "--roofline-mib") o.roofline_mib = parse_u32(next(), 1, 1u << 16);
    else if (a == "--paths") {
      o.paths.clear();
      for (const std::string& name : split(next())) {
        bool known = false;
        for (PathKind p : kAllPaths) {
          if (name != path_name(p)) continue;
          o.paths.push_back(p);
          known = true;
        }
        if (!known) usage();
      }
    } else if (a == "--seed") o.seed = parse_u32(next(), 0, UINT32_MAX);
    else if (a == "--lit") o.lit = true;
    else if (a == "--device") device = next();
    else usage();
  }
  return o;
}

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_render: {}: {}\n", what, e.to_string());
  return 1;
}

void print_table(const Options& opt, const std::vector<Row>& rows, const mote::bench::CopyRoofline& before,
                 const mote::bench::CopyRoofline& after) {
  fmt::print("\nParticle draw paths, {} x {}, median of {} frames after {} warm-up ({}-byte records + 4-byte slot)\n",
             opt.width, opt.height, opt.repeats, opt.warmup, opt.record_words * 4);
  fmt::print("Roofline (copy, {} MiB each way): {:.1f} GB/s before, {:.1f} GB/s after\n\n", before.bytes >> 20,
             before.gbps, after.gbps);
  fmt::print("{:<6} {:>10} {:<14} {:>10} {:>10} {:>13} {:>9} {:>9} {:>8} {:>9} {:>11} {:>8} {:>10} {:>9}\n", "case",
             "particles", "path", "median ms", "min ms", "Mfragments", "Gfrag/s", "GB/s", "of roof", "sort ms", "pairs",
             "dropped", "diff/sort", "dB/sort");
  for (const Row& r : rows) {
    fmt::print("{:<6} {:>10} {:<14} {:>10.4f} {:>10.4f} {:>13.3f} {:>9.3f} {:>9.2f} {:>7.2f}% {:>9} {:>11} {:>8} "
               "{:>10} {:>9}\n",
               r.case_name, r.particles, path_name(r.path), r.median_ms, r.min_ms, r.fragments / 1e6,
               r.fragments / (r.median_ms * 1e-3) / 1e9, r.gbps, 100.0 * r.of_roofline,
               r.sort_ms ? fmt::format("{:.4f}", *r.sort_ms) : "-", r.pairs ? fmt::format("{}", *r.pairs) : "-",
               r.dropped ? fmt::format("{}", *r.dropped) : "-",
               r.diff_vs_sorted ? fmt::format("{:.5f}", *r.diff_vs_sorted) : "-",
               r.psnr_vs_sorted ? fmt::format("{:.2f}", *r.psnr_vs_sorted) : "-");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string device_selector;
  const Options opt = parse(argc, argv, device_selector);
  auto created = Device::create({.device_selector = device_selector});
  if (!created.ok()) return fail("device", created.error());
  Device& device = **created;
  if (!device.description().queue_has_graphics) {
    fmt::print(stderr, "bench_render: the device's queue cannot draw\n");
    return 1;
  }
  fmt::print("{{\"bench\":\"render\",\"device\":\"{}\",\"driver\":\"{}\",\"width\":{},\"height\":{},\"repeats\":{},"
             "\"warmup\":{},\"record_words\":{},\"fov_y_degrees\":{},\"seed\":{},\"lit\":{},\"validation\":{}}}\n",
             device.description().name, device.description().driver_info, opt.width, opt.height, opt.repeats,
             opt.warmup, opt.record_words, kFovYDegrees, opt.seed, opt.lit, device.validation_enabled());

  uint64_t roofline_bytes = std::min<uint64_t>(opt.roofline_mib << 20, device.description().device_local_bytes / 4);
  roofline_bytes = std::max<uint64_t>(roofline_bytes / 16 * 16, 1u << 20);
  auto before = mote::bench::measure_copy_roofline(device, roofline_bytes, opt.repeats);
  if (!before.ok()) return fail("roofline", before.error());
  fmt::print("{{\"bench\":\"render\",\"roofline_gbps\":{:.1f},\"roofline_ms\":{:.4f},\"at_bytes\":{}}}\n", before->gbps,
             before->median_ms, before->bytes);

  auto result = mote::bench::run_draw_bench(device, opt, before->gbps, [](const Row& row) {
    fmt::print("{}\n", row.json);
    std::fflush(stdout);
  });
  if (!result.ok()) return fail("draw paths", result.error());

  auto after = mote::bench::measure_copy_roofline(device, roofline_bytes, opt.repeats);
  if (!after.ok()) return fail("roofline", after.error());
  fmt::print("{{\"bench\":\"render\",\"roofline_after_gbps\":{:.1f},\"roofline_ms\":{:.4f},\"at_bytes\":{}}}\n",
             after->gbps, after->median_ms, after->bytes);
  print_table(opt, result->rows, *before, *after);
  if (result->failed) {
    fmt::print(stderr, "bench_render: some results are not valid (see above)\n");
    return 1;
  }
  return 0;
}
