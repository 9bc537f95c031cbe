// The raster path's volume-based order-independent transparency (AVBOIT, docs/design/render.md,
// "Raster path"), written once for its passes (shaders/render/avboit_*.comp, the draw's
// particle_quad.frag variant) and the C++ that sizes them and tests the mapping.
//
// The volume is a grid of columns across the viewport (the froxel resolution: a column per
// 16 x 16 pixels) by `slices` slices of view depth. The slices are adaptive: view depth between
// near and far is cut into kAvboitBins logarithmic bins; the occupancy pass ORs the bins each
// non-additive emitter's measured box covers (its depth interval) into 64 bits, and the slices
// are shared out evenly among the occupied bins only, so they sit where the particles are. An
// empty bin gets no slices (its start equals the next one's): a particle that strays outside its
// emitter's box lands on a run boundary, never in the wrong place.
//
// Each slice holds the extinction (optical depth, -ln(1 - alpha)) splatted into it; the
// integrate pass turns them into the optical depth in front of each slice boundary, which the draw
// interpolates (bilinearly between column centres, linearly between boundaries) to weight every
// fragment by the transmittance in front of it.
#ifndef MOTE_SHADERS_SHARED_AVBOIT_H
#define MOTE_SHADERS_SHARED_AVBOIT_H
#include "shared/interop.h"

#ifdef __cplusplus
#include <cmath>
namespace mote::shader {
using std::floor;
using std::log;
}  // namespace mote::shader
#define AVBOIT_INLINE inline
#else
#define AVBOIT_INLINE
#endif

MOTE_SHARED_BEGIN

MOTE_CONSTANT(uint, kAvboitBins, 64u);           // occupancy bins: two 32-bit words of bits
MOTE_CONSTANT(uint, kAvboitWorkgroupSize, 64u);  // occupancy, splat and integrate
// The splat's fixed point: optical depth x this, added with atomicAdd into a u32 per voxel.
MOTE_CONSTANT(float, kAvboitFixedPoint, 4096.0f);
// A fragment's coverage is clamped below 1 before -ln(1 - a): one opaque sprite records optical
// depth -ln(1e-3) ~ 6.9, which leaves a transmittance no fragment behind tells apart from 0.
MOTE_CONSTANT(float, kAvboitMaxCoverage, 0.999f);

// What the occupancy pass writes and the splat, integrate and draw read (std430, storage).
struct AvboitSlices {
  vec4 depth_range;                   // x: near, y: far (metres of view depth the bins span), z: slices, w: bins
  uvec4 grid;                         // x, y: columns across and down the viewport; z: slices; w: occupied bins
  uvec4 occupancy;                    // x: bins 0..31, y: bins 32..63 (bit b: bin b holds a box); z, w: 0
  float bin_start[kAvboitBins + 4u];  // bin b's first slice coordinate, [kAvboitBins] = slices;
                                      // the last three unused (16-byte size)
};
MOTE_ASSERT_SIZE(AvboitSlices, 320);
MOTE_ASSERT_OFFSET(AvboitSlices, depth_range, 0);
MOTE_ASSERT_OFFSET(AvboitSlices, grid, 16);
MOTE_ASSERT_OFFSET(AvboitSlices, occupancy, 32);
MOTE_ASSERT_OFFSET(AvboitSlices, bin_start, 48);

// The occupancy, splat and integrate passes' push constants.
struct AvboitPush {
  uint record_words;
  uint record_count;
  uint capacity;
  uint alive_count_word;
  uint bounds_rows;  // rows of measured bounds bound (0: none, every bin occupied)
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(AvboitPush, 32);
MOTE_ASSERT_OFFSET(AvboitPush, record_words, 0);
MOTE_ASSERT_OFFSET(AvboitPush, record_count, 4);
MOTE_ASSERT_OFFSET(AvboitPush, capacity, 8);
MOTE_ASSERT_OFFSET(AvboitPush, alive_count_word, 12);
MOTE_ASSERT_OFFSET(AvboitPush, bounds_rows, 16);
MOTE_ASSERT_OFFSET(AvboitPush, pad0, 20);
MOTE_ASSERT_OFFSET(AvboitPush, pad1, 24);
MOTE_ASSERT_OFFSET(AvboitPush, pad2, 28);

// The occupancy bin coordinate of view depth `depth` (logarithmic between near and far),
// clamped to [0, kAvboitBins].
AVBOIT_INLINE float avboit_bin_coordinate(float depth, float near_depth, float far_depth) {
  float u = log(depth > near_depth ? depth / near_depth : 1.0f) / log(far_depth / near_depth) * float(kAvboitBins);
  return u < 0.0f ? 0.0f : (u > float(kAvboitBins) ? float(kAvboitBins) : u);
}

// The slice coordinate (0 .. slices) of bin coordinate `u` through the bins' starts: bin b's
// slices run from bin_start[b] to bin_start[b + 1], an empty bin's nowhere.
AVBOIT_INLINE float avboit_slice_coordinate(float u, float bin_start_lo, float bin_start_hi) {
  float f = u - floor(u);
  return bin_start_lo + f * (bin_start_hi - bin_start_lo);
}

MOTE_SHARED_END
#endif
