// Events between emitters in the reference simulation (mote/simulation_group.hpp,
// docs/design/events.md): a particle's send_event spawns children in the bound emitter on the
// next frame, each child's INIT reading its parent's position, velocity and colour after the
// run that sent the event. N deaths with k children each give exactly N·k children at their
// parents' death positions bit for bit; several sources keep their own payloads; full queues and
// pools drop exactly the counted number; unbound outputs are inert; cycles move one hop a frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "mote/simulation_group.hpp"

namespace {

using mote::CompiledEffect;
using mote::EventBinding;
using mote::FrameReport;
using mote::SimulationGroup;
using mote::SimulationGroupMember;

CompiledEffect compile(const std::string& text) {
  auto effect = mote::compile_effect(text);
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
}

// `count` parents born at t = 0 at whole-numbered positions (x + offset_x), each living
// `ticks` UPDATE runs (between `ticks` and `ticks_max` when they differ), moving
// +1 in x each run (exact in f32), with a random velocity and colour; on the run that kills it,
// `children` events to output "burst". Output "unused" gets one event from every particle on
// every run.
std::string parent_effect(uint32_t count, uint32_t children, float offset_x, uint32_t ticks, uint32_t ticks_max) {
  const float dt = 1.0f / 60.0f;
  return R"({"name": "parent", "event_outputs": ["burst", "unused"],
    "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3},
                        {"name": "color", "width": 4}, {"name": "age", "width": 1}, {"name": "life", "width": 1}],
    "emission": {"bursts": [{"time": 0, "count": )" +
         std::to_string(count) + R"(}], "capacity": )" + std::to_string(count) + R"(},
    "init": {"nodes": [
      {"id": "r", "type": "random_range", "inputs": {"min": [0, 0, 0], "max": [50, 50, 50]}},
      {"id": "f", "type": "floor", "inputs": {"a": "r"}},
      {"id": "o", "type": "add", "inputs": {"a": "f", "b": [)" +
         std::to_string(offset_x) + R"(, 0, 0]}},
      {"id": "v", "type": "random_range", "inputs": {"min": [-3, -3, -3], "max": [3, 3, 3]}},
      {"id": "c", "type": "random_range", "inputs": {"min": [0, 0, 0, 0], "max": [1, 1, 1, 1]}},
      {"id": "lr", "type": "random_range", "inputs": {"min": )" +
         std::to_string((float(ticks) - 0.5f) * dt) + R"(, "max": )" + std::to_string((float(ticks_max) - 0.5f) * dt) +
         R"(}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "o"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "v"}},
      {"id": "sc", "type": "set_field", "params": {"field": "color"}, "inputs": {"value": "c"}},
      {"id": "sa", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}},
      {"id": "sl", "type": "set_field", "params": {"field": "life"}, "inputs": {"value": "lr"}}]},
    "update": {"nodes": [
      {"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "a", "type": "get_field", "params": {"field": "age"}},
      {"id": "l", "type": "get_field", "params": {"field": "life"}},
      {"id": "moved", "type": "add", "inputs": {"a": "p", "b": [1, 0, 0]}},
      {"id": "older", "type": "age_step", "inputs": {"age": "a"}},
      {"id": "dying", "type": "compare", "params": {"op": "ge"}, "inputs": {"a": "older", "b": "l"}},
      {"id": "n", "type": "mul", "inputs": {"a": "dying", "b": )" +
         std::to_string(children) + R"(}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "moved"}},
      {"id": "sa", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "older"}},
      {"id": "k", "type": "kill_if", "inputs": {"condition": "dying"}},
      {"id": "e", "type": "send_event", "params": {"output": "burst"}, "inputs": {"count": "n"}},
      {"id": "u", "type": "send_event", "params": {"output": "unused"}, "inputs": {"count": 1}}]}})";
}

// Children that live for ever where their event put them: position, velocity and colour from
// the payload builtins.
std::string child_effect(uint32_t capacity) {
  return R"({"name": "child",
    "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3}, {"name": "color", "width": 4}],
    "emission": {"rate": 0, "capacity": )" +
         std::to_string(capacity) + R"(},
    "init": {"nodes": [
      {"id": "p", "type": "builtin", "params": {"name": "event_position"}},
      {"id": "v", "type": "builtin", "params": {"name": "event_velocity"}},
      {"id": "c", "type": "builtin", "params": {"name": "event_color"}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "p"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "v"}},
      {"id": "sc", "type": "set_field", "params": {"field": "color"}, "inputs": {"value": "c"}}]},
    "update": {"nodes": []}})";
}

