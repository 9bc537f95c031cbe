// The particle draw paths measured alone (bench/render and `mote bench`): a hand-filled pool drawn
// by the raster path with weighted blended OIT, depth-sorted and with AVBOIT, and the compute path,
// GPU timestamps around the particle pass only. What each figure means: bench/render.cpp's
// header comment.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::bench {

enum class PathKind { kRasterOit, kRasterSorted, kCompute, kRasterAvboit };
inline constexpr PathKind kAllPaths[] = {PathKind::kRasterOit, PathKind::kRasterSorted, PathKind::kCompute,
                                         PathKind::kRasterAvboit};
inline constexpr float kFovYDegrees = 60.0f;
inline constexpr uint32_t kMinRecordWords = 14;  // position, size, colour, velocity, age, lifetime
const char* path_name(PathKind p);

struct DrawBenchOptions {
  uint32_t width = 1920;
  uint32_t height = 1080;
  std::vector<uint32_t> counts{1000000, 4000000, 16000000};
  uint32_t smoke = 100000;
  uint32_t repeats = 10;
  uint32_t warmup = 3;
  uint32_t record_words = 16;  // 64-byte records: two 32-byte sectors, both read
  uint64_t roofline_mib = 1024;
  std::vector<PathKind> paths{std::begin(kAllPaths), std::end(kAllPaths)};
  uint32_t seed = 1;
  bool lit = false;  // the alpha-blended sprites lit from a froxel irradiance volume (kDrawFlagLit)
};

// One (case, path) figure; `json` is its line as bench/render prints it.
struct Row {
  std::string case_name;
  uint32_t particles = 0;
  PathKind path = PathKind::kRasterOit;
  double median_ms = 0.0, min_ms = 0.0;
  double fragments = 0.0;
  double gbps = 0.0, of_roofline = 0.0;
  std::optional<double> sort_ms;
  std::optional<uint32_t> pairs, dropped;
  std::optional<double> diff_vs_sorted;
  std::optional<double> psnr_vs_sorted;  // dB, clamped linear RGB
  double drawn = 0.0;
  std::string json;
};

struct DrawBenchResult {
  std::vector<Row> rows;
  bool failed = false;  // a path could not be created, dropped pairs or drew nothing (said on stderr)
};

// The small cases (one per options.counts entry), then the smoke case; `on_row` sees each row as
// soon as its case is measured. Needs a queue that draws (kUnsupported otherwise).
Result<DrawBenchResult> run_draw_bench(gpu::Device& device, const DrawBenchOptions& options, double roofline_gbps,
                                       const std::function<void(const Row&)>& on_row = {});

}  // namespace mote::bench
