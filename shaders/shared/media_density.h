// Participating media, written once for C++ and GLSL 4.60 (docs/design/media.md): the periodic
// gradient noise and the bake of the built-in noise tile, the volume row, the density function
// every consumer evaluates (the froxel injection, the CPU reference estimator, the tests), the
// Henyey-Greenstein phase, the point-light falloff and the froxel grid's slice mapping.
//
// The one place the two languages differ is reading the noise atlas: GLSL samples a sampler3D
// (trilinear, clamp to edge), C++ a MediaNoiseAtlasView of r8unorm texels with the same filter
// (media_noise_fetch and media_noise_extent below, one per language). Everything built on them is
// one text. Rules as in vm_semantics.h: plain functions of values, `f` and `u` literal suffixes,
// builtins glm also has.
#ifndef MOTE_SHADERS_SHARED_MEDIA_DENSITY_H
#define MOTE_SHADERS_SHARED_MEDIA_DENSITY_H
#include "shared/interop.h"
#include "shared/vm_semantics.h"  // vm_pcg3d, vm_noise_gradient

#ifdef __cplusplus
#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>
namespace mote::shader {
using glm::clamp;
using glm::dot;
using glm::fract;
using glm::length;
using glm::max;
using glm::min;
using glm::mix;
}  // namespace mote::shader
#define MEDIA_INLINE inline
#else
#define MEDIA_INLINE
#endif

MOTE_SHARED_BEGIN

// ---------------------------------------------------------------------------------------------
// The noise tile of the volumetrics atlas: r8unorm, 128^3 texels of content in a one-texel
// skirt that repeats the content wrapped (so trilinear taps at the content's edge blend with the
// opposite edge, never with the next tile).
MOTE_CONSTANT(uint, kMediaNoiseContent, 128u);
MOTE_CONSTANT(uint, kMediaNoiseBorder, 1u);
MOTE_CONSTANT(uint, kMediaNoiseTile, 130u);  // content + 2 * border

// The built-in tile: kMediaNoiseOctaves octaves of the periodic noise at lattice periods 4, 8, 16
// across the content (lacunarity 2, gain 0.5), each shifted by its index times an offset off the
// lattice so the doubled lattices do not sit on the base one's corners.
MOTE_CONSTANT(uint, kMediaNoiseOctaves, 3u);
MOTE_CONSTANT(uint, kMediaNoiseBasePeriod, 4u);
MOTE_CONSTANT(float, kMediaOctaveOffsetX, 0.3183f);
MOTE_CONSTANT(float, kMediaOctaveOffsetY, 0.5772f);
MOTE_CONSTANT(float, kMediaOctaveOffsetZ, 0.7071f);
// The remap baked into the tile, so the texture is the density multiplier itself.
MOTE_CONSTANT(float, kMediaRemapLow, -0.6f);
MOTE_CONSTANT(float, kMediaRemapHigh, 0.6f);

// The domain warp: the warp tap reads the tile at half the base frequency and displaces the base
// lookup by (w - 0.5) * noise_warp tile units along this fixed oblique unit direction.
MOTE_CONSTANT(float, kMediaWarpDirectionX, 0.6f);
MOTE_CONSTANT(float, kMediaWarpDirectionY, 0.48f);
MOTE_CONSTANT(float, kMediaWarpDirectionZ, -0.64f);
MOTE_CONSTANT(float, kMediaWarpFrequency, 0.5f);
// The warp's phase moves at this fraction of the medium's velocity, so the two lookups slide
// against each other and the base field changes shape as it moves (docs/design/media.md).
MOTE_CONSTANT(float, kMediaWarpSpeedRatio, 0.37f);

MOTE_CONSTANT(float, kMediaPi, 3.14159265358979f);

