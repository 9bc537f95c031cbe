#include "render/reference_ribbons.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <tuple>

#include "shared/frame.h"

namespace mote::render {
namespace {

struct Point {
  uint32_t slot = 0, row = 0, id = 0, serial = 0;
  glm::vec3 position{0.0f};
  float width = 0.0f;
  glm::vec4 color{1.0f};
  glm::vec3 normal{0.0f};
  double u = 0.0;
};

uint32_t word_bits(std::span<const uint32_t> rec, uint32_t word) {
  return word == shader::kDrawUnbound || word >= rec.size() ? 0u : rec[word];
}

float word_float(std::span<const uint32_t> rec, uint32_t word, float fallback) {
  return word == shader::kDrawUnbound || word >= rec.size() ? fallback : std::bit_cast<float>(rec[word]);
}

template <int N>
glm::vec<N, float> word_vector(std::span<const uint32_t> rec, uint32_t word, glm::vec<N, float> fallback) {
  if (word == shader::kDrawUnbound || uint64_t(word) + N > rec.size()) return fallback;
  glm::vec<N, float> v;
  for (int i = 0; i < N; ++i) v[i] = std::bit_cast<float>(rec[word + uint32_t(i)]);
  return v;
}

// The alive ribbon points, as ribbon_row and ribbon_points.comp read them.
std::vector<Point> ribbon_points(const ReferenceInputs& in) {
  std::vector<Point> points;
  for (uint32_t slot : in.alive_slots) {
    std::span<const uint32_t> rec = in.pool.subspan(size_t(slot) * in.record_words, in.record_words);
    const uint32_t row = rec[0] & shader::kFrameHeaderRowMask;
    if (row >= in.records.size() || row >= in.ribbons.size()) continue;
    const shader::ParticleDrawRecord& d = in.records[row];
    const shader::RibbonRecord& r = in.ribbons[row];
    const bool live = (d.flags & shader::kDrawFlagLive) != 0 &&
                      (d.generation & shader::kFrameHeaderGenerationMask) == (rec[0] >> shader::kFrameHeaderRowBits);
    if (!live || (d.flags & shader::kDrawProjectionMask) != shader::kProjectionRibbon ||
        (r.flags & shader::kRibbonFlagLive) == 0)
      continue;
    Point p;
    p.slot = slot;
    p.row = row;
    p.id = (r.flags & shader::kRibbonFlagIdField) ? word_bits(rec, r.id_word) : 0u;
    p.serial = word_bits(rec, r.serial_word);
    p.position = word_vector<3>(rec, d.position_word, glm::vec3(0.0f));
    p.width = word_float(rec, d.size_word, 1.0f) * d.size_scale;
    p.color = word_vector<4>(rec, d.color_word, glm::vec4(1.0f)) * d.tint;
    if (r.flags & shader::kRibbonFlagFacingNormal) p.normal = word_vector<3>(rec, r.normal_word, glm::vec3(0.0f));
    points.push_back(p);
  }
  // Stable: equal keys keep alive-list order, as the GPU's three stable sorts do.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return std::tie(a.row, a.id, a.serial) < std::tie(b.row, b.id, b.serial);
  });
  return points;
}

// u at each point of the strip [first, last] (ribbons_pieces.comp's rule, in double).
void strip_u(std::vector<Point>& points, size_t first, size_t last, const shader::RibbonRecord& r) {
  std::vector<double> from_newest(last - first + 1, 0.0);
  for (size_t i = last; i > first; --i)
    from_newest[i - 1 - first] = from_newest[i - first] +
                                 double(glm::distance(points[i].position, points[i - 1].position));
  const double total = from_newest[0];
  for (size_t i = first; i <= last; ++i) {
    const double d = from_newest[i - first];
    if (r.uv_mode == shader::kRibbonUvStretched) points[i].u = total > 0.0 ? d / total : 0.0;
    if (r.uv_mode == shader::kRibbonUvTiled) points[i].u = d / std::max(double(r.tile_length), 1e-6);
  }
}

// The pieces of segment i → i + 1 of the strip [first, last].
void segment_pieces(const std::vector<Point>& points, size_t first, size_t last, size_t i,
                    const shader::RibbonRecord& r, const shader::RenderView& view,
                    std::vector<ReferenceRibbonPiece>& out) {
  const Point& a = points[i];
  const Point& b = points[i + 1];
  const glm::vec3 p0 = points[i > first ? i - 1 : i].position;
  const glm::vec3 p3 = points[i + 1 < last ? i + 2 : i + 1].position;
  const uint32_t n = std::clamp(r.subdivisions, 1u, shader::kRibbonMaxSubdivisions);
  const bool facing_normal = (r.flags & shader::kRibbonFlagFacingNormal) != 0;
  constexpr uint32_t kWalk[4] = {0, 1, 3, 2};  // the quad's corners round in draw order
  for (uint32_t k = 0; k < n; ++k) {
    ReferenceRibbonPiece piece;
    piece.row = a.row;
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t corner = kWalk[c];
      const float t = shader::ribbon_corner_t(k, n, corner);
      ReferenceRibbonCorner& out_corner = piece.corners[c];
      out_corner.position = shader::ribbon_corner(p0, a.position, b.position, p3, a.width, b.width, a.normal, b.normal,
                                                  facing_normal, k, n, corner, glm::vec3(view.camera_position),
                                                  glm::vec3(view.camera_right));
      const float u = r.uv_mode == shader::kRibbonUvSegment ? t : glm::mix(float(a.u), float(b.u), t);
      out_corner.uv = glm::vec2(u, float(corner & 1u));
      out_corner.color = glm::mix(a.color, b.color, t);
    }
    out.push_back(piece);
  }
}

}  // namespace

ReferenceRibbons build_reference_ribbons(const ReferenceInputs& in) {
  ReferenceRibbons out;
  if (in.ribbons.empty() || in.record_words == 0) return out;
  std::vector<Point> points = ribbon_points(in);
  for (size_t first = 0; first < points.size();) {
    size_t last = first;
    while (last + 1 < points.size() && points[last + 1].row == points[first].row &&
           points[last + 1].id == points[first].id)
      ++last;
    const shader::RibbonRecord& r = in.ribbons[points[first].row];
    strip_u(points, first, last, r);
    std::vector<uint32_t> strip;
    for (size_t i = first; i <= last; ++i) strip.push_back(points[i].slot);
    out.strips.push_back(std::move(strip));
    for (size_t i = first; i < last; ++i) segment_pieces(points, first, last, i, r, in.view, out.pieces);
    first = last + 1;
  }
  return out;
}

}  // namespace mote::render
