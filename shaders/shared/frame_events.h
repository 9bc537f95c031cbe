// The GPU frame's events (docs/design/events.md, "On the GPU"; C++: src/runtime/frame/frame_events.*,
// GLSL: shaders/runtime/frame/event_*.comp, emit.comp, simulate.comp). A particle whose INIT or
// UPDATE sent events (EMIT_EVENT) appends one FrameEvent per (output, bound target) to this
// frame's queue; the next frame delivers them: event_count.comp adds each event's children to its
// target row's request (FrameEventRow::children, which the tick takes before the rate), and after
// the spawn scan event_scatter.comp writes, for each child that got a slot, its event's index at
// the child's newborn index, where emit reads the payload (EVENT_POSITION, _VELOCITY, _COLOR).
#ifndef MOTE_SHADERS_SHARED_FRAME_EVENTS_H
#define MOTE_SHADERS_SHARED_FRAME_EVENTS_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// One queued event: `count` children for the emitter at `target` (row | generation << 20, as a
// record header holds them: a row freed or reused since the send receives nothing), the sender's
// payload after its run, and where the event stands in the delivery's order (docs/design/events.md:
// by target row, then sender row, output, INIT before UPDATE, then the sender's newborn index in
// INIT or its entry in last frame's alive list in UPDATE: the reference's order, whatever order
// the appends landed in). `child_first` is the delivery's: the event's first child among its
// target's children this frame.
struct FrameEvent {
  uint target;
  uint count;
  uint child_first;
  uint sender;  // row | output << 20 | phase << 22 (0: INIT, 1: UPDATE)
  uint index;   // the sender's newborn index (INIT) or last frame's list entry (UPDATE)
  uint pad0;
  uint pad1;
  uint pad2;
  vec4 position;  // xyz0
  vec4 velocity;  // xyz0
  vec4 color;     // rgba
};
MOTE_ASSERT_SIZE(FrameEvent, 80);
MOTE_ASSERT_OFFSET(FrameEvent, target, 0);
MOTE_ASSERT_OFFSET(FrameEvent, count, 4);
MOTE_ASSERT_OFFSET(FrameEvent, child_first, 8);
MOTE_ASSERT_OFFSET(FrameEvent, sender, 12);
MOTE_ASSERT_OFFSET(FrameEvent, index, 16);
MOTE_ASSERT_OFFSET(FrameEvent, pad0, 20);
MOTE_ASSERT_OFFSET(FrameEvent, pad1, 24);
MOTE_ASSERT_OFFSET(FrameEvent, pad2, 28);
MOTE_ASSERT_OFFSET(FrameEvent, position, 32);
MOTE_ASSERT_OFFSET(FrameEvent, velocity, 48);
MOTE_ASSERT_OFFSET(FrameEvent, color, 64);

// A queue's header, before its events (the queue buffer: header, then `capacity` FrameEvents).
// `queued` counts every append asked for (atomicAdd, so it may pass the capacity: the appends at
// or past it are dropped and counted in `dropped`); the delivery reads min(queued, capacity).
// The groups are the delivery's indirect dispatch, written by event_args.comp from `queued`. The
// capacity is the buffer's (its events' length), which the shaders read from the binding.
struct FrameEventQueueHeader {
  uint groups_x;
  uint groups_y;
  uint groups_z;
  uint queued;
  uint dropped;
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(FrameEventQueueHeader, 32);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, groups_x, 0);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, groups_y, 4);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, groups_z, 8);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, queued, 12);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, dropped, 16);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, pad0, 20);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, pad1, 24);
MOTE_ASSERT_OFFSET(FrameEventQueueHeader, pad2, 28);

// Where a row's events go (host-written when a binding, an emitter or an effect changes):
// `targets[o]` holds output o's target emitters (row | generation << 20; kFrameNoEventTarget for
// none; up to kFrameEventTargets), `payload` where the sender's position, velocity, colour and
// trail_id fields lie in its record (x, y, z, w: word | components << 16; 0 components: the part
// reads 0; the trail_id goes in the position's spare lane; src/sim/event_payload.cpp is the one
// statement of it).
struct FrameEventRoutes {
  uvec4 targets[4];
  uvec4 payload;
};
MOTE_ASSERT_SIZE(FrameEventRoutes, 80);
MOTE_ASSERT_OFFSET(FrameEventRoutes, targets, 0);
MOTE_ASSERT_OFFSET(FrameEventRoutes, payload, 64);

// A row's events this frame (zeroed at the frame's start): the children its received events ask
// for (event_deliver.comp, which the tick adds to the request before the rate and bursts), those
// that got slots (`granted`, the tick: the row's first `granted` newborns are its children), the
// events it sent (one per output and target), those it received, those dropped for it by a full
// queue, the children the pool could not hold (or a culled target skipped), and where its
// children start in the delivery's scan of the counts (`child_base`).
struct FrameEventRow {
  uint children;
  uint granted;
  uint sent;
  uint received;
  uint queue_dropped;
  uint spawns_dropped;
  uint child_base;
  uint pad0;
};
MOTE_ASSERT_SIZE(FrameEventRow, 32);
MOTE_ASSERT_OFFSET(FrameEventRow, children, 0);
MOTE_ASSERT_OFFSET(FrameEventRow, granted, 4);
MOTE_ASSERT_OFFSET(FrameEventRow, sent, 8);
MOTE_ASSERT_OFFSET(FrameEventRow, received, 12);
MOTE_ASSERT_OFFSET(FrameEventRow, queue_dropped, 16);
MOTE_ASSERT_OFFSET(FrameEventRow, spawns_dropped, 20);
MOTE_ASSERT_OFFSET(FrameEventRow, child_base, 24);
MOTE_ASSERT_OFFSET(FrameEventRow, pad0, 28);

// Push constants of event_keys.comp and event_deliver.comp: the step (kFrameEventStep*).
struct FrameEventPush {
  uint step;
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(FrameEventPush, 16);
MOTE_ASSERT_OFFSET(FrameEventPush, step, 0);
MOTE_ASSERT_OFFSET(FrameEventPush, pad0, 4);
MOTE_ASSERT_OFFSET(FrameEventPush, pad1, 8);
MOTE_ASSERT_OFFSET(FrameEventPush, pad2, 12);
// event_keys.comp: the key of each of the three stable sorts, least significant first.
MOTE_CONSTANT(uint, kFrameEventKeySender, 0u);  // output << 25 | phase << 24 | index (27 bits)
MOTE_CONSTANT(uint, kFrameEventKeySource, 1u);  // the sender's row
MOTE_CONSTANT(uint, kFrameEventKeyTarget, 2u);  // the target's row
MOTE_CONSTANT(uint, kFrameEventSenderKeyBits, 27u);
// event_deliver.comp's steps, in order (the counts' exclusive scan between the first two).
MOTE_CONSTANT(uint, kFrameEventStepCounts, 0u);    // each sorted event's count (0: inert)
MOTE_CONSTANT(uint, kFrameEventStepSegments, 1u);  // each target's first child in the scan
MOTE_CONSTANT(uint, kFrameEventStepAssign, 2u);    // each event's child_first, each target's children

// Targets one output of one emitter may be bound to.
MOTE_CONSTANT(uint, kFrameEventTargets, 4u);
MOTE_CONSTANT(uint, kFrameNoEventTarget, 0xFFFFFFFFu);
// FrameEvent::sender's fields.
MOTE_CONSTANT(uint, kFrameEventOutputShift, 20u);
MOTE_CONSTANT(uint, kFrameEventPhaseShift, 22u);

MOTE_SHARED_END
#endif
