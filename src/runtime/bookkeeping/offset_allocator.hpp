// A range allocator over a run of words [0, capacity): the ProgramHeap's sections (constants,
// code, emitter field blocks) are each one of these. First-fit over an offset-ordered free list
// with coalescing on free, so the free list holds no two adjacent ranges. The allocator only
// does arithmetic; the caller owns the words, which is why compaction is returned as a plan
// for the caller to apply to its own image.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "mote/result.hpp"

namespace mote::runtime {

class OffsetAllocator {
 public:
  // One step of a compaction: move `size` words from `from` to `to` (to <= from). Applying
  // the steps in order with an overlap-safe forward copy is correct, because every step moves
  // a range down into space already vacated.
  struct Move {
    uint32_t from = 0;
    uint32_t to = 0;
    uint32_t size = 0;
    bool operator==(const Move&) const = default;
  };

  explicit OffsetAllocator(uint32_t capacity = 0);

  // The offset of a new range of `size` words (the lowest one that fits), or nullopt when
  // no free range is long enough (the caller repacks or grows). size 0 is refused: an empty
  // range has no offset that could identify it to free().
  std::optional<uint32_t> allocate(uint32_t size);
  // kInvalidArgument when `offset` is not the start of a live allocation.
  Status free(uint32_t offset);
  // Adds words at the end; capacity only rises (kInvalidArgument otherwise).
  Status grow(uint32_t new_capacity);

  // The moves that would pack every live allocation to the start, in ascending order, without
  // the ones that stay put. Does not change the allocator.
  std::vector<Move> plan_compaction() const;
  // Packs every live allocation to the start and returns the moves (as plan_compaction()).
  // Afterwards the free space is one range at the end.
  std::vector<Move> compact();

  uint32_t capacity() const { return capacity_; }
  uint32_t used() const { return used_; }
  uint32_t free_words() const { return capacity_ - used_; }
  uint32_t largest_free() const;
  size_t allocation_count() const { return allocated_.size(); }
  size_t free_range_count() const { return free_.size(); }
  // The size of the allocation starting at `offset`, or nullopt.
  std::optional<uint32_t> size_of(uint32_t offset) const;
  // Live allocations, offset -> size, ascending (for tests and repacks).
  const std::map<uint32_t, uint32_t>& allocations() const { return allocated_; }
  // Free ranges, offset -> size, ascending; never two adjacent.
  const std::map<uint32_t, uint32_t>& free_ranges() const { return free_; }

 private:
  void insert_free(uint32_t offset, uint32_t size);

  uint32_t capacity_ = 0;
  uint32_t used_ = 0;
  std::map<uint32_t, uint32_t> free_;       // offset -> size
  std::map<uint32_t, uint32_t> allocated_;  // offset -> size
};

}  // namespace mote::runtime
