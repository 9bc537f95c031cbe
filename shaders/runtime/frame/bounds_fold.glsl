// The bounds' fold of one particle into its row's accumulators (docs/design/runtime_frame.md,
// "Bounds"), shared by simulate.comp (each survivor, as UPDATE leaves it: the record is at hand
// there, in registers or the workgroup's staging) and bounds_accumulate.comp (the newborns and
// what only the pool holds). A particle's drawn shape reaches a sphere about its drawn position:
// a quad's corners are (+-0.5, +-0.5) size, the y side stretched by 1 + |v_plane| <= 1 + |v|
// (shared/particle_render.h), then turned by the orientation and the projection's frame, both
// rotations: the corners lie within 0.5 * size * sqrt(1 + stretch^2) of the position in every
// view. A mesh reaches its record's bounds_reach times its size.
// A lane keeps a running box in registers while its row stays the same and flushes it when the
// row changes and at the end. A flush reduces over the subgroup's lanes of one row at a time and
// goes out as atomicMax on order-preserving uint keys (no compare-and-swap loop): one emitter's
// 16M particles cost one atomic per subgroup and word, not 32 million.
// The includer declares Params params, Emitters emitters[] and, writable, the accumulators as
// `uint accumulators[]` at kFrameBindingBoundsAccumulators, and enables the subgroup basic,
// ballot and arithmetic extensions. Every bounds_* call with subgroup operations is made in
// uniform control flow. It defines BOUNDS_READ_BEFORE_MAX: 1 reads a box word before its atomic
// and sends only a key that grows it — for simulate's fold, whose frames have few rows, each
// hit by thousands of subgroups; 0 sends every key unread — for the bounds pass, which also
// serves frames of 100,000 rows, where a row sees few flushes and the read's round trip before
// each atomic only adds latency (docs/PERFORMANCE.md, "Bounds folded into simulate").
#ifndef BOUNDS_READ_BEFORE_MAX
#error "define BOUNDS_READ_BEFORE_MAX (0 or 1) before including bounds_fold.glsl"
#endif
#include "shared/particle_render.h"

const uint kBoundsNoRow = 0xFFFFFFFFu;

