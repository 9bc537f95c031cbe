// The presets under effects/, compiled and run for 10 s at 60 Hz, held to what a viewer would
// see: rain falls inside its footprint, fire and smoke rise, smoke grows while fire shrinks,
// the explosion expands then dies out, continuous effects settle at rate x mean life, nothing
// is NaN. Needs the effect compiler (src/graph/); skipped in a build without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"

#include <fstream>
#include <sstream>

namespace mote {
namespace {

constexpr uint32_t kFrames = 600;  // 10 s at 60 Hz

CompiledEffect load_preset(const std::string& name) {
  std::ifstream file(std::string(MOTE_EFFECTS_DIR) + "/" + name + ".json");
  EXPECT_TRUE(file.good()) << name;
  std::stringstream text;
  text << file.rdbuf();
  Result<CompiledEffect> e = compile_effect(text.str());
  EXPECT_TRUE(e.ok()) << name << ": " << (e.ok() ? "" : e.error().to_string());
  return e.ok() ? std::move(e).value() : CompiledEffect{};
}

float emitter_default(const CompiledEffect& e, const std::string& field) {
  const std::optional<uint32_t> off = e.program.emitter_field_offset(field);
  EXPECT_TRUE(off.has_value()) << field;
  return off ? std::bit_cast<float>(e.emitter_defaults[*off]) : 0.0f;
}

std::vector<float> field_of(const Simulation& sim, std::string_view name) {
  Result<std::vector<float>> r = sim.field(name);
  EXPECT_TRUE(r.ok()) << name;
  return r.ok() ? std::move(r).value() : std::vector<float>{};
}

// Runs a preset; `each` sees the simulation after every frame.
template <typename Each>
void run_preset(const CompiledEffect& effect, Each&& each) {
  SimulationOptions o;
  o.emitter.seed = 2024;
  o.executor = SimulationExecutor::kBatch;
  Result<Simulation> created = Simulation::create(effect, o);
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  Simulation sim = std::move(created).value();
  for (uint32_t f = 0; f < kFrames; ++f) {
    Result<FrameReport> r = sim.step();
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    ASSERT_LE(r->alive, sim.capacity());
    each(sim, *r);
  }
  for (const FieldDecl& fd : effect.program.particle_fields)
    for (float v : field_of(sim, fd.name)) ASSERT_FALSE(std::isnan(v)) << effect.name << "." << fd.name;
}

// Mean of `field` component `c` over particles whose normalized age is below / above 0.5.
std::pair<double, double> young_old_mean(const Simulation& sim, std::string_view field, uint32_t c) {
  const std::vector<float> v = field_of(sim, field);
  const std::vector<float> age = field_of(sim, "age");
  const std::vector<float> life = field_of(sim, "lifetime");
  const uint32_t w = *sim.field_width(field);
  double sum[2] = {0, 0};
  double n[2] = {0, 0};
  for (size_t i = 0; i < age.size(); ++i) {
    const int k = age[i] / life[i] < 0.5f ? 0 : 1;
    sum[k] += v[i * w + c];
    n[k] += 1;
  }
  return {n[0] ? sum[0] / n[0] : 0.0, n[1] ? sum[1] / n[1] : 0.0};
}

// Continuous presets settle at rate x mean life (+-15%), averaged over the last 2 s.
void expect_settles(const std::string& name) {
  const CompiledEffect e = load_preset(name);
  if (::testing::Test::HasFailure()) return;
  const double expected = double(emitter_default(e, "rate")) * 0.5 *
                          double(emitter_default(e, "life_min") + emitter_default(e, "life_max"));
  double sum = 0.0;
  uint32_t n = 0;
  run_preset(e, [&](const Simulation&, const FrameReport& r) {
    if (r.frame >= kFrames - 120) {
      sum += r.alive;
      ++n;
    }
  });
  EXPECT_NEAR(sum / n, expected, 0.15 * expected) << name;
}

TEST(SimPresets, ContinuousPresetsSettleAtRateTimesMeanLife) {
  for (const char* name : {"water_jet", "rain", "smoke", "fire", "snow", "sparkles", "bonfire_flame", "bonfire_smoke",
                           "bonfire_embers", "bonfire_soot"})
    expect_settles(name);
}

TEST(SimPresets, RainFallsInsideItsFootprint) {
  const CompiledEffect e = load_preset("rain");
  ASSERT_FALSE(HasFailure());
  // Half-size 10 m plus the widest sideways drift: 0.3 m/s for 5 s.
  const float reach = 10.0f + 0.3f * 5.0f + 1e-3f;
  run_preset(e, [&](const Simulation& sim, const FrameReport& r) {
    if (r.frame % 60 != 59) return;
    const std::vector<float> p = field_of(sim, "position");
    for (size_t i = 0; i < p.size(); i += 3) {
      ASSERT_LE(std::fabs(p[i]), reach);
      ASSERT_LE(p[i + 1], 1e-3f);  // never above the emitter's plane
      ASSERT_LE(std::fabs(p[i + 2]), reach);
    }
    const auto [young, old] = young_old_mean(sim, "position", 1);
    EXPECT_LT(old, young - 1.0);  // falling
  });
}

// Sparks thrown from 1 m up fall onto the floor (collide_plane at y = 0), never pass through it,
// and lose their speed there: the sparks older than 2.5 s lie on the floor, nearly still.
TEST(SimPresets, SparksBounceOnTheFloorAndComeToRest) {
  const CompiledEffect e = load_preset("sparks_bounce");
  ASSERT_FALSE(HasFailure());
  uint32_t resting = 0;
  run_preset(e, [&](const Simulation& sim, const FrameReport& r) {
    const std::vector<float> p = field_of(sim, "position");
    for (size_t i = 1; i < p.size(); i += 3) ASSERT_GE(p[i], 0.0f) << "frame " << r.frame;
    if (r.frame % 60 != 59) return;
    const std::vector<float> v = field_of(sim, "velocity");
    const std::vector<float> age = field_of(sim, "age");
    for (size_t k = 0; k < age.size(); ++k) {
      if (age[k] < 2.5f) continue;
      const float speed = std::sqrt(v[3 * k] * v[3 * k] + v[3 * k + 1] * v[3 * k + 1] + v[3 * k + 2] * v[3 * k + 2]);
      EXPECT_LT(p[3 * k + 1], 0.01f) << "frame " << r.frame;
      EXPECT_LT(speed, 0.2f) << "frame " << r.frame;
      ++resting;
    }
  });
  EXPECT_GT(resting, 100u);
}

// Leaves feel the scene's wind (the wind node) through drag relative to the air: in still air
// the airborne ones drift down with no sideways speed left; in a uniform 2 m/s wind along +X they
// move with it (after 3 s the 1.5/s drag has taken all but 1% of any other sideways speed); on
// the ground they stick.
TEST(SimPresets, LeavesMoveWithTheWind) {
  const CompiledEffect e = load_preset("leaves");
  ASSERT_FALSE(HasFailure());
  for (const float wind_x : {0.0f, 2.0f}) {
    SimulationOptions o;
    o.emitter.seed = 77;
    o.wind.velocity = {wind_x, 0.0f, 0.0f};
    Result<Simulation> created = Simulation::create(e, o);
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    uint32_t airborne = 0, grounded = 0;
    for (uint32_t f = 0; f < 420; ++f) {
      ASSERT_TRUE(created->step().ok());
      if (f % 60 != 59) continue;
      const std::vector<float> p = field_of(*created, "position");
      const std::vector<float> v = field_of(*created, "velocity");
      const std::vector<float> age = field_of(*created, "age");
      for (size_t k = 0; k < age.size(); ++k) {
        ASSERT_GE(p[3 * k + 1], 0.0f);
        if (age[k] < 3.0f) continue;
        if (p[3 * k + 1] > 0.05f) {
          EXPECT_NEAR(v[3 * k], wind_x, 0.05f) << "wind " << wind_x;
          EXPECT_NEAR(v[3 * k + 2], 0.0f, 0.05f);
          EXPECT_LT(v[3 * k + 1], -0.5f);  // falling at about gravity / drag = 1 m/s
          ++airborne;
        } else if (p[3 * k + 1] < 1e-6f) {
          EXPECT_EQ(v[3 * k], 0.0f);  // on the ground: stuck (restitution 0, friction 1)
          ++grounded;
        }
      }
    }
    EXPECT_GT(airborne, 20u) << "wind " << wind_x;
    EXPECT_GT(grounded, 20u) << "wind " << wind_x;
  }
}

TEST(SimPresets, FireRisesAndShrinksSmokeRisesAndGrows) {
  for (const char* name : {"fire", "bonfire_flame"}) {
    const CompiledEffect e = load_preset(name);
    ASSERT_FALSE(HasFailure());
    run_preset(e, [&](const Simulation& sim, const FrameReport& r) {
      if (r.frame != kFrames - 1) return;
      const auto [y_young, y_old] = young_old_mean(sim, "position", 1);
      EXPECT_GT(y_old, y_young) << name;
      EXPECT_GT(y_young, 0.0) << name;
      const auto [s_young, s_old] = young_old_mean(sim, "size", 0);
      EXPECT_LT(s_old, s_young) << name;
    });
  }
  for (const char* name : {"smoke", "bonfire_smoke"}) {
    const CompiledEffect e = load_preset(name);
    ASSERT_FALSE(HasFailure());
    run_preset(e, [&](const Simulation& sim, const FrameReport& r) {
      if (r.frame != kFrames - 1) return;
      const auto [y_young, y_old] = young_old_mean(sim, "position", 1);
      EXPECT_GT(y_old, y_young + 0.2) << name;
      const auto [s_young, s_old] = young_old_mean(sim, "size", 0);
      EXPECT_GT(s_old, s_young + 0.1) << name;
    });
  }
}

TEST(SimPresets, ExplosionAndDebrisExpandThenDieOut) {
  for (const char* name : {"explosion", "debris"}) {
    const CompiledEffect e = load_preset(name);
    ASSERT_FALSE(HasFailure());
    const float max_life = emitter_default(e, "life_max");
    std::vector<double> spread;
    uint32_t first_alive = 0;
    run_preset(e, [&](const Simulation& sim, const FrameReport& r) {
      if (r.frame == 0) first_alive = r.alive;
      const std::vector<float> p = field_of(sim, "position");
      double d = 0.0;
      for (size_t i = 0; i < p.size(); i += 3) d += std::sqrt(p[i] * p[i] + p[i + 1] * p[i + 1] + p[i + 2] * p[i + 2]);
      spread.push_back(p.empty() ? 0.0 : d / double(p.size() / 3));
      // Dead a tick after the longest life (the birth tick does not age).
      if (float(r.frame) / 60.0f > max_life + 2.0f / 60.0f) {
        EXPECT_EQ(r.alive, 0u) << name << " frame " << r.frame;
      }
    });
    EXPECT_EQ(first_alive, e.emission.bursts.at(0).count) << name;
    EXPECT_GT(spread[20], spread[5]) << name;
    EXPECT_GT(spread[5], spread[1]) << name;
  }
}

TEST(SimPresets, EmbersSwirlAndFountainTumbles) {
  const CompiledEffect embers = load_preset("bonfire_embers");
  ASSERT_FALSE(HasFailure());
  run_preset(embers, [&](const Simulation& sim, const FrameReport& r) {
    if (r.frame != kFrames - 1) return;
    const std::vector<float> p = field_of(sim, "position");
    double sx = 0, sxx = 0, n = 0;
    for (size_t i = 0; i < p.size(); i += 3) sx += p[i], sxx += double(p[i]) * p[i], n += 1;
    EXPECT_GT(std::sqrt(sxx / n - (sx / n) * (sx / n)), 0.2);  // curl noise spreads them sideways
  });
  const CompiledEffect fountain = load_preset("fountain");
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(fountain.render.projection, "mesh");
  float top = -1e9f;
  run_preset(fountain, [&](const Simulation& sim, const FrameReport&) {
    const std::vector<float> q = field_of(sim, "orientation");
    for (size_t i = 0; i < q.size(); i += 4)
      ASSERT_NEAR(std::sqrt(q[i] * q[i] + q[i + 1] * q[i + 1] + q[i + 2] * q[i + 2] + q[i + 3] * q[i + 3]), 1.0, 1e-3);
    const std::vector<float> p = field_of(sim, "position");
    for (size_t i = 0; i < p.size(); i += 3) top = std::max(top, p[i + 1]);
  });
  EXPECT_GT(top, 0.5f);
}

}  // namespace
}  // namespace mote
