#version 460
// AVBOIT's splat (shaders/shared/avboit.h): a thread per alive-list entry writes its sprite's
// extinction into the volume's columns. Each column the quad's screen box touches is sampled at
// the four standard 4x multisample positions of the part of its footprint the box covers: the
// pixel's ray meets the quad's plane, and the coverage there is what the draw will weight the
// fragment by — the colour's alpha x the atlas texel's, faded against the scene depth as a soft
// particle is (0 behind the scene, and in front of the near plane). The four's mean, scaled by the
// share of the column the box covers, is the column's mean coverage a (so a sprite smaller than a
// column, which samples over the whole footprint would mostly miss, still counts, by its area);
// it becomes optical depth -ln(1 - a) (a clamped to kAvboitMaxCoverage), added in fixed point to
// the voxel of the slice its coverage-weighted depth falls in. Additive sprites write nothing (they are emission, not
// extinction), nor do mesh particles, stale rows and broken geometry.
#include "shared/avboit.h"
#include "shared/particle_render.h"
#include "shared/render_passes.h"

layout(local_size_x = 64) in;  // kAvboitWorkgroupSize
layout(std140, binding = 0) uniform View { RenderView view; };
layout(std430, binding = 1) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 2) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 3) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 4) readonly buffer Counters { uint counters[]; };
layout(std430, binding = 5) readonly buffer Slices { AvboitSlices avboit; };
layout(std430, binding = 6) buffer Extinction { uint extinction[]; };  // columns x slices, fixed point
layout(binding = 7) uniform sampler2D atlas;
layout(binding = 8) uniform sampler2D scene_depth;  // reversed-Z
layout(push_constant) uniform Push { AvboitPush push; };

#include "render/avboit_common.glsl"
#include "render/particle_common.glsl"

// The standard 4x multisample positions (Vulkan's standardSampleLocations) in a unit footprint.
const vec2 kSamplePositions[4] = vec2[4](vec2(0.375, 0.125), vec2(0.875, 0.375), vec2(0.125, 0.625), vec2(0.625, 0.875));

// The quad's screen box in pixels, clipped against the near plane (Sutherland-Hodgman, as the
// compute path bins): false when nothing of it is in front of the near plane.
bool screen_box(ParticleSprite s, float near, out vec2 lo, out vec2 hi) {
  const vec2 corner[4] = vec2[4](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5));
  vec4 clip[4];
  for (uint k = 0u; k < 4u; ++k)
    clip[k] = view.view_projection * vec4(s.center + corner[k].x * s.axis_x + corner[k].y * s.axis_y, 1.0);
  lo = vec2(3.4e38);
  hi = vec2(-3.4e38);
  uint kept = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    vec4 va = clip[k], vb = clip[(k + 1u) & 3u];
    float da = va.w - near, db = vb.w - near;
    if (da >= 0.0) {
      lo = min(lo, va.xy / va.w);
      hi = max(hi, va.xy / va.w);
      ++kept;
    }
    if ((da >= 0.0) != (db >= 0.0)) {
      vec4 x = mix(va, vb, da / (da - db));
      lo = min(lo, x.xy / max(x.w, near));
      hi = max(hi, x.xy / max(x.w, near));
      ++kept;
    }
  }
  const vec2 size = view.viewport.xy;
  lo = clamp((lo * 0.5 + 0.5) * size, vec2(0.0), size);
  hi = clamp((hi * 0.5 + 0.5) * size, vec2(0.0), size);
  return kept > 0u && hi.x > lo.x && hi.y > lo.y;
}

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= min(counters[push.alive_count_word], push.capacity)) return;
  const uint slot = min(alive[i], push.capacity - 1u);
  const ParticleSprite s = particle_fetch(slot, push.record_words, push.record_count);
  if (!s.visible || (s.flags & kDrawProjectionMask) == kProjectionMesh || (s.flags & kDrawFlagAdditive) != 0u) return;
  const vec3 n = cross(s.axis_x, s.axis_y);
  const float aa = dot(s.axis_x, s.axis_x), ab = dot(s.axis_x, s.axis_y), bb = dot(s.axis_y, s.axis_y);
  const float det = aa * bb - ab * ab;
  if (!(det > 0.0) || !(s.color.w > 0.0) || any(isnan(s.center)) || any(isinf(s.center))) return;
  const vec3 dual_x = (bb * s.axis_x - ab * s.axis_y) / det;
  const vec3 dual_y = (aa * s.axis_y - ab * s.axis_x) / det;
  const float near = max(view.clip.x, 1e-6);
  vec2 lo, hi;
  if (!screen_box(s, near, lo, hi)) return;

  const uvec3 grid = avboit.grid.xyz;
  const vec2 size = view.viewport.xy;
  const vec2 column_size = size / vec2(grid.xy);
  const uvec2 c0 = min(uvec2(lo / column_size), grid.xy - 1u);
  const uvec2 c1 = min(uvec2(hi / column_size), grid.xy - 1u);
  for (uint cy = c0.y; cy <= c1.y; ++cy) {
    for (uint cx = c0.x; cx <= c1.x; ++cx) {
      // The part of the column's footprint the box covers, and its share of the column.
      const vec2 foot_lo = max(vec2(cx, cy) * column_size, lo);
      const vec2 foot_hi = min(vec2(cx + 1u, cy + 1u) * column_size, hi);
      const vec2 foot = foot_hi - foot_lo;
      if (!(foot.x > 0.0 && foot.y > 0.0)) continue;
      const float share = foot.x * foot.y / (column_size.x * column_size.y);
      float coverage = 0.0, weighted_depth = 0.0;
      for (uint k = 0u; k < 4u; ++k) {
        const vec2 pixel = foot_lo + kSamplePositions[k] * foot;
        const vec2 ndc = pixel / size * 2.0 - 1.0;
        const vec4 p0 = view.inverse_view_projection * vec4(ndc, 1.0, 1.0);
        const vec4 p1 = view.inverse_view_projection * vec4(ndc, 0.5, 1.0);
        const vec3 origin = p0.xyz / p0.w;
        const vec3 dir = p1.xyz / p1.w - origin;
        const vec3 hit = origin + (dot(s.center - origin, n) / dot(dir, n)) * dir;
        const vec3 r = hit - s.center;
        const vec2 c = vec2(dot(r, dual_x), dot(r, dual_y));
        if (!all(lessThanEqual(abs(c), vec2(0.5)))) continue;  // outside the quad (or NaN)
        const float depth = dot(hit - view.camera_position.xyz, view.camera_forward.xyz);
        const ivec2 texel = clamp(ivec2(pixel), ivec2(0), ivec2(size) - 1);
        const float scene = particle_view_depth(texelFetch(scene_depth, texel, 0).r, near);
        if (!(depth >= near && depth <= scene)) continue;  // clipped or behind the scene
        const vec4 t = particle_sample(atlas, particle_corner_uv(c), s.frame, s.flipbook_columns, s.flipbook_rows,
                                       s.flags, s.uv_rect, s.atlas_rect);
        const float a = clamp(s.color.w * t.w, 0.0, 1.0) * particle_soft_fade(scene, depth, s.soft_distance);
        coverage += a;
        weighted_depth += a * depth;
      }
      if (!(coverage > 0.0)) continue;
      const float depth = weighted_depth / coverage;
      const float tau = -log(1.0 - min(coverage * 0.25 * share, kAvboitMaxCoverage));
      const uint k = min(uint(avboit_slice_at(depth)), grid.z - 1u);
      atomicAdd(extinction[(k * grid.y + cy) * grid.x + cx], uint(tau * kAvboitFixedPoint + 0.5));
    }
  }
}
