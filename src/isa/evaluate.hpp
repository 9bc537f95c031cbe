// The one C++ evaluation of a pure instruction: the value of a kLane or kVector row of
// include/mote/isa/isa_table.inc (expanded from the table, through the row's
// shaders/shared/vm_semantics.h function) and of CMP (the one special row that reads nothing but
// its operands and its raw compare code). The reference executor computes those rows with it,
// the compiler's constant folder (src/graph/fold.cpp) and the fast interpreter's host fold
// (src/vm_gpu/fast_fold.cpp) fold with it, so none of them can disagree with the reference.
#pragma once

#include <cstdint>
#include <optional>

#include "mote/isa.hpp"
#include "shared/vm_semantics.h"

namespace mote::isa {

// Whether evaluate_pure computes `op`.
constexpr bool evaluates(const OpInfo& op) { return op.form != OpForm::kSpecial || op.op == Op::CMP; }

// The result of `op` on sources a, b, c (zero past each source's width, as every executor reads
// them): every lane, whatever the instruction's lane count; the destination rule says which
// of them it writes. `compare_code` is CMP's raw src2 word. Nothing for an opcode that
// evaluates() refuses.
inline std::optional<shader::vec4> evaluate_pure(Op op, const shader::vec4& a, const shader::vec4& b,
                                                 const shader::vec4& c, uint32_t compare_code) {
  using shader::vec4;
  namespace s = shader;
  switch (op) {
    // Macros that expand to case labels: clang-format 14 would merge their lines.
    // clang-format off
#define MOTE_EVALUATE_kLane1(NAME, FN) \
  case Op::NAME: return vec4(s::FN(a.x), s::FN(a.y), s::FN(a.z), s::FN(a.w));
#define MOTE_EVALUATE_kLane2(NAME, FN) \
  case Op::NAME: return vec4(s::FN(a.x, b.x), s::FN(a.y, b.y), s::FN(a.z, b.z), s::FN(a.w, b.w));
#define MOTE_EVALUATE_kLane3(NAME, FN) \
  case Op::NAME: return vec4(s::FN(a.x, b.x, c.x), s::FN(a.y, b.y, c.y), s::FN(a.z, b.z, c.z), s::FN(a.w, b.w, c.w));
#define MOTE_EVALUATE_kVector(NAME, FN) \
  case Op::NAME: return s::FN(a, b, c);
#define MOTE_EVALUATE_kSpecial(NAME, FN)
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) \
  MOTE_EVALUATE_##FORM(NAME, FN)
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
#undef MOTE_EVALUATE_kLane1
#undef MOTE_EVALUATE_kLane2
#undef MOTE_EVALUATE_kLane3
#undef MOTE_EVALUATE_kVector
#undef MOTE_EVALUATE_kSpecial
    // clang-format on
    case Op::CMP: return s::vm_cmp(a, b, compare_code);
    default: return std::nullopt;
  }
}

}  // namespace mote::isa
