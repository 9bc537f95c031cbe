// What the public API's tests share: a Context with the validation layer on, every validation
// message turned into a failure of the test that caused it (tests/support/gpu_fixture.hpp's
// capture, the one internal piece these tests use), and the presets compiled from effects/.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mote/files.hpp"
#include "mote/particle.hpp"
#include "mote/particles.hpp"
#include "mote/simulation.hpp"  // header_row, header_generation
#include "support/gpu_fixture.hpp"

namespace mote::test {

inline CompiledEffect load_effect(const std::string& name) {
  auto effect = compile_effect_file(std::string(MOTE_EFFECTS_DIR) + "/" + name);
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
}

// The standard particles of `row` in the last frame's alive list, in list order; with an id,
// only those of its generation (a row's previous tenant's orphans are left out).
inline std::vector<Particle> drawn_particles(ParticleSystem& system, uint32_t row,
                                             std::optional<uint32_t> generation = std::nullopt) {
  std::vector<Particle> out;
  auto alive = system.read_alive_records();
  EXPECT_TRUE(alive.ok());
  if (!alive.ok()) return out;
  for (size_t i = 0; i < alive->slots.size(); ++i) {
    const uint32_t* record = alive->records.data() + i * alive->record_words;
    if (header_row(record[0]) != row || (generation && header_generation(record[0]) != *generation)) continue;
    Particle p;
    std::memcpy(static_cast<void*>(&p), record + kParticleFirstWord, sizeof(Particle));
    out.push_back(p);
  }
  return out;
}

inline std::vector<Particle> drawn_particles(ParticleSystem& system, EmitterId id) {
  return drawn_particles(system, id.row, id.generation);
}

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    keep_vulkan_drivers_loaded();
    auto context = Context::create({.validation = true});
    ASSERT_TRUE(context.ok()) << context.error().to_string();
    context_ = std::move(context).value();
  }
  void TearDown() override {
    system_.reset();
    context_.reset();
    for (const std::string& m : capture_.take()) ADD_FAILURE() << "Vulkan validation: " << m;
  }
  ParticleSystem& make_system(const ParticleSystemDesc& desc = {}) {
    auto system = ParticleSystem::create(*context_, desc);
    EXPECT_TRUE(system.ok()) << system.error().to_string();
    system_ = std::move(system).value();
    return *system_;
  }
  Context& context() { return *context_; }

  ValidationCapture capture_;  // first member: outlives the context
  std::unique_ptr<Context> context_;
  std::unique_ptr<ParticleSystem> system_;
};

}  // namespace mote::test