// ---------------------------------------------------------------------------------------------
// The volume row (one per volume, std430): a unit box [-0.5, 0.5]^3 posed by a transform.
struct MediaVolume {
  mat4 world_to_local;     // world -> the unit box (the inverse of the volume's transform)
  vec4 bounds_min;         // xyz: the box's world AABB (rejection before anything else); w: fade_distance (m)
  vec4 bounds_max;         // xyz; w: density (extinction per metre where the multiplier is 1)
  vec4 albedo;             // rgb: scattering colour (scattering = albedo * extinction); w: noise_strength [0, 1]
  vec4 edge_scale;         // xyz: metres per local unit along each box axis; w: noise_inverse_scale (1/m)
  vec4 noise_offset;       // xyz: the base lookup's phase in [0, 1); w: noise_warp (tile units)
  vec4 noise_warp_offset;  // xyz: the warp lookup's phase in [0, 1); w: 0
  uvec4 noise;             // x: the atlas slot of the volume's tile; yzw: 0
};
MOTE_ASSERT_SIZE(MediaVolume, 176);
MOTE_ASSERT_OFFSET(MediaVolume, world_to_local, 0);
MOTE_ASSERT_OFFSET(MediaVolume, bounds_min, 64);
MOTE_ASSERT_OFFSET(MediaVolume, bounds_max, 80);
MOTE_ASSERT_OFFSET(MediaVolume, albedo, 96);
MOTE_ASSERT_OFFSET(MediaVolume, edge_scale, 112);
MOTE_ASSERT_OFFSET(MediaVolume, noise_offset, 128);
MOTE_ASSERT_OFFSET(MediaVolume, noise_warp_offset, 144);
MOTE_ASSERT_OFFSET(MediaVolume, noise, 160);

MOTE_SHARED_END

// ---------------------------------------------------------------------------------------------
// Reading the atlas: the only part written per language.
#ifdef __cplusplus
#include <cstdint>
namespace mote::shader {
// r8unorm texels of a whole atlas image, x fastest then y then z.
struct MediaNoiseAtlasView {
  const uint8_t* texels = nullptr;
  uint width = 0;
  uint height = 0;
  uint depth = 0;
};
// Trilinear at a texel-space coordinate (texel i's centre at i + 0.5), clamped to the edge: what
// a linear, clamp-to-edge sampler returns for coordinate / extent.
inline float media_noise_fetch(const MediaNoiseAtlasView& atlas, vec3 coord) {
  const float cx = coord.x - 0.5f, cy = coord.y - 0.5f, cz = coord.z - 0.5f;
  const float fx = glm::floor(cx), fy = glm::floor(cy), fz = glm::floor(cz);
  const float tx = cx - fx, ty = cy - fy, tz = cz - fz;
  auto clamp_index = [](float i, uint size) { return i < 0.0f ? 0u : (i > float(size - 1u) ? size - 1u : uint(i)); };
  float sum = 0.0f;
  for (uint corner = 0u; corner < 8u; ++corner) {
    const uint ox = corner & 1u, oy = (corner >> 1u) & 1u, oz = (corner >> 2u) & 1u;
    const uint x = clamp_index(fx + float(ox), atlas.width);
    const uint y = clamp_index(fy + float(oy), atlas.height);
    const uint z = clamp_index(fz + float(oz), atlas.depth);
    const float w = (ox ? tx : 1.0f - tx) * (oy ? ty : 1.0f - ty) * (oz ? tz : 1.0f - tz);
    const size_t index = (size_t(z) * atlas.height + y) * atlas.width + x;
    sum += w * (float(atlas.texels[index]) / 255.0f);
  }
  return sum;
}
inline uvec4 media_noise_extent(const MediaNoiseAtlasView& atlas) {
  return uvec4(atlas.width, atlas.height, atlas.depth, 0u);
}
}  // namespace mote::shader
#define MEDIA_NOISE_ATLAS const MediaNoiseAtlasView&
#else
#define MEDIA_NOISE_ATLAS sampler3D
float media_noise_fetch(sampler3D atlas, vec3 coord) {
  return textureLod(atlas, coord / vec3(textureSize(atlas, 0)), 0.0f).r;
}
uvec4 media_noise_extent(sampler3D atlas) { return uvec4(uvec3(textureSize(atlas, 0)), 0u); }
#endif

MOTE_SHARED_BEGIN

// ---------------------------------------------------------------------------------------------
// Small helpers, defined for every input in both languages.

