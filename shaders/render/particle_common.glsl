// Reading a particle for drawing, shared by the raster path (particle_quad.vert/.frag), the mesh
// particles and the compute path (tile_*.comp). The includer declares, before including:
//   buffer ... { uint pool[]; };                       the runtime's pool
//   buffer ... { ParticleDrawRecord records[]; };      one per emitter row
//   uniform ... { RenderView view; };
//   and the push-constant values passed in as arguments below (record_words, record_count).
// Everything a draw reads goes through the bounds checks here: a hostile or stale record word
// can never index outside the pool (R2: a GPU program never reads outside its buffers).
#ifndef MOTE_SHADERS_RENDER_PARTICLE_COMMON_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_COMMON_GLSL

#include "shared/frame.h"
#include "shared/particle_render.h"

// A particle as the draw sees it: centre, the world offsets of a unit step along the quad's
// corner x and y (F · Q · (size, 0, 0) and F · Q · (0, size · stretch, 0): the corner offset is
// linear in the corner), and the per-particle values the fragment stage needs.
struct ParticleSprite {
  bool visible;
  uint flags;
  vec3 center;
  vec3 axis_x;
  vec3 axis_y;
  vec4 color;       // straight alpha, tinted
  vec4 uv_rect;     // the particle's own UV rect, e.g. a palette entry (particle_render.h)
  vec4 atlas_rect;  // its texture in the atlas
  float frame;      // flipbook frame, real (its fraction blends)
  uint flipbook_columns;
  uint flipbook_rows;
  float soft_distance;
  vec4 orientation;  // unit quaternion (mesh particles turn their mesh by it)
  float size;        // full width in metres (mesh particles: the scale)
};

float particle_word(uint base, uint word, uint record_words, float fallback) {
  return (word == kDrawUnbound || word >= record_words) ? fallback : uintBitsToFloat(pool[base + word]);
}

vec3 particle_vec3(uint base, uint word, uint record_words, vec3 fallback) {
  return (word == kDrawUnbound || word + 3u > record_words)
             ? fallback
             : vec3(uintBitsToFloat(pool[base + word]), uintBitsToFloat(pool[base + word + 1u]),
                    uintBitsToFloat(pool[base + word + 2u]));
}

vec4 particle_vec4(uint base, uint word, uint record_words, vec4 fallback) {
  return (word == kDrawUnbound || word + 4u > record_words)
             ? fallback
             : vec4(uintBitsToFloat(pool[base + word]), uintBitsToFloat(pool[base + word + 1u]),
                    uintBitsToFloat(pool[base + word + 2u]), uintBitsToFloat(pool[base + word + 3u]));
}

