// Linear-scan register allocation over 32-bit slots. Intervals run from a value's first
// definition to its last read (instruction indices); at each instruction the values it
// defines first take the lowest run of free consecutive slots, and the values it reads for
// the last time are released after it.
#include <algorithm>

#include <fmt/format.h>

#include "passes.hpp"
#include "shared/vm_limits.h"

namespace mote::graph {

Result<Allocation> allocate_registers(const IrFunction& fn) {
  constexpr uint32_t kSlots = shader::kVmMaxRegisters;
  const size_t n = fn.values.size();
  std::vector<int64_t> first_def(n, -1), last_use(n, -1);
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const IrInst& ins = fn.code[i];
    for (const IrOperand& o : ins.src)
      if (o.kind == IrOperand::Kind::kReg) last_use[o.value.id] = int64_t(i);
    if (ins.dst != kNoValue && first_def[ins.dst] < 0) first_def[ins.dst] = int64_t(i);
  }
  Allocation out;
  out.slot.assign(n, kNoValue);
  std::vector<uint8_t> busy(kSlots, 0);
  // Values released after instruction i.
  std::vector<std::vector<uint32_t>> release(fn.code.size());
  for (size_t v = 0; v < n; ++v) {
    if (first_def[v] < 0) continue;
    const int64_t end = last_use[v] < first_def[v] ? first_def[v] : last_use[v];
    release[size_t(end)].push_back(uint32_t(v));
  }
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const IrInst& ins = fn.code[i];
    if (ins.dst != kNoValue && first_def[ins.dst] == int64_t(i)) {
      const uint32_t w = fn.values[ins.dst].width;
      uint32_t base = 0;
      for (; base + w <= kSlots; ++base) {
        bool free = true;
        for (uint32_t k = 0; k < w && free; ++k) free = !busy[base + k];
        if (free) break;
      }
      if (base + w > kSlots)
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("the graph needs more than {} live register slots", kSlots), "/");
      for (uint32_t k = 0; k < w; ++k) busy[base + k] = 1;
      out.slot[ins.dst] = base;
      out.register_count = std::max(out.register_count, base + w);
    }
    for (uint32_t v : release[i])
      for (uint32_t k = 0; k < fn.values[v].width; ++k) busy[out.slot[v] + k] = 0;
  }
  return out;
}

}  // namespace mote::graph
