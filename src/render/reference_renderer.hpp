// The exact CPU reference for particle drawing: every fragment of every particle is kept, sorted
// per pixel by view depth and composited front to back, so the raster path (order-independent
// transparency) and the compute path (per-tile sorted blending) can each be measured against the
// answer they approximate. Tests run it at small sizes (budget: 256 x 256 pixels and 20,000
// particles in well under a second in Release).
//
// The whole contract is shaders/shared/particle_render.h: the quad, its frame, orientation,
// stretch, UV chain, soft fade and premultiplied colour are that header's functions, called here,
// never restated. What this file adds is what a GPU does around them:
//   * Viewport: Vulkan's, with a positive height. Clip space maps to the framebuffer as
//     x_fb = (x/w + 1) / 2 * width, y_fb = (y/w + 1) / 2 * height: NDC y = -1 is the TOP row
//     (rows are stored top to bottom), NDC depth z/w is the reversed-Z depth (minDepth 0,
//     maxDepth 1). Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5).
//   * Clipping: each of the quad's triangles (corners 0,1,2 and 0,2,3) is clipped to Vulkan's
//     depth range 0 <= z <= w in clip space, as the GPU's clipper does with depth clamping off.
//     For render_perspective that is the near plane (w >= near; the far plane is at infinity),
//     so whatever lies behind the eye is cut away and the part in front is still drawn. A
//     clipped triangle with a vertex at w <= 0 (possible only for a matrix that is not a
//     perspective projection) is dropped whole.
//   * Coverage: a pixel centre is inside a triangle when every edge function is positive, or
//     zero on an edge the triangle owns (a top-left style rule): two triangles that share an edge
//     never both cover a centre on it, so a quad's diagonal is not blended twice. Edge functions
//     are evaluated in double with their endpoints in a canonical order, so both triangles of a
//     shared edge compute exactly opposite values.
//   * Attributes: the corner UV and the view depth (-z in view space) are interpolated
//     perspective-correctly; the depth tested is the screen-linear NDC z, as in hardware.
//   * Depth test: a fragment is kept when its reversed-Z depth >= the scene depth at its pixel
//     (in front of, or level with, the opaque scene).
//   * Texture: the atlas is sampled bilinearly at mip level 0 with clamp-to-edge addressing, each
//     texel's RGB decoded sRGB → linear before filtering (a VK_FORMAT_R8G8B8A8_SRGB sampler),
//     alpha linear. The UV chain is particle_corner_uv → particle_flipbook_uv (when
//     columns * rows > 1: the cell floor(frame), or with kDrawFlagFlipbookBlend the cells floor
//     and floor + 1 (capped at the last) mixed by the fraction) → particle_rect_uv(uv_rect) →
//     particle_rect_uv(atlas_rect).
//   * Colour: the colour field (white when unbound) × the record's tint, then
//     particle_premultiply with the soft fade (kDrawFlagSoft: particle_soft_fade of the scene's
//     and the fragment's view depths; 1 otherwise).
//   * Compositing: per pixel the fragments are ordered by view depth, nearest first, ties by
//     position in the alive list (earlier first), and composited front to back,
//     C += (1 - A) c, A += (1 - A) a; the pixel is (C, A) + (1 - A) · background. An additive
//     fragment has a = 0: it adds its colour, attenuated only by what lies in front of it.
//   * Lighting (kDrawFlagLit): the colour is a diffuse albedo lit by the frame's lights evaluated
//     exactly at the fragment's point on the quad (render/reference_lighting.hpp: the ambient,
//     the sun unshadowed — the reference has no shadow map — and point_lights), projected to the
//     irradiance volume's model, at the bent normal and for the back-face transmission, by
//     shared/particle_lighting.h's functions (docs/design/render.md, "Lighting").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "mote/result.hpp"
#include "shared/particle_render.h"
#include "shared/ribbon.h"

namespace mote::render {

// Linear, premultiplied RGBA; pixels[y * width + x], rows top to bottom.
struct ReferenceImage {
  uint32_t width = 0, height = 0;
  std::vector<glm::vec4> pixels;

