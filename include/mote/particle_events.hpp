// Events between the emitters of one ParticleSystem on the GPU (docs/design/events.md): an
// effect's event outputs ("event_outputs", send_event nodes) bound to target emitters, whose
// INIT reads each event's payload (event_position, event_velocity, event_color). The same rules
// as the reference simulation's SimulationGroup (mote/simulation_group.hpp): an event sent in one
// frame spawns its children in the next, before the target's rate and bursts; an output bound to
// nothing is inert; cycles move one hop per frame. Kept apart from mote/particles.hpp: free
// functions over a ParticleSystem.
#pragma once

#include <cstdint>
#include <string_view>

#include "mote/particles.hpp"
#include "mote/result.hpp"

namespace mote {

// Binds the source emitter's event output `output` (a name its effect declares) to `target`:
// from the next frame on, each event it sends there spawns that many children in `target`. Up to
// 4 targets per output. Errors (kNotFound / kInvalidArgument) name the argument in `where`:
// "source" or "target" (not live, or a stale id), "output" (not declared, or past the outputs),
// "target" (already bound, or 4 bound already).
Status bind_event(ParticleSystem& system, EmitterId source, std::string_view output, EmitterId target);
// The same by output index: for cooked effects, which keep no output names (below 4 there).
Status bind_event(ParticleSystem& system, EmitterId source, uint32_t output, EmitterId target);
// Removes one binding; events already queued still arrive next frame. Removing either emitter
// removes its bindings (and events queued for a removed target spawn nothing).
Status unbind_event(ParticleSystem& system, EmitterId source, uint32_t output, EmitterId target);

// One emitter's events in the last frame.
struct EmitterEvents {
  uint32_t sent = 0;            // events its particles sent to bound outputs (one per target)
  uint32_t received = 0;        // events delivered to it
  uint32_t queue_dropped = 0;   // events for it that the full queue dropped
  uint32_t children = 0;        // children its delivered events asked for
  uint32_t spawned = 0;         // of those, children that got a slot (before its rate spawns)
  uint32_t spawns_dropped = 0;  // children the full pool (or culling) could not take
};

// The event queue of the last frame: its capacity (events per frame: the system's capacity),
// the appends asked for and those it dropped.
struct EventQueueStats {
  uint32_t capacity = 0;
  uint32_t queued = 0;
  uint32_t dropped = 0;
};

// Both read back after the last execute() (they wait for the GPU). An emitter with no event
// traffic reads zeros; so does every emitter of a system that has never bound an event.
Result<EmitterEvents> read_emitter_events(ParticleSystem& system, EmitterId id);
Result<EventQueueStats> read_event_queue(ParticleSystem& system);

}  // namespace mote
