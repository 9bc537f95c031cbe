// A set of half-open word ranges, kept coalesced (no two overlap or touch): the changed parts of
// a word image that an owner keeping a copy (the GPU frame's program buffer and emitter table)
// writes as separate regions, where one WordSpan would stretch over everything in between.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

#include "runtime/bookkeeping/word_span.hpp"

namespace mote::runtime {

class WordRanges {
 public:
  // Adds [first, last); an empty range changes nothing. Merges with every range it overlaps or
  // touches, so the set stays minimal.
  void include(uint32_t first, uint32_t last) {
    if (last <= first) return;
    auto it = ranges_.upper_bound(first);
    if (it != ranges_.begin()) {
      auto prev = std::prev(it);
      if (prev->second >= first) {  // overlaps or touches the range before
        first = prev->first;
        last = std::max(last, prev->second);
        it = ranges_.erase(prev);
      }
    }
    while (it != ranges_.end() && it->first <= last) {
      last = std::max(last, it->second);
      it = ranges_.erase(it);
    }
    ranges_.emplace(first, last);
  }
  void include(WordSpan span) { include(span.begin, span.end); }
  void clear() { ranges_.clear(); }
  bool empty() const { return ranges_.empty(); }
  size_t size() const { return ranges_.size(); }
  // Words covered.
  uint64_t words() const {
    uint64_t n = 0;
    for (const auto& [first, last] : ranges_) n += last - first;
    return n;
  }
  // begin -> end, ascending.
  const std::map<uint32_t, uint32_t>& ranges() const { return ranges_; }
  auto begin() const { return ranges_.begin(); }
  auto end() const { return ranges_.end(); }

 private:
  std::map<uint32_t, uint32_t> ranges_;
};

}  // namespace mote::runtime
