#include "vm_gpu/fast_reads.hpp"

#include <algorithm>

#include "shared/vm_fast_operands.h"

namespace mote {
namespace {

using shader::kVmFastFirstImmediateSlot;
using shader::kVmFastZeroSlot;
using shader::kVmOperandConstant;
using shader::kVmOperandScalar;
using shader::kVmOperandVector;

class ConstantReads {
 public:
  ConstantReads(const FastOperandSection& in, std::span<const uint32_t> runtime) : in_(in), runtime_(runtime) {}

  FastOperandSection run() {
    std::vector<FastInstruction> code;
    for (size_t i = 0; i + 4 <= in_.code.size(); i += 4) {
      FastInstruction u = decode_fast_instruction(std::span(in_.code).subspan(i, 4));
      for (uint32_t s = 0; s < 3; ++s) make_constant(u, s);
      code.push_back(u);
    }
    FastOperandSection out = in_;
    out.constant_vectors = constants_;
    out.immediates = renumber_immediates(code);
    out.code.clear();
    for (const FastInstruction& u : code) encode_fast_instruction(u, out.code);
    return out;
  }

 private:
  std::optional<uint32_t> constant_bits(uint32_t slot) const {
    const std::optional<uint32_t> bits = fast_constant_slot_bits(slot, in_.immediates);
    if (bits && slot != kVmFastZeroSlot && std::find(runtime_.begin(), runtime_.end(), *bits) != runtime_.end())
      return std::nullopt;
    return bits;
  }

  void make_constant(FastInstruction& u, uint32_t s) {
    const uint32_t cls = u.operand_class[s];
    if (cls != kVmOperandScalar && cls != kVmOperandVector) return;
    std::array<uint32_t, 4> vector{};  // lanes a scalar source does not read are zero, as the interpreter's
    const uint32_t components = cls == kVmOperandScalar ? 1u : 4u;
    for (uint32_t c = 0; c < components; ++c) {
      const std::optional<uint32_t> bits = constant_bits(u.slots[s][c]);
      if (!bits) return;
      vector[c] = *bits;
    }
    auto found = std::find(constants_.begin(), constants_.end(), vector);
    if (found == constants_.end()) {
      if (constants_.size() >= shader::kVmFastMaxConstantVectors) return;
      found = constants_.insert(constants_.end(), vector);
    }
    u.operand_class[s] = kVmOperandConstant;
    u.word[s] = uint32_t(found - constants_.begin());
    u.slots[s] = {};
  }

  // Drops the immediates nobody reads and renumbers the rest in their order.
  std::vector<uint32_t> renumber_immediates(std::vector<FastInstruction>& code) const {
    const uint32_t count = uint32_t(in_.immediates.size());
    std::vector<bool> read(count, false);
    auto immediate = [&](uint32_t slot) -> std::optional<uint32_t> {
      if (slot < kVmFastFirstImmediateSlot || slot - kVmFastFirstImmediateSlot >= count) return std::nullopt;
      return slot - kVmFastFirstImmediateSlot;
    };
    for (const FastInstruction& u : code)
      for_each_fast_read(u, [&](uint32_t slot) {
        if (auto i = immediate(slot)) read[*i] = true;
      });
    std::vector<uint32_t> kept, renamed(count, 0);
    for (uint32_t i = 0; i < count; ++i)
      if (read[i]) {
        renamed[i] = uint32_t(kept.size());
        kept.push_back(in_.immediates[i]);
      }
    for (FastInstruction& u : code)
      for_each_fast_read(u, [&](uint32_t& slot) {
        if (auto i = immediate(slot)) slot = kVmFastFirstImmediateSlot + renamed[*i];
      });
    return kept;
  }

  const FastOperandSection& in_;
  std::span<const uint32_t> runtime_;
  std::vector<std::array<uint32_t, 4>> constants_;
};

}  // namespace

FastOperandSection read_constants_as_constants(const FastOperandSection& section,
                                               std::span<const uint32_t> runtime_immediates) {
  return ConstantReads(section, runtime_immediates).run();
}

}  // namespace mote
