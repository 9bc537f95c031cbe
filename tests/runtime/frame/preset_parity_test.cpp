// Every effect preset (effects/*.json) on the GPU frame (src/runtime_frame/) against the
// reference simulation (include/mote/simulation.hpp), lavapipe with validation on: the same
// seed, capacity and stride, no pre-warm (the GPU frame has none yet), 300 frames at 60 Hz.
//
// - alive / spawned / killed / dropped equal on every frame;
// - every kCompareEvery frames, every live particle matched by birth serial
//   (ParticleSystemOptions::serial_word) and every record word within
//   |gpu - ref| <= tol_abs + tol_rel * |ref| (1e-4 + 1e-4 |ref| unless the preset says otherwise
//   below, with the reason).
//
// The effect's declared bursts are scheduled by the GPU tick itself (FrameBurst side table,
// bursts_due's rule on the emitter's f32 clock): the test queues nothing with
// ParticleSystem::burst (the gameplay API, tested in particle_system_test.cpp), so the burst
// presets (debris, explosion) check the GPU's schedule against the reference's, particle by
// particle. The host only recomputes the bursts due per frame for the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "mote/effect.hpp"
#include "core/file.hpp"
#include "mote/simulation.hpp"
#include "mote/vector_field.hpp"
#include "runtime/frame/event_parity.hpp"
#include "runtime/frame/particle_system.hpp"
#include "sim/emission.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::FrameStats;
using runtime::ParticleSystem;

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kRecordWords = 32;
constexpr uint32_t kSerialWord = 31;  // past every preset's fields (at most 21 words)
constexpr uint32_t kCompareEvery = 30;

struct Preset {
  const char* file;
  uint32_t frames;  // 300 everywhere: lavapipe runs every preset's 300 frames in seconds
  double tol_abs;
  double tol_rel;
  // Why a looser bound, when there is one.
  const char* why;
  // > 0: both sides spawn at this rate instead of the effect's (an event child's preset, whose
  // own rate is 0 — its particles come from events, which one emitter alone does not receive).
  float rate = 0.0f;
  // Non-null: both sides sample this .mvf (relative to the source folder) in vector field slot 0.
  const char* vector_field = nullptr;
};

// The effect with its spawn rate (emission.rate and the `rate` emitter field's default) set.
CompiledEffect with_rate(CompiledEffect effect, float rate) {
  effect.emission.rate = rate;
  if (const std::optional<uint32_t> at = effect.program.emitter_field_offset("rate"))
    effect.emitter_defaults[*at] = std::bit_cast<uint32_t>(rate);
  return effect;
}

void PrintTo(const Preset& p, std::ostream* os) { *os << p.file; }

// curl_noise (bonfire_embers, bonfire_soot, embers_night): the noise is a sum of sin/cos of the position, and
// its derivative feeds the velocity every frame; the GPU's sin/cos differ from the CPU's by a few
// ulp, and that difference is fed back through the integrated position for up to the
// particle's whole life. The bound is 2e-3 + 2e-3 |ref| there: measured on lavapipe, seed 11,
// the worst |d| / (1 + |ref|) is 5.2e-4 (embers, velocity.x at frame 269) and 3.7e-5 (soot); the
// other presets stay under 7.6e-6 against their 1e-4 + 1e-4 |ref| bound.
constexpr double kTol = 1e-4;
constexpr double kCurlTol = 2e-3;
constexpr const char* kCurlWhy = "UPDATE applies curl noise (sin/cos of the position fed back into the velocity)";

