// What the public API's tests share: a Context with the validation layer on, every validation
// message turned into a failure of the test that caused it (tests/support/gpu_fixture.hpp's
// capture, the one internal piece these tests use), and the presets compiled from effects/.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mote/files.hpp"
#include "mote/particles.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::test {

inline CompiledEffect load_effect(const std::string& name) {
  auto effect = compile_effect_file(std::string(MOTE_EFFECTS_DIR) + "/" + name);
  EXPECT_TRUE(effect.ok()) << effect.error().to_string();
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
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
