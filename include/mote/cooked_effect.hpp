// Cooked effects: one versioned binary file holding everything a CompiledEffect is — the
// program (as `.mfx` bytes), the emitter field defaults, the global field previews, the emission
// settings (rate, bursts, pre-warm, capacity) and the render settings with their texture and mesh
// references — behind a CRC-32 of the whole payload. A shipped program loads it with the runtime
// alone (mote::runtime): no effect-document compiler, no JSON. `mote compile EFFECT.json -o X.mfe`
// writes one; `mote inspect X.mfe` describes it. The format, byte by byte, and its versions:
// docs/design/cooked.md.
//
// Free functions with no shared state: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "mote/effect.hpp"
#include "mote/result.hpp"

namespace mote {

// 'M' 'F' 'E' 0x1A: as `.mfx` (mote/mfx.hpp), the 0x1A byte stops a text-mode transfer visibly.
inline constexpr std::array<uint8_t, 4> kCookedEffectMagic = {'M', 'F', 'E', 0x1A};
// Version 1: no global previews (GLOB). Version 2: no culling (CULL). Version 3: no kernels
// (KERN). Version 4: no ribbons (RIBN). Version 5: no particle lights (LITE). Version 6: current.
inline constexpr uint32_t kCookedEffectVersion = 6;
// What the loader refuses before it allocates: longer strings, more bursts or global previews.
inline constexpr uint32_t kCookedMaxString = 4096;
inline constexpr uint32_t kCookedMaxBursts = 4096;
inline constexpr uint32_t kCookedMaxGlobals = 4096;
inline constexpr uint32_t kCookedMaxKernelWords = 1u << 22;  // 16 MiB of SPIR-V a kernel

// Always writes the current version. Deterministic: equal effects give identical bytes.
// `source_path` is not stored (it names where the effect was read from, not what it is).
std::vector<uint8_t> save_cooked_effect(const CompiledEffect& effect);

// The decoder: a pure function of the bytes (no file, no device, no global state), reading any
// supported version (older ones through the upgraders) and refusing anything else. Strict: the
// checksum must match, every chunk must be the one expected next with no byte left over, every
// count and string is bounded before allocation, the program must pass verify_program, and the
// defaults, previews and render field names must agree with the program's layouts. The result's
// `source_path` is empty. Errors: kFormat (malformed or inconsistent; `where` = "offset 0x24" or
// the chunk), kUnsupported (a version this build does not know), and the verifier's errors.
Result<CompiledEffect> load_cooked_effect(std::span<const uint8_t> bytes);

// Reads and decodes a cooked effect file; the result's `source_path` is `path`, so its relative
// texture and mesh references resolve against the file's directory. Errors: the file's (kNotFound,
// kIo, with the path in `where`) and load_cooked_effect's (the caller names the file).
Result<CompiledEffect> load_cooked_effect_file(const std::filesystem::path& path);

// True when `bytes` start with kCookedEffectMagic (what `mote inspect` and tools use to tell a
// cooked effect from other files).
bool is_cooked_effect(std::span<const uint8_t> bytes);

}  // namespace mote
