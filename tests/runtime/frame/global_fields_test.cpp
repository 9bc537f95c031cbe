// Run-time values on the GPU frame (lavapipe, validation on): set_global changes a global field
// for every live emitter reading it, set_emitter_field one emitter's field (the rate too), from
// the next execute on, seen by INIT and UPDATE; emitters added later start from the system's
// value; swap_effect keeps the row, bumps the generation and orphans the old particles.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "sim/emission.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::FrameStats;
using runtime::ParticleSystem;

// INIT records the wind and the kick it is born with; UPDATE drifts the particle with the wind
// (position += wind * dt) and records the wind it saw.
constexpr const char* kWindProgram = R"(
.registers 16
.particle position 3
.particle born_wind 3
.particle seen_wind 3
.particle kick 1
.particle age 1
.emitter kick 1
.emitter rate 1
.global wind 3

.init
  LOAD_BUILTIN r0.xyz, global:wind
  STORE_FIELD @born_wind, r0.xyz
  LOAD_BUILTIN r4.x, emitter:kick
  STORE_FIELD @kick, r4.x
  STORE_FIELD @age, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_BUILTIN r4.xyz, global:wind
  STORE_FIELD @seen_wind, r4.xyz
  LOAD_FIELD r8.xyz, @position
  MUL r12.xyz, r4.xyz, r0.x
  ADD r8.xyz, r8.xyz, r12.xyz
  STORE_FIELD @position, r8.xyz
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
)";

// A second program reading the same global (its own copy in the image).
constexpr const char* kOtherReader = R"(
.registers 8
.particle age 1
.particle seen_wind 3
.global wind 3

.init
  LOAD_BUILTIN r0.xyz, global:wind
  STORE_FIELD @seen_wind, r0.xyz
  STORE_FIELD @age, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
  LOAD_BUILTIN r4.xyz, global:wind
  STORE_FIELD @seen_wind, r4.xyz
)";

// dt a power of two and small integer winds: every position sum below is exact in f32.
constexpr float kDt = 1.0f / 64.0f;
constexpr uint32_t kWords = 32;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect make_effect(const char* text, std::vector<uint32_t> defaults, float wind_x) {
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "globals";
  e.program = std::move(p).value();
  e.emitter_defaults = std::move(defaults);
  e.globals = {{"wind", {wind_x, 0.0f, 0.0f}}};
  return e;
}

struct Particle {
  uint32_t row = 0;
  float age = 0.0f;
  float kick = 0.0f;
  float position[3] = {};
  float born_wind[3] = {};
  float seen_wind[3] = {};
};

class GlobalFieldsTest : public test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    auto s = ParticleSystem::create(device(), {.capacity = 1024, .record_words = kWords, .max_emitters = 8});
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    system_ = std::move(s).value();
    wind_ = make_effect(kWindProgram, {bits(0.5f), bits(0.0f)}, 1.0f);
    other_ = make_effect(kOtherReader, {}, 1.0f);
  }
  void TearDown() override {
    system_ = ParticleSystem();
    GpuTest::TearDown();
  }
  uint32_t add(const CompiledEffect& e, const EmitterDesc& o = {}) {
    auto r = system_.add_emitter(e, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? *r : 0;
  }
  FrameStats step() {
    Status st = system_.execute(kDt);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
    auto r = system_.read_stats();
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : FrameStats{};
  }
  // The live particles, read with `layout`'s field offsets (fields it lacks read 0).
  std::vector<Particle> particles(const Program& layout, uint32_t row) {
    auto pool = system_.read_pool();
    auto alive = system_.read_alive_slots();
    EXPECT_TRUE(pool.ok() && alive.ok());
    std::vector<Particle> out;
    if (!pool.ok() || !alive.ok()) return out;
    for (uint32_t slot : *alive) {
      const uint32_t* rec = pool->data() + size_t(slot) * kWords;
      if ((rec[0] & shader::kFrameHeaderRowMask) != row) continue;
      auto get = [&](const char* name, float* dst, uint32_t n) {
        if (auto off = layout.particle_field_offset(name))
          for (uint32_t c = 0; c < n; ++c) dst[c] = std::bit_cast<float>(rec[*off + c]);
      };
      Particle p;
      p.row = row;
      get("age", &p.age, 1);
      get("kick", &p.kick, 1);
      get("position", p.position, 3);
      get("born_wind", p.born_wind, 3);
      get("seen_wind", p.seen_wind, 3);
      out.push_back(p);
    }
    return out;
  }

  ParticleSystem system_;
  CompiledEffect wind_;
  CompiledEffect other_;
};