// Orders floats as uints: a < b (finite) exactly when key(a) < key(b).
uint bounds_order_key(float f) {
  uint b = floatBitsToUint(f);
  return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

// Where row's drawn fields lie in a record of `rw` words, and how far its shape reaches.
struct BoundsFields {
  uint position_word;  // 0: nothing drawn, nothing bounded
  uint size_word;      // 0: unit size
  uint velocity_word;  // read only when stretched
  float reach;         // per unit of size
  bool stretched;      // the stretched projection with a velocity field
  bool mesh;           // the mesh projection: no quad, the reach alone
};

BoundsFields bounds_fields(uint row, uint rw) {
  BoundsFields f;
  f.position_word = emitters[row].bounds_position_word;
  f.size_word = emitters[row].bounds_size_word;
  f.velocity_word = emitters[row].bounds_velocity_word;
  f.reach = emitters[row].bounds_reach;
  uint projection = (emitters[row].flags & kEmitterFlagProjectionMask) >> kEmitterFlagProjectionShift;
  if (f.position_word == 0u || f.position_word + 3u > rw || !(f.reach > 0.0f)) f.position_word = 0u;
  if (f.size_word >= rw) f.size_word = 0u;
  f.stretched = projection == kProjectionStretched && f.velocity_word != 0u && f.velocity_word + 3u <= rw;
  f.mesh = projection == kProjectionMesh;
  return f;
}

// The box of a particle at `p` with `size` and (when stretched) `velocity`; false when it bounds
// nothing (nothing drawn, or a non-finite place or size: it draws nothing).
bool bounds_box(BoundsFields f, vec3 p, float size, vec3 velocity, out vec3 lo, out vec3 hi) {
  float stretch = 1.0f + (f.stretched ? length(velocity) : 0.0f);
  float radius = abs(size) * f.reach * (f.mesh ? 1.0f : sqrt(1.0f + stretch * stretch));
  // A ten-thousandth more for the rounding of the corners' rotations.
  radius *= 1.0001f;
  lo = p - vec3(radius);
  hi = p + vec3(radius);
  bool finite = !any(isnan(p)) && !any(isinf(p)) && !isnan(radius) && !isinf(radius);
  return f.position_word != 0u && finite && !any(isinf(lo)) && !any(isinf(hi));
}

// The running box of the row this lane holds (kBoundsNoRow: none).
uint bounds_held = kBoundsNoRow, bounds_held_alive = 0u, bounds_held_boxed = 0u;
uvec3 bounds_held_lo = uvec3(0u), bounds_held_hi = uvec3(0u);

// The lanes with `pending` set add their held boxes and counts to their rows' accumulators, one
// subgroup-wide reduction and one lane's atomics per distinct row.
void bounds_flush(bool pending) {
  for (;;) {
    // The smallest row still waiting, and its lowest lane as the one that writes.
    uint leader_row = subgroupMin(pending ? bounds_held : kBoundsNoRow);
    if (leader_row == kBoundsNoRow) break;
    bool mine = pending && bounds_held == leader_row;
    uint leader = subgroupBallotFindLSB(subgroupBallot(mine));
    uint sum_alive = subgroupAdd(mine ? bounds_held_alive : 0u);
    uint sum_boxed = subgroupAdd(mine ? bounds_held_boxed : 0u);
    uvec3 lo = subgroupMax(mine ? bounds_held_lo : uvec3(0u));
    uvec3 hi = subgroupMax(mine ? bounds_held_hi : uvec3(0u));
    if (gl_SubgroupInvocationID == leader) {
      uint at = leader_row * kFrameBoundsAccumulatorWords;
      atomicAdd(accumulators[at + 6u], sum_alive);
      if (sum_boxed != 0u) {
        atomicAdd(accumulators[at + 7u], sum_boxed);
#if BOUNDS_READ_BEFORE_MAX
        // Only a key that grows the box goes out: a plain read sees at most what the atomics
        // have made of the word so far (it only grows within a frame and starts at 0), so a
        // key not above it is not above the word either, and once the box has settled the
        // subgroups that follow send nothing.
        for (uint c = 0u; c < 3u; ++c) {
          if (lo[c] > accumulators[at + c]) atomicMax(accumulators[at + c], lo[c]);
          if (hi[c] > accumulators[at + 3u + c]) atomicMax(accumulators[at + 3u + c], hi[c]);
        }
#else
        for (uint c = 0u; c < 3u; ++c) {
          atomicMax(accumulators[at + c], lo[c]);
          atomicMax(accumulators[at + 3u + c], hi[c]);
        }
#endif
      }
    }
    if (mine) pending = false;
  }
}

// Folds this lane's particle of `row` (kBoundsNoRow: the lane has none this step) — alive, and
// boxed by lo/hi when `bounded` — into the lane's running box; a lane whose row changes hands its
// box on first.
void bounds_add(uint row, bool bounded, vec3 lo, vec3 hi) {
  bounds_flush(bounds_held != kBoundsNoRow && row != kBoundsNoRow && row != bounds_held);
  if (row != kBoundsNoRow && row != bounds_held) {
    bounds_held = row;
    bounds_held_alive = 0u;
    bounds_held_boxed = 0u;
    bounds_held_lo = uvec3(0u);
    bounds_held_hi = uvec3(0u);
  }
  if (row != kBoundsNoRow) {
    bounds_held_alive += 1u;
    if (bounded) {
      bounds_held_boxed += 1u;
      bounds_held_lo = max(bounds_held_lo, ~uvec3(bounds_order_key(lo.x), bounds_order_key(lo.y), bounds_order_key(lo.z)));
      bounds_held_hi = max(bounds_held_hi, uvec3(bounds_order_key(hi.x), bounds_order_key(hi.y), bounds_order_key(hi.z)));
    }
  }
}

// Hands every lane's running box on: once, after the last bounds_add.
void bounds_finish() { bounds_flush(bounds_held != kBoundsNoRow); }
