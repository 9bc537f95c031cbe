// libFuzzer harness: the cooked effect decoder (load_cooked_effect, docs/design/cooked.md). What
// it accepts must cook back to a file that loads, and cooking is deterministic: the bytes of
// save(load(save(e))) equal those of save(e).
#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_check.hpp"
#include "mote/cooked_effect.hpp"

namespace {

void check_cooked(std::span<const uint8_t> bytes) {
  mote::Result<mote::CompiledEffect> effect = mote::load_cooked_effect(bytes);
  if (!effect.ok()) return;
  const std::vector<uint8_t> cooked = mote::save_cooked_effect(*effect);
  mote::Result<mote::CompiledEffect> reloaded = mote::load_cooked_effect(cooked);
  FUZZ_REQUIRE(reloaded.ok(), "load_cooked_effect(save_cooked_effect(e)) loads");
  FUZZ_REQUIRE(mote::save_cooked_effect(*reloaded) == cooked, "cooking is deterministic over a round trip");
}

void write_u32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + size_t(i)] = uint8_t(v >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  check_cooked(bytes);
  // Almost every mutation breaks the header's payload size (bytes 8..11) or its CRC-32 (12..15),
  // which the loader checks first: the input is tried again with both made right, so mutations
  // reach the chunks (as fuzz_mfx does, docs/design/reliability.md).
  constexpr size_t kHeaderBytes = 16;
  if (size < kHeaderBytes) return 0;
  std::vector<uint8_t> fixed(bytes.begin(), bytes.end());
  write_u32(fixed, 8, uint32_t(size - kHeaderBytes));
  write_u32(fixed, 12, uint32_t(::crc32(0L, fixed.data() + kHeaderBytes, uInt(size - kHeaderBytes))));
  if (!std::equal(fixed.begin(), fixed.end(), bytes.begin())) check_cooked(fixed);
  return 0;
}