const Preset kPresets[] = {
    {"bonfire_embers.json", 300, kCurlTol, kCurlTol, kCurlWhy},
    {"bonfire_flame.json", 300, kTol, kTol, ""},
    {"bonfire_smoke.json", 300, kTol, kTol, ""},
    {"bonfire_soot.json", 300, kCurlTol, kCurlTol, kCurlWhy},
    {"comet.json", 300, kTol, kTol, ""},
    {"debris.json", 300, kTol, kTol, ""},
    {"embers_night.json", 300, kCurlTol, kCurlTol, kCurlWhy},
    {"explosion.json", 300, kTol, kTol, ""},
    {"fire.json", 300, kTol, kTol, ""},
    {"fireworks_crackle.json", 300, kTol, kTol, "", 120.0f},
    {"fireworks_rocket.json", 300, kTol, kTol, ""},
    {"fireworks_spark.json", 300, kTol, kTol, "", 120.0f},
    {"fountain.json", 300, kTol, kTol, ""},
    {"leaves.json", 300, kTol, kTol, ""},
    {"leaves_swirl.json", 300, kTol, kTol, "", 0.0f, "scenes/fields/leaves_swirl.mvf"},
    {"rain.json", 300, kTol, kTol, ""},
    {"rain_depth.json", 300, kTol, kTol, ""},  // no collision depth set: collide_depth never hits, on both sides
    {"rain_splash.json", 300, kTol, kTol, ""},
    {"smoke.json", 300, kTol, kTol, ""},
    {"snow.json", 300, kTol, kTol, ""},
    {"splash.json", 300, kTol, kTol, "", 120.0f},
    {"sword_trail.json", 300, kTol, kTol, ""},
    {"spark_trail.json", 300, kTol, kTol, "", 120.0f},
    {"trail_spark.json", 300, kTol, kTol, "", 120.0f},
    {"sparkles.json", 300, kTol, kTol, ""},
    {"sparks_bounce.json", 300, kTol, kTol, ""},
    {"water_jet.json", 300, kTol, kTol, ""},
};

using test::load_preset;  // tests/support/effect_presets.hpp

// The list above covers every preset in effects/ (a new preset must be added to it).
TEST(PresetParityList, CoversEveryPreset) {
  std::vector<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(MOTE_EFFECTS_DIR))
    if (entry.path().extension() == ".json") on_disk.push_back(entry.path().filename().string());
  std::sort(on_disk.begin(), on_disk.end());
  std::vector<std::string> listed;
  for (const Preset& p : kPresets) listed.push_back(p.file);
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(on_disk, listed);
}

class PresetParityTest : public test::GpuTest, public ::testing::WithParamInterface<Preset> {};

