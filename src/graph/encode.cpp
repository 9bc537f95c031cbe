// Encoding: IR instructions with allocated slots -> the 4-word instruction format of
// shaders/shared/isa_encoding.h.
#include <fmt/format.h>

#include "builder.hpp"
#include "passes.hpp"
#include "shared/isa_encoding.h"

namespace mote::graph {

Result<std::vector<Instruction>> encode_function(const IrFunction& fn, const Allocation& allocation,
                                                 std::span<const uint32_t> global_import) {
  std::vector<Instruction> out;
  out.reserve(fn.code.size());
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const IrInst& ins = fn.code[i];
    const isa::OpInfo& info = isa::op_info(ins.op);
    Instruction enc;
    uint32_t w0 = uint32_t(ins.op) | (uint32_t(ins.lanes) << 8);
    if (ins.dst != kNoValue) {
      const uint32_t slot = allocation.slot[ins.dst];
      if (slot == kNoValue) return make_error(ErrorCode::kInternal, fmt::format("value {} has no slot", ins.dst), "/");
      w0 |= (slot + ins.dst_offset) << 24;
    }
    for (int s = 0; s < 3; ++s) {
      const IrOperand& o = ins.src[size_t(s)];
      uint32_t word = o.word;
      uint32_t kind = shader::kVmKindNone;
      if (o.kind == IrOperand::Kind::kImm) {
        kind = shader::kVmKindImm;
      } else if (o.kind == IrOperand::Kind::kReg) {
        kind = shader::kVmKindReg;
        const uint32_t base = allocation.slot[o.value.id];
        if (base == kNoValue)
          return make_error(ErrorCode::kInternal, fmt::format("value {} read but never written", o.value.id), "/");
        const uint32_t width = source_width(info, s, ins.lanes);
        uint32_t swizzle = 0;
        for (uint32_t c = 0; c < 4; ++c) swizzle |= uint32_t(c < width ? o.value.swizzle[c] : c) << (2 * c);
        word = base | (swizzle << 8);
      } else if (s == 0 && ins.pending == Pending::kGlobal) {
        const uint32_t declared = word & shader::kVmBuiltinIndexMask;
        if (declared >= global_import.size() || global_import[declared] == kNoValue)
          return make_error(ErrorCode::kInternal, "global field without an import", "/");
        word = (shader::kVmSpaceGlobalImport << shader::kVmBuiltinSpaceShift) | global_import[declared];
      }
      w0 |= kind << (16 + 2 * s);
      enc.words[size_t(1 + s)] = word;
    }
    enc.words[0] = w0;
    out.push_back(enc);
  }
  return out;
}

}  // namespace mote::graph
