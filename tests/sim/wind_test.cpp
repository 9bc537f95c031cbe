// The wind the reference simulation feeds SAMPLE_WIND (mote/wind.hpp): a particle whose UPDATE
// sets its velocity to the wind at its position moves as the description's closed form says.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "mote/wind.hpp"

namespace {

// One particle born at the origin at t = 0 that lives for ever: velocity = wind(position), then
// position += velocity dt.
mote::CompiledEffect wind_follower() {
  auto effect = mote::compile_effect(R"({"name": "w",
    "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3}],
    "emission": {"bursts": [{"time": 0, "count": 1}], "capacity": 1},
    "init": {"nodes": [{"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": [0, 0, 0]}}]},
    "update": {"nodes": [
      {"id": "p", "type": "get_field", "params": {"field": "position"}},
      {"id": "w", "type": "wind", "inputs": {"position": "p"}},
      {"id": "m", "type": "integrate", "inputs": {"position": "p", "velocity": "w"}},
      {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "m.position"}},
      {"id": "sv", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "m.velocity"}}]}})");
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : mote::CompiledEffect{};
}

mote::Result<mote::Simulation> simulate(const mote::Wind& wind) {
  mote::SimulationOptions options;
  options.dt = 0.1f;
  options.wind = wind;
  return mote::Simulation::create(wind_follower(), options);
}

TEST(Wind, StillAirByDefaultAndAUniformWindCarriesTheParticle) {
  auto still = simulate({});
  ASSERT_TRUE(still.ok()) << still.error().to_string();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(still->step().ok());
  auto p = still->field("position");
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 3u);
  for (float x : *p) EXPECT_EQ(x, 0.0f);

  auto windy = simulate({.velocity = {2.0f, 0.0f, -1.0f}});
  ASSERT_TRUE(windy.ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(windy->step().ok());
  auto q = windy->field("position");
  ASSERT_TRUE(q.ok());
  // Born on the first tick, moved on the next four: 4 * 0.1 s at (2, 0, -1) m/s.
  EXPECT_NEAR((*q)[0], 0.8f, 1e-5f);
  EXPECT_NEAR((*q)[1], 0.0f, 1e-6f);
  EXPECT_NEAR((*q)[2], -0.4f, 1e-5f);
}

TEST(Wind, GustsScaleTheUniformWindBySineOfTime) {
  const mote::Wind gusty{.velocity = {1.0f, 0.0f, 0.0f}, .gust_strength = 0.5f, .gust_period = 4.0f};
  for (float t : {0.0f, 1.0f, 2.0f, 3.0f, 0.7f}) {
    const mote::VmWindField f = mote::wind_field_at(gusty, t);
    EXPECT_NEAR(f.base_velocity[0], 1.0f + 0.5f * std::sin(6.28318530718f * t / 4.0f), 1e-6f) << t;
  }
  // A quarter period in: one and a half times the wind; three quarters: half of it.
  EXPECT_NEAR(mote::wind_field_at(gusty, 1.0f).base_velocity[0], 1.5f, 1e-6f);
  EXPECT_NEAR(mote::wind_field_at(gusty, 3.0f).base_velocity[0], 0.5f, 1e-6f);
  // Through the simulation: each tick's velocity is the gust at that tick's time.
  auto sim = simulate(gusty);
  ASSERT_TRUE(sim.ok());
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(sim->step().ok());
    if (i == 0) continue;  // the newborn's tick runs INIT only
    auto v = sim->field("velocity");
    ASSERT_TRUE(v.ok());
    EXPECT_NEAR((*v)[0], mote::wind_field_at(gusty, sim->emitter_age()).base_velocity[0], 1e-5f) << "tick " << i;
  }
}

TEST(Wind, TurbulenceIsCurlNoiseAddedToTheWind) {
  const mote::Wind turbulent{.velocity = {1.0f, 0.0f, 0.0f}, .turbulence_amplitude = 2.0f};
  const mote::VmWindField f = mote::wind_field_at(turbulent, 1.5f);
  EXPECT_EQ(f.turbulence[0], 2.0f);
  EXPECT_EQ(f.turbulence[1], 1.0f);
  EXPECT_EQ(f.turbulence[3], 1.5f);
  auto calm = simulate({.velocity = {1.0f, 0.0f, 0.0f}});
  auto rough = simulate(turbulent);
  ASSERT_TRUE(calm.ok() && rough.ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(calm->step().ok() && rough->step().ok());
  auto a = calm->field("position"), b = rough->field("position");
  ASSERT_TRUE(a.ok() && b.ok());
  float apart = 0.0f;
  for (int k = 0; k < 3; ++k) apart += std::fabs((*a)[k] - (*b)[k]);
  EXPECT_GT(apart, 1e-3f);  // the noise moved it off the straight line
}

TEST(Wind, ANumberOutOfItsRangeIsRefusedByName) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<mote::Wind, std::string>> bad = {
      {{.velocity = {nan, 0, 0}}, "velocity"},
      {{.gust_strength = 1.5f}, "gust_strength"},
      {{.gust_period = -1.0f}, "gust_period"},
      {{.turbulence_amplitude = -2.0f}, "turbulence_amplitude"},
      {{.turbulence_frequency = 0.0f}, "turbulence_frequency"},
      {{.turbulence_scroll = std::numeric_limits<float>::infinity()}, "turbulence_scroll"}};
  for (const auto& [wind, member] : bad) {
    auto sim = simulate(wind);
    ASSERT_FALSE(sim.ok()) << member;
    EXPECT_EQ(sim.error().code, mote::ErrorCode::kInvalidArgument);
    EXPECT_NE(sim.error().message.find(member), std::string::npos) << sim.error().message;
  }
}

}  // namespace