  const glm::vec4& at(uint32_t x, uint32_t y) const { return pixels[size_t(y) * width + x]; }
  glm::vec4& at(uint32_t x, uint32_t y) { return pixels[size_t(y) * width + x]; }
};

// The particle atlas as uploaded: width * height * 4 bytes, rows top to bottom, straight alpha,
// sRGB-encoded colour.
struct ReferenceTexture {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba8_srgb;
};

// Everything the reference reads; nothing is owned (every span and pointer must outlive the call).
struct ReferenceInputs {
  // The particle pool: capacity * record_words u32 words. Word 0 of a record is the header
  // row | (generation << kFrameHeaderRowBits) (shared/frame.h); the fields are f32 bits at the
  // words the emitter row's draw record names.
  std::span<const uint32_t> pool;
  uint32_t record_words = 0;
  // The pool slots to draw, in alive-list order (the tie-break of equal depths).
  std::span<const uint32_t> alive_slots;
  // Indexed by emitter row. A slot is drawn when its row < records.size(), the record has
  // kDrawFlagLive, the header's generation equals the record's and the projection is not
  // kProjectionMesh; otherwise it is skipped silently (a free row, a hidden emitter, a stale
  // particle of a removed emitter).
  std::span<const shader::ParticleDrawRecord> records;
  // The camera. viewport.xy gives the image size (whole numbers); clip.x is the near plane that
  // particle_view_depth needs; camera_position/right/up/forward feed particle_frame.
  shader::RenderView view;
  // Sampled bilinearly (see above). nullptr: a single white texel.
  const ReferenceTexture* atlas = nullptr;
  // Reversed-Z depth per pixel, rows top to bottom. Empty: nothing opaque (depth 0).
  std::span<const float> scene_depth;
  // The opaque scene's HDR colour under the particles (linear, its alpha carried through).
  // nullptr: black with alpha 1.
  const ReferenceImage* background = nullptr;
  // The point lights lit sprites see (the first view.point_light_count of them).
  std::span<const shader::PointLightGpu> point_lights;
  // The frame's particle lights lit sprites see too, every one of them (the list the GPU selected,
  // or render/reference_particle_lights.hpp's selection of the same).
  std::span<const shader::PointLightGpu> particle_lights;
  // The ribbon records, indexed by row as `records` (empty: no ribbons). A live record of
  // projection kProjectionRibbon with a live ribbon record joins its particles into strips
  // (render/reference_ribbons.hpp, built on the CPU here, not read from the GPU's build): each
  // piece two triangles with its corners' colour interpolated and u repeating, shaded as a sprite.
  std::span<const shader::RibbonRecord> ribbons;
};

// Largest image side the reference accepts (4096² pixels of vec4 = 256 MiB).
inline constexpr uint32_t kReferenceMaxSide = 4096;

// Renders the particles of `in` exactly (rules at the top of this file). A pure function of its
// inputs; safe to call from several threads at once.
// Errors: kInvalidArgument for a viewport that is not a whole number of pixels in
// [1, kReferenceMaxSide], a pool that is not a whole number of records, an alive slot past the
// pool, a scene depth or background of the wrong size, a malformed atlas, or a live quad record
// with an undefined projection, a field word past the record or a rotation width not 1 or 4.
Result<ReferenceImage> render_particles_reference(const ReferenceInputs& in);

// The error of image b against image a, over RGB clamped to [0, 1] per channel (alpha ignored,
// no tonemapping; a NaN channel on either side counts as an error of 1). psnr_db is
// 10 log10(1 / mean squared error), +infinity when the clamped images are identical; mean_abs and
// max_abs are over every RGB channel of every pixel. The images must have the same size and
// pixels.size() == width * height (a check that aborts: comparing images of different sizes is a
// programmer error).
struct ImageError {
  double psnr_db = 0.0;
  double mean_abs = 0.0;
  double max_abs = 0.0;
};
ImageError compare_images(const ReferenceImage& a, const ReferenceImage& b);

}  // namespace mote::render
