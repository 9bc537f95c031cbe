// The GPU prefix scan is exact: every size (one block, block edges, several levels) against
// std::inclusive_scan / std::exclusive_scan over wrapping uint32_t, host and GPU-decided counts.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "gpu/transfer.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "shared/scan.h"
#include "support/gpu_fixture.hpp"

namespace mote::gpu {
namespace {

using test::GpuTest;
constexpr uint32_t kPoison = 0xDEADBEEFu;

std::vector<uint32_t> random_values(uint32_t n, uint32_t seed, uint32_t max_value) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> dist(0, max_value);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

std::vector<uint32_t> cpu_scan(const std::vector<uint32_t>& in, ScanKind kind) {
  std::vector<uint32_t> out(in.size());
  if (kind == ScanKind::kInclusive) std::inclusive_scan(in.begin(), in.end(), out.begin());
  else std::exclusive_scan(in.begin(), in.end(), out.begin(), 0u);
  return out;
}

class PrefixScanTest : public GpuTest {
 protected:
  // Scans `values` on the GPU into a poisoned output of values.size() + 16 words and checks the
  // result and that nothing past the count was written.
  void check(const std::vector<uint32_t>& values, ScanKind kind, uint32_t capacity, bool indirect) {
    const uint32_t n = uint32_t(values.size());
    auto scan = PrefixScan::create(device(), capacity);
    ASSERT_TRUE(scan.ok()) << scan.error().to_string();
    const uint32_t words = std::max(capacity, n) + 16;
    auto input = gpu::Buffer::create(device(), {.size = words * 4ull, .name = "test.scan_in"});
    auto output = gpu::Buffer::create(device(), {.size = words * 4ull, .name = "test.scan_out"});
    auto counts = gpu::Buffer::create(device(), {.size = 16, .name = "test.scan_count"});
    ASSERT_TRUE(input.ok() && output.ok() && counts.ok());
    std::vector<uint32_t> padded = values;
    padded.resize(words, 7u);  // values past the count must not leak into the scan
    ASSERT_TRUE(gpu::upload_span<uint32_t>(device(), *input, padded).ok());
    const std::vector<uint32_t> count_words{0u, n, 0u, 0u};
    ASSERT_TRUE(gpu::upload_span<uint32_t>(device(), *counts, count_words).ok());
    Status recorded;
    ASSERT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      vkCmdFillBuffer(cmd, output->handle(), 0, VK_WHOLE_SIZE, kPoison);
                      gpu::transfer_to_compute(cmd);
                      recorded = scan->record(cmd, *input, *output,
                                              indirect ? ScanCount::from_buffer(*counts, 1) : ScanCount::host(n), kind);
                      gpu::compute_to_transfer(cmd);
                    })
                    .ok());
    ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
    auto out = gpu::readback_as<uint32_t>(device(), *output, words);
    ASSERT_TRUE(out.ok());
    const std::vector<uint32_t> expected = cpu_scan(values, kind);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ((*out)[i], expected[i]) << "element " << i << " of " << n;
    for (uint32_t i = n; i < words; ++i) ASSERT_EQ((*out)[i], kPoison) << "wrote past the count at " << i;
  }
};

TEST_F(PrefixScanTest, InclusiveMatchesStdAtManySizes) {
  const uint32_t b = shader::kScanBlockSize;
  for (uint32_t n : {1u, 2u, 63u, 64u, 65u, 255u, 256u, 257u, 1000u, b - 1, b, b + 1, 4097u, 3 * b + 5, 100'000u, b * b,
                     b * b + 1, 1'000'000u}) {
    SCOPED_TRACE(n);
    check(random_values(n, n, 1000), ScanKind::kInclusive, n, false);
  }
}

TEST_F(PrefixScanTest, ExclusiveMatchesStdAtManySizes) {
  for (uint32_t n : {1u, 65u, 2048u, 2049u, 50'000u, 4'194'305u}) {
    SCOPED_TRACE(n);
    check(random_values(n, n + 1, 0xFFFFu), ScanKind::kExclusive, n, false);
  }
}

TEST_F(PrefixScanTest, FullRangeValuesWrapLikeUint32) {
  check(random_values(300'000, 3, 0xFFFFFFFFu), ScanKind::kInclusive, 300'000, false);
}

TEST_F(PrefixScanTest, ZerosScanToZeros) {
  check(std::vector<uint32_t>(70'000, 0u), ScanKind::kInclusive, 70'000, false);
  check(std::vector<uint32_t>(70'000, 0u), ScanKind::kExclusive, 70'000, false);
}

TEST_F(PrefixScanTest, HostCountBelowCapacity) {
  check(random_values(5'000, 9, 100), ScanKind::kInclusive, 1'000'000, false);
}

TEST_F(PrefixScanTest, CountReadFromAGpuBufferWord) {
  // Capacity 1M (three levels), the GPU says how many: one block, several, many, none, all.
  for (uint32_t n : {0u, 1u, 2048u, 2049u, 77'777u, 1'000'000u}) {
    SCOPED_TRACE(n);
    check(random_values(n, n + 5, 1000), ScanKind::kInclusive, 1'000'000, true);
    check(random_values(n, n + 6, 1000), ScanKind::kExclusive, 1'000'000, true);
  }
}

TEST_F(PrefixScanTest, InPlaceScan) {
  const auto values = random_values(123'457, 11, 50);
  auto scan = PrefixScan::create(device(), uint32_t(values.size()));
  ASSERT_TRUE(scan.ok());
  auto buffer = gpu::Buffer::create(device(), {.size = values.size() * 4, .name = "test.scan_inplace"});
  ASSERT_TRUE(buffer.ok());
  ASSERT_TRUE(gpu::upload_span<uint32_t>(device(), *buffer, values).ok());
  Status recorded;
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    recorded = scan->record(cmd, *buffer, *buffer, ScanCount::host(uint32_t(values.size())));
                    gpu::compute_to_transfer(cmd);
                  })
                  .ok());
  ASSERT_TRUE(recorded.ok());
  auto out = gpu::readback_as<uint32_t>(device(), *buffer, values.size());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, cpu_scan(values, ScanKind::kInclusive));
}

TEST_F(PrefixScanTest, MisuseIsAnError) {
  EXPECT_FALSE(PrefixScan::create(device(), 0).ok());
  auto scan = PrefixScan::create(device(), 100);
  ASSERT_TRUE(scan.ok());
  auto small = gpu::Buffer::create(device(), {.size = 64, .name = "test.scan_small"});
  ASSERT_TRUE(small.ok());
  Status over, too_small, bad_word;
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    over = scan->record(cmd, *small, *small, ScanCount::host(101));
                    too_small = scan->record(cmd, *small, *small, ScanCount::host(17));
                    bad_word = scan->record(cmd, *small, *small, ScanCount::from_buffer(*small, 16));
                  })
                  .ok());
  EXPECT_FALSE(over.ok());
  EXPECT_FALSE(too_small.ok());
  EXPECT_FALSE(bad_word.ok());
}

}  // namespace
}  // namespace mote::gpu
