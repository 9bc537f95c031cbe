#version 460
// The delivery's indirect dispatch (docs/design/events.md, "On the GPU"): one invocation turns
// last frame's queue count (the appends asked for, clamped to the queue's capacity) into the
// groups event_count.comp and event_scatter.comp launch, kept in the queue's header.
#include "shared/frame.h"
#include "shared/frame_events.h"

layout(local_size_x = 1) in;

layout(std430, binding = kFrameBindingEventsIn) buffer EventsIn {
  FrameEventQueueHeader events_in_header;
  FrameEvent events_in[];
};

void main() {
  uint events = min(events_in_header.queued, uint(events_in.length()));
  events_in_header.groups_x = min((events + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
  events_in_header.groups_y = 1u;
  events_in_header.groups_z = 1u;
}
