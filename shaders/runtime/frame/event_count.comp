#version 460
// Delivery, before the tick (docs/design/events.md, "On the GPU"): one invocation per event of
// last frame's queue (indirect from its header, a grid stride past the dispatch) adds the event's
// children to its target row's FrameEventRow::children, which the tick puts before the row's rate
// and burst spawns, and keeps where they start among the row's children (child_first). An event
// whose target row was freed or reused since it was sent (another generation) is inert: its
// count becomes 0 and nothing spawns. Events of one row take their children in the order the
// atomics land, each event's children consecutively.
#include "shared/frame.h"
#include "shared/frame_events.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingEventRows) buffer EventRows { FrameEventRow event_rows[]; };
layout(std430, binding = kFrameBindingEventsIn) buffer EventsIn {
  FrameEventQueueHeader events_in_header;
  FrameEvent events_in[];
};

void main() {
  uint events = min(events_in_header.queued, uint(events_in.length()));
  uint rows = min(params.row_count, uint(event_rows.length()));
  for (uint e = gl_GlobalInvocationID.x; e < events; e += gl_NumWorkGroups.x * kFrameWorkgroupSize) {
    uint row = events_in[e].row;
    uint count = events_in[e].count;
    bool live = row < rows && emitters[row].generation != 0u && emitters[row].generation == events_in[e].generation;
    if (!live || count == 0u) {
      events_in[e].count = 0u;
      continue;
    }
    events_in[e].child_first = atomicAdd(event_rows[row].children, count);
    atomicAdd(event_rows[row].received, 1u);
  }
}
