#include "sim/event_payload.hpp"

#include <algorithm>
#include <bit>

namespace mote::sim {

EventPayloadLayout event_payload_layout(const CompiledEffect& effect) {
  EventPayloadLayout layout;
  const std::string* names[3] = {&effect.render.position_field, &effect.render.velocity_field,
                                 &effect.render.color_field};
  const uint32_t widest[3] = {3, 3, 4};
  for (uint32_t part = 0; part < 3; ++part) {
    for (const FieldDecl& f : effect.program.particle_fields) {
      if (f.name != *names[part]) continue;
      layout.offset[part] = *effect.program.particle_field_offset(f.name);
      layout.width[part] = std::min(f.width, widest[part]);
      break;
    }
  }
  for (const FieldDecl& f : effect.program.particle_fields)
    if (f.name == "trail_id" && f.width == 1) {
      layout.offset[3] = *effect.program.particle_field_offset(f.name);
      layout.width[3] = 1;
    }
  return layout;
}

std::array<float, 12> event_payload(const EventPayloadLayout& layout, const uint32_t* record) {
  std::array<float, 12> payload{};
  for (uint32_t part = 0; part < 3; ++part)
    for (uint32_t c = 0; c < layout.width[part]; ++c)
      payload[4 * part + c] = std::bit_cast<float>(record[layout.offset[part] + c]);
  if (layout.width[3] != 0) payload[3] = std::bit_cast<float>(record[layout.offset[3]]);
  return payload;
}

}  // namespace mote::sim
