// The reference simulation's events between emitters (include/mote/simulation_group.hpp,
// docs/design/events.md).
#include "mote/simulation_group.hpp"

#include <algorithm>
#include <string>

#include "core/alloc_guard.hpp"
#include "shared/vm_limits.h"

namespace mote {

struct SimulationGroup::State {
  std::vector<Simulation> members;
  std::vector<EventBinding> bindings;
  bool cycle = false;
};

namespace {

// Whether the bindings, as edges source -> target, close a loop (a self-binding included).
bool bindings_cycle(size_t members, const std::vector<EventBinding>& bindings) {
  // Kahn's algorithm: a graph is acyclic exactly when every node can be removed in turn.
  std::vector<uint32_t> incoming(members, 0);
  for (const EventBinding& b : bindings) ++incoming[b.target];
  std::vector<uint32_t> ready;
  for (uint32_t m = 0; m < members; ++m)
    if (incoming[m] == 0) ready.push_back(m);
  size_t removed = 0;
  while (!ready.empty()) {
    const uint32_t m = ready.back();
    ready.pop_back();
    ++removed;
    for (const EventBinding& b : bindings)
      if (b.source == m && --incoming[b.target] == 0) ready.push_back(b.target);
  }
  return removed != members;
}

}  // namespace

SimulationGroup::SimulationGroup(std::unique_ptr<State> state) : s_(std::move(state)) {}
SimulationGroup::SimulationGroup(SimulationGroup&&) noexcept = default;
SimulationGroup& SimulationGroup::operator=(SimulationGroup&&) noexcept = default;
SimulationGroup::~SimulationGroup() = default;

Result<SimulationGroup> SimulationGroup::create(std::vector<SimulationGroupMember> members,
                                                std::vector<EventBinding> bindings) {
  return core::guard_allocation("SimulationGroup::create", [&]() -> Result<SimulationGroup> {
    auto s = std::make_unique<State>();
    for (size_t i = 0; i < bindings.size(); ++i) {
      const EventBinding& b = bindings[i];
      const std::string where = "bindings[" + std::to_string(i) + "]";
      if (b.source >= members.size() || b.target >= members.size())
        return make_error(ErrorCode::kInvalidArgument,
                          "binding names member " + std::to_string(std::max(b.source, b.target)) + " of " +
                              std::to_string(members.size()),
                          where);
      if (b.output >= shader::kVmEventOutputs)
        return make_error(ErrorCode::kInvalidArgument,
                          "event output " + std::to_string(b.output) + " is not below " +
                              std::to_string(shader::kVmEventOutputs),
                          where + ".output");
      for (size_t j = 0; j < i; ++j)
        if (bindings[j].source == b.source && bindings[j].output == b.output && bindings[j].target == b.target)
          return make_error(ErrorCode::kInvalidArgument, "the same binding as bindings[" + std::to_string(j) + "]",
                            where);
    }
    for (size_t i = 0; i < members.size(); ++i) {
      auto sim = Simulation::create(members[i].effect, members[i].options);
      if (!sim.ok()) {
        Error e = sim.error();
        e.where = "members[" + std::to_string(i) + "]" + (e.where.empty() ? "" : "." + e.where);
        return e;
      }
      s->members.push_back(std::move(*sim));
    }
    s->cycle = bindings_cycle(members.size(), bindings);
    s->bindings = std::move(bindings);
    return SimulationGroup(std::move(s));
  });
}

Result<std::vector<FrameReport>> SimulationGroup::step() {
  return core::guard_allocation("SimulationGroup::step", [&]() -> Result<std::vector<FrameReport>> {
    std::vector<FrameReport> reports;
    reports.reserve(s_->members.size());
    for (Simulation& m : s_->members) {
      MOTE_TRY_ASSIGN(FrameReport r, m.step());
      reports.push_back(r);
    }
    for (uint32_t source = 0; source < s_->members.size(); ++source) {
      const std::vector<ParticleEvent>& sent = s_->members[source].sent_events();
      for (const EventBinding& b : s_->bindings) {
        if (b.source != source) continue;
        std::vector<ParticleEvent> routed;
        for (const ParticleEvent& e : sent)
          if (e.output == b.output) routed.push_back(e);
        MOTE_TRY(s_->members[b.target].queue_events(routed));
      }
    }
    return reports;
  });
}

size_t SimulationGroup::size() const { return s_->members.size(); }
const Simulation& SimulationGroup::member(size_t index) const { return s_->members.at(index); }
bool SimulationGroup::has_event_cycle() const { return s_->cycle; }

}  // namespace mote
