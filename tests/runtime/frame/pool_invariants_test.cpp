// check_pool_invariants (lavapipe, validation on): a healthy pool passes after frames of
// spawning and dying; each kind of corruption written into the GPU's lists or pool is found and
// named — a free record with a stale word, a slot in both lists, an alive slot of a removed
// row, a slot past the capacity. The check is what the churn test and the soak rely on, so it
// must be shown to fail.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "gpu/transfer.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/frame/pool_invariants.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::check_pool_invariants;
using runtime::ParticleSystem;

constexpr uint32_t kCapacity = 512;

class PoolInvariantsTest : public test::GpuTest {
 protected:
  // A system whose fire emitter ran 30 frames: about 100 alive, the rest free.
  ParticleSystem running_system() {
    auto made = ParticleSystem::create(
        device(), {.capacity = kCapacity, .record_words = 24, .max_emitters = 4, .compiled_simulate = false});
    EXPECT_TRUE(made.ok()) << made.error().to_string();
    ParticleSystem system = std::move(made).value();
    auto row = system.add_emitter(test::load_preset("fire.json"), {.seed = 7});
    EXPECT_TRUE(row.ok());
    for (int f = 0; f < 30; ++f) EXPECT_TRUE(system.execute(1.0f / 60.0f).ok());
    return system;
  }
  void write_word(const gpu::Buffer& buffer, VkDeviceSize word, uint32_t value) {
    const uint32_t v[1] = {value};
    ASSERT_TRUE(gpu::upload_span<uint32_t>(device(), buffer, std::span<const uint32_t>(v), word * 4).ok());
  }
  // The check fails and its message contains `what`.
  void expect_broken(ParticleSystem& system, const std::string& what) {
    Result<runtime::PoolCensus> census = check_pool_invariants(system);
    ASSERT_FALSE(census.ok()) << "a corrupted pool passed the check";
    EXPECT_EQ(census.error().code, ErrorCode::kInternal);
    EXPECT_NE(census.error().message.find(what), std::string::npos) << census.error().to_string();
  }
};

TEST_F(PoolInvariantsTest, AHealthyPoolPasses) {
  ParticleSystem system = running_system();
  Result<runtime::PoolCensus> census = check_pool_invariants(system);
  ASSERT_TRUE(census.ok()) << census.error().to_string();
  EXPECT_GT(census->alive, 0u);
  EXPECT_GT(census->free, 0u);
  EXPECT_EQ(census->alive + census->free, kCapacity);
}

TEST_F(PoolInvariantsTest, AFreeRecordWithAStaleWordIsFound) {
  ParticleSystem system = running_system();
  auto free = system.read_free_slots();
  ASSERT_TRUE(free.ok() && !free->empty());
  ASSERT_NO_FATAL_FAILURE(write_word(system.pool(), VkDeviceSize(free->back()) * system.record_words() + 3,
                                     0x3f800000u));
  expect_broken(system, "free slot");
}

TEST_F(PoolInvariantsTest, ASlotInBothListsIsFound) {
  ParticleSystem system = running_system();
  auto alive = system.read_alive_slots();
  ASSERT_TRUE(alive.ok() && alive->size() >= 2);
  // The drawn list's second entry repeats its first: one slot twice.
  ASSERT_NO_FATAL_FAILURE(write_word(system.drawn_alive_list(), 1, (*alive)[0]));
  expect_broken(system, "twice in the alive list");
}

TEST_F(PoolInvariantsTest, AnAliveSlotOfAnotherGenerationIsFound) {
  ParticleSystem system = running_system();
  auto alive = system.read_alive_slots();
  ASSERT_TRUE(alive.ok() && !alive->empty());
  auto pool = system.read_pool();
  ASSERT_TRUE(pool.ok());
  const VkDeviceSize header = VkDeviceSize((*alive)[0]) * system.record_words();
  // The same row, the next generation: a record the row's current tenant never wrote.
  ASSERT_NO_FATAL_FAILURE(write_word(system.pool(), header, (*pool)[header] + (1u << shader::kFrameHeaderRowBits)));
  expect_broken(system, "generation");
}

TEST_F(PoolInvariantsTest, ASlotPastTheCapacityIsFound) {
  ParticleSystem system = running_system();
  ASSERT_NO_FATAL_FAILURE(write_word(system.drawn_alive_list(), 0, kCapacity + 5));
  expect_broken(system, "past the capacity");
}

}  // namespace
}  // namespace mote
