#version 460
// Density injection (src/media/froxel_passes.cpp, docs/design/media.md "The froxel passes"): one
// invocation per froxel evaluates every volume at one point inside the froxel, jittered per frame
// (media_jitter with the injection's decorrelation offset), and stores the medium's scattering
// (rgb = albedo x extinction, summed) and extinction (a). Each volume is rejected by its box
// before any noise is read (media_density_at), and a volume at noise_strength 0 branches around
// the taps. Before that, the workgroup (8 x 8 froxels of one slice) keeps only the volumes whose
// box meets its cell's world box — the box of the cell's eight corners, the cell being a piece of
// the view frustum, so its hull — tested 64 at a time, one volume an invocation: a froxel then
// loops over the few volumes near it, not over every volume of the scene. The test is
// conservative (widened for rounding), so a volume it drops is one media_density_at would have
// rejected at every point of the cell: the result is the same. MEDIA_COUNT_TAPS=1 builds the variant that counts the noise taps it takes (tests).
#ifndef MEDIA_COUNT_TAPS
#define MEDIA_COUNT_TAPS 0
#endif
#if MEDIA_COUNT_TAPS
uint noise_taps_taken = 0u;
#define MEDIA_ON_NOISE_TAP() noise_taps_taken++
#endif
#include "media/froxel_common.glsl"

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 1) readonly buffer Volumes { MediaVolume volumes[]; };
layout(binding = 2) uniform sampler3D noise_atlas;
layout(binding = 3, rgba16f) uniform writeonly image3D medium;
#if MEDIA_COUNT_TAPS
layout(std430, binding = 4) buffer Taps { uint taps; };
#endif

const uint kInjectGroupSize = 64u;  // local_size_x * local_size_y
shared vec3 s_corners[8];
shared uint s_kept[2];  // bit j of the batch: volume first + j meets the workgroup's box

// The world box of this workgroup's froxels (the cell's eight corners), widened for the rounding
// of froxel_world at the points inside it.
void group_box(out vec3 lo, out vec3 hi) {
  uint me = gl_LocalInvocationIndex;
  if (me < 8u) {
    vec3 g0 = vec3(gl_WorkGroupID.xy * gl_WorkGroupSize.xy, float(gl_WorkGroupID.z));
    vec3 g1 = min(g0 + vec3(gl_WorkGroupSize.xy, 1.0), vec3(frame.grid_size.xyz));
    vec3 corner = vec3((me & 1u) != 0u ? g1.x : g0.x, (me & 2u) != 0u ? g1.y : g0.y, (me & 4u) != 0u ? g1.z : g0.z);
    s_corners[me] = froxel_world(corner);
  }
  barrier();
  lo = s_corners[0];
  hi = s_corners[0];
  for (uint c = 1u; c < 8u; ++c) {
    lo = min(lo, s_corners[c]);
    hi = max(hi, s_corners[c]);
  }
  vec3 slack = (hi - lo) * 1e-3 + max(abs(lo), abs(hi)) * 1e-5 + 1e-6;
  lo -= slack;
  hi += slack;
}

void main() {
  uvec3 froxel = gl_GlobalInvocationID;
  // Every invocation takes part in the culling (barriers) before the ones outside the grid leave.
  bool inside = all(lessThan(froxel, uvec3(frame.grid_size.xyz)));
  vec3 jitter = media_jitter(froxel, frame.counts.z, uvec2(kMediaInjectDecorrelationX, kMediaInjectDecorrelationY));
  vec3 p = froxel_world(vec3(froxel) + jitter);
  vec3 box_lo, box_hi;
  group_box(box_lo, box_hi);
  vec3 scattering = vec3(0.0);
  float extinction = 0.0;
  uint count = frame.counts.x;
  uint me = gl_LocalInvocationIndex;
  for (uint first = 0u; first < count; first += kInjectGroupSize) {
    if (me < 2u) s_kept[me] = 0u;
    barrier();
    uint i = first + me;
    if (i < count && all(lessThanEqual(volumes[i].bounds_min.xyz, box_hi)) &&
        all(greaterThanEqual(volumes[i].bounds_max.xyz, box_lo)))
      atomicOr(s_kept[me >> 5u], 1u << (me & 31u));
    barrier();
    // The kept volumes in index order, as the reference sums them.
    uvec2 kept = uvec2(s_kept[0], s_kept[1]);
    for (uint half_ = 0u; half_ < 2u && inside; ++half_) {
      uint bits = kept[half_];
      while (bits != 0u) {
        uint j = first + half_ * 32u + uint(findLSB(bits));
        bits &= bits - 1u;
        float d = media_density_at(noise_atlas, volumes[j], p);
        scattering += volumes[j].albedo.rgb * d;
        extinction += d;
      }
    }
    barrier();  // s_kept is the next batch's
  }
  if (!inside) return;
#if MEDIA_COUNT_TAPS
  if (noise_taps_taken > 0u) atomicAdd(taps, noise_taps_taken);
#endif
  imageStore(medium, ivec3(froxel), vec4(scattering, extinction));
}
