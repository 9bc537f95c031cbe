// Particle lights (docs/design/particle_lights.md), written once for the light-selection pass
// (shaders/render/particle_lights_*.comp, src/render/particle_light_pass.cpp), the passes that
// read the list it builds (opaque.frag, froxel_irradiance.comp, froxel_light.comp) and the CPU
// reference (src/render/reference_particle_lights.cpp): the per-row light record, the list's
// layout, and the pure functions that turn a particle into a light and a light into its sort key.
//
// Every alive particle of a row whose light record is live is a candidate point light; the pass
// keeps the `capacity` brightest (by particle_light_weight, ties in alive-list order after a
// stable sort of the candidates as they were appended) and counts the rest as overflow. The list
// is a ParticleLightHeader followed by `capacity` PointLightGpu (shared/particle_render.h); its
// readers loop over min(header.count, header.capacity) entries.
#ifndef MOTE_SHADERS_SHARED_PARTICLE_LIGHTS_H
#define MOTE_SHADERS_SHARED_PARTICLE_LIGHTS_H
#include "shared/particle_render.h"

#ifdef __cplusplus
#include <bit>
#include <cmath>
namespace mote::shader {
using std::exp;
using std::log;
}  // namespace mote::shader
#endif

MOTE_SHARED_BEGIN

// ParticleLightRecord::flags
MOTE_CONSTANT(uint, kParticleLightFlagLive, 1u);            // the row's particles are lights
MOTE_CONSTANT(uint, kParticleLightFlagParticleColor, 2u);   // × the particle's colour rgb × alpha
MOTE_CONSTANT(uint, kParticleLightFlagRadiusFromSize, 4u);  // range = drawn size × radius_from_size
// The list's capacity: the renderer's option (mote::ParticleRendererDesc::max_particle_lights).
MOTE_CONSTANT(uint, kParticleLightsDefaultCapacity, 256u);
MOTE_CONSTANT(uint, kParticleLightsMaxCapacity, 16384u);
MOTE_CONSTANT(uint, kParticleLightHeaderBytes, 16u);

// One per emitter row, beside its ParticleDrawRecord (position, size, colour, generation, live).
struct ParticleLightRecord {
  vec4 color_intensity;  // rgb: linear colour; w: intensity
  float radius;          // metres (without kParticleLightFlagRadiusFromSize)
  float radius_from_size;
  uint flags;  // kParticleLightFlag*; 0: the row lights nothing
  uint pad0;
};
MOTE_ASSERT_SIZE(ParticleLightRecord, 32);
MOTE_ASSERT_OFFSET(ParticleLightRecord, color_intensity, 0);
MOTE_ASSERT_OFFSET(ParticleLightRecord, radius, 16);
MOTE_ASSERT_OFFSET(ParticleLightRecord, radius_from_size, 20);
MOTE_ASSERT_OFFSET(ParticleLightRecord, flags, 24);
MOTE_ASSERT_OFFSET(ParticleLightRecord, pad0, 28);

// The first 16 bytes of the list buffer.
struct ParticleLightHeader {
  uint count;       // lights in the list (min(candidates, capacity))
  uint candidates;  // particles that were lights this frame
  uint overflow;    // candidates - count: the dimmest, left out
  uint capacity;    // PointLightGpu entries after the header
};
MOTE_ASSERT_SIZE(ParticleLightHeader, 16);
MOTE_ASSERT_OFFSET(ParticleLightHeader, count, 0);
MOTE_ASSERT_OFFSET(ParticleLightHeader, candidates, 4);
MOTE_ASSERT_OFFSET(ParticleLightHeader, overflow, 8);
MOTE_ASSERT_OFFSET(ParticleLightHeader, capacity, 12);

