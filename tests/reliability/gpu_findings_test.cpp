// Findings 5, 8 and 11 of docs/design/reliability.md through the public API, on the GPU: the
// transform hierarchy's depth limit, `selftest` past 16,776,960 elements (one dispatch's most on
// many devices), and the pool-limit error that gave no numbers.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mote/device.hpp"
#include "mote/particles.hpp"
#include "support/gpu_fixture.hpp"

namespace {

using mote::ErrorCode;

class GpuFindings : public ::testing::Test {
 protected:
  void SetUp() override {
    auto context = mote::Context::create({.validation = true});
    ASSERT_TRUE(context.ok()) << context.error().to_string();
    context_ = std::move(context).value();
  }
  void TearDown() override {
    context_.reset();
    for (const std::string& m : capture_.take()) ADD_FAILURE() << "Vulkan validation: " << m;
  }
  mote::test::ValidationCapture capture_;  // first member: outlives the context
  std::unique_ptr<mote::Context> context_;
};

// Finding 5: each level is a GPU pass; a 100,000-deep chain hung a one-frame render.
TEST_F(GpuFindings, TransformHierarchyStopsAtItsLevelLimit) {
  auto system = mote::ParticleSystem::create(*context_, {.capacity = 1024, .max_transforms = 256});
  ASSERT_TRUE(system.ok()) << system.error().to_string();
  mote::TransformId parent;
  for (uint32_t level = 1; level <= mote::kMaxTransformLevels; ++level) {
    auto row = (*system)->add_transform(parent);
    ASSERT_TRUE(row.ok()) << "level " << level << ": " << row.error().to_string();
    parent = *row;
  }
  auto deeper = (*system)->add_transform(parent);
  ASSERT_FALSE(deeper.ok());
  EXPECT_EQ(deeper.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(deeper.error().message.find(std::to_string(mote::kMaxTransformLevels + 1)), std::string::npos)
      << deeper.error().message;
  // A frame with the deepest hierarchy allowed runs.
  EXPECT_TRUE((*system)->execute(1.0f / 60.0f).ok());
}

// Finding 8: a failed check (abort) above 16,776,960 elements, inside the advertised range.
TEST_F(GpuFindings, SelftestPastOneDispatchOfGroupsVerifiesEveryElement) {
  const uint32_t elements = 65535u * 256u + 1u;
  auto report = mote::run_selftest(*context_, elements);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->elements, elements);
  EXPECT_EQ(report->mismatches, 0u) << "first at " << report->first_mismatch;
}

// Finding 11: "the pool exceeds the device's maxStorageBufferRange", with no numbers.
TEST_F(GpuFindings, PoolLimitErrorNamesTheSizeAndTheLimit) {
  auto system = mote::ParticleSystem::create(*context_, {.capacity = 1u << 24, .record_words = 256});
  ASSERT_FALSE(system.ok());
  const std::string message = system.error().message;
  EXPECT_NE(message.find(std::to_string((uint64_t(1) << 24) * 256 * 4)), std::string::npos) << message;
  EXPECT_NE(message.find("maxStorageBufferRange"), std::string::npos) << message;
}

}  // namespace