// `slot` must be < capacity (the caller clamps alive-list entries); the record is found from the
// header's row and must be live with the header's generation.
ParticleSprite particle_fetch(uint slot, uint record_words, uint record_count) {
  ParticleSprite s;
  uint base = slot * record_words;
  uint header = pool[base];
  uint row = header & kFrameHeaderRowMask;
  uint generation = header >> kFrameHeaderRowBits;
  s.visible = false;
  s.flags = 0u;
  s.center = vec3(0.0);
  s.axis_x = vec3(0.0);
  s.axis_y = vec3(0.0);
  s.color = vec4(0.0);
  s.uv_rect = vec4(0.0, 0.0, 1.0, 1.0);
  s.atlas_rect = vec4(0.0, 0.0, 1.0, 1.0);
  s.frame = 0.0;
  s.flipbook_columns = 1u;
  s.flipbook_rows = 1u;
  s.soft_distance = 0.0;
  s.orientation = vec4(0.0, 0.0, 0.0, 1.0);
  s.size = 0.0;
  if (row >= record_count) return s;
  ParticleDrawRecord r = records[row];
  if ((r.flags & kDrawFlagLive) == 0u || (r.generation & kFrameHeaderGenerationMask) != generation) return s;
  uint mode = r.flags & kDrawProjectionMask;
  if (mode == kProjectionRibbon) return s;  // a strip's point, drawn by the ribbon draws only
  s.visible = true;
  s.flags = r.flags;
  s.center = particle_vec3(base, r.position_word, record_words, vec3(0.0));
  vec3 velocity = particle_vec3(base, r.velocity_word, record_words, vec3(0.0));
  float size = particle_word(base, r.size_word, record_words, 1.0) * r.size_scale;
  vec4 stored_rotation = r.rotation_width == 4u ? particle_vec4(base, r.rotation_word, record_words, vec4(0.0))
                                                : vec4(particle_word(base, r.rotation_word, record_words, 0.0), 0.0, 0.0, 0.0);
  uint rotation_width = r.rotation_word == kDrawUnbound ? 0u : r.rotation_width;
  s.orientation = particle_orientation(rotation_width, stored_rotation);
  s.size = size;
  mat3 frame = particle_frame(mode, s.center, velocity, view.camera_position.xyz, view.camera_right.xyz,
                              view.camera_up.xyz, view.camera_forward.xyz);
  float stretch = particle_stretch(mode, velocity, view.camera_forward.xyz);
  s.axis_x = particle_corner_offset(frame, s.orientation, vec2(1.0, 0.0), size, stretch);
  s.axis_y = particle_corner_offset(frame, s.orientation, vec2(0.0, 1.0), size, stretch);
  s.color = particle_vec4(base, r.color_word, record_words, vec4(1.0)) * r.tint;
  s.uv_rect = particle_vec4(base, r.uv_rect_word, record_words, vec4(0.0, 0.0, 1.0, 1.0));
  s.atlas_rect = r.atlas_rect;
  s.flipbook_columns = max(r.flipbook_columns, 1u);
  s.flipbook_rows = max(r.flipbook_rows, 1u);
  float age = particle_word(base, r.age_word, record_words, 0.0);
  float lifetime = particle_word(base, r.lifetime_word, record_words, 0.0);
  float frame_value = particle_word(base, r.frame_word, record_words, 0.0);
  s.frame = particle_flipbook_frame(r.frame_word != kDrawUnbound, frame_value, age, lifetime, s.flipbook_columns,
                                    s.flipbook_rows);
  s.soft_distance = (r.flags & kDrawFlagSoft) != 0u ? r.soft_distance : 0.0;
  return s;
}

// The atlas UV of image UV `uv` for flipbook cell `cell` of a sprite (the chain in particle_render.h).
vec2 particle_atlas_uv(vec2 uv, float cell, uint columns, uint rows, vec4 uv_rect, vec4 atlas_rect) {
  vec2 in_cell = (columns * rows > 1u) ? particle_flipbook_uv(uv, cell, columns, rows) : uv;
  return particle_rect_uv(particle_rect_uv(in_cell, uv_rect), atlas_rect);
}

// The sprite's texel at image UV `uv`: the flipbook frame floor(frame), or with
// kDrawFlagFlipbookBlend the mix of it and the next by the fraction. Level 0 only (the atlas
// has no mips: sprites are small on screen and the soft disc is smooth).
vec4 particle_sample(sampler2D atlas, vec2 uv, float frame, uint columns, uint rows, uint flags, vec4 uv_rect,
                     vec4 atlas_rect) {
  float f0 = floor(frame);
  vec4 a = textureLod(atlas, particle_atlas_uv(uv, f0, columns, rows, uv_rect, atlas_rect), 0.0);
  float cells = float(columns * rows);
  if ((flags & kDrawFlagFlipbookBlend) == 0u || cells <= 1.0) return a;
  float f1 = min(f0 + 1.0, cells - 1.0);
  vec4 b = textureLod(atlas, particle_atlas_uv(uv, f1, columns, rows, uv_rect, atlas_rect), 0.0);
  return mix(a, b, frame - f0);
}

#endif
