// `.masm`, the text form of a program (grammar in docs/design/isa.md).
//
// For every program that passes verify_program(), assemble(disassemble(p)) == p. Programs
// that do not verify still disassemble (malformed instructions print as `.word`), but names
// that are not identifiers cannot round-trip.
#pragma once

#include <string>
#include <string_view>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

// Errors: ErrorCode::kParse with `where` = "line 12" or "line 12:7" (1-based column).
Result<Program> assemble(std::string_view text);

std::string disassemble(const Program& program);

}  // namespace mote
