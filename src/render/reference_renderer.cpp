#include "render/reference_renderer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "core/check.hpp"
#include "render/reference_lighting.hpp"
#include "render/reference_ribbons.hpp"
#include "shared/frame.h"

namespace mote::render {
namespace {

using shader::ParticleDrawRecord;

// Screen tiles the triangles are binned into, so each pixel visits only the triangles whose
// bounding box reaches its tile. 16 x 16 keeps a tile's fragment list small.
constexpr uint32_t kTileSize = 16;

// The quad's corners in the order the triangles (0,1,2) and (0,2,3) use.
constexpr std::array<glm::vec2, 4> kCorners = {glm::vec2(-0.5f, -0.5f), glm::vec2(0.5f, -0.5f), glm::vec2(0.5f, 0.5f),
                                               glm::vec2(-0.5f, 0.5f)};
constexpr std::array<std::array<int, 3>, 2> kTriangles = {{{0, 1, 2}, {0, 2, 3}}};

float word_f32(std::span<const uint32_t> record, uint32_t word) { return std::bit_cast<float>(record[word]); }
glm::vec3 word_vec3(std::span<const uint32_t> record, uint32_t word) {
  return {word_f32(record, word), word_f32(record, word + 1), word_f32(record, word + 2)};
}
glm::vec4 word_vec4(std::span<const uint32_t> record, uint32_t word) {
  return {word_f32(record, word), word_f32(record, word + 1), word_f32(record, word + 2), word_f32(record, word + 3)};
}

// --- Validation -------------------------------------------------------------------------------

bool is_quad_row(const ParticleDrawRecord& r) {
  const uint32_t mode = r.flags & shader::kDrawProjectionMask;
  return (r.flags & shader::kDrawFlagLive) != 0 && mode != shader::kProjectionMesh && mode != shader::kProjectionRibbon;
}

Status check_word(uint32_t word, uint32_t width, uint32_t record_words, const char* field, size_t row) {
  if (word == shader::kDrawUnbound) return ok_status();
  if (uint64_t(word) + width > record_words)
    return make_error(ErrorCode::kInvalidArgument,
                      std::string(field) + " word " + std::to_string(word) + " (+" + std::to_string(width) +
                          ") lies past the " + std::to_string(record_words) + "-word record",
                      "records[" + std::to_string(row) + "]");
  return ok_status();
}

Status check_record(const ParticleDrawRecord& r, uint32_t record_words, size_t row) {
  const std::string where = "records[" + std::to_string(row) + "]";
  if ((r.flags & shader::kDrawProjectionMask) > shader::kProjectionRibbon)
    return make_error(ErrorCode::kInvalidArgument,
                      "undefined projection mode " + std::to_string(r.flags & shader::kDrawProjectionMask), where);
  if (r.rotation_word != shader::kDrawUnbound && r.rotation_width != 1u && r.rotation_width != 4u)
    return make_error(ErrorCode::kInvalidArgument,
                      "rotation width " + std::to_string(r.rotation_width) + " (a bound rotation is 1 or 4 words)",
                      where);
  MOTE_TRY(check_word(r.position_word, 3, record_words, "position", row));
  MOTE_TRY(check_word(r.size_word, 1, record_words, "size", row));
  MOTE_TRY(check_word(r.color_word, 4, record_words, "color", row));
  MOTE_TRY(check_word(r.velocity_word, 3, record_words, "velocity", row));
  MOTE_TRY(check_word(r.rotation_word, r.rotation_width, record_words, "rotation", row));
  MOTE_TRY(check_word(r.uv_rect_word, 4, record_words, "uv_rect", row));
  MOTE_TRY(check_word(r.frame_word, 1, record_words, "frame", row));
  MOTE_TRY(check_word(r.age_word, 1, record_words, "age", row));
  MOTE_TRY(check_word(r.lifetime_word, 1, record_words, "lifetime", row));
  return ok_status();
}

bool whole_pixels(float v) {
  return std::isfinite(v) && v >= 1.0f && v <= float(kReferenceMaxSide) && v == std::floor(v);
}

// --- The atlas ----------------------------------------------------------------------------------

// The atlas decoded once: linear RGB (sRGB decoded per texel, before any filtering) and alpha.
class LinearTexture {
 public:
  explicit LinearTexture(const ReferenceTexture* t) {
    if (t == nullptr) {
      width_ = height_ = 1;
      texels_.assign(1, glm::vec4(1.0f));
      return;
    }
    width_ = t->width;
    height_ = t->height;
    std::array<float, 256> decode{};
    for (int i = 0; i < 256; ++i) {
      // IEC 61966-2-1, the decode a VK_FORMAT_*_SRGB sampler applies.
      double c = double(i) / 255.0;
      decode[size_t(i)] = float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    }
    texels_.resize(size_t(width_) * height_);
    for (size_t i = 0; i < texels_.size(); ++i) {
      const uint8_t* p = &t->rgba8_srgb[i * 4];
      texels_[i] = glm::vec4(decode[p[0]], decode[p[1]], decode[p[2]], float(p[3]) / 255.0f);
    }
  }

