// The frame's event glue for emit.comp and simulate.comp (docs/design/events.md, "On the GPU";
// layouts in shared/frame_events.h). Included after the section (the interpreter's or the
// compiled one's), which leaves EMIT_EVENT's counts of the particle it ran in vm_event_counts.
// The includer declares FramePush push, the frame's Params, and calls frame_send_events(row)
// after each particle's run while its record (window or pool) still holds what the run wrote.
// Appends are atomics on the queue's count: a full queue drops and counts, never writes past it.
layout(std430, binding = kFrameBindingEventRoutes) readonly buffer EventRoutes { FrameEventRoutes event_routes[]; };
layout(std430, binding = kFrameBindingEventRows) buffer EventRows { FrameEventRow event_rows[]; };
layout(std430, binding = kFrameBindingEventsOut) buffer EventsOut {
  FrameEventQueueHeader events_out_header;
  FrameEvent events_out[];
};

// Part `part` of the payload (0 position, 1 velocity, 2 colour) of the record the run left: the
// field's first components (at most 3, 3, 4 of them), zeros past them.
vec4 frame_payload_part(uint packed) {
  uint word = packed & 0xFFFFu;
  uint components = min(packed >> 16u, 4u);
  vec4 v = vec4(0.0f);
  for (uint c = 0u; c < components; ++c) v[c] = vm_record_read(min(word + c, vm_record_words - 1u));
  return v;
}

// Queues the events the particle of `row` sent in the run just made: one FrameEvent per output
// with a count and per target bound to it, with where it stands in the delivery's order (`phase`
// 0 for INIT with the newborn index, 1 for UPDATE with last frame's list entry). Nothing when the
// dispatch does not route events (push.events 0: no binding, or the pre-warm).
void frame_send_events(uint row, uint phase, uint index) {
  if (push.events == 0u || vm_event_counts == uvec4(0u) || row >= uint(event_routes.length())) return;
  FrameEventRoutes routes = event_routes[row];
  vec4 position = vec4(frame_payload_part(routes.payload.x).xyz, frame_payload_part(routes.payload.w).x);
  vec4 velocity = frame_payload_part(routes.payload.y);
  vec4 color = frame_payload_part(routes.payload.z);
  uint capacity = uint(events_out.length());
  uint sent = 0u;
  for (uint o = 0u; o < kVmEventOutputs; ++o) {
    uint count = vm_event_counts[o];
    if (count == 0u) continue;
    for (uint k = 0u; k < kFrameEventTargets; ++k) {
      uint target = routes.targets[o][k];
      if (target == kFrameNoEventTarget) break;
      ++sent;
      uint at = atomicAdd(events_out_header.queued, 1u);
      if (at >= capacity) {
        atomicAdd(events_out_header.dropped, 1u);
        uint target_row = target & kFrameHeaderRowMask;
        if (target_row < uint(event_rows.length())) atomicAdd(event_rows[target_row].queue_dropped, 1u);
        continue;
      }
      uint sender = (row & kFrameHeaderRowMask) | (o << kFrameEventOutputShift) | (phase << kFrameEventPhaseShift);
      events_out[at] = FrameEvent(target, count, 0u, sender, index, 0u, 0u, 0u, position, velocity, color);
    }
  }
  if (sent != 0u) atomicAdd(event_rows[min(row, uint(event_rows.length()) - 1u)].sent, sent);
}