TEST_F(GlobalFieldsTest, AGlobalChangeIsSeenByUpdateAndInitOfEveryReader) {
  const uint32_t a = add(wind_);
  const uint32_t b = add(other_);
  // Frame 0: a burst on each; frames 1..3 update them in the wind (1, 0, 0).
  ASSERT_TRUE(system_.burst(a, 4).ok());
  ASSERT_TRUE(system_.burst(b, 4).ok());
  for (int f = 0; f < 4; ++f) step();
  for (const Particle& p : particles(wind_.program, a)) {
    EXPECT_EQ(p.position[0], 3.0f * kDt);  // three updates at 1 / 64
    EXPECT_EQ(p.seen_wind[0], 1.0f);
    EXPECT_EQ(p.born_wind[0], 1.0f);
  }
  // The wind turns to (0, 2, 0): the next frame's UPDATE and INIT see it, in both programs.
  const float gust[3] = {0.0f, 2.0f, 0.0f};
  ASSERT_TRUE(system_.set_global("wind", gust).ok());
  ASSERT_TRUE(system_.burst(a, 2).ok());
  ASSERT_TRUE(system_.burst(b, 2).ok());
  for (int f = 0; f < 4; ++f) step();
  const std::vector<Particle> pa = particles(wind_.program, a);
  ASSERT_EQ(pa.size(), 6u);
  uint32_t old_ones = 0;
  for (const Particle& p : pa) {
    EXPECT_EQ(p.seen_wind[0], 0.0f);
    EXPECT_EQ(p.seen_wind[1], 2.0f);
    if (p.born_wind[0] == 1.0f) {
      // Born before the change: 3 updates east, then 4 north at twice the speed.
      ++old_ones;
      EXPECT_EQ(p.position[0], 3.0f * kDt);
      EXPECT_EQ(p.position[1], 4.0f * 2.0f * kDt);
    } else {
      EXPECT_EQ(p.born_wind[1], 2.0f);  // INIT saw the new value
      EXPECT_EQ(p.position[0], 0.0f);
      EXPECT_EQ(p.position[1], 3.0f * 2.0f * kDt);
    }
  }
  EXPECT_EQ(old_ones, 4u);
  const std::vector<Particle> pb = particles(other_.program, b);
  ASSERT_EQ(pb.size(), 6u);
  for (const Particle& p : pb) EXPECT_EQ(p.seen_wind[1], 2.0f) << "the other program's copy";

  // Emitters added later start from the system's value (INIT of their first newborns)...
  const uint32_t c = add(wind_);
  ASSERT_TRUE(system_.burst(c, 3).ok());
  step();
  for (const Particle& p : particles(wind_.program, c)) EXPECT_EQ(p.born_wind[1], 2.0f);
  // ...unless add_emitter is given an override of their own.
  EmitterDesc own;
  own.globals = {{"wind", {0.0f, 0.0f, 5.0f}}};
  const uint32_t d = add(wind_, own);
  ASSERT_TRUE(system_.burst(d, 3).ok());
  step();
  const std::vector<Particle> pd = particles(wind_.program, d);
  ASSERT_EQ(pd.size(), 3u);
  for (const Particle& p : pd) EXPECT_EQ(p.born_wind[2], 5.0f);
}

TEST_F(GlobalFieldsTest, SetEmitterFieldChangesOneEmitter) {
  const uint32_t a = add(wind_);
  const uint32_t b = add(wind_);
  ASSERT_TRUE(system_.burst(a, 2).ok());
  ASSERT_TRUE(system_.burst(b, 2).ok());
  step();
  const float kick = 4.0f;
  ASSERT_TRUE(system_.set_emitter_field(a, "kick", std::span(&kick, 1)).ok());
  ASSERT_TRUE(system_.burst(a, 2).ok());
  ASSERT_TRUE(system_.burst(b, 2).ok());
  step();
  uint32_t new_kicks = 0;
  for (const Particle& p : particles(wind_.program, a)) {
    if (p.age == 0.0f) {
      EXPECT_EQ(p.kick, 4.0f);
      ++new_kicks;
    } else {
      EXPECT_EQ(p.kick, 0.5f);  // born before the change
    }
  }
  EXPECT_EQ(new_kicks, 2u);
  for (const Particle& p : particles(wind_.program, b)) EXPECT_EQ(p.kick, 0.5f);

  // The emitter field "rate" is the emitter's rate: 120/s at 64 Hz from the next tick on, the
  // reference accumulator's counts.
  const float rate = 120.0f;
  ASSERT_TRUE(system_.set_emitter_field(b, "rate", std::span(&rate, 1)).ok());
  float accumulator = 0.0f;
  uint32_t spawned = 0;
  for (int f = 0; f < 20; ++f) {
    const FrameStats s = step();
    const uint32_t want = sim::take_rate_spawns(accumulator, 120.0f, kDt);
    EXPECT_EQ(s.newborns, want) << "frame " << f;
    spawned += s.newborns;
  }
  EXPECT_EQ(spawned, 37u);  // floor(20 * 120 / 64)
}

