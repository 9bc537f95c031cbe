#include "core/hash.hpp"

#include <zlib.h>

// Header-only use: the runtime carries no libxxhash dependency at link or load time.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>

namespace mote {

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t previous) {
  // zlib takes the length as uInt; feed spans longer than that in pieces.
  uLong c = previous;
  const uint8_t* data = bytes.data();
  size_t left = bytes.size();
  constexpr size_t kMaxChunk = size_t(1) << 30;
  while (left > 0) {
    const size_t n = std::min(left, kMaxChunk);
    c = ::crc32(c, data, uInt(n));
    data += n;
    left -= n;
  }
  return uint32_t(c);
}

uint64_t content_key64(std::span<const uint8_t> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t seed) {
  uint64_t h = seed;
  for (uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace mote
