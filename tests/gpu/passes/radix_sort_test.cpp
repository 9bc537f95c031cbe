// The GPU radix sort is exact and stable: every result against std::stable_sort of (key, input
// index) pairs, with the values carrying the input index so any reordering of equal keys shows;
// host and GPU-decided counts, partial key widths, and nothing touched past the count.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "gpu/transfer.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "shared/radix_sort.h"
#include "support/gpu_fixture.hpp"

namespace mote::gpu {
namespace {

using test::GpuTest;
constexpr uint32_t kTail = 37;  // words past the count in every test buffer
constexpr uint32_t kTile = shader::kRadixTileSize;

std::vector<uint32_t> random_keys(uint32_t n, uint32_t seed, uint32_t mask = 0xFFFFFFFFu) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng() & mask;
  return v;
}

// What the sort must produce: pairs ordered by (key & low_mask), ties in input order.
struct Sorted {
  std::vector<uint32_t> keys;
  std::vector<uint32_t> values;
};
Sorted cpu_sort(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, uint32_t key_bits) {
  const uint32_t mask = key_bits == 32 ? 0xFFFFFFFFu : (1u << key_bits) - 1u;
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return (keys[a] & mask) < (keys[b] & mask); });
  Sorted s;
  for (uint32_t i : order) {
    s.keys.push_back(keys[i]);
    s.values.push_back(values[i]);
  }
  return s;
}

class RadixSortTest : public GpuTest {
 protected:
  struct Pairs {
    gpu::Buffer keys;
    gpu::Buffer values;
    std::vector<uint32_t> host_keys;  // all words, tail included
    std::vector<uint32_t> host_values;
  };

  // Buffers of `words` words: `keys` then small tail keys, values = the input index then a tail
  // pattern; the tail must come back unchanged.
  Pairs make_pairs(const std::vector<uint32_t>& keys, uint32_t words) {
    Pairs p;
    p.host_keys = keys;
    p.host_keys.resize(words);
    for (uint32_t i = uint32_t(keys.size()); i < words; ++i) p.host_keys[i] = i & 0xFu;  // would sort first if read
    p.host_values.resize(words);
    std::iota(p.host_values.begin(), p.host_values.end(), 0u);
    for (uint32_t i = uint32_t(keys.size()); i < words; ++i) p.host_values[i] = 0xA5A50000u + i;
    auto k = gpu::Buffer::create(device(), {.size = std::max(words, 1u) * 4ull, .name = "test.sort_keys"});
    auto v = gpu::Buffer::create(device(), {.size = std::max(words, 1u) * 4ull, .name = "test.sort_values"});
    EXPECT_TRUE(k.ok() && v.ok());
    if (!k.ok() || !v.ok()) return p;
    p.keys = std::move(*k);
    p.values = std::move(*v);
    EXPECT_TRUE(gpu::upload_span<uint32_t>(device(), p.keys, p.host_keys).ok());
    EXPECT_TRUE(gpu::upload_span<uint32_t>(device(), p.values, p.host_values).ok());
    return p;
  }

  gpu::Buffer make_count(uint32_t word1) {
    auto counts = gpu::Buffer::create(device(), {.size = 16, .name = "test.sort_count"});
    EXPECT_TRUE(counts.ok());
    const std::vector<uint32_t> words{0xFFFFFFFFu, word1, 0u, 0u};  // word 0 would sort everything
    EXPECT_TRUE(gpu::upload_span<uint32_t>(device(), *counts, words).ok());
    return std::move(*counts);
  }

  // The first `sorted` pairs must equal the CPU's stable sort of the first `sorted` inputs and
  // every word past them must be unchanged.
  void expect_sorted(const Pairs& p, uint32_t sorted, uint32_t key_bits) {
    const uint32_t words = uint32_t(p.host_keys.size());
    auto keys = gpu::readback_as<uint32_t>(device(), p.keys, words);
    auto values = gpu::readback_as<uint32_t>(device(), p.values, words);
    ASSERT_TRUE(keys.ok() && values.ok());
    const Sorted expected = cpu_sort(std::vector<uint32_t>(p.host_keys.begin(), p.host_keys.begin() + sorted),
                                     std::vector<uint32_t>(p.host_values.begin(), p.host_values.begin() + sorted),
                                     key_bits);
    for (uint32_t i = 0; i < sorted; ++i) {
      ASSERT_EQ((*keys)[i], expected.keys[i]) << "key " << i << " of " << sorted;
      ASSERT_EQ((*values)[i], expected.values[i]) << "value " << i << " of " << sorted << " (stability)";
    }
    for (uint32_t i = sorted; i < words; ++i) {
      ASSERT_EQ((*keys)[i], p.host_keys[i]) << "key written past the count at " << i;
      ASSERT_EQ((*values)[i], p.host_values[i]) << "value written past the count at " << i;
    }
  }

