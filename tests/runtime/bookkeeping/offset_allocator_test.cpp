#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "runtime/bookkeeping/offset_allocator.hpp"

namespace mote::runtime {
namespace {

TEST(OffsetAllocator, FirstFitAndCoalescing) {
  OffsetAllocator a(100);
  EXPECT_EQ(a.allocate(10), 0u);
  EXPECT_EQ(a.allocate(20), 10u);
  EXPECT_EQ(a.allocate(30), 30u);
  EXPECT_EQ(a.used(), 60u);
  EXPECT_FALSE(a.allocate(41).has_value());
  EXPECT_FALSE(a.allocate(0).has_value());
  ASSERT_TRUE(a.free(10).ok());
  EXPECT_EQ(a.allocate(5), 10u);  // first fit: the hole
  ASSERT_TRUE(a.free(0).ok());
  ASSERT_TRUE(a.free(10).ok());  // [0,30) coalesces into one range
  EXPECT_EQ(a.free_range_count(), 2u);
  EXPECT_EQ(a.largest_free(), 40u);
  ASSERT_TRUE(a.free(30).ok());  // everything free: one range
  EXPECT_EQ(a.free_range_count(), 1u);
  EXPECT_EQ(a.largest_free(), 100u);
  EXPECT_EQ(a.used(), 0u);
}

TEST(OffsetAllocator, FreeOfUnknownOffsetIsAnError) {
  OffsetAllocator a(16);
  EXPECT_EQ(a.allocate(4), 0u);
  EXPECT_FALSE(a.free(1).ok());
  EXPECT_TRUE(a.free(0).ok());
  EXPECT_FALSE(a.free(0).ok());  // double free
}

TEST(OffsetAllocator, GrowExtendsTheTailRange) {
  OffsetAllocator a(8);
  EXPECT_EQ(a.allocate(6), 0u);
  EXPECT_FALSE(a.allocate(4).has_value());
  ASSERT_TRUE(a.grow(16).ok());
  EXPECT_EQ(a.free_range_count(), 1u);  // [6,16) coalesced with the old tail
  EXPECT_EQ(a.allocate(10), 6u);
  EXPECT_FALSE(a.grow(4).ok());  // capacity only rises
  OffsetAllocator empty;
  ASSERT_TRUE(empty.grow(4).ok());
  EXPECT_EQ(empty.allocate(4), 0u);
}

TEST(OffsetAllocator, CompactionPlanPacksInOrder) {
  OffsetAllocator a(64);
  const uint32_t x = *a.allocate(8), y = *a.allocate(8), z = *a.allocate(8), w = *a.allocate(8);
  ASSERT_TRUE(a.free(x).ok());
  ASSERT_TRUE(a.free(z).ok());
  const std::vector<OffsetAllocator::Move> plan = a.plan_compaction();
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0], (OffsetAllocator::Move{y, 0, 8}));
  EXPECT_EQ(plan[1], (OffsetAllocator::Move{w, 8, 8}));
  EXPECT_EQ(a.compact(), plan);
  EXPECT_EQ(a.free_range_count(), 1u);
  EXPECT_EQ(a.largest_free(), 48u);
  EXPECT_EQ(a.size_of(0), 8u);
  EXPECT_EQ(a.size_of(8), 8u);
  EXPECT_TRUE(a.compact().empty());  // packed already
}

// Randomized against a word-by-word reference model: every word owned by at most one
// allocation, accounting exact, free list coalesced, compaction preserving content.
TEST(OffsetAllocator, RandomizedAgainstReferenceModel) {
  std::mt19937 rng(1234);
  OffsetAllocator a(256);
  std::vector<int> owner(256, -1);                    // the model: which allocation holds each word
  std::vector<uint32_t> words(256, 0);                // content, to check compaction moves data right
  std::map<uint32_t, std::pair<uint32_t, int>> live;  // offset -> (size, tag)
  int next_tag = 0;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t op = rng() % 100;
    if (op < 55) {
      const uint32_t size = 1 + rng() % 24;
      std::optional<uint32_t> off = a.allocate(size);
      // The model's first fit must agree.
      std::optional<uint32_t> expect;
      for (uint32_t s = 0, run = 0; s < owner.size(); ++s) {
        run = owner[s] < 0 ? run + 1 : 0;
        if (run == size) {
          expect = s + 1 - size;
          break;
        }
      }
      ASSERT_EQ(off, expect) << "step " << step;
      if (!off) continue;
      const int tag = next_tag++;
      for (uint32_t i = 0; i < size; ++i) {
        owner[*off + i] = tag;
        words[*off + i] = uint32_t(tag);
      }
      live.emplace(*off, std::make_pair(size, tag));
    } else if (op < 95 && !live.empty()) {
      auto it = std::next(live.begin(), rng() % live.size());
      ASSERT_TRUE(a.free(it->first).ok());
      for (uint32_t i = 0; i < it->second.first; ++i) owner[it->first + i] = -1;
      live.erase(it);
    } else if (op < 97) {
      ASSERT_TRUE(a.grow(a.capacity() + 1 + rng() % 32).ok());
      owner.resize(a.capacity(), -1);
      words.resize(a.capacity(), 0);
    } else {
      const auto moves = a.compact();
      for (const auto& m : moves) {
        ASSERT_LT(m.to, m.from);
        std::copy_n(words.begin() + m.from, m.size, words.begin() + m.to);
      }
      std::map<uint32_t, std::pair<uint32_t, int>> packed;
      std::fill(owner.begin(), owner.end(), -1);
      uint32_t cursor = 0;
      for (const auto& [off, st] : live) {
        packed.emplace(cursor, st);
        for (uint32_t i = 0; i < st.first; ++i) {
          owner[cursor + i] = st.second;
          ASSERT_EQ(words[cursor + i], uint32_t(st.second)) << "compaction lost data";
        }
        cursor += st.first;
      }
      live = std::move(packed);
    }
    // Accounting and structure.
    uint32_t used = 0;
    for (int o : owner) used += o >= 0;
    ASSERT_EQ(a.used(), used);
    ASSERT_EQ(a.allocation_count(), live.size());
    uint32_t prev_end = UINT32_MAX;
    uint32_t free_total = 0;
    for (const auto& [off, size] : a.free_ranges()) {
      ASSERT_NE(off, prev_end) << "adjacent free ranges were not coalesced";
      for (uint32_t i = 0; i < size; ++i) ASSERT_EQ(owner[off + i], -1);
      prev_end = off + size;
      free_total += size;
    }
    ASSERT_EQ(free_total + used, a.capacity());
    for (const auto& [off, st] : live) ASSERT_EQ(a.size_of(off), st.first);
  }
}

}  // namespace
}  // namespace mote::runtime
