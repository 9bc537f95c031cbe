// `.mfx`, the binary program file. Little-endian, a 16-byte header, a section table and
// 4-byte aligned section payloads; specified byte by byte in docs/design/isa.md.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

// 'M' 'F' 'X' 0x1A: the 0x1A (DOS end-of-file) byte makes a text-mode transfer or `type` of
// the file stop visibly early instead of silently corrupting it (PNG's trick).
inline constexpr std::array<uint8_t, 4> kMfxMagic = {'M', 'F', 'X', 0x1A};
// Version 1: no EFLD/GIMP sections (before emitter and global fields). Version 2: no EVAL
// section (before stateless programs). Version 3: current.
inline constexpr uint32_t kMfxVersion = 3;

// Always writes the current version. Deterministic: equal programs give identical bytes.
std::vector<uint8_t> save_mfx(const Program& program);

// Reads any supported version (older ones through the upgrader). Does not verify: callers
// call verify_program(). Errors: kFormat (malformed; `where` = "offset 0x24"),
// kUnsupported (a version this build does not know).
Result<Program> load_mfx(std::span<const uint8_t> bytes);

}  // namespace mote
