#version 460
// The compute draw path's blend: one 16 x 16 workgroup per screen tile, one invocation per pixel.
// The tile's pairs (tile_ranges) come sorted nearest first; in rounds of kTileBlendBatch the
// workgroup stages their sprites in shared memory (one fetch per sprite per tile, not per pixel:
// the 3D Gaussian Splatting rasterizer's batching, Kerbl et al. 2023), then every pixel walks the
// round: its centre ray (unprojected through inverse_view_projection) meets the quad's plane, the
// hit's quad coordinates c (in the dual basis of axis_x / axis_y) decide coverage (|c| <= 0.5),
// UV = particle_corner_uv(c), the texel and premultiplied colour come from particle_common.glsl,
// and the hit must lie between the near plane and the scene (view distance <= the depth
// texel's). Lit sprites (kDrawFlagLit) are lit per pixel as the raster path lights them
// (render/particle_lighting.glsl: the irradiance volume at the hit, the normal bent at c, back-face
// transmission). Front to back:
// C += (1 - A) c, A += (1 - A) a (additive: a = 0). A pixel stops once A > kOpaque; the
// workgroup stops when every pixel has. Last, colour = C + (1 - A) colour_in.
// The order is each particle's quantised centre depth, as a sorted raster path's: exact per
// particle, not per fragment (intersecting quads do not cut each other). Each hit is seen
// through the froxel fog in front of it (media/fog_apply.glsl), as the raster path's fragments are.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#include "media/fog_apply.glsl"
#include "render/tile_common.glsl"
#include "shared/particle_render.h"

layout(local_size_x = 16, local_size_y = 16) in;  // kTileSize^2 = kTileBlendWorkgroupSize

layout(std430, binding = 0) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 1) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std140, binding = 2) uniform View { RenderView view; };
layout(std430, binding = 3) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 4) readonly buffer Values { uint values[]; };
layout(std430, binding = 5) readonly buffer Ranges { uvec2 ranges[]; };
layout(binding = 6) uniform sampler2D atlas;
layout(binding = 7) uniform sampler2D scene_depth;
layout(binding = 8, rgba16f) uniform image2D color;
layout(binding = 9) uniform sampler3D irradiance_luma;
layout(binding = 10) uniform sampler3D fog_integrated;
layout(std140, binding = 11) uniform FogSampling { MediaFogSampling fog_sampling; };
layout(binding = 12) uniform sampler3D irradiance_chroma;
layout(std140, binding = 13) uniform IrradianceSampling { MediaFogSampling irradiance_sampling; };

#include "render/particle_common.glsl"
#include "render/particle_lighting.glsl"

// Accumulated alpha past which a pixel takes no more particles (the remainder shows at most
// 0.4 % of what lies behind).
const float kOpaque = 0.996;

// One staged sprite: its plane and quad basis, and what the texel and colour need.
shared vec4 s_center[kTileBlendBatch];    // xyz, soft_distance
shared vec4 s_normal[kTileBlendBatch];    // xyz = axis_x x axis_y (0: draw nothing), frame
shared vec3 s_dual_x[kTileBlendBatch];    // c.x = dot(hit - center, dual_x)
shared vec3 s_dual_y[kTileBlendBatch];    // c.y likewise
shared uvec2 s_bits[kTileBlendBatch];     // flags, flipbook columns | rows << 16
shared vec4 s_color[kTileBlendBatch];     // straight alpha, tinted
shared vec4 s_uv_rect[kTileBlendBatch];
shared vec4 s_atlas_rect[kTileBlendBatch];
shared vec3 s_face[kTileBlendBatch];   // lit: the plane's normal turned to the eye
shared vec3 s_right[kTileBlendBatch];  // lit: the unit in-plane axes the normal bends along
shared vec3 s_up[kTileBlendBatch];
shared uint s_active;  // 1 while some pixel of the tile still takes particles

void stage_sprite(uint k, uint alive_index) {
  const uint slot = min(alive[alive_index], params.capacity - 1u);
  ParticleSprite s = particle_fetch(slot, params.record_words, params.record_count);
  const vec3 n = cross(s.axis_x, s.axis_y);
  // The dual basis of the (generally non-orthogonal) axes: c = (dot(r, dx), dot(r, dy)) solves
  // r = c.x axis_x + c.y axis_y for r in the plane (the inverse of the 2 x 2 Gram matrix).
  const float aa = dot(s.axis_x, s.axis_x), ab = dot(s.axis_x, s.axis_y), bb = dot(s.axis_y, s.axis_y);
  const float det = aa * bb - ab * ab;
  const bool drawn = s.visible && (s.flags & kDrawProjectionMask) != kProjectionMesh && det > 0.0;
  const float inv = drawn ? 1.0 / det : 0.0;
  s_center[k] = vec4(s.center, s.soft_distance);
  s_normal[k] = vec4(drawn ? n : vec3(0.0), s.frame);
  s_dual_x[k] = (bb * s.axis_x - ab * s.axis_y) * inv;
  s_dual_y[k] = (aa * s.axis_y - ab * s.axis_x) * inv;
  s_bits[k] = uvec2(s.flags, min(s.flipbook_columns, 0xFFFFu) | (min(s.flipbook_rows, 0xFFFFu) << 16));
  s_color[k] = s.color;
  const bool lit = (s.flags & kDrawFlagLit) != 0u && drawn;
  s_face[k] = lit ? particle_lit_face(s.axis_x, s.axis_y, view.camera_position.xyz - s.center) : vec3(0.0);
  s_right[k] = lit ? normalize(s.axis_x) : vec3(0.0);
  s_up[k] = lit ? normalize(s.axis_y) : vec3(0.0);
  s_uv_rect[k] = s.uv_rect;
  s_atlas_rect[k] = s.atlas_rect;
}