struct ParticleLightPush {
  uint record_words;
  uint record_count;
  uint capacity;  // the pool's particles
  uint alive_count_word;
  uint light_capacity;  // the list's entries
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(ParticleLightPush, 32);

// ---- The cluster grid (docs/design/particle_lights.md, "The clustered list") ----
//
// After the selection, shaders/render/particle_lights_bin.comp bins the list's lights into
// clusters: screen tiles of kParticleLightClusterTilePixels² pixels × `slices` slices of view
// depth, exponential between `near` and `far`. The cluster buffer is a ParticleLightClusterHeader
// then u32 `words`: cluster c's list is words[words[2c] ..][.. words[2c + 1]] (its first word and
// its length), indices into the light list, ascending; the lists lie in the entry_capacity words
// after the 2 × clusters of the table, each cluster's taken with an atomic. A cluster the entries
// ran out for has the length kParticleLightClusterWholeList: its points loop over the whole list
// (correct, as slow as no grid), and its lights are counted in `overflow`.
// A point outside the grid (behind the camera, nearer than `near`, past `far`, off the screen) is
// in no cluster: its readers loop over the whole list. tiles_x 0: no grid (every point loops
// over the whole list; ParticleRendererDesc::cluster_particle_lights false).
MOTE_CONSTANT(uint, kParticleLightClusterTilePixels, 16u);
MOTE_CONSTANT(uint, kParticleLightClusterSlices, 16u);
// The entries' default: this many a cluster (ParticleRendererDesc::particle_light_cluster_entries 0).
MOTE_CONSTANT(uint, kParticleLightClusterEntriesPerCluster, 32u);
MOTE_CONSTANT(uint, kParticleLightClusterMaxEntries, 1u << 28);
MOTE_CONSTANT(uint, kParticleLightClusterHeaderBytes, 240u);
MOTE_CONSTANT(uint, kParticleLightClusterWholeList, 0xffffffffu);  // a length: the entries ran out
// How far past the screen's edge (in NDC) a point still belongs to an edge tile: rasterised
// points and froxel centres sit on the screen up to rounding.
MOTE_CONSTANT(float, kParticleLightClusterEdgeNdc, 0.01f);

struct ParticleLightClusterHeader {
  mat4 view;                // world → view (RenderView::view of the frame it was binned for)
  mat4 projection;          // view → clip (RenderView::projection)
  mat4 inverse_projection;  // clip → view
  uint tiles_x;             // 0: no grid
  uint tiles_y;
  uint slices;
  uint clusters;        // tiles_x × tiles_y × slices
  float tile_ndc_x;     // a tile's width in NDC: 2 × tile pixels / viewport width
  float tile_ndc_y;     // and height
  float near;           // metres of view depth where slice 0 begins
  float slice_scale;    // slices / log(far / near)
  uint entry_capacity;  // the words for the lists, after the table
  uint entries;         // the words the clusters asked for (the binning's atomic; may pass the capacity)
  uint overflow;        // (cluster, light) pairs not listed: their clusters read the whole list
  uint pad0;
};
MOTE_ASSERT_SIZE(ParticleLightClusterHeader, 240);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, view, 0);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, projection, 64);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, inverse_projection, 128);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, tiles_x, 192);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, tiles_y, 196);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, slices, 200);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, clusters, 204);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, tile_ndc_x, 208);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, tile_ndc_y, 212);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, near, 216);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, slice_scale, 220);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, entry_capacity, 224);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, entries, 228);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, overflow, 232);
MOTE_ASSERT_OFFSET(ParticleLightClusterHeader, pad0, 236);

// A cluster's bounds in view space (not stored: the binning pass's and the tests').
struct ParticleLightClusterBox {
  vec4 lo;  // xyz
  vec4 hi;
};
MOTE_ASSERT_SIZE(ParticleLightClusterBox, 32);
MOTE_ASSERT_OFFSET(ParticleLightClusterBox, lo, 0);
MOTE_ASSERT_OFFSET(ParticleLightClusterBox, hi, 16);

// ---- Pure functions (C++ and GLSL) ----

// The light of a particle at `position` whose drawn size is `size` (the size field × the draw
// record's size scale) and tinted straight-alpha colour `color`. A light of zero radiance or
// range is no candidate (particle_light_weight 0).
RENDER_INLINE PointLightGpu particle_light(ParticleLightRecord r, vec3 position, float size, vec4 color) {
  vec3 radiance = vec3(r.color_intensity.x, r.color_intensity.y, r.color_intensity.z) * r.color_intensity.w;
  if ((r.flags & kParticleLightFlagParticleColor) != 0u)
    radiance = radiance * vec3(color.x, color.y, color.z) * clamp(color.w, 0.0f, 1.0f);
  float range = (r.flags & kParticleLightFlagRadiusFromSize) != 0u ? size * r.radius_from_size : r.radius;
  PointLightGpu light;
  light.position_range = vec4(position, max(range, 0.0f));
  light.radiance = vec4(max(radiance, vec3(0.0f)), 0.0f);
  light.spot = vec4(0.0f);
  return light;
}

// How much of the scene a light lights: its brightest channel × its range squared (the area its
// window reaches). 0 (or NaN, read as 0) for no light.
RENDER_INLINE float particle_light_weight(PointLightGpu light) {
  float peak = max(max(light.radiance.x, light.radiance.y), light.radiance.z);
  float w = peak * light.position_range.w * light.position_range.w;
  return w > 0.0f && w <= 3.0e38f ? w : 0.0f;
}

// The ascending sort key of a weight above 0: the brightest first (positive float bits order as
// the values do, their complement the other way).
RENDER_INLINE uint particle_light_key(float weight) {
#ifdef __cplusplus
  return ~std::bit_cast<uint>(weight);
#else
  return ~floatBitsToUint(weight);
#endif
}

// The view depth where slice `s` begins (s = slices: where the last ends).
RENDER_INLINE float particle_light_slice_depth(ParticleLightClusterHeader h, float s) {
  return h.near * exp(s / h.slice_scale);
}