  // Sorts `keys` (values = input index) with a host count, or with the count in word 1 of a GPU
  // buffer when `indirect`, in a sort of `capacity`, and checks the result.
  void check(const std::vector<uint32_t>& keys, uint32_t capacity, bool indirect, uint32_t key_bits = 32) {
    const uint32_t n = uint32_t(keys.size());
    auto sort = RadixSort::create(device(), capacity);
    ASSERT_TRUE(sort.ok()) << sort.error().to_string();
    Pairs p = make_pairs(keys, std::max(capacity, n) + kTail);
    gpu::Buffer counts = make_count(n);
    Status recorded;
    ASSERT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      recorded = sort->record(cmd, p.keys, p.values,
                                              indirect ? ScanCount::from_buffer(counts, 1) : ScanCount::host(n),
                                              key_bits);
                      gpu::compute_to_transfer(cmd);
                    })
                    .ok());
    ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
    expect_sorted(p, n, key_bits);
  }
};

TEST_F(RadixSortTest, RandomKeysMatchStableSortAtManySizes) {
  // Empty, one tile, tile edges, many tiles: every size against std::stable_sort.
  for (uint32_t n : {0u, 1u, 2u, 255u, 256u, 257u, kTile - 1, kTile, kTile + 1, 3 * kTile + 17, 100'000u, 1'000'000u}) {
    SCOPED_TRACE(n);
    check(random_keys(n, n), std::max(n, 1u), false);
  }
}

TEST_F(RadixSortTest, ManyEqualKeysKeepTheirInputOrder) {
  // Few distinct keys spread over every byte: every pass has long runs of equal digits, and the
  // values (input indices) only come out right if each pass is stable.
  for (uint32_t n : {1000u, kTile + 1, 200'000u}) {
    SCOPED_TRACE(n);
    check(random_keys(n, n + 1, 0x80C01003u), n, false);
    check(random_keys(n, n + 2, 0x00000101u), n, true);
  }
}

TEST_F(RadixSortTest, AllEqualKeysAreTheIdentityPermutation) {
  // An even and an odd pass count: a pass that reversed equal keys would cancel out over four.
  for (uint32_t key_bits : {32u, 24u}) {
    for (uint32_t n : {kTile * 2 + 5, 100'000u}) {
      SCOPED_TRACE(testing::Message() << n << " pairs, " << key_bits << " bits");
      auto sort = RadixSort::create(device(), n);
      ASSERT_TRUE(sort.ok());
      Pairs p = make_pairs(std::vector<uint32_t>(n, 0x12345678u), n);
      ASSERT_TRUE(device()
                      .submit_and_wait([&](VkCommandBuffer cmd) {
                        ASSERT_TRUE(sort->record(cmd, p.keys, p.values, ScanCount::host(n), key_bits).ok());
                        gpu::compute_to_transfer(cmd);
                      })
                      .ok());
      auto keys = gpu::readback_as<uint32_t>(device(), p.keys, n);
      auto values = gpu::readback_as<uint32_t>(device(), p.values, n);
      ASSERT_TRUE(keys.ok() && values.ok());
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ((*keys)[i], 0x12345678u);
        ASSERT_EQ((*values)[i], i);
      }
    }
  }
}

TEST_F(RadixSortTest, SortedAndReversedInputs) {
  const uint32_t n = 150'000;
  std::vector<uint32_t> ascending(n);
  for (uint32_t i = 0; i < n; ++i) ascending[i] = i * 28'657u;  // spans all four bytes
  std::sort(ascending.begin(), ascending.end());
  check(ascending, n, false);
  std::vector<uint32_t> descending(ascending.rbegin(), ascending.rend());
  check(descending, n, true);
  // Descending with runs of equal keys: reversed order between runs, input order within them.
  for (uint32_t i = 0; i < n; ++i) descending[i] = (n - i) / 7 * 40'503u;
  check(descending, n, false);
}

TEST_F(RadixSortTest, KeyBitsSortByTheLowBitsOnly) {
  // The documented behaviour for keys wider than key_bits: ordered by the low key_bits bits,
  // stable among equal low bits, the high bits carried unchanged. 8 and 24 are odd pass counts
  // (the input moves to the scratch first), 12 ends on a 4-bit digit.
  for (uint32_t key_bits : {8u, 12u, 16u, 24u}) {
    SCOPED_TRACE(key_bits);
    check(random_keys(90'001, key_bits), 90'001, false, key_bits);                            // high bits set
    check(random_keys(90'001, key_bits + 1, (1u << key_bits) - 1), 100'000, true, key_bits);  // keys that fit
  }
  check(random_keys(kTile * 3, 7, 0x1FFFFu), kTile * 3, false, 17);  // 3 passes, the last of one bit
}

TEST_F(RadixSortTest, LowKeyBitsIgnoreTheHighBits) {
  // key_bits = 16: 0x1_0005 sorts before 0x0_0007, and 0x2_0005 after 0x1_0005 only by input order.
  const std::vector<uint32_t> keys{0x00007u, 0x10005u, 0x30009u, 0x20005u, 0x00001u};
  auto sort = RadixSort::create(device(), 8);
  ASSERT_TRUE(sort.ok());
  Pairs p = make_pairs(keys, 8);
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    ASSERT_TRUE(sort->record(cmd, p.keys, p.values, ScanCount::host(5), 16).ok());
                    gpu::compute_to_transfer(cmd);
                  })
                  .ok());
  auto out = gpu::readback_as<uint32_t>(device(), p.keys, 5);
  auto values = gpu::readback_as<uint32_t>(device(), p.values, 5);
  ASSERT_TRUE(out.ok() && values.ok());
  EXPECT_EQ(*out, (std::vector<uint32_t>{0x00001u, 0x10005u, 0x20005u, 0x00007u, 0x30009u}));
  EXPECT_EQ(*values, (std::vector<uint32_t>{4u, 1u, 3u, 0u, 2u}));
}

TEST_F(RadixSortTest, CountReadFromAGpuBufferWord) {
  // Capacity 300k (74 tiles), the GPU says how many: none, one, a tile, a tile and one, some, all.
  const uint32_t capacity = 300'000;
  for (uint32_t n : {0u, 1u, kTile, kTile + 1, 77'777u, capacity}) {
    SCOPED_TRACE(n);
    check(random_keys(n, n + 3), capacity, true);
  }
}

TEST_F(RadixSortTest, CountWordAboveTheCapacityIsClamped) {
  const uint32_t capacity = 50'000;
  auto sort = RadixSort::create(device(), capacity);
  ASSERT_TRUE(sort.ok());
  // The buffers hold more than the capacity; the words past it must not move.
  const std::vector<uint32_t> keys = random_keys(capacity + 1000, 5);
  for (uint32_t word : {capacity + 1, 0xFFFFFFFFu}) {
    SCOPED_TRACE(word);
    Pairs p = make_pairs(keys, uint32_t(keys.size()) + kTail);
    gpu::Buffer counts = make_count(word);
    ASSERT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      ASSERT_TRUE(sort->record(cmd, p.keys, p.values, ScanCount::from_buffer(counts, 1)).ok());
                      gpu::compute_to_transfer(cmd);
                    })
                    .ok());
    expect_sorted(p, capacity, 32);
  }
}

