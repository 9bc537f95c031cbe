// The cooked-effect container shared by the writer (cooked_write.cpp), the reader and its
// upgraders (cooked_read.cpp) and the consistency checks (cooked_check.cpp):
// docs/design/cooked.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "mote/effect.hpp"
#include "mote/result.hpp"

namespace mote::cook {

constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}
inline constexpr uint32_t kChunkName = fourcc('N', 'A', 'M', 'E');
inline constexpr uint32_t kChunkProgram = fourcc('P', 'R', 'O', 'G');
inline constexpr uint32_t kChunkEmitterDefaults = fourcc('E', 'D', 'E', 'F');
inline constexpr uint32_t kChunkGlobalPreviews = fourcc('G', 'L', 'O', 'B');
inline constexpr uint32_t kChunkEmission = fourcc('E', 'M', 'I', 'T');
inline constexpr uint32_t kChunkRender = fourcc('R', 'E', 'N', 'D');
inline constexpr uint32_t kChunkCulling = fourcc('C', 'U', 'L', 'L');
inline constexpr uint32_t kChunkKernels = fourcc('K', 'E', 'R', 'N');
inline constexpr uint32_t kChunkRibbon = fourcc('R', 'I', 'B', 'N');
inline constexpr uint32_t kChunkLight = fourcc('L', 'I', 'T', 'E');

inline constexpr size_t kHeaderBytes = 16;
inline constexpr size_t kChunkHeaderBytes = 8;
// RenderSettings' booleans, one bit each in REND's flags word; other bits must be zero.
inline constexpr uint32_t kFlagFlipbookBlend = 1u << 0;
inline constexpr uint32_t kFlagSoft = 1u << 1;
inline constexpr uint32_t kFlagLit = 1u << 2;
inline constexpr uint32_t kKnownFlags = kFlagFlipbookBlend | kFlagSoft | kFlagLit;

// The chunks of each version, in the one order a file holds them.
std::span<const uint32_t> version_chunks(uint32_t version);

// What the decoded chunks must agree on among themselves and with the document format's ranges
// (docs/design/effects.md): the loader's last step.
Status check_cooked_effect(const CompiledEffect& effect);

class ByteReader;
class ByteWriter;
// KERN (cooked_kernels.cpp). The reader needs PROG read first (an emit kernel needs an INIT).
Status read_kernels(ByteReader& in, CompiledEffect& effect);
void write_kernels(const CompiledEffect& effect, ByteWriter& out);

}  // namespace mote::cook
