// A half-open range of 32-bit words [begin, end): what changed in a word image and must be
// uploaded. One span rather than a list, because the uploads it drives are one write each and
// the bookkeeping must not allocate per frame.
#pragma once

#include <algorithm>
#include <cstdint>

namespace mote::runtime {

struct WordSpan {
  uint32_t begin = 0;
  uint32_t end = 0;

  bool empty() const { return end <= begin; }
  uint32_t size() const { return empty() ? 0 : end - begin; }
  // Grows the span to cover [first, last); an empty range changes nothing.
  void include(uint32_t first, uint32_t last) {
    if (last <= first) return;
    if (empty()) {
      begin = first;
      end = last;
    } else {
      begin = std::min(begin, first);
      end = std::max(end, last);
    }
  }
  bool operator==(const WordSpan&) const = default;
};

}  // namespace mote::runtime
