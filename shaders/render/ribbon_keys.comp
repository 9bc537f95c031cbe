#version 460
// The ribbon build's sort keys (src/render/ribbon_pass.cpp): three stable radix sorts, least
// significant first, order the alive list by (row, ribbon id, serial). Key kRibbonKeySerial also
// makes the values (the alive list's slots); the later keys are read from the values as the
// previous sort left them. A slot that is no ribbon point keys as all ones (its row key sorts it
// after every ribbon point; its serial and id keys do not matter).
#include "render/ribbon_common.glsl"

layout(local_size_x = 256) in;
layout(std430, binding = 4) readonly buffer Alive { uint alive[]; };
layout(std430, binding = 5) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 6) buffer Values { uint values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= ribbon_count()) return;
  uint slot;
  if (push.key == kRibbonKeySerial) {
    slot = min(alive[i], push.capacity - 1u);
    values[i] = slot;
  } else {
    slot = min(values[i], push.capacity - 1u);
  }
  uint row = ribbon_row(slot);
  uint key = 0xFFFFFFFFu;
  if (row != 0xFFFFFFFFu) {
    RibbonRecord r = ribbons[row];
    if (push.key == kRibbonKeySerial) key = ribbon_word(slot, r.serial_word);
    else if (push.key == kRibbonKeyId) key = (r.flags & kRibbonFlagIdField) != 0u ? ribbon_word(slot, r.id_word) : 0u;
    else key = row;
  }
  keys[i] = key;
}