SimulationGroupMember member(const std::string& text, uint32_t seed) {
  SimulationGroupMember m{compile(text), {}};
  m.options.emitter.seed = seed;
  return m;
}

// A live particle's 10 payload words (position, velocity, colour), as bit patterns.
using Payload = std::array<uint32_t, 10>;

std::vector<Payload> payloads_of(const mote::Simulation& sim) {
  const auto p = sim.field("position"), v = sim.field("velocity"), c = sim.field("color");
  EXPECT_TRUE(p.ok() && v.ok() && c.ok());
  std::vector<Payload> out;
  for (size_t i = 0; p.ok() && i < p->size() / 3; ++i) {
    Payload w{};
    for (size_t k = 0; k < 3; ++k) w[k] = std::bit_cast<uint32_t>((*p)[3 * i + k]);
    for (size_t k = 0; k < 3; ++k) w[3 + k] = std::bit_cast<uint32_t>((*v)[3 * i + k]);
    for (size_t k = 0; k < 4; ++k) w[6 + k] = std::bit_cast<uint32_t>((*c)[4 * i + k]);
    out.push_back(w);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The payloads the parents that die on the next step will send: a live parent's record with its
// position one further in x (its dying run's move), for the parents whose slot is gone after the
// step. Steps the group once.
std::vector<Payload> step_and_collect_deaths(SimulationGroup& group, size_t parent, uint32_t children,
                                             std::vector<FrameReport>* reports = nullptr) {
  const mote::Simulation& sim = group.member(parent);
  const std::vector<uint32_t> before = sim.alive_slots();
  const std::vector<uint32_t> pool = sim.pool();
  const uint32_t stride = sim.record_words();
  auto stepped = group.step();
  EXPECT_TRUE(stepped.ok()) << stepped.error().to_string();
  if (reports && stepped.ok()) *reports = *stepped;
  const std::vector<uint32_t>& after = sim.alive_slots();
  std::vector<Payload> deaths;
  for (uint32_t slot : before) {
    if (std::find(after.begin(), after.end(), slot) != after.end()) continue;
    const uint32_t* rec = pool.data() + size_t(slot) * stride;
    Payload w{};
    for (size_t k = 0; k < 10; ++k) w[k] = rec[1 + k];  // position, velocity, colour: words 1..10
    w[0] = std::bit_cast<uint32_t>(std::bit_cast<float>(w[0]) + 1.0f);
    for (uint32_t c = 0; c < children; ++c) deaths.push_back(w);
  }
  return deaths;
}

TEST(Events, NDeathsWithKChildrenGiveNkChildrenAtTheDeathPositionsBitForBit) {
  constexpr uint32_t kParents = 40, kChildren = 3;
  auto group = SimulationGroup::create({member(parent_effect(kParents, kChildren, 0.0f, 2, 9), 7),
                                        member(child_effect(1000), 8)},
                                       {{0, 0, 1}});
  ASSERT_TRUE(group.ok()) << group.error().to_string();
  EXPECT_FALSE(group->has_event_cycle());
  std::vector<Payload> expected;
  uint32_t spawned = 0, sent = 0;
  for (int frame = 0; frame < 16; ++frame) {
    std::vector<FrameReport> reports;
    const std::vector<Payload> deaths = step_and_collect_deaths(*group, 0, kChildren, &reports);
    expected.insert(expected.end(), deaths.begin(), deaths.end());
    ASSERT_EQ(reports.size(), 2u);
    spawned += reports[1].event_spawns;
    EXPECT_EQ(reports[1].spawned, reports[1].event_spawns);
    EXPECT_EQ(reports[1].event_spawns_dropped, 0u);
    EXPECT_EQ(reports[1].events_dropped, 0u);
    // "burst" from each dying parent, "unused" from every parent that ran UPDATE.
    sent += reports[0].events_sent;
  }
  EXPECT_EQ(group->member(0).alive_count(), 0u) << "every parent has died";
  // The last deaths' children are born on the frame after: one more step.
  auto last = group->step();
  ASSERT_TRUE(last.ok());
  spawned += (*last)[1].event_spawns;
  EXPECT_EQ(spawned, kParents * kChildren);
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(expected.size(), kParents * kChildren);
  EXPECT_EQ(payloads_of(group->member(1)), expected);
  EXPECT_GT(sent, kParents);  // the unused output's events were sent, and spawned nothing
}

TEST(Events, SeveralSourcesInOneFrameKeepTheirOwnPayloadsAndCounts) {
  // Both sources' parents all die on their second UPDATE, in the same frame.
  auto group = SimulationGroup::create({member(parent_effect(10, 2, 1000.0f, 2, 2), 1),
                                        member(parent_effect(7, 5, -1000.0f, 2, 2), 2), member(child_effect(500), 3)},
                                       {{0, 0, 2}, {1, 0, 2}});
  ASSERT_TRUE(group.ok()) << group.error().to_string();
  std::vector<Payload> expected;
  for (int frame = 0; frame < 4; ++frame) {
    const mote::Simulation& b = group->member(1);
    const std::vector<uint32_t> b_before = b.alive_slots();
    const std::vector<uint32_t> b_pool = b.pool();
    std::vector<Payload> a_deaths = step_and_collect_deaths(*group, 0, 2);
    for (uint32_t slot : b_before) {
      if (!b.alive_slots().empty()) continue;
      Payload w{};
      for (size_t k = 0; k < 10; ++k) w[k] = b_pool[size_t(slot) * b.record_words() + 1 + k];
      w[0] = std::bit_cast<uint32_t>(std::bit_cast<float>(w[0]) + 1.0f);
      for (int c = 0; c < 5; ++c) a_deaths.push_back(w);
    }
    expected.insert(expected.end(), a_deaths.begin(), a_deaths.end());
  }
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(expected.size(), 10u * 2 + 7u * 5);
  const std::vector<Payload> got = payloads_of(group->member(2));
  EXPECT_EQ(got, expected);
  // Each source's children sit on their own side of the origin.
  uint32_t right = 0, left = 0;
  for (const Payload& p : got) (std::bit_cast<float>(p[0]) > 0.0f ? right : left)++;
  EXPECT_EQ(right, 20u);
  EXPECT_EQ(left, 35u);
}

// Runs a group of one parent (all dying on their second UPDATE) and one child; returns the
// child's reports of the frame the children are born.
FrameReport flood(uint32_t parents, uint32_t children, uint32_t child_capacity, uint32_t queue_capacity) {
  SimulationGroupMember child = member(child_effect(child_capacity), 5);
  child.options.event_queue_capacity = queue_capacity;
  auto group = SimulationGroup::create({member(parent_effect(parents, children, 0.0f, 2, 2), 4), child}, {{0, 0, 1}});
  EXPECT_TRUE(group.ok()) << group.error().to_string();
  FrameReport born;
  for (int frame = 0; group.ok() && frame < 4; ++frame) {
    auto r = group->step();
    EXPECT_TRUE(r.ok());
    if (r.ok() && (*r)[1].events_received + (*r)[1].events_dropped > 0) born = (*r)[1];
  }
  return born;
}

TEST(Events, AFloodAgainstAFullPoolOrQueueDropsExactlyTheCountedNumber) {
  const FrameReport pool_full = flood(100, 4, 250, 65536);
  EXPECT_EQ(pool_full.events_received, 100u);
  EXPECT_EQ(pool_full.events_dropped, 0u);
  EXPECT_EQ(pool_full.event_spawns, 250u);
  EXPECT_EQ(pool_full.event_spawns_dropped, 150u);
  EXPECT_EQ(pool_full.alive, 250u);
  const FrameReport queue_full = flood(100, 4, 1000, 30);
  EXPECT_EQ(queue_full.events_received, 30u);
  EXPECT_EQ(queue_full.events_dropped, 70u);
  EXPECT_EQ(queue_full.event_spawns, 120u);
  EXPECT_EQ(queue_full.event_spawns_dropped, 0u);
}

TEST(Events, AnUnboundOutputIsInert) {
  auto group = SimulationGroup::create({member(parent_effect(20, 3, 0.0f, 2, 2), 1), member(child_effect(100), 2)},
                                       {{0, 1, 1}});  // only "unused" is bound... to a child that gets one per run
  ASSERT_TRUE(group.ok());
  auto alone = SimulationGroup::create({member(parent_effect(20, 3, 0.0f, 2, 2), 1), member(child_effect(100), 2)}, {});
  ASSERT_TRUE(alone.ok());
  for (int frame = 0; frame < 4; ++frame) {
    auto r = alone->step();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)[1].spawned, 0u);
    EXPECT_EQ((*r)[1].events_received + (*r)[1].events_dropped + (*r)[1].event_spawns_dropped, 0u);
    ASSERT_TRUE(group->step().ok());
  }
  // The bound output: 20 events on each of the parents' two runs.
  EXPECT_EQ(group->member(1).alive_count(), 40u);
}

