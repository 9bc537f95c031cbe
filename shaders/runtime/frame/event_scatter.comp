#version 460
// Delivery, after the spawn scan (docs/design/events.md, "On the GPU"): one invocation per event
// of last frame's queue writes the event's index at the newborn index of each of its children
// that got a slot. The row's newborns start at the scan's sum before the row's place in the spawn
// order; its first FrameEventRow::granted newborns are its children (the tick), child_first and
// on this event's. Emit reads the index back for each child and the payload from the event.
#include "shared/frame.h"
#include "shared/frame_events.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingSpawnSums) readonly buffer SpawnSums { uint spawn_sums[]; };
layout(std430, binding = kFrameBindingSpawnPlaces) readonly buffer SpawnPlaces { uint spawn_places[]; };
layout(std430, binding = kFrameBindingEventRows) readonly buffer EventRows { FrameEventRow event_rows[]; };
layout(std430, binding = kFrameBindingEventsIn) readonly buffer EventsIn {
  FrameEventQueueHeader events_in_header;
  FrameEvent events_in[];
};
layout(std430, binding = kFrameBindingEventChildren) writeonly buffer EventChildren { uint event_children[]; };

void main() {
  uint events = min(events_in_header.queued, uint(events_in.length()));
  uint rows = min(params.row_count, uint(event_rows.length()));
  uint last = uint(event_children.length()) - 1u;
  for (uint e = gl_GlobalInvocationID.x; e < events; e += gl_NumWorkGroups.x * kFrameWorkgroupSize) {
    uint row = events_in[e].target & kFrameHeaderRowMask;
    uint count = events_in[e].count;
    if (row >= rows || count == 0u) continue;
    uint place = min(spawn_places[row], rows - 1u);
    uint first = place == 0u ? 0u : spawn_sums[place - 1u];
    uint granted = event_rows[row].granted;
    uint begin = min(events_in[e].child_first, granted);
    uint end = min(events_in[e].child_first + min(count, granted), granted);
    for (uint k = begin; k < end; ++k) event_children[min(first + k, last)] = e;
  }
}