MEDIA_INLINE float media_saturate(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
// smoothstep with edge0 < edge1 required by the caller (GLSL leaves other orders undefined).
MEDIA_INLINE float media_smoothstep(float edge0, float edge1, float x) {
  float t = media_saturate((x - edge0) / (edge1 - edge0));
  return t * t * (3.0f - 2.0f * t);
}
MEDIA_INLINE vec3 media_fract3(vec3 v) { return vec3(v.x - floor(v.x), v.y - floor(v.y), v.z - floor(v.z)); }
// The index of a lattice cell (an integer-valued float) wrapped into [0, period).
MEDIA_INLINE uint media_wrap_cell(float cell, float period) { return uint(cell - period * floor(cell / period)); }

// ---------------------------------------------------------------------------------------------
// Periodic gradient noise. Perlin's gradient noise (Perlin 2002, "Improving Noise", SIGGRAPH:
// the 12 cube-edge gradients, quintic fade) whose lattice index is wrapped modulo an integer
// period before it is hashed, so noise(x + period) = noise(x) exactly on every axis, for any
// integer period: the property psrdnoise has (Gustavson & McEwan 2022, "Tiling simplex flow noise
// in two and three dimensions", JCGT 11(1)), on a cubic lattice. The hash is the VM's pcg3d
// (Jarzynski & Olano 2020), exact in integers on both sides. Values lie in about [-1, 1].
MEDIA_INLINE float media_periodic_noise(vec3 p, uint period) {
  vec3 cell = vec3(floor(p.x), floor(p.y), floor(p.z));
  vec3 f = p - cell;
  float pf = float(period);
  uvec3 lo = uvec3(media_wrap_cell(cell.x, pf), media_wrap_cell(cell.y, pf), media_wrap_cell(cell.z, pf));
  uvec3 hi = uvec3(lo.x + 1u == period ? 0u : lo.x + 1u, lo.y + 1u == period ? 0u : lo.y + 1u,
                   lo.z + 1u == period ? 0u : lo.z + 1u);
  vec3 u = f * f * f * (f * (f * 6.0f - 15.0f) + 10.0f);
  float value = 0.0f;
  for (uint corner = 0u; corner < 8u; corner++) {
    uint ox = corner & 1u;
    uint oy = (corner >> 1u) & 1u;
    uint oz = (corner >> 2u) & 1u;
    uvec3 index = uvec3(ox == 1u ? hi.x : lo.x, oy == 1u ? hi.y : lo.y, oz == 1u ? hi.z : lo.z);
    vec3 g = vm_noise_gradient(vm_pcg3d(index).x >> 28u);
    vec3 d = f - vec3(float(ox), float(oy), float(oz));
    float n = g.x * d.x + g.y * d.y + g.z * d.z;
    float w = (ox == 1u ? u.x : 1.0f - u.x) * (oy == 1u ? u.y : 1.0f - u.y) * (oz == 1u ? u.z : 1.0f - u.z);
    value += w * n;
  }
  return value;
}

// The built-in tile's fBm at tile coordinate t (one period of the tile is t in [0, 1)^3): octave i
// is the noise at lattice period kMediaNoiseBasePeriod << i, shifted by i times the octave
// offset, weighted 0.5^i. Periodic in t with period 1 on each axis.
MEDIA_INLINE float media_tile_fbm(vec3 t, uint octaves) {
  float sum = 0.0f;
  float amplitude = 1.0f;
  for (uint i = 0u; i < octaves; i++) {
    uint period = kMediaNoiseBasePeriod << i;
    vec3 offset = float(i) * vec3(kMediaOctaveOffsetX, kMediaOctaveOffsetY, kMediaOctaveOffsetZ);
    sum += amplitude * media_periodic_noise(t * float(period) + offset, period);
    amplitude *= 0.5f;
  }
  return sum;
}

// The content index a bordered tile's texel shows: the skirt repeats the content wrapped.
MEDIA_INLINE uint media_skirt_source(uint texel, uint content, uint border) {
  return (texel + content - border) % content;
}

// The baked multiplier of one texel of a bordered tile of `content`^3 (texel index in
// [0, content + 2 border)): the fBm at the centre of the content texel it shows, remapped by
// smoothstep(-0.6, 0.6, .), so the texture is the multiplier in [0, 1].
MEDIA_INLINE float media_bake_texel(uvec3 texel, uint content, uint border, uint octaves) {
  uvec3 c = uvec3(media_skirt_source(texel.x, content, border), media_skirt_source(texel.y, content, border),
                  media_skirt_source(texel.z, content, border));
  vec3 t = (vec3(float(c.x), float(c.y), float(c.z)) + 0.5f) / float(content);
  return media_smoothstep(kMediaRemapLow, kMediaRemapHigh, media_tile_fbm(t, octaves));
}
// r8unorm's encoding (round to nearest).
MEDIA_INLINE uint media_unorm8(float v) { return uint(media_saturate(v) * 255.0f + 0.5f); }

// ---------------------------------------------------------------------------------------------
// The tile atlas's arithmetic: slots linear, x fastest, z slowest, in a footprint of
// footprint.x by footprint.y tiles a layer; tile_texels per tile side.
MEDIA_INLINE uvec4 media_slot_cell(uint slot, uvec2 footprint) {
  return uvec4(slot % footprint.x, (slot / footprint.x) % footprint.y, slot / (footprint.x * footprint.y), 0u);
}

// A hook run at every noise tap: nothing, unless the includer defines it first (the injection
// pass's counting variant, which tests that a scene without noise takes no taps).
#ifndef MEDIA_ON_NOISE_TAP
#define MEDIA_ON_NOISE_TAP()
#endif

// One trilinear tap of the volumetrics atlas's tile `slot` at tile coordinate u (repeating with
// period 1): the content spans texels [1, 129) of the tile, the skirt makes the wrap seamless.
MEDIA_INLINE float media_noise_tap(MEDIA_NOISE_ATLAS atlas, uint slot, vec3 u) {
  MEDIA_ON_NOISE_TAP();
  uvec4 extent = media_noise_extent(atlas);
  uvec2 footprint = uvec2(extent.x / kMediaNoiseTile, extent.y / kMediaNoiseTile);
  uvec4 cell = media_slot_cell(slot, footprint);
  vec3 origin = vec3(float(cell.x), float(cell.y), float(cell.z)) * float(kMediaNoiseTile);
  vec3 coord = origin + float(kMediaNoiseBorder) + media_fract3(u) * float(kMediaNoiseContent);
  return media_noise_fetch(atlas, coord);
}

// The warp's displacement of the base lookup (tile units) for a warp tap value w.
MEDIA_INLINE vec3 media_warp_displacement(float w, float warp) {
  return (w - 0.5f) * warp * vec3(kMediaWarpDirectionX, kMediaWarpDirectionY, kMediaWarpDirectionZ);
}

// The noise multiplier in [0, 1] at world point p: mix(1, tap(u), strength) with u the world
// position in tile units plus the base phase, displaced by the warp tap (half frequency, its own
// phase) when noise_warp > 0. One tap when noise_warp == 0.
MEDIA_INLINE float media_noise_multiplier(MEDIA_NOISE_ATLAS atlas, MediaVolume v, vec3 p) {
  uint slot = v.noise.x;
  vec3 base = p * v.edge_scale.w;
  vec3 u = base + vec3(v.noise_offset);
  float warp = v.noise_offset.w;
  if (warp > 0.0f) {
    float w = media_noise_tap(atlas, slot, base * kMediaWarpFrequency + vec3(v.noise_warp_offset));
    u += media_warp_displacement(w, warp);
  }
  return mix(1.0f, media_noise_tap(atlas, slot, u), v.albedo.w);
}

// The point in the volume's unit box.
MEDIA_INLINE vec3 media_local(MediaVolume v, vec3 p) { return vec3(v.world_to_local * vec4(p, 1.0f)); }
MEDIA_INLINE bool media_in_bounds(MediaVolume v, vec3 p) {
  return p.x >= v.bounds_min.x && p.y >= v.bounds_min.y && p.z >= v.bounds_min.z && p.x <= v.bounds_max.x &&
         p.y <= v.bounds_max.y && p.z <= v.bounds_max.z;
}
MEDIA_INLINE bool media_in_box(vec3 local) {
  return abs(local.x) <= 0.5f && abs(local.y) <= 0.5f && abs(local.z) <= 0.5f;
}
// The edge fade: per box axis, smoothstep(0, fade_distance, distance to the face in metres),
// multiplied; 1 with no fade distance.
MEDIA_INLINE float media_fade(MediaVolume v, vec3 local) {
  float fade_distance = v.bounds_min.w;
  if (fade_distance <= 0.0f) return 1.0f;
  vec3 to_edge = (vec3(0.5f) - vec3(abs(local.x), abs(local.y), abs(local.z))) * vec3(v.edge_scale);
  return media_smoothstep(0.0f, fade_distance, to_edge.x) * media_smoothstep(0.0f, fade_distance, to_edge.y) *
         media_smoothstep(0.0f, fade_distance, to_edge.z);
}

// The density function: density x fade(p) x mix(1, tap, strength) inside the box, 0 outside.
// Every factor after `density` lies in [0, 1], so density bounds it from above everywhere: the
// majorant a null-collision tracer needs (docs/design/media.md, "The bound"). The box is tested
// before any noise is read, and a volume at noise_strength 0 branches around the taps (the same
// for every thread: a uniform branch).
MEDIA_INLINE float media_density_at(MEDIA_NOISE_ATLAS atlas, MediaVolume v, vec3 p) {
  if (!media_in_bounds(v, p)) return 0.0f;
  vec3 local = media_local(v, p);
  if (!media_in_box(local)) return 0.0f;
  float density = v.bounds_max.w * media_fade(v, local);
  if (v.albedo.w > 0.0f) density *= media_noise_multiplier(atlas, v, p);
  return density;
}

// ---------------------------------------------------------------------------------------------
// The light model of the medium (the froxel light pass and the CPU reference estimator).

// Henyey-Greenstein phase function (1941), normalised over the sphere. cos_theta is the cosine of
// the scattering angle: between the way the light travels and the way the scattered light leaves
// towards the eye (minus the view ray's direction). g in (-1, 1); g > 0 scatters forward.
MEDIA_INLINE float media_hg_phase(float cos_theta, float g) {
  float g2 = g * g;
  float denom = 1.0f + g2 - 2.0f * g * cos_theta;
  return (1.0f - g2) / (4.0f * kMediaPi * denom * sqrt(denom));
}
// The scene's point-light falloff (shaders/render/lighting.glsl's point_light_falloff): inverse
// square windowed to the range.
MEDIA_INLINE float media_point_falloff(float distance, float range) {
  float ratio = distance / max(range, 1e-4f);
  float window = media_saturate(1.0f - ratio * ratio * ratio * ratio);
  return window * window / max(distance * distance, 1e-4f);
}

// ---------------------------------------------------------------------------------------------
// The froxel grid's depth slices: logarithmic between near and far (view-space distance along the
// camera's forward axis): slice coordinate s in [0, slices] at depth near * (far / near)^(s / slices).
MEDIA_INLINE float media_slice_depth(float s, float near_depth, float far_depth, float slices) {
  return near_depth * exp(log(far_depth / near_depth) * (s / slices));
}
MEDIA_INLINE float media_depth_slice(float depth, float near_depth, float far_depth, float slices) {
  return slices * log(max(depth, near_depth) / near_depth) / log(far_depth / near_depth);
}

// The frame's jitter inside a froxel, in [0, 1)^3: the R3 low-discrepancy sequence over frames
// (Roberts 2018, the generalised golden ratio; its three increments in 32-bit fixed point, so the
// sum wraps exactly in integers on both sides and never loses its fraction), rotated per froxel
// by a hash of its cell and a pass's decorrelation offset (a Cranley-Patterson rotation), so
// neighbouring froxels, and the two passes that jitter (injection and lighting), never draw the
// same point in the same frame.
MOTE_CONSTANT(uint, kMediaR3X, 3518319155u);  // 0.8191725134 * 2^32
MOTE_CONSTANT(uint, kMediaR3Y, 2882110345u);  // 0.6710436067 * 2^32
MOTE_CONSTANT(uint, kMediaR3Z, 2360945575u);  // 0.5497004779 * 2^32
MEDIA_INLINE vec3 media_jitter(uvec3 froxel, uint frame, uvec2 decorrelation) {
  uvec3 h = vm_pcg3d(uvec3(froxel.x + decorrelation.x * 65536u, froxel.y + decorrelation.y * 65536u, froxel.z));
  uvec3 q = uvec3(h.x + frame * kMediaR3X, h.y + frame * kMediaR3Y, h.z + frame * kMediaR3Z);
  return vec3(float(q.x >> 8u), float(q.y >> 8u), float(q.z >> 8u)) * (1.0f / 16777216.0f);
}

MOTE_SHARED_END
#endif
