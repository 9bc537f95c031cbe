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

// One queued event: `count` children for emitter row `row` (of generation `generation` when it
// was sent: a row freed or reused since receives nothing), the sender's payload after its run.
// `child_first` is written by the delivery (event_count.comp): the event's first child among its
// target row's children this frame.
struct FrameEvent {
  uint row;
  uint generation;
  uint count;
  uint child_first;
  vec4 position;  // xyz0
  vec4 velocity;  // xyz0
  vec4 color;     // rgba
};
MOTE_ASSERT_SIZE(FrameEvent, 64);
MOTE_ASSERT_OFFSET(FrameEvent, row, 0);
MOTE_ASSERT_OFFSET(FrameEvent, generation, 4);
MOTE_ASSERT_OFFSET(FrameEvent, count, 8);
MOTE_ASSERT_OFFSET(FrameEvent, child_first, 12);
MOTE_ASSERT_OFFSET(FrameEvent, position, 16);
MOTE_ASSERT_OFFSET(FrameEvent, velocity, 32);
MOTE_ASSERT_OFFSET(FrameEvent, color, 48);

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
// `targets[o]` holds output o's target rows (kFrameNoEventTarget for none; up to
// kFrameEventTargets), `generations[o]` their generations; `payload` says where the sender's
// position, velocity and colour fields lie in its record (x, y, z: word | components << 16, 0
// components: the part reads 0; src/sim/event_payload.cpp is the one statement of it).
struct FrameEventRoutes {
  uvec4 targets[4];
  uvec4 generations[4];
  uvec4 payload;
};
MOTE_ASSERT_SIZE(FrameEventRoutes, 144);
MOTE_ASSERT_OFFSET(FrameEventRoutes, targets, 0);
MOTE_ASSERT_OFFSET(FrameEventRoutes, generations, 64);
MOTE_ASSERT_OFFSET(FrameEventRoutes, payload, 128);

// A row's events this frame (zeroed at the frame's start): the children its received events ask
// for (event_count.comp's atomics, which the tick adds to the request before the rate and
// bursts), those that got slots (`granted`, the tick: the row's first `granted` newborns are its
// children), the events it sent (one per output and target), those it received, those dropped
// for it by a full queue, and the children the pool could not hold (or a culled target skipped).
struct FrameEventRow {
  uint children;
  uint granted;
  uint sent;
  uint received;
  uint queue_dropped;
  uint spawns_dropped;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(FrameEventRow, 32);
MOTE_ASSERT_OFFSET(FrameEventRow, children, 0);
MOTE_ASSERT_OFFSET(FrameEventRow, granted, 4);
MOTE_ASSERT_OFFSET(FrameEventRow, sent, 8);
MOTE_ASSERT_OFFSET(FrameEventRow, received, 12);
MOTE_ASSERT_OFFSET(FrameEventRow, queue_dropped, 16);
MOTE_ASSERT_OFFSET(FrameEventRow, spawns_dropped, 20);
MOTE_ASSERT_OFFSET(FrameEventRow, pad0, 24);
MOTE_ASSERT_OFFSET(FrameEventRow, pad1, 28);

// Targets one output of one emitter may be bound to.
MOTE_CONSTANT(uint, kFrameEventTargets, 4u);
MOTE_CONSTANT(uint, kFrameNoEventTarget, 0xFFFFFFFFu);

MOTE_SHARED_END
#endif