TEST_P(PresetParityTest, GpuFrameMatchesTheReferenceSimulation) {
  const Preset& preset = GetParam();
  const CompiledEffect loaded = load_preset(preset.file);
  const CompiledEffect effect = preset.rate > 0.0f ? with_rate(loaded, preset.rate) : loaded;
  ASSERT_FALSE(effect.program.update.empty() && effect.program.init.empty());
  const uint32_t capacity = effect.emission.capacity_hint;
  const uint32_t own = effect.program.particle_record_words();
  ASSERT_LE(own, kSerialWord);

  auto created = ParticleSystem::create(
      device(), {.capacity = capacity, .record_words = kRecordWords, .max_emitters = 4, .serial_word = kSerialWord});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  constexpr uint32_t kSeed = 11;
  // Both sides without the pre-warm: the GPU's and the reference's draw different random streams
  // (the pre-warm's statistical parity is tests/runtime/frame/prewarm_test.cpp's).
  CompiledEffect gpu_effect = effect;
  gpu_effect.emission.prewarm_seconds = 0.0f;
  std::vector<VectorField> fields;
  if (preset.vector_field) {
    auto bytes = read_file_bytes(std::string(MOTE_EFFECTS_DIR) + "/../" + preset.vector_field);
    ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
    auto field = load_vector_field(*bytes);
    ASSERT_TRUE(field.ok()) << field.error().to_string();
    fields.push_back(std::move(field).value());
    ASSERT_TRUE(system.set_vector_field(0, fields[0]).ok());
  }
  auto added = system.add_emitter(gpu_effect, {.seed = kSeed});
  ASSERT_TRUE(added.ok()) << added.error().to_string();
  const uint32_t row = added.value();

  Result<Simulation> sim = Simulation::create(effect, {.dt = kDt,
                                                       .emitter = {.seed = kSeed},
                                                       .capacity = capacity,
                                                       .record_words = kRecordWords,
                                                       .prewarm = false,
                                                       .emitter_row = row,
                                                       .emitter_generation = system.generation(row),
                                                       .vector_fields = fields});
  ASSERT_TRUE(sim.ok()) << sim.error().to_string();

  std::map<uint32_t, uint32_t> ref_serial;  // reference slot -> birth serial
  uint32_t born = 0;
  float age = 0.0f;  // the emitter's f32 clock, advanced as the reference and the GPU tick do (report only)
  uint64_t burst_total = 0, spawned_total = 0, killed_total = 0, dropped_total = 0;
  uint32_t max_alive = 0, compared = 0;
  double worst_abs = 0.0, worst_rel = 0.0;  // rel = d / (1 + |ref|)
  std::string worst_where;
  for (uint32_t f = 0; f < preset.frames; ++f) {
    const float age_before = age;
    age = age + kDt;
    const uint64_t due = sim::bursts_due(effect.emission.bursts, age_before, age);
    burst_total += due;  // reported only: the GPU schedules them
    ASSERT_TRUE(system.execute(kDt).ok());
    Result<FrameStats> stats = system.read_stats();
    ASSERT_TRUE(stats.ok()) << stats.error().to_string();
    const FrameStats& g = stats.value();
    Result<FrameReport> report = sim.value().step();
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    const FrameReport& r = report.value();
    ASSERT_EQ(g.alive, r.alive) << preset.file << " frame " << f;
    ASSERT_EQ(g.newborns, r.spawned) << preset.file << " frame " << f;
    ASSERT_EQ(g.killed, r.killed) << preset.file << " frame " << f;
    ASSERT_EQ(g.dropped, r.dropped) << preset.file << " frame " << f;
    ASSERT_EQ(g.alive + g.free_count, capacity) << preset.file << " frame " << f;
    spawned_total += r.spawned;
    killed_total += r.killed;
    dropped_total += r.dropped;
    max_alive = std::max(max_alive, r.alive);

    const std::vector<uint32_t>& ref_alive = sim.value().alive_slots();
    for (uint32_t i = 0; i < r.spawned; ++i) ref_serial[ref_alive[i]] = born + i;  // newborns lead the list
    born += r.spawned;
    if (f % kCompareEvery != kCompareEvery - 1 && f + 1 != preset.frames) continue;

    const std::vector<uint32_t>& ref_pool = sim.value().pool();
    std::map<uint32_t, uint32_t> ref_by_serial;
    for (uint32_t slot : ref_alive) ref_by_serial[ref_serial.at(slot)] = slot;
    auto pool = system.read_pool();
    auto alive = system.read_alive_slots();
    ASSERT_TRUE(pool.ok() && alive.ok());
    ASSERT_EQ(alive.value().size(), ref_alive.size());
    for (uint32_t slot : alive.value()) {
      const uint32_t* got = pool.value().data() + size_t(slot) * kRecordWords;
      const uint32_t serial = got[kSerialWord];
      auto it = ref_by_serial.find(serial);
      ASSERT_NE(it, ref_by_serial.end()) << preset.file << " frame " << f << ": serial " << serial
                                         << " not alive in the reference";
      const uint32_t* want = ref_pool.data() + size_t(it->second) * kRecordWords;
      ASSERT_EQ(got[0], want[0]) << preset.file << " header, frame " << f;
      for (uint32_t w = 1; w < own; ++w) {
        const float x = std::bit_cast<float>(got[w]);
        const float y = std::bit_cast<float>(want[w]);
        if (std::isnan(x) && std::isnan(y)) continue;
        const double d = std::abs(double(x) - double(y));
        const double rel = d / (1.0 + std::abs(double(y)));
        if (rel > worst_rel || std::isnan(d)) {
          worst_rel = std::isnan(d) ? INFINITY : rel;
          worst_abs = d;
          worst_where = "frame " + std::to_string(f) + " serial " + std::to_string(serial) + " word " +
                        std::to_string(w);
        }
        ASSERT_LE(d, preset.tol_abs + preset.tol_rel * std::abs(double(y)))
            << preset.file << " frame " << f << " serial " << serial << " word " << w << ": gpu " << x << " ref " << y;
      }
      ++compared;
    }
  }
  // The GPU's emitter clock (what its burst schedule reads) is the host's f32 clock, bit for bit.
  auto states = system.read_emitter_states();
  ASSERT_TRUE(states.ok()) << states.error().to_string();
  EXPECT_EQ(std::bit_cast<uint32_t>(states.value()[row].age), std::bit_cast<uint32_t>(age)) << preset.file;
  EXPECT_GT(spawned_total, 0u) << preset.file << " spawned nothing: the comparison is empty";
  std::cout << "parity " << preset.file << ": " << preset.frames << " frames, spawned " << spawned_total
            << " (declared bursts due " << burst_total << "), killed " << killed_total << ", dropped " << dropped_total
            << ", max alive " << max_alive << "; " << compared << " records compared, worst |d| / (1 + |ref|) "
            << worst_rel << " (|d| " << worst_abs << ", " << (worst_where.empty() ? "-" : worst_where) << "), bound "
            << preset.tol_abs << " + " << preset.tol_rel << " |ref|"
            << (preset.why[0] ? std::string(" (") + preset.why + ")" : std::string()) << "\n";
  RecordProperty("worst_relative", std::to_string(worst_rel));
  RecordProperty("records_compared", std::to_string(compared));
}