TEST(Events, ACycleMovesOneHopAFrameAndIsReported) {
  // Every particle dies on its first UPDATE and sends 2 events back to its own emitter: one
  // generation per hop, never more within a frame.
  const std::string self = parent_effect(1, 2, 0.0f, 1, 1);
  auto group = SimulationGroup::create({member(self, 9)}, {{0, 0, 0}});
  ASSERT_TRUE(group.ok());
  EXPECT_TRUE(group->has_event_cycle());
  // Capacity 1 (the burst's), so 1 of each pair of children gets a slot. A child runs UPDATE
  // on the frame after its birth, so the events arrive every second frame.
  for (int frame = 0; frame < 9; ++frame) {
    auto r = group->step();
    ASSERT_TRUE(r.ok());
    const FrameReport& f = (*r)[0];
    if (frame % 2 == 1) {
      EXPECT_EQ(f.events_received, 0u) << frame;
      EXPECT_EQ(f.events_sent, 2u) << frame;  // burst and unused, from the one particle's death run
      EXPECT_EQ(f.killed, 1u) << frame;
    } else if (frame > 0) {
      EXPECT_EQ(f.events_received, 1u) << frame;
      EXPECT_EQ(f.event_spawns, 1u) << frame;
      EXPECT_EQ(f.event_spawns_dropped, 1u) << frame;
    }
  }
}

