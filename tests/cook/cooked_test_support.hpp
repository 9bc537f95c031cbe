// What the cooked-effect tests share: presets compiled from their documents, and the byte
// surgery that builds files the writer never would (an older version, a bad chunk) with a
// checksum that still matches, so the loader's other checks are reached.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mote/cooked_effect.hpp"
#include "mote/effect.hpp"

namespace mote::test {

inline CompiledEffect compile_document(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  Result<CompiledEffect> effect = compile_effect(text.str());
  EXPECT_TRUE(effect.ok()) << path << ": " << (effect.ok() ? "" : effect.error().to_string());
  return effect.ok() ? std::move(effect).value() : CompiledEffect{};
}

inline std::vector<std::filesystem::path> preset_documents() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(MOTE_SOURCE_DIR) / "effects"))
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

inline uint32_t get_u32(const std::vector<uint8_t>& bytes, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}
inline void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) { std::memcpy(bytes.data() + at, &v, 4); }

// Rewrites the header's payload size and checksum after an edit.
inline void reseal(std::vector<uint8_t>& bytes) {
  put_u32(bytes, 8, uint32_t(bytes.size() - 16));
  put_u32(bytes, 12, uint32_t(::crc32(0L, bytes.data() + 16, uInt(bytes.size() - 16))));
}

struct ChunkSpan {
  uint32_t tag = 0;
  size_t at = 0;       // of the chunk's 8-byte header
  size_t payload = 0;  // of its payload
  uint32_t size = 0;
};

inline std::vector<ChunkSpan> chunks(const std::vector<uint8_t>& bytes) {
  std::vector<ChunkSpan> out;
  for (size_t at = 16; at + 8 <= bytes.size();) {
    const ChunkSpan c{get_u32(bytes, at), at, at + 8, get_u32(bytes, at + 4)};
    out.push_back(c);
    at = c.payload + c.size;
  }
  return out;
}

inline uint32_t tag(const char (&name)[5]) {
  uint32_t v = 0;
  std::memcpy(&v, name, 4);
  return v;
}

inline ChunkSpan find_chunk(const std::vector<uint8_t>& bytes, const char (&name)[5]) {
  for (const ChunkSpan& c : chunks(bytes))
    if (c.tag == tag(name)) return c;
  ADD_FAILURE() << "no chunk " << name;
  return {};
}

// Removes a chunk (header and payload): how a test makes an older version's file.
inline void erase_chunk(std::vector<uint8_t>& bytes, const char (&name)[5]) {
  const ChunkSpan c = find_chunk(bytes, name);
  bytes.erase(bytes.begin() + std::ptrdiff_t(c.at), bytes.begin() + std::ptrdiff_t(c.payload + c.size));
}

}  // namespace mote::test
