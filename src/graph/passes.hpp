// The compiler passes after lowering, one per file (docs/design/effects.md, "What the
// compiler does"). Each works on IrFunction (ir.hpp); none reads an unordered container, so
// the output depends on the input alone.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote::graph {

// dce.cpp: removes every instruction whose value no sink (STORE_FIELD, KILL) needs, and
// renumbers nothing (values keep their ids). Returns how many instructions were removed.
uint32_t eliminate_dead_code(IrFunction& fn);

// const_pool.cpp: places every LOAD_CONST vector of the functions into one vec4 pool (each
// vector inside one vec4, an equal run of scalars reused wherever it already is, new vectors
// first-fit into the free tail of an earlier vec4) and rewrites the LOAD_CONST words to pool
// scalar indices. Returns the pool as f32 bit patterns, a multiple of 4 words.
Result<std::vector<uint32_t>> intern_constants(std::span<IrFunction* const> functions);

// regalloc.cpp: linear scan over 32-bit slots. A value of width w takes w consecutive slots
// from its first definition through its last read; slots free after an instruction are
// reusable by the next one (never by the instruction that reads them last, so no executor
// has to care about a destination overlapping a source).
struct Allocation {
  std::vector<uint32_t> slot;   // per value id: first slot, or kNoValue (constants, dead values)
  uint32_t register_count = 0;  // highest slot used + 1
};
Result<Allocation> allocate_registers(const IrFunction& fn);

// encode.cpp: IR + allocation -> instruction words. `global_import` maps a declared global
// field index to its import index (filled in order of first read by the caller).
Result<std::vector<Instruction>> encode_function(const IrFunction& fn, const Allocation& allocation,
                                                 std::span<const uint32_t> global_import);

}  // namespace mote::graph