std::string preset_text(const std::string& name) {
  std::ifstream file(std::string(MOTE_EFFECTS_DIR) + "/" + name + ".json");
  EXPECT_TRUE(file.good()) << name;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The presets rain_splash and splash bound together: a drop that hits the ground or the box
// (collide_plane / collide_box's `hit`) dies and sends 4 splash events; each splash starts where
// its drop hit. Every splash spawned (4 per hit, none dropped), each on the ground or on the
// box's surface, and no drop ever inside the box or below the ground.
TEST(Events, RainSplashesWhereItHitsTheGroundAndTheBox) {
  auto group = SimulationGroup::create({member(preset_text("rain_splash"), 3), member(preset_text("splash"), 4)},
                                       {{0, 0, 1}});
  ASSERT_TRUE(group.ok()) << group.error().to_string();
  const std::array<float, 3> lo = {-0.6f, 0.0f, -0.6f}, hi = {0.6f, 1.0f, 0.6f};  // the box
  uint64_t sent = 0, spawned = 0, on_ground = 0, on_box = 0;
  for (int frame = 0; frame < 150; ++frame) {
    auto r = group->step();
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    if (frame < 149) sent += (*r)[0].events_sent;  // the last frame's events spawn after the loop
    spawned += (*r)[1].event_spawns;
    ASSERT_EQ((*r)[1].event_spawns_dropped + (*r)[1].events_dropped, 0u);
    const auto drops = group->member(0).field("position");
    ASSERT_TRUE(drops.ok());
    for (size_t i = 0; i < drops->size(); i += 3) {
      const float x = (*drops)[i], y = (*drops)[i + 1], z = (*drops)[i + 2];
      ASSERT_GE(y, 0.0f);
      const bool inside = x > lo[0] + 1e-4f && x < hi[0] - 1e-4f && y < hi[1] - 1e-4f && z > lo[2] + 1e-4f &&
                          z < hi[2] - 1e-4f;
      ASSERT_FALSE(inside) << x << " " << y << " " << z;
    }
    const auto origins = group->member(1).field("origin");
    const auto ages = group->member(1).field("age");
    ASSERT_TRUE(origins.ok() && ages.ok());
    for (size_t k = 0; k < ages->size(); ++k) {
      if ((*ages)[k] != 0.0f) continue;  // count each splash once, on its birth frame
      const float x = (*origins)[3 * k], y = (*origins)[3 * k + 1], z = (*origins)[3 * k + 2];
      const bool ground = std::fabs(y) < 1e-5f;
      const bool box = x >= lo[0] - 1e-4f && x <= hi[0] + 1e-4f && z >= lo[2] - 1e-4f && z <= hi[2] + 1e-4f &&
                       y <= hi[1] + 1e-4f &&
                       (std::fabs(y - hi[1]) < 1e-4f || std::fabs(std::fabs(x) - hi[0]) < 1e-4f ||
                        std::fabs(std::fabs(z) - hi[2]) < 1e-4f);
      EXPECT_TRUE(ground || box) << x << " " << y << " " << z;
      on_ground += ground && !box;
      on_box += box;
    }
  }
  EXPECT_GT(sent, 100u);
  EXPECT_EQ(spawned, 4 * sent);
  EXPECT_EQ(on_ground + on_box, spawned);
  EXPECT_GT(on_ground, 0u);
  EXPECT_GT(on_box, 0u);
}

// The fireworks presets bound together: rockets that burst at their apex into 60 sparks each,
// sparks whose deaths crackle (each with an even chance). Twelve rockets over four seconds: every
// burst and every crackle spawns exactly its count, high up, nothing dropped.
TEST(Events, FireworksBurstIntoSparksWhoseDeathsCrackle) {
  auto group = SimulationGroup::create({member(preset_text("fireworks_rocket"), 5),
                                        member(preset_text("fireworks_spark"), 6),
                                        member(preset_text("fireworks_crackle"), 7)},
                                       {{0, 0, 1}, {1, 0, 2}});
  ASSERT_TRUE(group.ok()) << group.error().to_string();
  uint64_t rockets = 0, bursts = 0, sparks = 0, crackle_events = 0, crackles = 0;
  for (int frame = 0; frame < 480; ++frame) {
    auto r = group->step();
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    rockets += (*r)[0].spawned;
    bursts += (*r)[0].events_sent;
    sparks += (*r)[1].event_spawns;
    crackle_events += (*r)[1].events_sent;
    crackles += (*r)[2].event_spawns;
    for (const FrameReport& m : *r) ASSERT_EQ(m.events_dropped + m.event_spawns_dropped, 0u) << "frame " << frame;
    const auto p = group->member(1).field("position");
    const auto age = group->member(1).field("age");
    ASSERT_TRUE(p.ok() && age.ok());
    for (size_t k = 0; k < age->size(); ++k) {
      if ((*age)[k] == 0.0f) {
        EXPECT_GT((*p)[3 * k + 1], 5.0f) << "a spark born low, frame " << frame;
      }
    }
  }
  EXPECT_EQ(rockets, 12u);
  EXPECT_EQ(bursts, 12u);  // every rocket burst once, at its apex, within the run
  EXPECT_EQ(sparks, 60u * bursts);
  EXPECT_GT(crackle_events, sparks / 4);
  EXPECT_LT(crackle_events, sparks * 3 / 4);
  EXPECT_EQ(crackles, crackle_events);  // each crackle event asks for one
  EXPECT_EQ(group->member(1).alive_count() + group->member(2).alive_count(), 0u) << "all over after 8 s";
}

// Trails (docs/design/ribbons.md): a sender's trail_id field rides in the payload's spare lane
// and its children read it with event_id — every trail point names a spark that exists, each
// spark has points, and a sender without the field gives 0.
TEST(Events, TrailPointsCarryTheirParentsId) {
  auto group = SimulationGroup::create({member(preset_text("fireworks_rocket"), 5),
                                        member(preset_text("trail_spark"), 6), member(preset_text("spark_trail"), 7)},
                                       {{0, 0, 1}, {1, 0, 2}});
  ASSERT_TRUE(group.ok()) << group.error().to_string();
  std::set<float> sparks;
  std::map<float, size_t> points_of;
  for (int frame = 0; frame < 150; ++frame) {
    ASSERT_TRUE(group->step().ok());
    const auto ids = group->member(1).field("trail_id");
    ASSERT_TRUE(ids.ok());
    sparks.insert(ids->begin(), ids->end());
    const auto parents = group->member(2).field("parent");
    ASSERT_TRUE(parents.ok());
    for (float p : *parents) {
      EXPECT_TRUE(sparks.count(p)) << "a trail point of no spark: " << p << ", frame " << frame;
      ++points_of[p];
    }
  }
  EXPECT_GT(sparks.size(), 50u);
  EXPECT_GT(points_of.size(), 50u);
  for (const auto& [parent, n] : points_of) EXPECT_GT(n, 1u) << "spark " << parent;
  // The rocket declares no trail_id: its sparks' event_id would read 0 (trail_spark stores its own).
  EXPECT_FALSE(group->member(0).field("trail_id").ok());
}

TEST(Events, BadDocumentsAndBindingsAreRefusedWithPointers) {
  auto undeclared = mote::compile_effect(R"({"name": "x", "particle_fields": [], "init": {"nodes": []},
    "update": {"nodes": [{"id": "e", "type": "send_event", "params": {"output": "boom"}, "inputs": {"count": 1}}]}})");
  ASSERT_FALSE(undeclared.ok());
  EXPECT_EQ(undeclared.error().where, "/update/nodes/0/params/output");
  auto duplicate = mote::compile_effect(R"({"name": "x", "event_outputs": ["a", "a"], "particle_fields": [],
    "init": {"nodes": []}, "update": {"nodes": []}})");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.error().where, "/event_outputs/1");
  auto too_many = mote::compile_effect(R"({"name": "x", "event_outputs": ["a", "b", "c", "d", "e"],
    "particle_fields": [], "init": {"nodes": []}, "update": {"nodes": []}})");
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().where, "/event_outputs");
  const CompiledEffect named = compile(parent_effect(1, 1, 0.0f, 1, 1));
  EXPECT_EQ(named.event_outputs, (std::vector<std::string>{"burst", "unused"}));

  auto bad_output = SimulationGroup::create({member(child_effect(4), 1)}, {{0, 4, 0}});
  ASSERT_FALSE(bad_output.ok());
  EXPECT_EQ(bad_output.error().where, "bindings[0].output");
  auto bad_target = SimulationGroup::create({member(child_effect(4), 1)}, {{0, 0, 1}});
  ASSERT_FALSE(bad_target.ok());
  EXPECT_EQ(bad_target.error().where, "bindings[0]");
  auto twice = SimulationGroup::create({member(child_effect(4), 1)}, {{0, 0, 0}, {0, 0, 0}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().where, "bindings[1]");
  SimulationGroupMember zero_queue = member(child_effect(4), 1);
  zero_queue.options.event_queue_capacity = 0;
  auto refused = SimulationGroup::create({zero_queue}, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "members[0].event_queue_capacity");
}

}  // namespace