void main() {
  const uint tile = gl_WorkGroupID.y * params.tiles_x + gl_WorkGroupID.x;
  const uvec2 range = ranges[tile];
  if (range.x >= range.y) return;  // uniform: nothing covers this tile, its pixels stay as they are

  const ivec2 pixel = ivec2(gl_WorkGroupID.xy * kTileSize + gl_LocalInvocationID.xy);
  const bool on_screen = pixel.x < int(params.width) && pixel.y < int(params.height);
  const float near = max(view.clip.x, 1e-6);

  // The pixel centre's ray: two points of it unprojected (reversed-Z: NDC depth 1 is the near
  // plane, 0.5 twice as far), NDC y = -1 on the top row.
  const vec2 ndc = (vec2(pixel) + 0.5) / vec2(float(params.width), float(params.height)) * 2.0 - 1.0;
  const vec4 p0 = view.inverse_view_projection * vec4(ndc, 1.0, 1.0);
  const vec4 p1 = view.inverse_view_projection * vec4(ndc, 0.5, 1.0);
  const vec3 origin = p0.xyz / p0.w;
  const vec3 dir = p1.xyz / p1.w - origin;

  // The scene's view distance at this pixel (the far plane, 1e6 near, where nothing was drawn).
  const float scene_distance =
      on_screen ? particle_view_depth(texelFetch(scene_depth, pixel, 0).r, near) : 0.0;

  vec3 accum = vec3(0.0);
  float alpha = 0.0;
  bool done = !on_screen;
  const uint local = gl_LocalInvocationIndex;

  for (uint start = range.x; start < range.y; start += kTileBlendBatch) {
    barrier();  // the previous round's sprites and vote have been read
    if (local == 0u) s_active = 0u;
    barrier();
    if (subgroupAny(!done) && subgroupElect()) atomicOr(s_active, 1u);
    const uint count = min(kTileBlendBatch, range.y - start);
    if (local < count) stage_sprite(local, values[start + local]);
    barrier();
    if (s_active == 0u) break;  // uniform: every pixel of the tile is opaque

    if (!done) {
      for (uint k = 0u; k < count; ++k) {
        const vec3 n = s_normal[k].xyz;
        const vec3 center = s_center[k].xyz;
        const float t = dot(center - origin, n) / dot(dir, n);  // edge-on or undrawn: inf / NaN, rejected below
        const vec3 hit = origin + t * dir;
        const vec3 r = hit - center;
        const vec2 c = vec2(dot(r, s_dual_x[k]), dot(r, s_dual_y[k]));
        if (!all(lessThanEqual(abs(c), vec2(0.5)))) continue;  // outside the quad (or NaN)
        // View distance as the raster path measures it (particle_quad.vert).
        const float hit_distance = dot(hit - view.camera_position.xyz, view.camera_forward.xyz);
        if (!(hit_distance >= near && hit_distance <= scene_distance)) continue;  // clipped or behind the scene

        const uint flags = s_bits[k].x;
        const uint flipbook = s_bits[k].y;
        const vec4 texel = particle_sample(atlas, particle_corner_uv(c), s_normal[k].w, flipbook & 0xFFFFu,
                                           flipbook >> 16, flags, s_uv_rect[k], s_atlas_rect[k]);
        const float fade = particle_soft_fade(scene_distance, hit_distance, s_center[k].w);
        const vec2 screen_uv = (ndc + 1.0) * 0.5;
        vec4 color = s_color[k];
        if ((flags & kDrawFlagLit) != 0u) {
          const vec3 normal = particle_lit_normal(s_face[k], s_right[k], s_up[k], c);
          color = particle_lit_fragment(irradiance_luma, irradiance_chroma, irradiance_sampling, screen_uv,
                                        hit_distance, normal, color, texel.a, fade);
        }
        const vec4 premultiplied =
            media_fog_premultiplied(particle_premultiply(color, texel, (flags & kDrawFlagAdditive) != 0u, fade),
                                    media_fog_at(fog_integrated, fog_sampling, screen_uv, hit_distance));
        accum += (1.0 - alpha) * premultiplied.rgb;
        alpha += (1.0 - alpha) * premultiplied.a;
        if (alpha > kOpaque) {
          done = true;
          break;
        }
      }
    }
  }

  if (!on_screen || (alpha == 0.0 && all(equal(accum, vec3(0.0))))) return;
  const vec4 under = imageLoad(color, pixel);
  imageStore(color, pixel, vec4(accum + (1.0 - alpha) * under.rgb, alpha + (1.0 - alpha) * under.a));
}