TEST_F(GlobalFieldsTest, MisuseIsAnErrorThatNamesTheField) {
  const uint32_t a = add(wind_);
  const float one = 1.0f;
  const float two[2] = {1.0f, 2.0f};
  Status s = system_.set_global("wind", std::span(&one, 1));  // read with 3 components
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().to_string().find("'wind'"), std::string::npos) << s.error().to_string();
  EXPECT_FALSE(system_.set_global("wind", std::span<const float>()).ok());
  s = system_.set_emitter_field(a, "nope", std::span(&one, 1));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().to_string().find("'nope'"), std::string::npos) << s.error().to_string();
  s = system_.set_emitter_field(a, "kick", two);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().to_string().find("'kick'"), std::string::npos) << s.error().to_string();
  EXPECT_FALSE(system_.set_emitter_field(a + 1, "kick", std::span(&one, 1)).ok());
  // A name nobody reads yet declares it at that width: a later reader at another width is refused.
  ASSERT_TRUE(system_.set_global("fog", two).ok());
  CompiledEffect fog = make_effect(R"(
.registers 4
.particle x 3
.global fog 3
.init
  LOAD_BUILTIN r0.xyz, global:fog
  STORE_FIELD @x, r0.xyz
.update
  LOAD_FIELD r0.x, @x
)",
                                   {}, 0.0f);
  fog.globals = {{"fog", {0.0f, 0.0f, 0.0f}}};
  auto refused = system_.add_emitter(fog);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().to_string().find("'fog'"), std::string::npos) << refused.error().to_string();
}

TEST_F(GlobalFieldsTest, SwapEffectKeepsTheRowAndOrphansTheOldParticles) {
  CompiledEffect rated = wind_;
  rated.emitter_defaults = {bits(0.5f), bits(64.0f)};  // one a frame
  const uint32_t a = add(rated, {.seed = 3});
  const uint32_t b = add(other_);
  ASSERT_TRUE(system_.burst(b, 5).ok());
  const float kick = 9.0f;
  ASSERT_TRUE(system_.set_emitter_field(a, "kick", std::span(&kick, 1)).ok());
  for (int f = 0; f < 6; ++f) step();
  const uint32_t generation = system_.generation(a);
  // Program swap: the row runs the other program from the next frame, its old particles die.
  ASSERT_TRUE(system_.swap_effect(a, other_).ok());
  EXPECT_NE(system_.generation(a), generation);
  EXPECT_TRUE(system_.is_live(a));
  ASSERT_TRUE(system_.burst(a, 3).ok());
  FrameStats s = step();
  EXPECT_EQ(s.orphaned, 6u);
  EXPECT_EQ(s.newborns, 3u);  // other_ has no rate
  std::vector<Particle> pa = particles(other_.program, a);
  ASSERT_EQ(pa.size(), 3u);
  for (const Particle& p : pa) EXPECT_EQ(p.seen_wind[0], 1.0f);
  EXPECT_EQ(particles(other_.program, b).size(), 5u);  // the other emitter is untouched
  auto states = system_.read_emitter_states().value();
  EXPECT_EQ(states[a].generation, system_.generation(a));
  EXPECT_EQ(states[a].tick, 0u);  // the state restarted
  // Swapping back: fields both programs declare keep the emitter's values (kick 9 set above was
  // dropped with the wind program, so the new block starts from the defaults: 0.5, rate 64).
  ASSERT_TRUE(system_.swap_effect(a, rated).ok());
  s = step();
  EXPECT_EQ(s.orphaned, 3u);
  EXPECT_EQ(s.newborns, 1u);
  for (const Particle& p : particles(wind_.program, a)) EXPECT_EQ(p.kick, 0.5f);
  ASSERT_TRUE(system_.set_emitter_field(a, "kick", std::span(&kick, 1)).ok());
  CompiledEffect slower = rated;
  slower.emitter_defaults = {bits(1.0f), bits(32.0f)};
  ASSERT_TRUE(system_.swap_effect(a, slower).ok());  // same fields: the values carry over
  for (int f = 0; f < 4; ++f) s = step();
  pa = particles(wind_.program, a);
  ASSERT_EQ(pa.size(), 4u);  // the carried rate (64/s), not the new default (32/s)
  for (const Particle& p : pa) EXPECT_EQ(p.kick, 9.0f);
  EXPECT_FALSE(system_.swap_effect(7, other_).ok());  // no emitter there
}

}  // namespace
}  // namespace mote
