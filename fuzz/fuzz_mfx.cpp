// libFuzzer harness: the .mfx decoder (load_mfx) and, for what it accepts, the verifier and the
// disassembler; a program that verifies must survive save_mfx/load_mfx and
// assemble(disassemble(p)) unchanged (docs/design/isa.md).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <span>
#include <vector>

#include "core/hash.hpp"
#include "fuzz_check.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

namespace {

void check_mfx(std::span<const uint8_t> bytes) {
  mote::Result<mote::Program> program = mote::load_mfx(bytes);
  if (!program.ok()) return;
  const std::string text = mote::disassemble(*program);  // disassembles verified or not
  if (!mote::verify_program(*program).ok()) return;
  mote::Result<mote::Program> reloaded = mote::load_mfx(mote::save_mfx(*program));
  FUZZ_REQUIRE(reloaded.ok() && *reloaded == *program, "save_mfx(load_mfx(x)) round trip");
  mote::Result<mote::Program> reassembled = mote::assemble(text);
  FUZZ_REQUIRE(reassembled.ok() && *reassembled == *program, "assemble(disassemble(p)) == p");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  check_mfx(bytes);
  // Almost every mutation breaks the checksum (bytes 12..15, the CRC-32 of what follows the
  // 16-byte header), which load_mfx checks first: the input is tried again with it made right,
  // so mutations reach the section table and the sections (docs/design/reliability.md, Figures).
  constexpr size_t kHeaderBytes = 16;
  if (size < kHeaderBytes) return 0;
  std::vector<uint8_t> fixed(bytes.begin(), bytes.end());
  const uint32_t crc = mote::crc32(bytes.subspan(kHeaderBytes));
  for (int i = 0; i < 4; ++i) fixed[12 + i] = uint8_t(crc >> (8 * i));
  if (!std::equal(fixed.begin(), fixed.end(), bytes.begin())) check_mfx(fixed);
  return 0;
}
