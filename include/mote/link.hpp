// Linking a program's global field imports to the word offsets of a placed global field section.
#pragma once

#include <cstdint>
#include <span>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

// Returns a copy of `program` whose LOAD_BUILTIN space-2 sources (import index i) read space 3
// at import_offsets[i] instead. One offset per global import; each must fit the 16-bit index
// field. The imports list is kept (it documents what was linked). Errors: kInvalidArgument
// when the offsets do not match the imports or an instruction names an import that does not
// exist (`where` = "update[3]").
Result<Program> link_globals(const Program& program, std::span<const uint32_t> import_offsets);

}  // namespace mote
