// Content hashes, from the libraries that already do them (docs/design/package.md): zlib's
// CRC-32 for file checksums (the IEEE 802.3 polynomial zlib and PNG use) and xxHash's XXH3 for
// in-memory content keys (program deduplication, the kernel cache). fnv1a64 stays only where the
// value itself is part of a file's meaning: the scene renderer's per-emitter seed, which a saved
// scene's renders depend on, so changing its function would change every existing render.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace mote {

// CRC-32 of `bytes`, continuing from `previous` (0 to start), as zlib's crc32() computes it.
uint32_t crc32(std::span<const uint8_t> bytes, uint32_t previous = 0);
// XXH3 64-bit of `bytes`: a content key (XXH3 output is fixed across machines since xxHash 0.8).
uint64_t content_key64(std::span<const uint8_t> bytes);
// 64-bit FNV-1a (seed = the offset basis): fixed forever, for values files depend on.
uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace mote
