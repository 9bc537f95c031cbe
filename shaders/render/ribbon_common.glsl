// Shared by the ribbon build passes (shaders/render/ribbon_*.comp; src/render/ribbon_pass.cpp):
// the bindings every pass declares and the test of whether a pool slot is a ribbon point.
#ifndef MOTE_SHADERS_RENDER_RIBBON_COMMON_GLSL
#define MOTE_SHADERS_RENDER_RIBBON_COMMON_GLSL

#include "shared/frame.h"
#include "shared/ribbon.h"

layout(std430, binding = 0) readonly buffer Pool { uint pool[]; };
layout(std430, binding = 1) readonly buffer Records { ParticleDrawRecord records[]; };
layout(std430, binding = 2) readonly buffer RibbonRecords { RibbonRecord ribbons[]; };
layout(std430, binding = 3) readonly buffer Counters { uint counters[]; };
layout(push_constant) uniform Push { RibbonPush push; };

uint ribbon_count() { return min(counters[push.alive_count_word], push.capacity); }

// The row of the ribbon point at pool slot `slot` (< capacity), or 0xFFFFFFFF when the slot's
// particle is not one: a row past the records, not live, of another generation, or not a ribbon row.
uint ribbon_row(uint slot) {
  uint header = pool[slot * push.record_words];
  uint row = header & kFrameHeaderRowMask;
  if (row >= push.record_count) return 0xFFFFFFFFu;
  ParticleDrawRecord r = records[row];
  bool live = (r.flags & kDrawFlagLive) != 0u && (r.generation & kFrameHeaderGenerationMask) == (header >> kFrameHeaderRowBits);
  bool ribbon = (r.flags & kDrawProjectionMask) == kProjectionRibbon && (ribbons[row].flags & kRibbonFlagLive) != 0u;
  return live && ribbon ? row : 0xFFFFFFFFu;
}

// Record word `word` of slot `slot` as raw bits, 0 when unbound or outside the record.
uint ribbon_word(uint slot, uint word) {
  return (word == kDrawUnbound || word >= push.record_words) ? 0u : pool[slot * push.record_words + word];
}

#endif
