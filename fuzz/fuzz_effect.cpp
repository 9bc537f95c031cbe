// libFuzzer harness: effect documents (compile_effect: the strict JSON reader, the graph
// checks, lowering, the passes). A compiled effect's program verifies and survives the .mfx
// round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "mote/effect.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::Result<mote::CompiledEffect> effect = mote::compile_effect(std::string_view(reinterpret_cast<const char*>(data),
                                                                                    size));
  if (!effect.ok()) return 0;
  FUZZ_REQUIRE(mote::verify_program(effect->program).ok(), "a compiled program verifies");
  mote::Result<mote::Program> reloaded = mote::load_mfx(mote::save_mfx(effect->program));
  FUZZ_REQUIRE(reloaded.ok() && *reloaded == effect->program, "load_mfx(save_mfx(p)) == p");
  return 0;
}
