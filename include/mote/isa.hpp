// The particle ISA as C++ sees it: opcodes, builtins and their rules, expanded from the one
// table in include/mote/isa/isa_table.inc (and builtins.inc). See docs/design/isa.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mote::isa {

enum class Op : uint8_t {
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) NAME = NUM,
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
};

enum class Builtin : uint16_t {
#define MOTE_BUILTIN(NAME, ID, WIDTH, DOC) NAME = ID,
#include "mote/isa/builtins.inc"
#undef MOTE_BUILTIN
};

enum class DstRule : uint8_t { kDstLanes, kDstScalar, kDstNone };
enum class SrcRule : uint8_t {
  kUnused,       // kind NONE, word 0
  kVal,          // REG or IMM, `lanes` wide
  kVal1,         // REG or IMM, 1 wide
  kVal3,         // REG or IMM, 3 wide
  kVal4,         // REG or IMM, 4 wide
  kField,        // raw: particle field word offset
  kConst,        // raw: constant pool scalar index
  kBuiltin,      // raw: builtin id (space | index)
  kDraw,         // raw: random draw index
  kCmp,          // raw: compare code
  kEvent,        // raw: event output index, < shader::kVmEventOutputs
  kVectorField,  // raw: vector field slot, < shader::kVmVectorFields
};
// How the executors run a row (isa_table.inc's header says what each form promises).
enum class OpForm : uint8_t {
  kLane1,    // semantics(a), lane by lane
  kLane2,    // semantics(a, b), lane by lane
  kLane3,    // semantics(a, b, c), lane by lane
  kVector,   // semantics(a, b, c) over whole zero-padded vec4s
  kSpecial,  // written by hand in each executor
};

struct OpInfo {
  Op op;
  uint8_t number;
  std::string_view mnemonic;
  uint8_t lanes_min;
  uint8_t lanes_max;
  DstRule dst;
  SrcRule src[3];
  OpForm form;
  std::string_view semantics;  // the vm_semantics.h function of a kLane/kVector row; "" for kSpecial
  bool gpu_exact;              // every GPU computes it as the host does (isa_table.inc)
  float tolerance_ulp;         // parity bound: |got - ref| <= max(ulp * ulp(ref), abs)
  float tolerance_abs;
  std::string_view node;  // the effect-graph node of this one instruction, "" for none
  std::string_view doc;
};

struct BuiltinInfo {
  Builtin builtin;
  uint16_t id;
  std::string_view name;
  uint8_t width;
  std::string_view doc;
};

namespace detail {
using enum DstRule;
using enum SrcRule;
using enum OpForm;
inline constexpr OpInfo kOps[] = {
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) \
  {Op::NAME, NUM, #NAME, LMIN, LMAX, DST, {S0, S1, S2}, FORM, #FN, EXACT, float(TULP), float(TABS), NODE, DOC},
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
};
inline constexpr BuiltinInfo kBuiltins[] = {
#define MOTE_BUILTIN(NAME, ID, WIDTH, DOC) {Builtin::NAME, ID, #NAME, WIDTH, DOC},
#include "mote/isa/builtins.inc"
#undef MOTE_BUILTIN
};
constexpr bool numbers_are_dense() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (kOps[i].number != i) return false;
  for (size_t i = 0; i < std::size(kBuiltins); ++i)
    if (kBuiltins[i].id != i) return false;
  return true;
}
static_assert(numbers_are_dense(), "isa_table.inc / builtins.inc must list numbers 0..N-1 in order");
constexpr bool is_value_source(SrcRule rule) { return rule == kVal || rule == kVal1 || rule == kVal3 || rule == kVal4; }
// What each form promises the executors that expand it: a lane-wise row reads exactly its
// first `arity` sources, `lanes` wide, and writes `lanes` slots; a vector row reads only value
// sources; a row has a semantics function exactly when it is not special, and a node only then.
constexpr bool row_keeps_its_form(const OpInfo& op) {
  if ((op.form == kSpecial) != op.semantics.empty()) return false;
  if (op.form == kSpecial) return op.node.empty();
  if (op.form == kVector) {
    for (SrcRule rule : op.src)
      if (rule != kUnused && !is_value_source(rule)) return false;
    return true;
  }
  const int arity = op.form == kLane1 ? 1 : op.form == kLane2 ? 2 : 3;
  for (int s = 0; s < 3; ++s)
    if (op.src[s] != (s < arity ? kVal : kUnused)) return false;
  return op.dst == kDstLanes;
}
constexpr bool rows_keep_their_forms() {
  for (const OpInfo& op : kOps)
    if (!row_keeps_its_form(op)) return false;
  return true;
}
static_assert(rows_keep_their_forms(), "an isa_table.inc row breaks its form's rules (see the table's header)");
}  // namespace detail

inline constexpr uint32_t kOpCount = uint32_t(std::size(detail::kOps));
inline constexpr uint32_t kBuiltinCount = uint32_t(std::size(detail::kBuiltins));

constexpr std::span<const OpInfo> all_ops() { return detail::kOps; }
constexpr std::span<const BuiltinInfo> all_builtins() { return detail::kBuiltins; }
// nullptr for an unknown opcode number.
constexpr const OpInfo* op_info(uint32_t number) { return number < kOpCount ? &detail::kOps[number] : nullptr; }
constexpr const OpInfo& op_info(Op op) { return detail::kOps[uint32_t(op)]; }
constexpr const BuiltinInfo* builtin_info(uint32_t id) { return id < kBuiltinCount ? &detail::kBuiltins[id] : nullptr; }
// Components a source of rule `rule` reads in an instruction of `lanes` lanes: `lanes` for kVal,
// 1/3/4 for kVal1/3/4, 0 for raw and unused sources. The one statement of that rule.
constexpr uint32_t source_width(SrcRule rule, uint32_t lanes) {
  switch (rule) {
    case SrcRule::kVal: return lanes;
    case SrcRule::kVal1: return 1;
    case SrcRule::kVal3: return 3;
    case SrcRule::kVal4: return 4;
    default: return 0;
  }
}

// An opcode's operand shape, packed for the GPU interpreter's decode (which reads a table of
// these from the program buffer): bits 0..2 / 3..5 / 6..8 say how many components src0 / src1 /
// src2 read (0: none or raw, 1..4: fixed, kShapeWidthLanes: the instruction's lane count);
// bits 9..10 the destination rule (0: `lanes` slots, 1: one slot, 2: none).
inline constexpr uint32_t kShapeWidthLanes = 5;
constexpr uint32_t op_shape(const OpInfo& op) {
  uint32_t shape = 0;
  for (int s = 0; s < 3; ++s) {
    uint32_t width = 0;
    switch (op.src[s]) {
      case SrcRule::kVal: width = kShapeWidthLanes; break;
      case SrcRule::kVal1: width = 1; break;
      case SrcRule::kVal3: width = 3; break;
      case SrcRule::kVal4: width = 4; break;
      default: width = 0; break;
    }
    shape |= width << (3 * s);
  }
  const uint32_t dst = op.dst == DstRule::kDstLanes ? 0u : op.dst == DstRule::kDstScalar ? 1u : 2u;
  return shape | (dst << 9);
}

std::optional<Op> op_from_mnemonic(std::string_view mnemonic);
std::optional<Builtin> builtin_from_name(std::string_view name);

}  // namespace mote::isa