  // Bilinear, clamp to edge, at normalised uv ((0,0) is the top-left corner of texel (0,0)).
  glm::vec4 sample(glm::vec2 uv) const {
    auto axis = [](float coord, uint32_t size, int& i0, int& i1, double& frac) {
      double t = double(coord) * size - 0.5;
      // Clamp before the integer conversion (NaN lands on -1): clamp-to-edge makes any
      // coordinate past the border read the border texel anyway.
      if (!(t >= -1.0)) t = -1.0;
      if (!(t <= double(size))) t = double(size);
      double base = std::floor(t);
      frac = t - base;
      i0 = std::clamp(int(base), 0, int(size) - 1);
      i1 = std::clamp(int(base) + 1, 0, int(size) - 1);
    };
    int x0, x1, y0, y1;
    double fx, fy;
    axis(uv.x, width_, x0, x1, fx);
    axis(uv.y, height_, y0, y1, fy);
    auto texel = [&](int x, int y) { return glm::dvec4(texels_[size_t(y) * width_ + size_t(x)]); };
    glm::dvec4 top = texel(x0, y0) * (1.0 - fx) + texel(x1, y0) * fx;
    glm::dvec4 bottom = texel(x0, y1) * (1.0 - fx) + texel(x1, y1) * fx;
    return glm::vec4(top * (1.0 - fy) + bottom * fy);
  }

