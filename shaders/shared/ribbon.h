// Ribbons (docs/design/ribbons.md), written once for the ribbon build pass
// (shaders/render/ribbon_*.comp, src/render/ribbon_pass.cpp), the draws that expand its pieces
// and the CPU reference renderer: the per-row ribbon record, the per-point and per-piece layouts
// the build pass writes, and the pure functions that turn four neighbouring points into a piece's
// four corners. Same rules as particle_render.h: plain functions of values, `f` and `u` suffixes.
//
// The build pass sorts a frame's alive particles by (row, ribbon id, serial) and writes, per place
// of that order, a RibbonPoint; a segment joins point i to point i + 1 when both belong to one
// ribbon; each segment is `subdivisions` pieces along a uniform Catmull-Rom curve through the
// points (the end points repeated at a strip's ends); a piece is a quad of two triangles with
// corners 0, 1 at its start (v = 0, v = 1) and 2, 3 at its end.
#ifndef MOTE_SHADERS_SHARED_RIBBON_H
#define MOTE_SHADERS_SHARED_RIBBON_H
#include "shared/particle_render.h"

MOTE_SHARED_BEGIN

// RibbonRecord::flags
MOTE_CONSTANT(uint, kRibbonFlagLive, 1u);          // the row draws ribbons
MOTE_CONSTANT(uint, kRibbonFlagIdField, 2u);       // the ribbon id is a field (else one per emitter)
MOTE_CONSTANT(uint, kRibbonFlagFacingNormal, 4u);  // the width lies along direction × normal field
// RibbonRecord::uv_mode
MOTE_CONSTANT(uint, kRibbonUvStretched, 0u);
MOTE_CONSTANT(uint, kRibbonUvTiled, 1u);
MOTE_CONSTANT(uint, kRibbonUvSegment, 2u);
MOTE_CONSTANT(uint, kRibbonMaxSubdivisions, 8u);
// Segment lengths are summed in fixed point, 1/1024 m (u32, wrapping: a strip's length is a
// difference of sums, exact while one strip is under 4,194,304 m).
MOTE_CONSTANT(float, kRibbonLengthUnits, 1024.0f);
// RibbonPoint::flags
MOTE_CONSTANT(uint, kRibbonPointValid, 1u);  // a live ribbon row's particle of its generation
MOTE_CONSTANT(uint, kRibbonPointNext, 2u);   // point i + 1 is of the same ribbon (a segment starts here)
MOTE_CONSTANT(uint, kRibbonPointPrev, 4u);   // point i - 1 is of the same ribbon
// The piece list's entries: point index << 3 | piece within its segment.
MOTE_CONSTANT(uint, kRibbonPieceShift, 3u);
// Words of the ribbon pass's count block (RibbonPass::counts()).
MOTE_CONSTANT(uint, kRibbonCountPieces, 0u);       // pieces written this frame
MOTE_CONSTANT(uint, kRibbonCountSegments, 1u);     // segments (pieces with index 0)
MOTE_CONSTANT(uint, kRibbonCountPoints, 2u);       // sorted entries (the alive count)
MOTE_CONSTANT(uint, kRibbonCountDrawOffset, 16u);  // bytes: a VkDrawIndexedIndirectCommand over the pieces
MOTE_CONSTANT(uint, kRibbonCountWords, 12u);

// One per emitter row, beside its ParticleDrawRecord (which gives position, size, colour, the
// generation and the live flag): what make_ribbon_record reads from RibbonSettings.
struct RibbonRecord {
  uint flags;         // kRibbonFlag*; 0: the row is not a ribbon row
  uint serial_word;   // record word of the serial field
  uint id_word;       // record word of the id field (kRibbonFlagIdField)
  uint normal_word;   // record word of the normal field (kRibbonFlagFacingNormal)
  uint uv_mode;       // kRibbonUv*
  uint subdivisions;  // 1..kRibbonMaxSubdivisions
  float tile_length;  // metres per repeat (kRibbonUvTiled)
  uint pad0;
};
MOTE_ASSERT_SIZE(RibbonRecord, 32);
MOTE_ASSERT_OFFSET(RibbonRecord, flags, 0);
MOTE_ASSERT_OFFSET(RibbonRecord, serial_word, 4);
MOTE_ASSERT_OFFSET(RibbonRecord, id_word, 8);
MOTE_ASSERT_OFFSET(RibbonRecord, normal_word, 12);
MOTE_ASSERT_OFFSET(RibbonRecord, uv_mode, 16);
MOTE_ASSERT_OFFSET(RibbonRecord, subdivisions, 20);
MOTE_ASSERT_OFFSET(RibbonRecord, tile_length, 24);
MOTE_ASSERT_OFFSET(RibbonRecord, pad0, 28);

