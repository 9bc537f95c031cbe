// The program verifier: the one gate between untrusted bytecode (files, tools, fuzzers) and the
// executors. A program that passes verify_program() can be run by every executor without
// bounds checks: every register, field, constant and builtin it names exists, every register
// it reads was written earlier in the same section, and every encoding bit is canonical (so
// disassembly round-trips). See docs/design/isa.md, "Verifier rules".
#pragma once

#include <cstdint>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

struct VerifyOptions {
  // false: a program as compiled; global LOAD_BUILTINs must name an import (space 2).
  // true: a program as placed by link_globals(); globals must be word offsets (space 3).
  bool linked = false;
  // For linked programs: the size of the global field section, in words.
  uint32_t global_field_words = 0;
  // 0: the program's own particle_record_words(). Otherwise the pool's record stride, which
  // must be at least that.
  uint32_t record_words = 0;
};

// ok, or ErrorCode::kVerify with `where` naming the offending part ("update[12].s1",
// "particle_fields[2]", "constants", ...) and the reason in the message.
Status verify_program(const Program& program, const VerifyOptions& options = {});

}  // namespace mote
