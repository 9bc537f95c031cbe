// The CPU reference's ribbons (docs/design/ribbons.md): the strips built from the pool on the CPU
// — the alive ribbon points ordered by (row, ribbon id bits, serial bits) with a stable sort over
// the alive list, neighbours of one ribbon joined — and every segment's pieces expanded by the
// shared corner function (shaders/shared/ribbon.h), u from exact (double) distances along the
// strip. Written apart from the GPU's build (render/ribbon_pass.hpp) so that each checks the other:
// the ribbon tests compare the GPU's strips with these, and render_particles_reference draws these.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "render/reference_renderer.hpp"
#include "shared/ribbon.h"

namespace mote::render {

struct ReferenceRibbonCorner {
  glm::vec3 position{0.0f};
  glm::vec2 uv{0.0f};     // u along the strip (ribbon_corner's u mode), v 0 on the -side, 1 on the +side
  glm::vec4 color{1.0f};  // straight alpha, tinted
};

// One piece: corners in the order a raster draw's 6 indices {0, 1, 2, 0, 2, 3} walk round the quad
// (shared/ribbon.h's corners 0, 1, 3, 2: start -, start +, end +, end -).
struct ReferenceRibbonPiece {
  uint32_t row = 0;
  std::array<ReferenceRibbonCorner, 4> corners;
};

struct ReferenceRibbons {
  std::vector<std::vector<uint32_t>> strips;  // pool slots, oldest first; in (row, id) order
  std::vector<ReferenceRibbonPiece> pieces;   // strip by strip, segment by segment
};

// The strips of `in`'s alive ribbon points and their pieces for `in.view`'s camera. A record word
// past the record reads as 0 (a position or colour past it as the GPU's fallback), as on the GPU.
ReferenceRibbons build_reference_ribbons(const ReferenceInputs& in);

}  // namespace mote::render
