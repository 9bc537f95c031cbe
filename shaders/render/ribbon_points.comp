#version 460
// Each place of the sorted order as a RibbonPoint: the particle's position, width (the size
// channel × the record's size scale), tinted straight-alpha colour and normal, its row and ribbon
// id (row 0xFFFFFFFF: no ribbon point). Links, lengths and u come in the next passes.
#include "render/ribbon_common.glsl"

layout(local_size_x = 256) in;
layout(std430, binding = 4) readonly buffer Values { uint values[]; };
layout(std430, binding = 5) writeonly buffer Points { RibbonPoint points[]; };

float word_float(uint slot, uint word, float fallback) {
  return (word == kDrawUnbound || word >= push.record_words) ? fallback : uintBitsToFloat(ribbon_word(slot, word));
}

vec3 word_vec3(uint slot, uint word, vec3 fallback) {
  if (word == kDrawUnbound || word + 3u > push.record_words) return fallback;
  return vec3(word_float(slot, word, 0.0), word_float(slot, word + 1u, 0.0), word_float(slot, word + 2u, 0.0));
}

vec4 word_vec4(uint slot, uint word, vec4 fallback) {
  if (word == kDrawUnbound || word + 4u > push.record_words) return fallback;
  return vec4(word_float(slot, word, 0.0), word_float(slot, word + 1u, 0.0), word_float(slot, word + 2u, 0.0),
              word_float(slot, word + 3u, 0.0));
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= ribbon_count()) return;
  uint slot = min(values[i], push.capacity - 1u);
  uint row = ribbon_row(slot);
  RibbonPoint p;
  p.position_width = vec4(0.0);
  p.color = vec4(0.0);
  p.normal_u = vec4(0.0);
  p.row = row;
  p.id = 0u;
  p.slot = slot;
  p.flags = 0u;
  if (row != 0xFFFFFFFFu) {
    ParticleDrawRecord d = records[row];
    RibbonRecord r = ribbons[row];
    p.position_width = vec4(word_vec3(slot, d.position_word, vec3(0.0)), word_float(slot, d.size_word, 1.0) * d.size_scale);
    p.color = word_vec4(slot, d.color_word, vec4(1.0)) * d.tint;
    vec3 n = (r.flags & kRibbonFlagFacingNormal) != 0u ? word_vec3(slot, r.normal_word, vec3(0.0)) : vec3(0.0);
    p.normal_u = vec4(n, 0.0);
    p.id = (r.flags & kRibbonFlagIdField) != 0u ? ribbon_word(slot, r.id_word) : 0u;
    p.flags = kRibbonPointValid;
  }
  points[i] = p;
}
