// Where an event's payload comes from (docs/design/events.md): the sender's render position,
// velocity and colour fields, read from its record after the run that sent the event. One
// statement of it for the reference simulation and the GPU frame (which hands the offsets to
// its shaders).
#pragma once

#include <array>
#include <cstdint>

#include "mote/effect.hpp"

namespace mote::sim {

// Each part of the payload (position, velocity, colour, and the sender's identity): the record
// word its field starts at and how many of its components the field fills (0: no such field, the
// part reads 0). The identity (part 3) is a width-1 particle field named "trail_id", carried in
// the position part's spare lane (payload word 3), which EVENT_ID reads: what a trail point takes
// as its ribbon id (docs/design/ribbons.md, "Trails").
struct EventPayloadLayout {
  std::array<uint32_t, 4> offset{};
  std::array<uint32_t, 4> width{};
};

// The layout of `effect`'s records: render.position_field, velocity_field and color_field, at
// most 3, 3 and 4 components of each.
EventPayloadLayout event_payload_layout(const CompiledEffect& effect);

// The payload of the record at `record` (12 f32: position xyz + trail_id, velocity xyz0, colour rgba).
std::array<float, 12> event_payload(const EventPayloadLayout& layout, const uint32_t* record);

}  // namespace mote::sim
