#version 460
// Binning of the compute draw path, one invocation per alive-list entry i < counters.alive (an
// indirect dispatch tile_setup wrote), in two modes:
//   kTileBinCount: fetch the sprite (particle_common.glsl), clip its quad to the near plane, take
//     the screen bounding box of what is left, and keep the 16 x 16 tiles it touches (an
//     inclusive rectangle), its depth key and their number; the number also goes to offsets[i],
//     which the host's exclusive scan (in place) turns into the particle's first pair.
//   kTileBinEmit: write the particle's pairs from its scanned offset: key = tile << 16 | depth
//     key, value = i. Offsets follow the alive list, so the keys enter the stable sort in
//     alive-list order and equal keys stay in it: the picture is deterministic.
// Not binned (0 tiles): stale or hidden rows, mesh particles (kProjectionMesh: the mesh
// pipeline draws them), zero-area quads, zero alpha, NaN or infinite geometry, and quads wholly
// behind the near plane or off the screen.
#include "render/tile_common.glsl"
#include "shared/particle_render.h"

layout(local_size_x = 64) in;  // kTileBinWorkgroupSize

layout(std430, binding = 0) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 1) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std140, binding = 2) uniform View { RenderView view; };
layout(std430, binding = 3) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 4) readonly buffer Counters { TileCounters counters; };
layout(std430, binding = 5) buffer Bins { TileParticleBin bins[]; };
layout(std430, binding = 6) buffer Offsets { uint offsets[]; };
layout(std430, binding = 7) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 8) writeonly buffer Values { uint values[]; };

#include "render/particle_common.glsl"

// The view distance below which nothing is drawn: the near plane (RenderView::clip.x).
float near_plane() { return max(view.clip.x, 1e-6); }

// Nearest first on a log scale (shared/compute_path.h).
uint depth_key(float view_depth, float near) {
  float octaves = log2(max(view_depth, near) / near);
  return min(uint(clamp(octaves / kTileDepthOctaves, 0.0, 1.0) * 65535.0 + 0.5), 65535u);
}

TileParticleBin bin_particle(uint slot) {
  TileParticleBin b = TileParticleBin(0u, 0u, 0u, 0u);
  ParticleSprite s = particle_fetch(slot, params.record_words, params.record_count);
  if (!s.visible || (s.flags & kDrawProjectionMask) == kProjectionMesh) return b;
  // Nothing to composite: a degenerate quad, or zero (or NaN) alpha, which premultiplies to 0.
  if (!(dot(cross(s.axis_x, s.axis_y), cross(s.axis_x, s.axis_y)) > 0.0) || !(s.color.w > 0.0)) return b;
  // A NaN or infinite centre or axis (a broken simulation) draws nothing rather than anywhere.
  if (any(isnan(s.center)) || any(isinf(s.center)) || any(isnan(s.axis_x)) || any(isinf(s.axis_x)) ||
      any(isnan(s.axis_y)) || any(isinf(s.axis_y)))
    return b;

  // The quad's corners in clip space, in order around it; clip w is the view distance.
  const vec2 corner[4] = vec2[4](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));
  vec4 clip[4];
  for (uint k = 0u; k < 4u; ++k) {
    clip[k] = view.view_projection * vec4(s.center + corner[k].x * s.axis_x + corner[k].y * s.axis_y, 1.0);
  }
  // Sutherland-Hodgman against w >= near (the blend draws only hits at least `near` away): the
  // bounding box of the part in front, so a large sprite through the near plane keeps its
  // visible part. Every kept vertex has w >= near > 0.
  const float near = near_plane();
  vec2 lo = vec2(3.4e38), hi = vec2(-3.4e38);
  uint kept = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    vec4 va = clip[k];
    vec4 vb = clip[(k + 1u) & 3u];
    float da = va.w - near, db = vb.w - near;
    if (da >= 0.0) {
      vec2 p = va.xy / va.w;
      lo = min(lo, p);
      hi = max(hi, p);
      ++kept;
    }
    if ((da >= 0.0) != (db >= 0.0)) {
      vec4 x = mix(va, vb, da / (da - db));
      vec2 p = x.xy / max(x.w, near);
      lo = min(lo, p);
      hi = max(hi, p);
      ++kept;
    }
  }
  if (kept == 0u) return b;

  // NDC -> pixels (Vulkan: y = -1 is the top row), one pixel of margin for the blend's own
  // rounding, clamped to the screen before converting so huge or NaN bounds cannot overflow.
  const vec2 size = vec2(float(params.width), float(params.height));
  vec2 p_lo = clamp((lo * 0.5 + 0.5) * size - 1.0, vec2(-2.0), size + 2.0);
  vec2 p_hi = clamp((hi * 0.5 + 0.5) * size + 1.0, vec2(-2.0), size + 2.0);
  if (!(p_hi.x >= 0.0 && p_hi.y >= 0.0 && p_lo.x < size.x && p_lo.y < size.y)) return b;  // off the screen
  const ivec2 px0 = ivec2(max(floor(p_lo), vec2(0.0)));
  const ivec2 px1 = ivec2(min(floor(p_hi), size - 1.0));
  const ivec2 max_tile = ivec2(int(params.tiles_x) - 1, int(params.tiles_y) - 1);
  const ivec2 t0 = min(px0 / int(kTileSize), max_tile);
  const ivec2 t1 = min(px1 / int(kTileSize), max_tile);

  const float center_depth = dot(s.center - view.camera_position.xyz, view.camera_forward.xyz);
  b.first_tile = uint(t0.x) | (uint(t0.y) << 16);
  b.last_tile = uint(t1.x) | (uint(t1.y) << 16);
  b.depth_key = depth_key(center_depth, near);
  b.tiles = uint(t1.x - t0.x + 1) * uint(t1.y - t0.y + 1);
  return b;
}

void main() {
  const uint i = tile_flat_invocation(kTileBinWorkgroupSize);
  if (i >= counters.alive) return;
  if (params.mode == kTileBinCount) {
    // The caller's alive list is clamped to the pool (particle_fetch's contract).
    const uint slot = min(alive[i], params.capacity - 1u);
    TileParticleBin b = bin_particle(slot);
    bins[i] = b;
    offsets[i] = b.tiles;
    return;
  }
  // kTileBinEmit
  const TileParticleBin b = bins[i];
  if (b.tiles == 0u) return;
  uint at = offsets[i];
  const uint x0 = b.first_tile & 0xFFFFu, y0 = b.first_tile >> 16;
  const uint x1 = b.last_tile & 0xFFFFu, y1 = b.last_tile >> 16;
  for (uint y = y0; y <= y1; ++y) {
    for (uint x = x0; x <= x1; ++x) {
      if (at >= params.max_pairs) return;  // counted as dropped by tile_setup
      keys[at] = ((y * params.tiles_x + x) << kTileDepthBits) | b.depth_key;
      values[at] = i;
      ++at;
    }
  }
}