// The view-space point at view depth `d` (> 0) on the ray through NDC (x, y): two points of the
// ray unprojected (NDC depth 1, the near plane of Mote's reversed-Z, and 0.5), then the one at d —
// any projection, perspective or orthographic.
RENDER_INLINE vec3 particle_light_ray_point(ParticleLightClusterHeader h, float x, float y, float d) {
  vec4 a = h.inverse_projection * vec4(x, y, 1.0f, 1.0f);
  vec4 b = h.inverse_projection * vec4(x, y, 0.5f, 1.0f);
  vec3 pa = vec3(a.x, a.y, a.z) / a.w;
  vec3 pb = vec3(b.x, b.y, b.z) / b.w;
  float t = (d + pa.z) / (pa.z - pb.z);  // view depth is -z
  return pa + (pb - pa) * t;
}

// The view-space box of cluster (tx, ty, s): the bounds of its eight corners, the edge tiles
// reaching kParticleLightClusterEdgeNdc past the screen, widened by 1e-4 of its extent and depth
// so that a point the lookup (particle_light_cluster_of) puts in the cluster by rounding is in it.
RENDER_INLINE ParticleLightClusterBox particle_light_cluster_box(ParticleLightClusterHeader h, uint tx, uint ty,
                                                                 uint s) {
  float x0 = -1.0f + float(tx) * h.tile_ndc_x;
  float x1 = -1.0f + float(tx + 1u) * h.tile_ndc_x;
  float y0 = -1.0f + float(ty) * h.tile_ndc_y;
  float y1 = -1.0f + float(ty + 1u) * h.tile_ndc_y;
  if (tx == 0u) x0 -= kParticleLightClusterEdgeNdc;
  if (tx + 1u == h.tiles_x) x1 = max(x1, 1.0f) + kParticleLightClusterEdgeNdc;
  if (ty == 0u) y0 -= kParticleLightClusterEdgeNdc;
  if (ty + 1u == h.tiles_y) y1 = max(y1, 1.0f) + kParticleLightClusterEdgeNdc;
  float d0 = particle_light_slice_depth(h, float(s));
  float d1 = particle_light_slice_depth(h, float(s + 1u));
  vec3 lo = vec3(3.0e38f);
  vec3 hi = vec3(-3.0e38f);
  for (uint i = 0u; i < 8u; ++i) {
    vec3 p = particle_light_ray_point(h, (i & 1u) != 0u ? x1 : x0, (i & 2u) != 0u ? y1 : y0, (i & 4u) != 0u ? d1 : d0);
    lo = min(lo, p);
    hi = max(hi, p);
  }
  vec3 pad = (hi - lo) * 1.0e-4f + vec3(d1 * 1.0e-4f + 1.0e-5f);
  ParticleLightClusterBox box;
  box.lo = vec4(lo - pad, 0.0f);
  box.hi = vec4(hi + pad, 0.0f);
  return box;
}

// Whether a light (view-space centre, range) reaches into `box`: the box's nearest point within the
// range, the range widened by 1e-4 against the rounding of the view transform (conservative: a
// light may be listed for a cluster it just misses, never left out of one it reaches).
RENDER_INLINE bool particle_light_touches_box(vec3 center, float range, ParticleLightClusterBox box) {
  vec3 nearest = clamp(center, vec3(box.lo.x, box.lo.y, box.lo.z), vec3(box.hi.x, box.hi.y, box.hi.z));
  vec3 d = center - nearest;
  float r = range * 1.0001f + 1.0e-5f;
  return dot(d, d) <= r * r;
}

// The cluster of world point `world`, or -1 where it is in none (no grid, behind the camera,
// nearer than `near` or past the last slice, more than kParticleLightClusterEdgeNdc off the
// screen): the readers loop over the whole list there.
RENDER_INLINE int particle_light_cluster_of(ParticleLightClusterHeader h, vec3 world) {
  if (h.tiles_x == 0u || h.tiles_y == 0u || h.slices == 0u) return -1;
  vec4 v = h.view * vec4(world, 1.0f);
  vec4 clip = h.projection * vec4(v.x, v.y, v.z, 1.0f);
  float depth = -v.z;
  if (!(clip.w > 0.0f) || !(depth >= h.near)) return -1;
  float fs = floor(log(depth / h.near) * h.slice_scale);
  if (!(fs < float(h.slices))) return -1;
  float nx = clip.x / clip.w;
  float ny = clip.y / clip.w;
  float edge = 1.0f + kParticleLightClusterEdgeNdc;
  if (!(nx >= -edge && nx <= edge && ny >= -edge && ny <= edge)) return -1;
  int tx = clamp(int(floor((nx + 1.0f) / h.tile_ndc_x)), 0, int(h.tiles_x) - 1);
  int ty = clamp(int(floor((ny + 1.0f) / h.tile_ndc_y)), 0, int(h.tiles_y) - 1);
  int s = clamp(int(fs), 0, int(h.slices) - 1);
  return (s * int(h.tiles_y) + ty) * int(h.tiles_x) + tx;
}

MOTE_SHARED_END

#endif
