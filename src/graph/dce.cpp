// Dead-code elimination: a backward sweep from the sinks. A value is needed when a needed
// instruction reads it; every instruction writing a needed value is needed (a combine writes
// its value in pieces).
#include <vector>

#include "passes.hpp"

namespace mote::graph {

uint32_t eliminate_dead_code(IrFunction& fn) {
  std::vector<uint8_t> needed_value(fn.values.size(), 0);
  std::vector<uint8_t> keep(fn.code.size(), 0);
  for (size_t i = fn.code.size(); i-- > 0;) {
    const IrInst& ins = fn.code[i];
    const bool sink = ins.op == isa::Op::STORE_FIELD || ins.op == isa::Op::KILL || ins.op == isa::Op::EMIT_EVENT;
    if (!sink && (ins.dst == kNoValue || !needed_value[ins.dst])) continue;
    keep[i] = 1;
    for (const IrOperand& o : ins.src)
      if (o.kind == IrOperand::Kind::kReg) needed_value[o.value.id] = 1;
  }
  std::vector<IrInst> code;
  for (size_t i = 0; i < fn.code.size(); ++i)
    if (keep[i]) code.push_back(fn.code[i]);
  const uint32_t removed = uint32_t(fn.code.size() - code.size());
  fn.code = std::move(code);
  return removed;
}

}  // namespace mote::graph
