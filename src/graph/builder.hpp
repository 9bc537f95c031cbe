// The IR builder the node lowerings call: it allocates values (virtual registers), folds
// pure operations whose inputs are all constants (fold.cpp, the VM's own arithmetic) and
// reuses an earlier identical pure instruction instead of emitting a second one (CSE). Width
// mistakes here are compiler bugs, not user errors (graph_check.cpp has already typed the
// graph): they are recorded and reported once as ErrorCode::kInternal.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir.hpp"

namespace mote::graph {

// A source of an instruction: a value, or a raw word (field offset, builtin id, draw, code).
struct Src {
  Src(ValueRef v) : value(v) {}  // NOLINT: implicit by design
  static Src raw(uint32_t word) {
    Src s(ValueRef{});
    s.is_raw = true;
    s.word = word;
    return s;
  }
  ValueRef value;
  bool is_raw = false;
  uint32_t word = 0;
};

class IrBuilder {
 public:
  explicit IrBuilder(IrFunction& fn) : fn_(fn) {}

  // Switches for the pass unit tests.
  bool fold = true;
  bool cse = true;

  ValueRef constant(std::array<float, 4> v, uint8_t width);
  ValueRef scalar(float x) { return constant({x, 0.0f, 0.0f, 0.0f}, 1); }
  // An instruction with a destination; returns its result (width `lanes`, or 1 for scalar ops).
  ValueRef op(isa::Op op, uint8_t lanes, std::initializer_list<Src> srcs, Pending pending = Pending::kNone);
  // STORE_FIELD / KILL: no destination, never folded or shared.
  void sink(isa::Op op, uint8_t lanes, std::initializer_list<Src> srcs);
  // One value from scalar components (MOVs into consecutive slots).
  ValueRef combine(std::span<const ValueRef> components);
  // Component i of a view, as a width-1 view (no instruction).
  static ValueRef component(ValueRef v, int i);
  // The first `width` components of a view (no instruction).
  static ValueRef prefix(ValueRef v, uint8_t width);
  // The view's components when it is a compile-time constant.
  std::optional<std::array<float, 4>> constant_of(ValueRef v) const;

  const std::string& error() const { return error_; }
  IrFunction& function() { return fn_; }

 private:
  uint32_t new_value(uint8_t width);
  std::optional<IrOperand> operand(ValueRef v, uint32_t width);
  // The instruction's operands from the node's sources (raw words or values); false when a
  // value cannot be read at the width the opcode needs (the builder has failed then).
  bool fill_sources(const isa::OpInfo& info, uint8_t lanes, std::initializer_list<Src> srcs, IrInst& ins);
  void fail(std::string message);

  IrFunction& fn_;
  std::map<std::vector<uint32_t>, ValueRef> cse_table_;
  std::map<std::vector<uint32_t>, ValueRef> const_loads_;
  std::string error_;
};

// Evaluates a pure opcode on constant sources exactly as the reference executor does
// (sources zero-padded past their width). nullopt: not a foldable opcode.
std::optional<std::array<float, 4>> fold_op(isa::Op op, uint32_t lanes, const std::array<float, 4>& a,
                                            const std::array<float, 4>& b, const std::array<float, 4>& c,
                                            uint32_t raw2);

// Width of source s of `op` at `lanes` lanes (0 for raw and unused sources).
uint32_t source_width(const isa::OpInfo& info, int s, uint32_t lanes);

}  // namespace mote::graph
