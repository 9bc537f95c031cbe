// Content hashes: CRC-32 (IEEE 802.3, reflected 0xEDB88320) for file checksums, as zlib and PNG
// use it, and 64-bit FNV-1a for in-memory keys (program deduplication).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace mote {

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t previous = 0);
uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace mote