TEST_F(RadixSortTest, TwoSortsInOneCommandBuffer) {
  // One sorter, two submissions' worth of work in one command buffer: a GPU count then a host
  // count with a different width, on different buffers, then the first buffers again.
  const uint32_t capacity = 120'000;
  auto sort = RadixSort::create(device(), capacity);
  ASSERT_TRUE(sort.ok());
  Pairs a = make_pairs(random_keys(30'000, 21, 0xFFFF00FFu), capacity + kTail);
  Pairs b = make_pairs(random_keys(capacity, 22), capacity + kTail);
  gpu::Buffer counts = make_count(30'000);
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    ASSERT_TRUE(sort->record(cmd, a.keys, a.values, ScanCount::from_buffer(counts, 1)).ok());
                    ASSERT_TRUE(sort->record(cmd, b.keys, b.values, ScanCount::host(capacity - 7), 24).ok());
                    gpu::compute_to_transfer(cmd);
                  })
                  .ok());
  expect_sorted(a, 30'000, 32);
  expect_sorted(b, capacity - 7, 24);

  // Sorting a sorted prefix again with a shorter count: the prefix is sorted among itself.
  Pairs c = make_pairs(random_keys(capacity, 23, 0x0F0F0F0Fu), capacity);
  Status first, second;
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    first = sort->record(cmd, c.keys, c.values, ScanCount::host(capacity), 32);
                    second = sort->record(cmd, c.keys, c.values, ScanCount::host(5'000), 8);
                    gpu::compute_to_transfer(cmd);
                  })
                  .ok());
  ASSERT_TRUE(first.ok() && second.ok());
  const Sorted once = cpu_sort(c.host_keys, c.host_values, 32);
  const std::vector<uint32_t> prefix_keys(once.keys.begin(), once.keys.begin() + 5'000);
  const std::vector<uint32_t> prefix_values(once.values.begin(), once.values.begin() + 5'000);
  const Sorted twice = cpu_sort(prefix_keys, prefix_values, 8);
  auto keys = gpu::readback_as<uint32_t>(device(), c.keys, capacity);
  auto values = gpu::readback_as<uint32_t>(device(), c.values, capacity);
  ASSERT_TRUE(keys.ok() && values.ok());
  for (uint32_t i = 0; i < capacity; ++i) {
    const uint32_t want_key = i < 5'000 ? twice.keys[i] : once.keys[i];
    const uint32_t want_value = i < 5'000 ? twice.values[i] : once.values[i];
    ASSERT_EQ((*keys)[i], want_key) << i;
    ASSERT_EQ((*values)[i], want_value) << i;
  }
}

TEST_F(RadixSortTest, MisuseIsAnError) {
  EXPECT_FALSE(RadixSort::create(device(), 0).ok());
  EXPECT_FALSE(RadixSort::create(device(), (1u << 31) + 1).ok());
  RadixSort unmade;
  auto sort = RadixSort::create(device(), 100);
  ASSERT_TRUE(sort.ok());
  auto small = gpu::Buffer::create(device(), {.size = 64, .name = "test.sort_small"});
  auto other = gpu::Buffer::create(device(), {.size = 64, .name = "test.sort_other"});
  auto big = gpu::Buffer::create(device(), {.size = 400, .name = "test.sort_big"});
  ASSERT_TRUE(small.ok() && other.ok() && big.ok());
  std::vector<Status> errors;
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    errors.push_back(unmade.record(cmd, *small, *other, ScanCount::host(1)));
                    errors.push_back(sort->record(cmd, *big, *big, ScanCount::host(10)));         // same buffer
                    errors.push_back(sort->record(cmd, *small, *other, ScanCount::host(10), 0));  // key_bits
                    errors.push_back(sort->record(cmd, *small, *other, ScanCount::host(10), 33));
                    errors.push_back(sort->record(cmd, *big, *other, ScanCount::host(17)));   // values too small
                    errors.push_back(sort->record(cmd, *small, *big, ScanCount::host(17)));   // keys too small
                    errors.push_back(sort->record(cmd, *big, *small, ScanCount::host(101)));  // over capacity
                    errors.push_back(sort->record(cmd, *big, *other,
                                                  ScanCount::from_buffer(*small)));  // capacity > values
                    errors.push_back(sort->record(cmd, *small, *other, ScanCount::from_buffer(*small, 16)));
                  })
                  .ok());
  for (size_t i = 0; i < errors.size(); ++i) EXPECT_FALSE(errors[i].ok()) << "misuse " << i << " was accepted";
  EXPECT_EQ(RadixSort::passes(32), 4u);
  EXPECT_EQ(RadixSort::passes(24), 3u);
  EXPECT_EQ(RadixSort::passes(17), 3u);
  EXPECT_EQ(RadixSort::passes(1), 1u);
}

}  // namespace
}  // namespace mote::gpu
