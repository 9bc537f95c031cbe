// compare_images (render/reference_renderer.hpp): the error metric every draw path is measured by.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.hpp"
#include "render/reference_renderer.hpp"

namespace mote::render {

ImageError compare_images(const ReferenceImage& a, const ReferenceImage& b) {
  MOTE_CHECK(a.width == b.width && a.height == b.height, "compare_images: the images differ in size");
  MOTE_CHECK(a.pixels.size() == size_t(a.width) * a.height && b.pixels.size() == a.pixels.size(),
             "compare_images: pixels.size() is not width * height");
  ImageError e;
  double sum_abs = 0.0, sum_sq = 0.0;
  for (size_t i = 0; i < a.pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const double va = a.pixels[i][c], vb = b.pixels[i][c];
      // A NaN on either side counts as the largest error, so it cannot hide in the sums.
      const double d = std::isnan(va) || std::isnan(vb) ? 1.0
                                                        : std::abs(std::clamp(va, 0.0, 1.0) - std::clamp(vb, 0.0, 1.0));
      sum_abs += d;
      sum_sq += d * d;
      e.max_abs = std::max(e.max_abs, d);
    }
  }
  const double n = double(a.pixels.size()) * 3.0;
  e.mean_abs = n > 0.0 ? sum_abs / n : 0.0;
  const double mse = n > 0.0 ? sum_sq / n : 0.0;
  e.psnr_db = mse > 0.0 ? 10.0 * std::log10(1.0 / mse) : std::numeric_limits<double>::infinity();
  return e;
}

}  // namespace mote::render