 private:
  uint32_t width_ = 0, height_ = 0;
  std::vector<glm::vec4> texels_;
};

// --- Geometry -----------------------------------------------------------------------------------

// What one drawn particle's fragments share.
struct Particle {
  uint32_t order = 0;  // position in the alive list
  const ParticleDrawRecord* record = nullptr;
  glm::vec4 color{1.0f};  // the colour field × tint (straight alpha)
  glm::vec4 uv_rect{0.0f, 0.0f, 1.0f, 1.0f};
  bool flipbook = false;
  float cell0 = 0.0f, cell1 = 0.0f, blend = 0.0f;  // flipbook cells and the weight of cell1
  // Lit sprites (kDrawFlagLit): the quad's centre and axes, and the normal's frame.
  bool lit = false;
  bool ribbon = false;  // a ribbon piece: the colour interpolated from its corners, u repeating
  glm::vec3 center{0.0f}, axis_x{0.0f}, axis_y{0.0f};
  glm::vec3 face{0.0f}, right{0.0f}, up{0.0f};
};

// A clip-space vertex with the attributes interpolated across the quad.
struct ClipVertex {
  glm::dvec4 clip;
  glm::dvec2 uv;          // particle_corner_uv of the corner
  double view_depth;      // -z in view space
  glm::dvec4 color{1.0};  // a ribbon corner's colour (straight alpha)
};

struct ScreenVertex {
  double x, y;  // framebuffer pixels, y down
  double z;     // NDC depth (reversed-Z)
  double inv_w;
  glm::dvec2 uv_w;      // uv / w
  double view_depth_w;  // view depth / w
  glm::dvec4 color_w;   // color / w
};

struct Triangle {
  std::array<ScreenVertex, 3> v;
  double area = 0.0;                                 // positive (vertices reordered if needed)
  int x_min = 0, x_max = -1, y_min = 0, y_max = -1;  // pixel range of centres that may be inside
  uint32_t particle = 0;
};

// The vertex where the edge from `inside` to `outside` meets the plane d = 0 (d_in >= 0 > d_out).
// Always called with the inside vertex first, so the triangles sharing an edge compute the same
// point bit for bit.
ClipVertex intersect(const ClipVertex& inside, const ClipVertex& outside, double d_in, double d_out) {
  double t = d_in / (d_in - d_out);
  ClipVertex v;
  v.clip = inside.clip + (outside.clip - inside.clip) * t;
  v.uv = inside.uv + (outside.uv - inside.uv) * t;
  v.view_depth = inside.view_depth + (outside.view_depth - inside.view_depth) * t;
  v.color = inside.color + (outside.color - inside.color) * t;
  return v;
}

// Sutherland–Hodgman against one plane; `distance` >= 0 is inside.
template <typename Distance>
std::vector<ClipVertex> clip_polygon(const std::vector<ClipVertex>& in, Distance distance) {
  std::vector<ClipVertex> out;
  if (in.empty()) return out;
  for (size_t i = 0; i < in.size(); ++i) {
    const ClipVertex& cur = in[i];
    const ClipVertex& next = in[(i + 1) % in.size()];
    double d_cur = distance(cur), d_next = distance(next);
    bool cur_in = d_cur >= 0.0, next_in = d_next >= 0.0;
    if (cur_in) out.push_back(cur);
    if (cur_in && !next_in) out.push_back(intersect(cur, next, d_cur, d_next));
    if (!cur_in && next_in) out.push_back(intersect(next, cur, d_next, d_cur));
  }
  return out;
}

// The edge function of a→b at p: (b - a) × (p - a), positive left of the edge in a y-up frame.
// Evaluated with the endpoints in a canonical order and negated back, so edge(a, b, p) is exactly
// -edge(b, a, p): the two triangles sharing an edge agree on which side a pixel centre lies.
double edge_function(const ScreenVertex& a, const ScreenVertex& b, double px, double py) {
  bool swap = b.x < a.x || (b.x == a.x && b.y < a.y);
  const ScreenVertex& p0 = swap ? b : a;
  const ScreenVertex& p1 = swap ? a : b;
  double e = (p1.x - p0.x) * (py - p0.y) - (p1.y - p0.y) * (px - p0.x);
  return swap ? -e : e;
}

// Whether a triangle (positively oriented: clockwise on the y-down screen) owns the centres lying
// exactly on its edge a→b. Being antisymmetric in the edge's direction, the rule gives each
// centre of a shared edge to exactly one of the two triangles; it is the D3D/Vulkan top-left
// rule (a top edge runs left to right at the triangle's least y, a left edge runs upwards).
bool owns_edge(const ScreenVertex& a, const ScreenVertex& b) {
  double dx = b.x - a.x, dy = b.y - a.y;
  return dy < 0.0 || (dy == 0.0 && dx > 0.0);
}

// Clips one of the quad's triangles and appends the pieces to `out`, set up for rasterization.
void setup_triangle(const std::array<ClipVertex, 3>& corners, uint32_t particle, uint32_t width, uint32_t height,
                    std::vector<Triangle>& out) {
  std::vector<ClipVertex> polygon(corners.begin(), corners.end());
  polygon = clip_polygon(polygon, [](const ClipVertex& v) { return v.clip.w - v.clip.z; });  // z/w <= 1 (near)
  polygon = clip_polygon(polygon, [](const ClipVertex& v) { return v.clip.z; });             // z/w >= 0 (far)
  if (polygon.size() < 3) return;

  std::vector<ScreenVertex> screen;
  screen.reserve(polygon.size());
  for (const ClipVertex& c : polygon) {
    if (!(c.clip.w > 0.0)) return;
    ScreenVertex s;
    s.inv_w = 1.0 / c.clip.w;
    s.x = (c.clip.x * s.inv_w + 1.0) * 0.5 * width;
    s.y = (c.clip.y * s.inv_w + 1.0) * 0.5 * height;  // Vulkan: NDC y = -1 is the top row
    s.z = c.clip.z * s.inv_w;
    s.uv_w = c.uv * s.inv_w;
    s.view_depth_w = c.view_depth * s.inv_w;
    s.color_w = c.color * s.inv_w;
    if (!std::isfinite(s.x) || !std::isfinite(s.y) || !std::isfinite(s.z) || !std::isfinite(s.inv_w)) return;
    screen.push_back(s);
  }

  // The clipped polygon is convex: a fan from its first vertex.
  for (size_t i = 1; i + 1 < screen.size(); ++i) {
    Triangle t;
    t.v = {screen[0], screen[i], screen[i + 1]};
    t.area = edge_function(t.v[0], t.v[1], t.v[2].x, t.v[2].y);
    if (t.area == 0.0 || !std::isfinite(t.area)) continue;  // edge-on: covers nothing
    if (t.area < 0.0) {
      std::swap(t.v[1], t.v[2]);
      t.area = -t.area;
    }
    double x_lo = std::min({t.v[0].x, t.v[1].x, t.v[2].x}), x_hi = std::max({t.v[0].x, t.v[1].x, t.v[2].x});
    double y_lo = std::min({t.v[0].y, t.v[1].y, t.v[2].y}), y_hi = std::max({t.v[0].y, t.v[1].y, t.v[2].y});
    // Centres x + 0.5 in [x_lo, x_hi], clamped to the image before converting to int.
    auto first = [](double lo, uint32_t n) { return int(std::clamp(std::ceil(lo - 0.5), 0.0, double(n))); };
    auto last = [](double hi, uint32_t n) { return int(std::clamp(std::floor(hi - 0.5), -1.0, double(n) - 1.0)); };
    t.x_min = first(x_lo, width);
    t.x_max = last(x_hi, width);
    t.y_min = first(y_lo, height);
    t.y_max = last(y_hi, height);
    if (t.x_min > t.x_max || t.y_min > t.y_max) continue;
    t.particle = particle;
    out.push_back(t);
  }
}

// --- Fragments ----------------------------------------------------------------------------------

struct Fragment {
  uint32_t pixel;  // index inside the tile
  float view_depth;
  uint32_t order;   // alive-list position: the tie-break
  glm::vec4 color;  // premultiplied
};

glm::vec4 shade(const ReferenceInputs& in, const Particle& p, const LinearTexture& atlas, glm::vec2 uv,
                float view_depth, float scene_depth, glm::vec4 color) {
  const float near_plane = in.view.clip.x;
  const ParticleDrawRecord& r = *p.record;
  auto texel_of = [&](float cell) {
    glm::vec2 cell_uv = p.flipbook ? shader::particle_flipbook_uv(uv, cell, r.flipbook_columns, r.flipbook_rows) : uv;
    return atlas.sample(shader::particle_rect_uv(shader::particle_rect_uv(cell_uv, p.uv_rect), r.atlas_rect));
  };
  glm::vec4 texel = texel_of(p.cell0);
  if (p.blend > 0.0f) texel = glm::mix(texel, texel_of(p.cell1), p.blend);
  float fade = 1.0f;
  if ((r.flags & shader::kDrawFlagSoft) != 0)
    fade = shader::particle_soft_fade(shader::particle_view_depth(scene_depth, near_plane), view_depth,
                                      r.soft_distance);
  if (p.lit) {
    // The lights exactly at the fragment's point on the quad (render/reference_lighting.hpp).
    const glm::vec2 corner(uv.x - 0.5f, 0.5f - uv.y);  // particle_corner_uv inverted
    const shader::IrradianceSh sh = reference_irradiance(in.view, in.point_lights,
                                                         p.center + corner.x * p.axis_x + corner.y * p.axis_y,
                                                         in.particle_lights);
    const glm::vec3 normal = shader::particle_lit_normal(p.face, p.right, p.up, corner);
    color = shader::particle_lit_color(color, texel.w, fade, shader::irradiance_sh_evaluate(sh.luma, sh.chroma, normal),
                                       shader::irradiance_sh_evaluate(sh.luma, sh.chroma, -normal));
  }
  return shader::particle_premultiply(color, texel, (r.flags & shader::kDrawFlagAdditive) != 0, fade);
}

// --- The steps of render_particles_reference ----------------------------------------------------

// Refuses inputs the renderer cannot read: a viewport that is not whole pixels, a pool that is
// not whole records, depth, background or atlas of the wrong size, a record whose words lie past
// the record, an alive slot past the pool.
Status check_inputs(const ReferenceInputs& in) {
  if (!whole_pixels(in.view.viewport.x) || !whole_pixels(in.view.viewport.y))
    return make_error(ErrorCode::kInvalidArgument,
                      "the viewport must be whole pixels in [1, " + std::to_string(kReferenceMaxSide) + "]",
                      "view.viewport");
  const uint32_t width = uint32_t(in.view.viewport.x), height = uint32_t(in.view.viewport.y);
  const size_t pixel_count = size_t(width) * height;
  if (in.record_words == 0 || in.pool.size() % in.record_words != 0)
    return make_error(ErrorCode::kInvalidArgument,
                      "the pool is not a whole number of " + std::to_string(in.record_words) + "-word records");
  const size_t capacity = in.pool.size() / in.record_words;
  if (!in.scene_depth.empty() && in.scene_depth.size() != pixel_count)
    return make_error(ErrorCode::kInvalidArgument, "scene depth has " + std::to_string(in.scene_depth.size()) +
                                                       " values for " + std::to_string(pixel_count) + " pixels");
  if (in.background != nullptr &&
      (in.background->width != width || in.background->height != height || in.background->pixels.size() != pixel_count))
    return make_error(ErrorCode::kInvalidArgument, "the background is not the viewport's size");
  if (in.atlas != nullptr &&
      (in.atlas->width == 0 || in.atlas->height == 0 || in.atlas->width > 65536 || in.atlas->height > 65536 ||
       in.atlas->rgba8_srgb.size() != size_t(in.atlas->width) * in.atlas->height * 4))
    return make_error(ErrorCode::kInvalidArgument,
                      "the atlas is not width * height * 4 bytes of 1..65536 texels a side");
  for (size_t row = 0; row < in.records.size(); ++row)
    if (is_quad_row(in.records[row])) MOTE_TRY(check_record(in.records[row], in.record_words, row));
  for (size_t i = 0; i < in.alive_slots.size(); ++i)
    if (in.alive_slots[i] >= capacity)
      return make_error(ErrorCode::kInvalidArgument,
                        "slot " + std::to_string(in.alive_slots[i]) + " is past the pool's " +
                            std::to_string(capacity) + " records",
                        "alive_slots[" + std::to_string(i) + "]");
  return ok_status();
}

bool bound(uint32_t word) { return word != shader::kDrawUnbound; }

// What the fragments of the particle at alive-list position `order` share: its colour, uv
// rectangle and flipbook cells, read from its record `rec` as the row `r` lays it out.
Particle describe_particle(const ParticleDrawRecord& r, std::span<const uint32_t> rec, uint32_t order) {
  Particle p;
  p.order = order;
  p.record = &r;
  const glm::vec4 color = bound(r.color_word) ? word_vec4(rec, r.color_word) : glm::vec4(1.0f);
  p.color = color * r.tint;
  p.lit = (r.flags & shader::kDrawFlagLit) != 0;
  if (bound(r.uv_rect_word)) p.uv_rect = word_vec4(rec, r.uv_rect_word);
  if (uint64_t(r.flipbook_columns) * r.flipbook_rows > 1) {
    const float frame = shader::particle_flipbook_frame(bound(r.frame_word),
                                                        bound(r.frame_word) ? word_f32(rec, r.frame_word) : 0.0f,
                                                        bound(r.age_word) ? word_f32(rec, r.age_word) : 0.0f,
                                                        bound(r.lifetime_word) ? word_f32(rec, r.lifetime_word) : 0.0f,
                                                        r.flipbook_columns, r.flipbook_rows);
    const float last_cell = float(r.flipbook_columns * r.flipbook_rows) - 1.0f;
    p.flipbook = true;
    p.cell0 = std::floor(frame);
    if ((r.flags & shader::kDrawFlagFlipbookBlend) != 0) {
      p.cell1 = std::min(p.cell0 + 1.0f, last_cell);
      p.blend = frame - p.cell0;
    }
  }
  return p;
}

// The particle's quad corners in clip space, placed exactly as the vertex shader places them.
std::array<ClipVertex, 4> project_corners(const ParticleDrawRecord& r, std::span<const uint32_t> rec,
                                          const shader::RenderView& view, Particle& particle) {
  const uint32_t mode = r.flags & shader::kDrawProjectionMask;
  const glm::vec3 position = bound(r.position_word) ? word_vec3(rec, r.position_word) : glm::vec3(0.0f);
  const float size = (bound(r.size_word) ? word_f32(rec, r.size_word) : 1.0f) * r.size_scale;
  const glm::vec3 velocity = bound(r.velocity_word) ? word_vec3(rec, r.velocity_word) : glm::vec3(0.0f);
  glm::vec4 rotation(0.0f);
  uint32_t rotation_width = 0;
  if (bound(r.rotation_word)) {
    rotation_width = r.rotation_width;
    rotation = rotation_width == 1u ? glm::vec4(word_f32(rec, r.rotation_word), 0.0f, 0.0f, 0.0f)
                                    : word_vec4(rec, r.rotation_word);
  }
  const glm::vec3 cam_position(view.camera_position), cam_right(view.camera_right), cam_up(view.camera_up),
      cam_forward(view.camera_forward);
  const glm::mat3 frame = shader::particle_frame(mode, position, velocity, cam_position, cam_right, cam_up,
                                                 cam_forward);
  const float stretch = shader::particle_stretch(mode, velocity, cam_forward);
  const glm::vec4 orientation = shader::particle_orientation(rotation_width, rotation);
  if (particle.lit) {
    // As particle_fetch builds the axes and particle_quad.vert the normal's frame.
    particle.center = position;
    particle.axis_x = shader::particle_corner_offset(frame, orientation, glm::vec2(1.0f, 0.0f), size, stretch);
    particle.axis_y = shader::particle_corner_offset(frame, orientation, glm::vec2(0.0f, 1.0f), size, stretch);
    particle.face = shader::particle_lit_face(particle.axis_x, particle.axis_y, cam_position - position);
    particle.right = glm::normalize(particle.axis_x);
    particle.up = glm::normalize(particle.axis_y);
  }
  std::array<ClipVertex, 4> corners;
  for (size_t c = 0; c < 4; ++c) {
    const glm::vec4 world(position + shader::particle_corner_offset(frame, orientation, kCorners[c], size, stretch),
                          1.0f);
    corners[c].clip = glm::dvec4(view.view_projection * world);
    corners[c].uv = glm::dvec2(shader::particle_corner_uv(kCorners[c]));
    corners[c].view_depth = -double((view.view * world).z);
  }
  return corners;
}

// Every drawable particle of the alive list and its quad's triangles, clipped and set up.
void build_quads(const ReferenceInputs& in, uint32_t width, uint32_t height, std::vector<Particle>& particles,
                 std::vector<Triangle>& triangles) {
  particles.reserve(in.alive_slots.size());
  triangles.reserve(in.alive_slots.size() * 2);
  for (size_t i = 0; i < in.alive_slots.size(); ++i) {
    std::span<const uint32_t> rec = in.pool.subspan(size_t(in.alive_slots[i]) * in.record_words, in.record_words);
    const uint32_t header = rec[0];
    const uint32_t row = header & shader::kFrameHeaderRowMask;
    const uint32_t generation = (header >> shader::kFrameHeaderRowBits) & shader::kFrameHeaderGenerationMask;
    if (row >= in.records.size()) continue;
    const ParticleDrawRecord& r = in.records[row];
    // The record's generation is compared through the header's mask, as the GPU fetch does
    // (shaders/render/particle_common.glsl).
    if (!is_quad_row(r) || generation != (r.generation & shader::kFrameHeaderGenerationMask)) continue;
    Particle particle = describe_particle(r, rec, uint32_t(i));
    const std::array<ClipVertex, 4> corners = project_corners(r, rec, in.view, particle);
    const uint32_t index = uint32_t(particles.size());
    particles.push_back(particle);
    for (const auto& tri : kTriangles)
      setup_triangle({corners[size_t(tri[0])], corners[size_t(tri[1])], corners[size_t(tri[2])]}, index, width, height,
                     triangles);
  }
}

// The ribbons' pieces (render/reference_ribbons.hpp), after the sprites in the tie-break order:
// each two triangles over its corners, shaded as a sprite of its row with the colour interpolated.
void build_ribbon_pieces(const ReferenceInputs& in, uint32_t width, uint32_t height, std::vector<Particle>& particles,
                         std::vector<Triangle>& triangles) {
  const ReferenceRibbons ribbons = build_reference_ribbons(in);
  for (const ReferenceRibbonPiece& piece : ribbons.pieces) {
    Particle particle;
    particle.order = uint32_t(in.alive_slots.size() + particles.size());
    particle.record = &in.records[piece.row];
    particle.ribbon = true;
    std::array<ClipVertex, 4> corners;
    for (size_t c = 0; c < 4; ++c) {
      const glm::vec4 world(piece.corners[c].position, 1.0f);
      corners[c].clip = glm::dvec4(in.view.view_projection * world);
      corners[c].uv = glm::dvec2(piece.corners[c].uv);
      corners[c].view_depth = -double((in.view.view * world).z);
      corners[c].color = glm::dvec4(piece.corners[c].color);
    }
    const uint32_t index = uint32_t(particles.size());
    particles.push_back(particle);
    for (const auto& tri : kTriangles)
      setup_triangle({corners[size_t(tri[0])], corners[size_t(tri[1])], corners[size_t(tri[2])]}, index, width, height,
                     triangles);
  }
}

// The screen's tiles of kTileSize pixels, each with the triangles whose pixel range reaches it.
struct TileBins {
  uint32_t tiles_x = 0, tiles_y = 0;
  std::vector<std::vector<uint32_t>> bins;  // row-major, tiles_x * tiles_y
};

TileBins bin_triangles(const std::vector<Triangle>& triangles, uint32_t width, uint32_t height) {
  TileBins t;
  t.tiles_x = (width + kTileSize - 1) / kTileSize;
  t.tiles_y = (height + kTileSize - 1) / kTileSize;
  t.bins.resize(size_t(t.tiles_x) * t.tiles_y);
  for (uint32_t k = 0; k < triangles.size(); ++k) {
    const Triangle& tri = triangles[k];
    for (uint32_t ty = uint32_t(tri.y_min) / kTileSize; ty <= uint32_t(tri.y_max) / kTileSize; ++ty)
      for (uint32_t tx = uint32_t(tri.x_min) / kTileSize; tx <= uint32_t(tri.x_max) / kTileSize; ++tx)
        t.bins[size_t(ty) * t.tiles_x + tx].push_back(k);
  }
  return t;
}

// The pixels [x0, x1] x [y0, y1] of one tile, inclusive.
struct Tile {
  int x0, y0, x1, y1;
};

// Appends to `fragments` every shaded fragment of the tile's triangles `bin` that passes the
// fill rule and the depth test.
void rasterize_tile(const ReferenceInputs& in, const Tile& tile, const std::vector<uint32_t>& bin,
                    const std::vector<Triangle>& triangles, const std::vector<Particle>& particles,
                    const LinearTexture& atlas, std::vector<Fragment>& fragments) {
  const uint32_t width = uint32_t(in.view.viewport.x);
  for (uint32_t t : bin) {
    const Triangle& tri = triangles[t];
    const Particle& particle = particles[tri.particle];
    const ScreenVertex& a = tri.v[0];
    const ScreenVertex& b = tri.v[1];
    const ScreenVertex& c = tri.v[2];
    const bool own_ab = owns_edge(a, b), own_bc = owns_edge(b, c), own_ca = owns_edge(c, a);
    for (int y = std::max(tri.y_min, tile.y0); y <= std::min(tri.y_max, tile.y1); ++y) {
      for (int x = std::max(tri.x_min, tile.x0); x <= std::min(tri.x_max, tile.x1); ++x) {
        const double px = x + 0.5, py = y + 0.5;
        const double e_bc = edge_function(b, c, px, py);  // weight of a
        const double e_ca = edge_function(c, a, px, py);  // weight of b
        const double e_ab = edge_function(a, b, px, py);  // weight of c
        if (e_bc < 0.0 || e_ca < 0.0 || e_ab < 0.0) continue;
        if ((e_bc == 0.0 && !own_bc) || (e_ca == 0.0 && !own_ca) || (e_ab == 0.0 && !own_ab)) continue;
        const double la = e_bc / tri.area, lb = e_ca / tri.area, lc = e_ab / tri.area;
        const size_t pixel = size_t(y) * width + size_t(x);
        // Depth: screen-linear NDC z, tested LESS-OR-EQUAL in reversed terms.
        const float depth = float(la * a.z + lb * b.z + lc * c.z);
        const float scene_depth = in.scene_depth.empty() ? 0.0f : in.scene_depth[pixel];
        if (!(depth >= scene_depth)) continue;
        // Perspective-correct attributes.
        const double inv_w = la * a.inv_w + lb * b.inv_w + lc * c.inv_w;
        const glm::dvec2 uv = (la * a.uv_w + lb * b.uv_w + lc * c.uv_w) / inv_w;
        const float view_depth = float((la * a.view_depth_w + lb * b.view_depth_w + lc * c.view_depth_w) / inv_w);
        if (!std::isfinite(view_depth)) continue;  // keeps the sort's ordering strict
        glm::vec2 texture_uv(uv);
        glm::vec4 vertex_color = particle.color;
        if (particle.ribbon) {  // as particle_quad.frag's RASTER_RIBBON: u repeats, the colour varies
          texture_uv.x -= std::floor(texture_uv.x);
          vertex_color = glm::vec4((la * a.color_w + lb * b.color_w + lc * c.color_w) / inv_w);
        }
        const glm::vec4 color = shade(in, particle, atlas, texture_uv, view_depth, scene_depth, vertex_color);
        fragments.push_back({uint32_t((y - tile.y0) * int(kTileSize) + (x - tile.x0)), view_depth, particle.order,
                             color});
      }
    }
  }
}

// Sorts the tile's fragments per pixel, near to far, and composites them front to back over the
// background (opaque black without one) into `image`.
void composite_tile(const ReferenceInputs& in, const Tile& tile, std::vector<Fragment>& fragments,
                    ReferenceImage& image) {
  // One fragment per particle per pixel (the fill rule), so (pixel, depth, order) is a strict order.
  std::sort(fragments.begin(), fragments.end(), [](const Fragment& l, const Fragment& r) {
    if (l.pixel != r.pixel) return l.pixel < r.pixel;
    if (l.view_depth != r.view_depth) return l.view_depth < r.view_depth;
    return l.order < r.order;
  });
  size_t f = 0;
  for (int y = tile.y0; y <= tile.y1; ++y) {
    for (int x = tile.x0; x <= tile.x1; ++x) {
      const uint32_t local = uint32_t((y - tile.y0) * int(kTileSize) + (x - tile.x0));
      glm::dvec3 color(0.0);
      double alpha = 0.0;
      for (; f < fragments.size() && fragments[f].pixel == local; ++f) {
        const glm::dvec4 c(fragments[f].color);
        color += (1.0 - alpha) * glm::dvec3(c);
        alpha += (1.0 - alpha) * c.w;
      }
      const size_t pixel = size_t(y) * image.width + size_t(x);
      const glm::dvec4 under = in.background != nullptr ? glm::dvec4(in.background->pixels[pixel])
                                                        : glm::dvec4(0.0, 0.0, 0.0, 1.0);
      image.pixels[pixel] = glm::vec4(glm::dvec4(color, alpha) + (1.0 - alpha) * under);
    }
  }
}

}  // namespace

Result<ReferenceImage> render_particles_reference(const ReferenceInputs& in) {
  MOTE_TRY(check_inputs(in));
  const uint32_t width = uint32_t(in.view.viewport.x), height = uint32_t(in.view.viewport.y);

  std::vector<Particle> particles;
  std::vector<Triangle> triangles;
  build_quads(in, width, height, particles, triangles);
  build_ribbon_pieces(in, width, height, particles, triangles);
  const TileBins tiles = bin_triangles(triangles, width, height);

  // Per tile: rasterize, shade, sort per pixel, composite front to back.
  const LinearTexture atlas(in.atlas);
  ReferenceImage image{width, height, std::vector<glm::vec4>(size_t(width) * height)};
  std::vector<Fragment> fragments;
  for (uint32_t ty = 0; ty < tiles.tiles_y; ++ty) {
    for (uint32_t tx = 0; tx < tiles.tiles_x; ++tx) {
      const int x0 = int(tx * kTileSize), y0 = int(ty * kTileSize);
      const Tile tile{x0, y0, std::min(x0 + int(kTileSize), int(width)) - 1,
                      std::min(y0 + int(kTileSize), int(height)) - 1};
      fragments.clear();
      rasterize_tile(in, tile, tiles.bins[size_t(ty) * tiles.tiles_x + tx], triangles, particles, atlas, fragments);
      composite_tile(in, tile, fragments, image);
    }
  }
  return image;
}

}  // namespace mote::render
