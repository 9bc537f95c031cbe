// libFuzzer harness: the .mfx decoder (load_mfx) and, for what it accepts, the verifier and the
// disassembler; a program that verifies must survive save_mfx/load_mfx and
// assemble(disassemble(p)) unchanged (docs/design/isa.md).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::Result<mote::Program> program = mote::load_mfx(std::span<const uint8_t>(data, size));
  if (!program.ok()) return 0;
  const std::string text = mote::disassemble(*program);  // disassembles verified or not
  if (!mote::verify_program(*program).ok()) return 0;
  mote::Result<mote::Program> reloaded = mote::load_mfx(mote::save_mfx(*program));
  FUZZ_REQUIRE(reloaded.ok() && *reloaded == *program, "save_mfx(load_mfx(x)) round trip");
  mote::Result<mote::Program> reassembled = mote::assemble(text);
  FUZZ_REQUIRE(reassembled.ok() && *reassembled == *program, "assemble(disassemble(p)) == p");
  return 0;
}
