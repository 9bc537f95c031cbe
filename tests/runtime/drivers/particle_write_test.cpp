// The standard particle's writes into pool records (runtime/drivers/particle_write_pass): each
// write sets its slot's header and words 1..20 to the particle's bytes and leaves every other
// word of the pool as it was; a slot past the pool is skipped; strides too short are refused.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "gpu/transfer.hpp"
#include "runtime/drivers/particle_write_pass.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::runtime {
namespace {

using test::GpuTest;

Particle numbered_particle(uint32_t i) {
  Particle p;
  float v = float(i);
  p.position = {v, v + 0.25f, v + 0.5f};
  p.velocity = {-v, 2.0f * v, 3.0f};
  p.age = 0.1f * v;
  p.lifetime = 5.0f + v;
  p.size = 0.5f;
  p.size_growth = -0.125f;
  p.angle = 1.5f;
  p.angular_velocity = v;
  p.color = {0.25f, 0.5f, 0.75f, 1.0f};
  p.uv_rect = {0.5f, 0.0f, 0.5f, 0.25f};
  return p;
}

TEST_F(GpuTest, ParticleWritesLandAfterTheHeaderAndTouchNothingElse) {
  constexpr uint32_t kCapacity = 300, kStride = 24;
  auto pass = ParticleWritePass::create(device());
  ASSERT_TRUE(pass.ok()) << pass.error().to_string();
  // A pool of recognisable words: every word not written must come back unchanged.
  std::vector<uint32_t> pool(kCapacity * kStride);
  std::mt19937 rng(5);
  for (uint32_t& w : pool) w = uint32_t(rng());
  auto pool_buffer = gpu::Buffer::create(device(), {.size = pool.size() * 4, .name = "test.pool"});
  ASSERT_TRUE(pool_buffer.ok());
  ASSERT_TRUE(gpu::upload_span(device(), *pool_buffer, std::span<const uint32_t>(pool)).ok());

  std::vector<shader::ParticleWrite> writes;
  for (uint32_t i = 0; i < 130; ++i)
    writes.push_back(particle_write((i * 7) % kCapacity, 0x100000u * 3 + i, numbered_particle(i)));
  writes.push_back(particle_write(kCapacity, 1u, numbered_particle(999)));    // past the pool: skipped
  writes.push_back(particle_write(0xFFFFFFFFu, 1u, numbered_particle(998)));  // far past: skipped
  auto write_buffer = gpu::Buffer::create(device(), {.size = writes.size() * sizeof(shader::ParticleWrite),
                                                     .name = "test.writes"});
  ASSERT_TRUE(write_buffer.ok());
  ASSERT_TRUE(gpu::upload_span(device(), *write_buffer, std::span<const shader::ParticleWrite>(writes)).ok());
  Status recorded = ok_status();
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    recorded = pass->record(cmd, *pool_buffer, kCapacity, kStride, *write_buffer,
                                            uint32_t(writes.size()));
                  })
                  .ok());
  ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  auto back = gpu::readback_as<uint32_t>(device(), *pool_buffer, pool.size());
  ASSERT_TRUE(back.ok()) << back.error().to_string();

  std::vector<uint32_t> expected = pool;
  for (uint32_t i = 0; i < 130; ++i) {
    const uint32_t base = ((i * 7) % kCapacity) * kStride;
    expected[base] = 0x100000u * 3 + i;
    const Particle p = numbered_particle(i);
    std::memcpy(&expected[base + kParticleFirstWord], &p, sizeof(Particle));
  }
  ASSERT_EQ(back->size(), expected.size());
  for (size_t w = 0; w < expected.size(); ++w)
    ASSERT_EQ((*back)[w], expected[w]) << "slot " << w / kStride << " word " << w % kStride;
  // One record read back through the public type: the same particle.
  Particle read;
  std::memcpy(static_cast<void*>(&read), back->data() + 7 * kStride + kParticleFirstWord, sizeof(Particle));
  EXPECT_EQ(read.position, numbered_particle(1).position);
  EXPECT_EQ(read.uv_rect, numbered_particle(1).uv_rect);
  EXPECT_EQ(read.angular_velocity, 1.0f);
}

TEST_F(GpuTest, ParticleWritesRefuseAShortStrideOrShortWrites) {
  auto pass = ParticleWritePass::create(device());
  ASSERT_TRUE(pass.ok());
  auto pool = gpu::Buffer::create(device(), {.size = 64 * 32 * 4, .name = "test.pool"});
  auto writes = gpu::Buffer::create(device(), {.size = sizeof(shader::ParticleWrite) * 2, .name = "test.writes"});
  ASSERT_TRUE(pool.ok() && writes.ok());
  Status short_stride = ok_status(), short_writes = ok_status();
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    short_stride = pass->record(cmd, *pool, 64, kParticleFirstWord + kParticleWords - 1, *writes, 1);
                    short_writes = pass->record(cmd, *pool, 64, 32, *writes, 3);
                  })
                  .ok());
  EXPECT_EQ(short_stride.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(short_writes.error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote::runtime
