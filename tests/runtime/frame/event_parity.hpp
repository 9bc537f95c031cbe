// Emitters whose events spawn each other's particles, on the GPU frame (one ParticleSystem, its
// event bindings) against the reference (mote::SimulationGroup), frame by frame: per emitter its
// newborns, its alive count, the events delivered to it, their children that got slots and
// those dropped; and every few frames every live record matched by (emitter, birth serial), each
// word within `tol_abs + tol_rel * |ref|` (0 and 0: bit for bit). Used by event_test.cpp and the
// preset parity test (docs/design/events.md, "On the GPU").
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "mote/simulation_group.hpp"
#include "runtime/frame/particle_system.hpp"

namespace mote::test {

struct EventParityMember {
  CompiledEffect effect;
  uint32_t seed = 1;
  // False for a member that cannot match particle by particle: one whose events come from a
  // sender whose UPDATE draws random numbers, which are keyed by the particle's slot
  // (PARTICLE_INDEX in UPDATE) — slots the GPU's one pool numbers otherwise than the
  // reference's pool per emitter. Its counts are summed (gpu_children) but not compared.
  bool compared = true;
};

struct EventParityOptions {
  uint32_t frames = 120;
  uint32_t compare_every = 10;
  double tol_abs = 0.0;
  double tol_rel = 0.0;
  bool compiled_simulate = true;
};

struct EventParityResult {
  uint64_t records_compared = 0;
  uint64_t words_not_bit_equal = 0;
  double worst_relative = 0.0;         // |d| / (1 + |ref|)
  std::vector<uint64_t> children;      // per member: event children spawned over the run
  std::vector<uint64_t> spawned;       // per member: every newborn
  std::vector<uint64_t> gpu_children;  // per member: event children the GPU spawned
};

inline constexpr uint32_t kEventParityRecordWords = 32;
inline constexpr uint32_t kEventParitySerialWord = 31;

// Runs the members (GPU rows in member order) with `bindings` ({source, output, target} member
// indices) for options.frames frames at 60 Hz and checks them as above (ADD_FAILURE on a
// mismatch, stopping at the first frame that has one).
inline EventParityResult run_event_parity(gpu::Device& device, const std::vector<EventParityMember>& members,
                                          const std::vector<EventBinding>& bindings,
                                          const EventParityOptions& options) {
  constexpr float kDt = 1.0f / 60.0f;
  EventParityResult result;
  result.children.assign(members.size(), 0);
  result.spawned.assign(members.size(), 0);
  result.gpu_children.assign(members.size(), 0);
  uint32_t capacity = 0;
  for (const EventParityMember& m : members) capacity += m.effect.emission.capacity_hint;
  auto created = runtime::ParticleSystem::create(device, {.capacity = capacity,
                                                          .record_words = kEventParityRecordWords,
                                                          .max_emitters = uint32_t(members.size()) + 1,
                                                          .serial_word = kEventParitySerialWord,
                                                          .compiled_simulate = options.compiled_simulate});
  if (!created.ok()) {
    ADD_FAILURE() << created.error().to_string();
    return result;
  }
  runtime::ParticleSystem system = std::move(created).value();
  std::vector<uint32_t> rows;
  std::vector<SimulationGroupMember> group_members;
  for (const EventParityMember& m : members) {
    CompiledEffect effect = m.effect;
    effect.emission.prewarm_seconds = 0.0f;  // the pre-warm's parity is statistical (prewarm_test.cpp)
    auto row = system.add_emitter(effect, {.seed = m.seed});
    if (!row.ok()) {
      ADD_FAILURE() << row.error().to_string();
      return result;
    }
    rows.push_back(*row);
    group_members.push_back({effect,
                             {.dt = kDt,
                              .emitter = {.seed = m.seed},
                              .capacity = effect.emission.capacity_hint,
                              .record_words = kEventParityRecordWords,
                              .prewarm = false,
                              .emitter_row = *row,
                              .emitter_generation = system.generation(*row)}});
  }
  for (const EventBinding& b : bindings) {
    Status bound = system.bind_event(rows[b.source], b.output, rows[b.target]);
    if (!bound.ok()) {
      ADD_FAILURE() << bound.error().to_string();
      return result;
    }
  }
  auto group = SimulationGroup::create(group_members, bindings);
  if (!group.ok()) {
    ADD_FAILURE() << group.error().to_string();
    return result;
  }
  std::vector<std::map<uint32_t, uint32_t>> ref_serial(members.size());  // reference slot -> birth serial
  std::vector<uint32_t> born(members.size(), 0);
  for (uint32_t f = 0; f < options.frames; ++f) {
    if (Status ran = system.execute(kDt); !ran.ok()) {
      ADD_FAILURE() << "frame " << f << ": " << ran.error().to_string();
      return result;
    }
    auto reports = group->step();
    auto states = system.read_emitter_states();
    auto bounds = system.read_emitter_bounds();
    auto events = system.read_event_stats();
    if (!reports.ok() || !states.ok() || !bounds.ok() || !events.ok()) {
      ADD_FAILURE() << "frame " << f << ": a readback or the reference failed";
      return result;
    }
    bool mismatch = false;
    for (size_t m = 0; m < members.size(); ++m) {
      const FrameReport& r = (*reports)[m];
      const uint32_t row = rows[m];
      const runtime::EmitterEventStats& e = (*events)[row];
      const std::string at = "frame " + std::to_string(f) + " member " + std::to_string(m);
      result.gpu_children[m] += e.spawned;
      if (!members[m].compared) continue;
      EXPECT_EQ((*states)[row].spawn_count, r.spawned) << at << ": newborns";
      EXPECT_EQ((*bounds)[row].alive, r.alive) << at << ": alive";
      EXPECT_EQ(e.received, r.events_received) << at << ": events received";
      EXPECT_EQ(e.spawned, r.event_spawns) << at << ": event children with slots";
      EXPECT_EQ(e.spawns_dropped, r.event_spawns_dropped) << at << ": event children dropped";
      mismatch = mismatch || (*states)[row].spawn_count != r.spawned || (*bounds)[row].alive != r.alive ||
                 e.received != r.events_received || e.spawned != r.event_spawns;
      result.children[m] += r.event_spawns;
      result.spawned[m] += r.spawned;
      const std::vector<uint32_t>& alive = group->member(m).alive_slots();
      for (uint32_t i = 0; i < r.spawned; ++i) ref_serial[m][alive[i]] = born[m] + i;  // newborns lead the list
      born[m] += r.spawned;
    }
    if (mismatch) return result;
    if (f % options.compare_every != options.compare_every - 1 && f + 1 != options.frames) continue;
    auto pool = system.read_pool();
    auto alive = system.read_alive_slots();
    if (!pool.ok() || !alive.ok()) {
      ADD_FAILURE() << "frame " << f << ": pool readback failed";
      return result;
    }
    std::map<std::pair<uint32_t, uint32_t>, const uint32_t*> ref_records;  // (member, serial) -> record
    for (size_t m = 0; m < members.size(); ++m) {
      if (!members[m].compared) continue;
      const std::vector<uint32_t>& ref_pool = group->member(m).pool();
      for (uint32_t slot : group->member(m).alive_slots())
        ref_records[{uint32_t(m), ref_serial[m].at(slot)}] = ref_pool.data() + size_t(slot) * kEventParityRecordWords;
    }
    size_t listed = 0;
    for (uint32_t slot : *alive) {
      const uint32_t* got = pool->data() + size_t(slot) * kEventParityRecordWords;
      const uint32_t row = got[0] & shader::kFrameHeaderRowMask;
      const auto member = std::find(rows.begin(), rows.end(), row);
      if (member == rows.end()) {
        ADD_FAILURE() << "frame " << f << ": a record of row " << row;
        return result;
      }
      const uint32_t m = uint32_t(member - rows.begin());
      if (!members[m].compared) continue;
      ++listed;
      const uint32_t serial = got[kEventParitySerialWord];
      const auto it = ref_records.find({m, serial});
      if (it == ref_records.end()) {
        ADD_FAILURE() << "frame " << f << " member " << m << ": serial " << serial << " is not alive in the reference";
        return result;
      }
      const uint32_t own = members[m].effect.program.particle_record_words();
      for (uint32_t w = 0; w < own; ++w) {
        if (got[w] == it->second[w]) continue;
        ++result.words_not_bit_equal;
        const double x = std::bit_cast<float>(got[w]), y = std::bit_cast<float>(it->second[w]);
        const double d = std::abs(x - y);
        result.worst_relative = std::max(result.worst_relative, std::isnan(d) ? INFINITY : d / (1.0 + std::abs(y)));
        if (!(d <= options.tol_abs + options.tol_rel * std::abs(y))) {
          ADD_FAILURE() << "frame " << f << " member " << m << " serial " << serial << " word " << w << ": gpu " << x
                        << " ref " << y;
          return result;
        }
      }
      ++result.records_compared;
    }
    EXPECT_EQ(listed, ref_records.size()) << "frame " << f;
  }
  return result;
}

}  // namespace mote::test
