#version 460
// The delivery's order (docs/design/events.md, "On the GPU"): last frame's events are put in the
// reference's order by three stable radix sorts of (key, event) pairs, least significant key
// first: the sender's output, phase and index, then the sender's row, then the target's row
// (shared/frame_events.h, kFrameEventKey*). This pass writes one sort's keys over the pairs in
// their current order (the first also the pairs' values: the events in queue order), one
// invocation per event, indirect from the queue's header with a grid stride past it.
#include "shared/frame.h"
#include "shared/frame_events.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std430, binding = kFrameBindingEventsIn) readonly buffer EventsIn {
  FrameEventQueueHeader events_in_header;
  FrameEvent events_in[];
};
layout(std430, binding = kFrameBindingEventKeys) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = kFrameBindingEventOrder) buffer Order { uint order[]; };
layout(push_constant) uniform Push { FrameEventPush push; };

void main() {
  uint events = min(events_in_header.queued, uint(events_in.length()));
  for (uint i = gl_GlobalInvocationID.x; i < events; i += gl_NumWorkGroups.x * kFrameWorkgroupSize) {
    uint e = i;
    if (push.step == kFrameEventKeySender) order[i] = i;
    else e = min(order[i], events - 1u);
    uint sender = events_in[e].sender;
    uint key = 0u;
    if (push.step == kFrameEventKeySender)
      key = ((sender >> kFrameEventOutputShift) & 3u) << 25u | ((sender >> kFrameEventPhaseShift) & 1u) << 24u |
            min(events_in[e].index, 0xFFFFFFu);
    else if (push.step == kFrameEventKeySource)
      key = sender & kFrameHeaderRowMask;
    else
      key = events_in[e].target & kFrameHeaderRowMask;
    keys[i] = key;
  }
}
