#version 460
// Delivery, before the tick (docs/design/events.md, "On the GPU"), over last frame's events in
// the delivery's order (event_keys.comp and the sorts: by target row, then the reference's sent
// order), one invocation per event, indirect from the queue's header with a grid stride past it.
// Three steps (FrameEventPush::step), the counts' exclusive scan between the first two:
// - kFrameEventStepCounts: each event's count, 0 for an inert one (its target row freed or
//   reused since the send: another generation), into the scan's input;
// - kFrameEventStepSegments: at the first event of each target row, where the row's children
//   start in the scan (FrameEventRow::child_base); each live event counts as received;
// - kFrameEventStepAssign: each event's first child among its target's children (its scan value
//   less the row's base), and at the last event of a row the row's children, which the tick asks
//   for before the rate and bursts.
// So a row's events take their children in the reference's order, each event's consecutively,
// whatever order the appends landed in.
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
layout(std430, binding = kFrameBindingEventKeys) buffer Scan { uint scan[]; };  // counts, then their exclusive sums
layout(std430, binding = kFrameBindingEventOrder) readonly buffer Order { uint order[]; };
layout(push_constant) uniform Push { FrameEventPush push; };

uint event_at(uint i, uint events) { return min(order[i], events - 1u); }
uint target_row(uint e) { return events_in[e].target & kFrameHeaderRowMask; }

void main() {
  uint events = min(events_in_header.queued, uint(events_in.length()));
  uint rows = min(params.row_count, uint(event_rows.length()));
  for (uint i = gl_GlobalInvocationID.x; i < events; i += gl_NumWorkGroups.x * kFrameWorkgroupSize) {
    uint e = event_at(i, events);
    uint row = target_row(e);
    if (push.step == kFrameEventStepCounts) {
      uint target = events_in[e].target;
      bool live = row < rows && emitters[row].generation != 0u &&
                  (emitters[row].generation & kFrameHeaderGenerationMask) == (target >> kFrameHeaderRowBits);
      scan[i] = live ? events_in[e].count : 0u;
      continue;
    }
    if (row >= rows) continue;  // inert: a row past the table (its count read 0)
    bool first = i == 0u || target_row(event_at(i - 1u, events)) != row;
    if (push.step == kFrameEventStepSegments) {
      if (first) event_rows[row].child_base = scan[i];
      continue;
    }
    // kFrameEventStepAssign: the scan is exclusive; this event's own count follows from the next
    // event's sum, or for the last event from its count (0 when inert: re-checked here).
    bool last = i + 1u == events || target_row(event_at(i + 1u, events)) != row;
    uint child_first = scan[i] - event_rows[row].child_base;
    bool live = emitters[row].generation != 0u &&
                (emitters[row].generation & kFrameHeaderGenerationMask) == (events_in[e].target >> kFrameHeaderRowBits);
    events_in[e].child_first = child_first;
    if (!live) events_in[e].count = 0u;  // the scatter skips it
    else atomicAdd(event_rows[row].received, 1u);
    if (last) event_rows[row].children = child_first + (live ? events_in[e].count : 0u);
  }
}
