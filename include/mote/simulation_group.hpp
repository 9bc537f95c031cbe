// Emitters whose events spawn each other's particles, in the reference simulation
// (docs/design/events.md): each member is a Simulation; a binding sends the events a source
// member's particles send to one of its event outputs (EMIT_EVENT) to a target member, whose
// INIT reads each event's payload (EVENT_POSITION, EVENT_VELOCITY, EVENT_COLOR). The GPU
// runtime's events follow the same rules (mote/particle_system.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "mote/simulation.hpp"

namespace mote {

// Events `source` sends to its event output `output` spawn children in `target` (member
// indices). Several bindings may share a source output (each target gets every event); an
// output bound to nothing is inert: its events spawn nothing and are not drops.
struct EventBinding {
  uint32_t source = 0;
  uint32_t output = 0;  // < 4
  uint32_t target = 0;
};

struct SimulationGroupMember {
  CompiledEffect effect;
  SimulationOptions options;
};

class SimulationGroup {
 public:
  // Creates every member (Simulation::create, errors at members[i]) and checks the bindings:
  // indices in range, output below 4, no binding twice (errors at bindings[i]). A cycle of
  // bindings (A spawns B spawns A) is allowed: events move one hop per frame, so a cycle is
  // bounded per frame by construction, and has_event_cycle() reports it.
  static Result<SimulationGroup> create(std::vector<SimulationGroupMember> members, std::vector<EventBinding> bindings);

  SimulationGroup(SimulationGroup&&) noexcept;
  SimulationGroup& operator=(SimulationGroup&&) noexcept;
  ~SimulationGroup();

  // One frame: every member steps (members in order; the events queued for them last frame
  // spawn first), then the events each sent this frame go to the queues of the members their
  // outputs are bound to, in member order and, within a member, in sent order, for the next
  // frame. One report per member.
  Result<std::vector<FrameReport>> step();

  size_t size() const;
  const Simulation& member(size_t index) const;
  bool has_event_cycle() const;

 private:
  struct State;
  explicit SimulationGroup(std::unique_ptr<State> state);
  std::unique_ptr<State> s_;
};

}  // namespace mote
