#include "runtime/bookkeeping/offset_allocator.hpp"

#include <algorithm>
#include <string>

namespace mote::runtime {

OffsetAllocator::OffsetAllocator(uint32_t capacity) : capacity_(capacity) {
  if (capacity > 0) free_.emplace(0, capacity);
}

std::optional<uint32_t> OffsetAllocator::allocate(uint32_t size) {
  if (size == 0) return std::nullopt;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const uint32_t offset = it->first;
    const uint32_t rest = it->second - size;
    free_.erase(it);
    if (rest > 0) free_.emplace(offset + size, rest);
    allocated_.emplace(offset, size);
    used_ += size;
    return offset;
  }
  return std::nullopt;
}

void OffsetAllocator::insert_free(uint32_t offset, uint32_t size) {
  // Coalesce with the neighbours so the list never holds two adjacent ranges: first-fit
  // would otherwise miss a run that spans them.
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_.emplace(offset, size);
}

Status OffsetAllocator::free(uint32_t offset) {
  auto it = allocated_.find(offset);
  if (it == allocated_.end())
    return make_error(ErrorCode::kInvalidArgument, "no allocation starts at offset " + std::to_string(offset));
  const uint32_t size = it->second;
  allocated_.erase(it);
  used_ -= size;
  insert_free(offset, size);
  return ok_status();
}

Status OffsetAllocator::grow(uint32_t new_capacity) {
  if (new_capacity < capacity_)
    return make_error(ErrorCode::kInvalidArgument,
                      "capacity only rises: " + std::to_string(new_capacity) + " < " + std::to_string(capacity_));
  if (new_capacity == capacity_) return ok_status();
  const uint32_t old = capacity_;
  capacity_ = new_capacity;
  insert_free(old, new_capacity - old);
  return ok_status();
}

uint32_t OffsetAllocator::largest_free() const {
  uint32_t best = 0;
  for (const auto& [offset, size] : free_) best = std::max(best, size);
  return best;
}

std::optional<uint32_t> OffsetAllocator::size_of(uint32_t offset) const {
  auto it = allocated_.find(offset);
  if (it == allocated_.end()) return std::nullopt;
  return it->second;
}

std::vector<OffsetAllocator::Move> OffsetAllocator::plan_compaction() const {
  std::vector<Move> moves;
  uint32_t cursor = 0;
  for (const auto& [offset, size] : allocated_) {
    if (offset != cursor) moves.push_back({offset, cursor, size});
    cursor += size;
  }
  return moves;
}

std::vector<OffsetAllocator::Move> OffsetAllocator::compact() {
  std::vector<Move> moves = plan_compaction();
  std::map<uint32_t, uint32_t> packed;
  uint32_t cursor = 0;
  for (const auto& [offset, size] : allocated_) {
    packed.emplace_hint(packed.end(), cursor, size);
    cursor += size;
  }
  allocated_ = std::move(packed);
  free_.clear();
  if (cursor < capacity_) free_.emplace(cursor, capacity_ - cursor);
  return moves;
}

}  // namespace mote::runtime