// A particle at its place in the (row, id, serial) order.
struct RibbonPoint {
  vec4 position_width;  // xyz, full width in metres
  vec4 color;           // straight alpha, tinted
  vec4 normal_u;        // xyz: the normal field (facing "normal"); w: u at this point
  uint row;             // emitter row (kRibbonPointValid)
  uint id;              // ribbon id bits (0 for one ribbon per emitter)
  uint slot;            // pool slot
  uint flags;           // kRibbonPoint*
};
MOTE_ASSERT_SIZE(RibbonPoint, 64);
MOTE_ASSERT_OFFSET(RibbonPoint, position_width, 0);
MOTE_ASSERT_OFFSET(RibbonPoint, color, 16);
MOTE_ASSERT_OFFSET(RibbonPoint, normal_u, 32);
MOTE_ASSERT_OFFSET(RibbonPoint, row, 48);
MOTE_ASSERT_OFFSET(RibbonPoint, id, 52);
MOTE_ASSERT_OFFSET(RibbonPoint, slot, 56);
MOTE_ASSERT_OFFSET(RibbonPoint, flags, 60);

// Push constants of the ribbon_* passes.
struct RibbonPush {
  uint record_words;
  uint record_count;
  uint capacity;
  uint alive_count_word;
  uint key;  // ribbon_keys: which key (kRibbonKey*)
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(RibbonPush, 32);
MOTE_CONSTANT(uint, kRibbonKeySerial, 0u);
MOTE_CONSTANT(uint, kRibbonKeyId, 1u);
MOTE_CONSTANT(uint, kRibbonKeyRow, 2u);

// ---- Pure functions (C++ and GLSL) ----

// Uniform Catmull-Rom weights of p0..p3 at t in [0, 1]: exactly (0, 1, 0, 0) at t = 0 and
// (0, 0, 1, 0) at t = 1, so a piece's ends are the points themselves and two pieces meeting at a
// point agree on it bit for bit.
RENDER_INLINE vec4 ribbon_curve_weights(float t) {
  float t2 = t * t;
  float t3 = t2 * t;
  return vec4(0.5f * (-t3 + 2.0f * t2 - t), 0.5f * (3.0f * t3 - 5.0f * t2 + 2.0f), 0.5f * (-3.0f * t3 + 4.0f * t2 + t),
              0.5f * (t3 - t2));
}

// The weights' derivatives: (-1/2, 0, 1/2, 0) at t = 0 and (0, -1/2, 0, 1/2) at t = 1 (the
// tangent at a point is half the chord between its neighbours, the same from either piece).
RENDER_INLINE vec4 ribbon_tangent_weights(float t) {
  float t2 = t * t;
  return vec4(0.5f * (-3.0f * t2 + 4.0f * t - 1.0f), 0.5f * (9.0f * t2 - 10.0f * t),
              0.5f * (-9.0f * t2 + 8.0f * t + 1.0f), 0.5f * (3.0f * t2 - 2.0f * t));
}

RENDER_INLINE vec3 ribbon_blend(vec4 w, vec3 p0, vec3 p1, vec3 p2, vec3 p3) {
  return p0 * w.x + p1 * w.y + p2 * w.z + p3 * w.w;
}

// The unit vector the strip's width lies along at a point with tangent `tangent`: across the
// direction and the way to the eye (camera facing) or the normal (facing "normal"); where that is
// degenerate (no direction, or the direction along the other vector), the camera's right.
RENDER_INLINE vec3 ribbon_side(vec3 tangent, vec3 across, vec3 cam_right) {
  vec3 s = cross(tangent, across);
  float len = length(s);
  return len > 1e-12f ? s * (1.0f / len) : cam_right;
}

// Where corner c (0..3) of piece k of n of the segment p1 → p2 lies, with p0 before p1 and p3 after
// p2 (the ends repeated at a strip's ends); w1, w2 the points' widths, n1, n2 their normals (facing
// normal) — the piece runs t = k / n → (k + 1) / n, its corners 0, 1 at the start, 2, 3 at the end;
// corners 0 and 2 on the -side (v = 0), 1 and 3 on the +side (v = 1).
RENDER_INLINE vec3 ribbon_corner(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float w1, float w2, vec3 n1, vec3 n2,
                                 bool facing_normal, uint k, uint n, uint c, vec3 cam_position, vec3 cam_right) {
  float t = float(k + (c >> 1u)) / float(n);
  vec3 p = ribbon_blend(ribbon_curve_weights(t), p0, p1, p2, p3);
  vec3 tangent = ribbon_blend(ribbon_tangent_weights(t), p0, p1, p2, p3);
  vec3 across = facing_normal ? mix(n1, n2, t) : cam_position - p;
  vec3 side = ribbon_side(tangent, across, cam_right);
  float width = mix(w1, w2, t);
  float half_width = (c & 1u) == 0u ? -0.5f * width : 0.5f * width;
  return p + side * half_width;
}

// The piece's parameter at its start (c < 2) or end: t along the segment.
RENDER_INLINE float ribbon_corner_t(uint k, uint n, uint c) { return float(k + (c >> 1u)) / float(n); }

MOTE_SHARED_END
#endif
