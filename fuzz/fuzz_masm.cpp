// libFuzzer harness: the assembler over arbitrary text; what assembles and verifies must
// disassemble and reassemble to the same program, and survive the .mfx round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::Result<mote::Program> program = mote::assemble(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!program.ok() || !mote::verify_program(*program).ok()) return 0;
  mote::Result<mote::Program> reassembled = mote::assemble(mote::disassemble(*program));
  FUZZ_REQUIRE(reassembled.ok() && *reassembled == *program, "assemble(disassemble(p)) == p");
  mote::Result<mote::Program> reloaded = mote::load_mfx(mote::save_mfx(*program));
  FUZZ_REQUIRE(reloaded.ok() && *reloaded == *program, "load_mfx(save_mfx(p)) == p");
  return 0;
}
