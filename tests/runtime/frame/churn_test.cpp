// Churn on the GPU frame (lavapipe, validation on): 2000 frames of seeded random actions —
// emitters added (presets and a small effect of the test's own, at a transform row or not) and
// removed, programs swapped in place (swap_effect), bursts, a global field changing, fields and
// the global bound to animated transforms and unbound — into a pool of 2048 that is often full.
// After every frame the pool's invariants are read back and checked (check_pool_invariants:
// alive + free == capacity, every slot below the capacity, no slot twice in one list or in both,
// every alive slot's header names a live row with that row's generation, every free slot's record
// is zero), the test's live rows are the system's, and the bindings table has one row per bound
// field and per live reader of the bound global.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/frame/pool_invariants.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::Channel;
using runtime::FrameStats;
using runtime::kNoParent;
using runtime::kNoTransformRow;
using runtime::ParticleSystem;
using runtime::TransformTable;

// The test's own effect: spawns around its `target` emitter field, drifts in the global `wind`
// (read by UPDATE, and by INIT for the initial velocity), dies after 0.2 .. 1.2 s, and fires an
// endless declared burst every 0.5 s.
constexpr const char* kWindEffect = R"({
  "version": 1,
  "name": "churn_wind",
  "particle_fields": [
    {"name": "position", "width": 3}, {"name": "velocity", "width": 3},
    {"name": "age", "width": 1}, {"name": "lifetime", "width": 1}
  ],
  "emitter_fields": [
    {"name": "rate", "width": 1, "default": [200.0]},
    {"name": "target", "width": 3, "default": [0.0, 1.0, 0.0]},
    {"name": "tint", "width": 4, "default": [1.0, 1.0, 1.0, 1.0]}
  ],
  "global_fields": [{"name": "wind", "width": 3, "preview": [0.5, 0.0, 0.0]}],
  "emission": {"rate": 200, "bursts": [{"time": 0.1, "count": 40, "cycles": 0, "interval": 0.5}], "capacity": 512},
  "init": {"nodes": [
    {"id": "target", "type": "emitter_field", "params": {"field": "target"}},
    {"id": "tint", "type": "emitter_field", "params": {"field": "tint"}},
    {"id": "wind", "type": "global_field", "params": {"field": "wind"}},
    {"id": "spawn", "type": "emit_sphere", "inputs": {"radius": 0.2}},
    {"id": "pos", "type": "add", "inputs": {"a": "spawn.position", "b": "target"}},
    {"id": "vel", "type": "velocity_sphere", "inputs": {"speed_min": 0.5, "speed_max": 1.5}},
    {"id": "push", "type": "add", "inputs": {"a": "vel", "b": "wind"}},
    {"id": "tint_x", "type": "split", "inputs": {"value": "tint"}},
    {"id": "life", "type": "random_range", "inputs": {"min": 0.2, "max": 1.2}},
    {"id": "life_tinted", "type": "mul", "inputs": {"a": "life", "b": "tint_x.w"}},
    {"id": "set_position", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "pos"}},
    {"id": "set_velocity", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "push"}},
    {"id": "set_age", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}},
    {"id": "set_lifetime", "type": "set_field", "params": {"field": "lifetime"}, "inputs": {"value": "life_tinted"}}
  ]},
  "update": {"nodes": [
    {"id": "p", "type": "get_field", "params": {"field": "position"}},
    {"id": "v", "type": "get_field", "params": {"field": "velocity"}},
    {"id": "age", "type": "get_field", "params": {"field": "age"}},
    {"id": "life", "type": "get_field", "params": {"field": "lifetime"}},
    {"id": "wind", "type": "global_field", "params": {"field": "wind"}},
    {"id": "move", "type": "integrate", "inputs": {"position": "p", "velocity": "v", "acceleration": "wind"}},
    {"id": "older", "type": "age_step", "inputs": {"age": "age"}},
    {"id": "dead", "type": "expired", "inputs": {"age": "older", "lifetime": "life"}},
    {"id": "set_position", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "move.position"}},
    {"id": "set_velocity", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "move.velocity"}},
    {"id": "set_age", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "older"}},
    {"id": "kill", "type": "kill_if", "inputs": {"condition": "dead"}}
  ]}
})";

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kCapacity = 2048;
constexpr uint32_t kWords = 24;  // the presets' 21 words and the test effect's 9
constexpr uint32_t kMaxEmitters = 12;
constexpr int kFrames = 2000;

using test::load_preset;  // tests/support/effect_presets.hpp

class ChurnTest : public test::GpuTest {};

