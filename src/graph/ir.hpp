// The compiler's intermediate form: instructions over virtual registers ("values") of width
// 1..4, in SSA except for `combine`, whose value is written piecewise (dst_offset). Passes in
// src/graph/ read and rewrite it; encode.cpp turns it into Instruction words.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "mote/isa.hpp"

namespace mote::graph {

inline constexpr uint32_t kNoValue = 0xFFFFFFFFu;

// A value's components as seen by a reader: component i of the view is component swizzle[i]
// of value `id`. A width-1 view broadcast to more lanes repeats swizzle[0].
struct ValueRef {
  uint32_t id = kNoValue;
  uint8_t width = 1;
  std::array<uint8_t, 4> swizzle{0, 1, 2, 3};
  bool operator==(const ValueRef&) const = default;
};

struct IrOperand {
  enum class Kind : uint8_t { kNone, kReg, kImm };
  Kind kind = Kind::kNone;
  uint32_t word = 0;  // kNone: the raw word; kImm: f32 bits
  ValueRef value;     // kReg: what is read (width = the components the opcode reads)
  bool operator==(const IrOperand&) const = default;
};

// Where a raw word still has to be resolved after the passes.
enum class Pending : uint8_t {
  kNone,
  kConst,   // LOAD_CONST: src0 word = index into IrFunction::const_vectors
  kGlobal,  // LOAD_BUILTIN of a global: src0 word = index of the declared global field
};

struct IrInst {
  isa::Op op = isa::Op::NOP;
  uint8_t lanes = 1;
  uint32_t dst = kNoValue;  // the value written (kNoValue for kDstNone)
  uint8_t dst_offset = 0;   // first component of dst written (combine)
  std::array<IrOperand, 3> src{};
  Pending pending = Pending::kNone;
};

struct IrValue {
  uint8_t width = 1;
  // Set for a compile-time constant: it has no defining instruction until materialised.
  std::optional<std::array<float, 4>> constant;
};

// One section's code.
struct IrFunction {
  std::vector<IrValue> values;
  std::vector<IrInst> code;
  // Vector constants LOAD_CONST reads, `width` floats each (interned by const_pool.cpp).
  struct ConstVector {
    std::array<float, 4> v{};
    uint8_t width = 1;
  };
  std::vector<ConstVector> const_vectors;
};

}  // namespace mote::graph