std::string preset_name(const ::testing::TestParamInfo<Preset>& info) {
  std::string n = info.param.file;
  n = n.substr(0, n.find('.'));
  return n;
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetParityTest, ::testing::ValuesIn(kPresets), preset_name);

// The event presets with their events bound (docs/design/events.md, "On the GPU"): one GPU
// system, the reference's SimulationGroup, counts every frame and records matched by (emitter,
// birth serial) every 20 frames within the bound above (tests/runtime/frame/event_parity.hpp).
class PresetEventChainTest : public test::GpuTest {};

using test::EventParityMember;
using test::EventParityOptions;
using test::EventParityResult;

// fireworks_rocket -> fireworks_spark -> fireworks_crackle for 8 s: every rocket bursts into 60
// sparks at its apex as the reference, every rocket and spark record within the preset parity
// test's bound (the flight integrates gravity and drag, whose GPU rounding may differ by an ulp;
// the sparks start where their rocket died, on either side). A spark's crackle is a coin its
// UPDATE draws, keyed by its slot, and the GPU's shared pool gives the sparks other slots than
// the reference's pool per emitter: the crackles are counted, not matched (about half the
// sparks, each crackle event one crackle).
TEST_F(PresetEventChainTest, FireworksChainMatchesTheReference) {
  const std::vector<EventParityMember> members{{test::load_preset("fireworks_rocket.json"), 5},
                                               {test::load_preset("fireworks_spark.json"), 6},
                                               {test::load_preset("fireworks_crackle.json"), 7, false}};
  const EventParityResult r =
      test::run_event_parity(device(), members, {{0, 0, 1}, {1, 0, 2}},
                             EventParityOptions{.frames = 480, .compare_every = 20, .tol_abs = 1e-4, .tol_rel = 1e-4});
  EXPECT_EQ(r.spawned[0], 12u);
  EXPECT_EQ(r.children[1], 12u * 60u);
  EXPECT_GT(r.gpu_children[2], r.children[1] / 4);
  EXPECT_LT(r.gpu_children[2], r.children[1] * 3 / 4);
  EXPECT_GT(r.records_compared, 1000u);
  std::cout << "fireworks chain: " << r.records_compared << " records, " << r.words_not_bit_equal
            << " words not bit-equal, worst |d| / (1 + |ref|) " << r.worst_relative << "\n";
}

// fireworks_rocket -> trail_spark -> spark_trail (docs/design/ribbons.md, "Trails"): every spark
// sends one trail point a step, carrying its trail_id (its birth serial) in the payload; the trail
// points' records — their `parent` field, EVENT_ID, included — match the reference's.
TEST_F(PresetEventChainTest, FireworksTrailsCarryTheirParentsIdAsTheReference) {
  const std::vector<EventParityMember> members{{test::load_preset("fireworks_rocket.json"), 5},
                                               {test::load_preset("trail_spark.json"), 6},
                                               {test::load_preset("spark_trail.json"), 7}};
  const EventParityResult r =
      test::run_event_parity(device(), members, {{0, 0, 1}, {1, 0, 2}},
                             EventParityOptions{.frames = 300, .compare_every = 20, .tol_abs = 1e-4, .tol_rel = 1e-4});
  EXPECT_GT(r.children[1], 0u) << "no rocket burst";
  EXPECT_GT(r.children[2], r.children[1]) << "each spark leaves several trail points";
  EXPECT_GT(r.records_compared, 1000u);
  std::cout << "fireworks trails chain: " << r.records_compared << " records, " << r.words_not_bit_equal
            << " words not bit-equal, worst |d| / (1 + |ref|) " << r.worst_relative << "\n";
}

TEST_F(PresetEventChainTest, RainSplashChainMatchesTheReference) {
  const std::vector<EventParityMember> members{{test::load_preset("rain_splash.json"), 3},
                                               {test::load_preset("splash.json"), 4}};
  const EventParityResult r =
      test::run_event_parity(device(), members, {{0, 0, 1}},
                             EventParityOptions{.frames = 300, .compare_every = 20, .tol_abs = 1e-4, .tol_rel = 1e-4});
  EXPECT_GT(r.children[1], 100u);
  EXPECT_EQ(r.children[1] % 4, 0u) << "4 splashes per hit";
  std::cout << "rain splash chain: " << r.records_compared << " records, " << r.words_not_bit_equal
            << " words not bit-equal, worst |d| / (1 + |ref|) " << r.worst_relative << "\n";
}

}  // namespace
}  // namespace mote