TEST_F(ChurnTest, PoolListsStayConsistentOverThousandsOfFramesOfChurn) {
  std::vector<CompiledEffect> effects;
  for (const char* name : {"fire.json", "sparkles.json", "debris.json", "smoke.json", "rain.json", "explosion.json"})
    effects.push_back(load_preset(name));
  {
    Result<CompiledEffect> own = compile_effect(kWindEffect);
    ASSERT_TRUE(own.ok()) << own.error().to_string();
    effects.push_back(std::move(own).value());
    CompiledEffect slow = effects.back();  // the same program with other defaults
    slow.emitter_defaults[0] = std::bit_cast<uint32_t>(30.0f);
    effects.push_back(std::move(slow));
  }
  const size_t wind_first = effects.size() - 2;  // the effects that read the global "wind"
  for (const CompiledEffect& e : effects) ASSERT_LE(e.program.particle_record_words(), kWords) << e.name;

  auto made_table = TransformTable::create(device(), 8);
  ASSERT_TRUE(made_table.ok()) << made_table.error().to_string();
  TransformTable table = std::move(made_table).value();
  std::vector<uint32_t> transform_rows;
  transform_rows.push_back(table.add_row(kNoParent).value());
  transform_rows.push_back(table.add_row(transform_rows[0]).value());
  transform_rows.push_back(table.add_row(kNoParent).value());
  transform_rows.push_back(table.add_row(transform_rows[1]).value());
  auto made = ParticleSystem::create(device(),
                                     {.capacity = kCapacity, .record_words = kWords, .max_emitters = kMaxEmitters});
  ASSERT_TRUE(made.ok()) << made.error().to_string();
  ParticleSystem system = std::move(made).value();
  ASSERT_TRUE(system.set_transforms(&table).ok());

  std::mt19937 rng(20240611);
  auto pick = [&](size_t n) { return size_t(rng() % n); };
  auto chance = [&](uint32_t percent) { return rng() % 100 < percent; };
  auto uniform = [&](float lo, float hi) { return lo + (hi - lo) * float(rng() % 10001) / 10000.0f; };

  // The test's own view: which effect each live row runs and which of its fields are bound.
  std::map<uint32_t, size_t> live;                         // row -> effect index
  std::map<uint32_t, std::set<std::string>> bound_fields;  // row -> bound emitter fields
  bool wind_bound = false;
  std::map<std::string, uint64_t> done;  // actions taken (the test must exercise every kind)
  uint64_t dropped = 0, orphaned = 0, killed = 0, full_frames = 0, dropping_frames = 0;

  auto reads_wind = [&](uint32_t row) { return live.at(row) >= wind_first; };
  auto fields_of = [&](size_t effect, uint32_t width) {
    std::vector<std::string> names;
    for (const FieldDecl& f : effects[effect].program.emitter_fields)
      if (f.width == width) names.push_back(f.name);
    return names;
  };
  auto random_live = [&]() {
    auto it = live.begin();
    std::advance(it, pick(live.size()));
    return it->first;
  };

  for (int frame = 0; frame < kFrames; ++frame) {
    // ---- random actions ----
    if (live.size() < kMaxEmitters && chance(live.size() < 3 ? 40 : 12)) {
      const size_t effect = pick(effects.size());
      EmitterDesc o;
      o.seed = uint32_t(rng());
      o.position[0] = uniform(-2.0f, 2.0f);
      if (chance(50)) o.transform = TransformId{transform_rows[pick(transform_rows.size())]};
      auto row = system.add_emitter(effects[effect], o);
      ASSERT_TRUE(row.ok()) << "frame " << frame << ": " << row.error().to_string();
      ASSERT_FALSE(live.contains(*row));
      live[*row] = effect;
      ++done["add"];
    }
    if (!live.empty() && chance(7)) {
      const uint32_t row = random_live();
      ASSERT_TRUE(system.remove_emitter(row).ok());
      live.erase(row);
      bound_fields.erase(row);
      ++done["remove"];
    }
    if (!live.empty() && chance(6)) {
      // Program swap: in place, or as a removal and an add of another effect.
      const uint32_t row = random_live();
      const size_t effect = pick(effects.size());
      const uint32_t generation = system.generation(row);
      if (chance(70)) {
        ASSERT_TRUE(system.swap_effect(row, effects[effect]).ok()) << "frame " << frame;
        ASSERT_NE(system.generation(row), generation);
        // Bindings survive where the new program declares the field at the same width.
        auto width_of = [&](size_t e, const std::string& name) {
          for (const FieldDecl& d : effects[e].program.emitter_fields)
            if (d.name == name) return d.width;
          return 0u;
        };
        std::set<std::string> kept;
        for (const std::string& f : bound_fields[row])
          if (width_of(effect, f) == width_of(live[row], f)) kept.insert(f);
        bound_fields[row] = kept;
        live[row] = effect;
        ++done["swap_effect"];
      } else {
        ASSERT_TRUE(system.remove_emitter(row).ok());
        bound_fields.erase(row);
        live.erase(row);
        auto again = system.add_emitter(effects[effect], {.seed = uint32_t(rng())});
        ASSERT_TRUE(again.ok());
        ASSERT_EQ(*again, std::min(row, *again));  // the lowest free row: this one or a lower one
        live[*again] = effect;
        ++done["swap_by_readd"];
      }
    }
    if (!live.empty() && chance(15)) {
      ASSERT_TRUE(system.burst(random_live(), rng() % 600).ok());
      ++done["burst"];
    }
    if (chance(8)) {
      const float wind[3] = {uniform(-2.0f, 2.0f), uniform(-1.0f, 1.0f), uniform(-2.0f, 2.0f)};
      const Status s = system.set_global("wind", wind);
      ASSERT_EQ(s.ok(), !wind_bound) << "frame " << frame << (s.ok() ? "" : ": " + s.error().to_string());
      ++done[wind_bound ? "set_global_refused" : "set_global"];
    }
    if (!live.empty() && chance(6)) {
      // Bind a 3-wide field to POSITION / DIRECTION / UP, or a 4-wide one to ORIENTATION.
      const uint32_t row = random_live();
      const bool four = chance(30);
      const std::vector<std::string> names = fields_of(live[row], four ? 4 : 3);
      if (!names.empty()) {
        const std::string& field = names[pick(names.size())];
        const Channel channel = four ? Channel::kOrientation : Channel(uint32_t(pick(3)));
        ASSERT_TRUE(system.bind_field(row, field, transform_rows[pick(transform_rows.size())], channel).ok());
        bound_fields[row].insert(field);
        ++done["bind_field"];
      }
    }
    if (!live.empty() && chance(4)) {
      const uint32_t row = random_live();
      auto it = bound_fields.find(row);
      if (it != bound_fields.end() && !it->second.empty()) {
        auto f = it->second.begin();
        std::advance(f, pick(it->second.size()));
        ASSERT_TRUE(system.unbind_field(row, *f).ok()) << *f;
        it->second.erase(f);
        ++done["unbind_field"];
      }
    }
    if (chance(2)) {
      if (wind_bound) {
        ASSERT_TRUE(system.unbind_global("wind").ok());
        ++done["unbind_global"];
      } else {
        ASSERT_TRUE(system.bind_global("wind", transform_rows[pick(transform_rows.size())], Channel::kDirection).ok());
        ++done["bind_global"];
      }
      wind_bound = !wind_bound;
    }

    // ---- the frame: animated transforms ----
    ASSERT_TRUE(device().wait_idle().ok());  // the table's staging is single-buffered
    const float t = float(frame) * kDt;
    ASSERT_TRUE(table
                    .set_local(transform_rows[0], {std::sin(t), 0.5f, std::cos(t)},
                               glm::angleAxis(t, glm::vec3(0, 1, 0)), glm::vec3(1.0f))
                    .ok());
    ASSERT_TRUE(table
                    .set_local(transform_rows[1], {0.0f, 1.0f, 0.0f}, glm::angleAxis(2.0f * t, glm::vec3(1, 0, 0)),
                               glm::vec3(1.0f))
                    .ok());
    ASSERT_TRUE(table.set_local(transform_rows[2], {-1.0f, 0.0f, t}, glm::quat(1, 0, 0, 0), glm::vec3(2.0f)).ok());
    ASSERT_TRUE(table.upload().ok());
    const Status st = system.execute(kDt);
    ASSERT_TRUE(st.ok()) << "frame " << frame << ": " << st.error().to_string();

    // ---- the invariants, read back (runtime/frame/pool_invariants.hpp) ----
    auto census = runtime::check_pool_invariants(system);
    ASSERT_TRUE(census.ok()) << "frame " << frame << ": " << census.error().to_string();
    auto stats = system.read_stats();
    ASSERT_TRUE(stats.ok()) << "frame " << frame;
    const FrameStats& s = *stats;
    ASSERT_EQ(census->alive + census->free, kCapacity) << "frame " << frame;
    // The test's own view of which rows live agrees with the system's.
    for (const auto& [row, effect] : live) ASSERT_TRUE(system.is_live(row)) << "row " << row << ", frame " << frame;
    uint32_t expected_bindings = 0;
    for (const auto& [row, fields] : bound_fields) expected_bindings += uint32_t(fields.size());
    if (wind_bound)
      for (const auto& [row, effect] : live) expected_bindings += reads_wind(row) ? 1u : 0u;
    ASSERT_EQ(system.field_binding_count(), expected_bindings) << "frame " << frame;
    dropped += s.dropped;
    orphaned += s.orphaned;
    killed += s.killed;
    full_frames += s.free_count == 0;
    dropping_frames += s.dropped > 0;
  }

  // The churn really churned: the pool filled, spawns were dropped, particles died both ways,
  // and every kind of action happened many times.
  std::ostringstream summary;
  for (const auto& [name, count] : done) summary << name << " " << count << ", ";
  std::cout << "churn: " << summary.str() << "dropped " << dropped << ", orphaned " << orphaned << ", killed " << killed
            << ", frames that dropped spawns " << dropping_frames << ", frames ending with a full pool " << full_frames
            << "\n";
  EXPECT_GT(dropping_frames, 100u);
  EXPECT_GT(full_frames, 10u);
  EXPECT_GT(orphaned, 1000u);
  EXPECT_GT(killed, 1000u);
  for (const char* kind : {"add", "remove", "swap_effect", "swap_by_readd", "burst", "set_global", "set_global_refused",
                           "bind_field", "unbind_field", "bind_global", "unbind_global"})
    EXPECT_GE(done[kind], 5u) << kind;
}

}  // namespace
}  // namespace mote
