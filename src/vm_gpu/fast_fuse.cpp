#include "vm_gpu/fast_fuse.hpp"

#include <bit>
#include <optional>
#include <span>
#include <vector>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_fast_operands.h"
#include "shared/vm_limits.h"

namespace mote {
namespace {

using namespace shader;  // the fast form's slots and operand classes

bool is(const FastInstruction& u, isa::Op op) { return u.op == uint32_t(op); }

bool reads_slot(const FastInstruction& u, uint32_t slot) {
  bool found = false;
  for_each_fast_read(u, [&](uint32_t s) { found = found || s == slot; });
  // A field access that the fold left in place reads and writes the record's words, which the
  // interpreter keeps in the window's slots: any window slot, as far as this pass knows.
  return found || ((is(u, isa::Op::LOAD_FIELD) || is(u, isa::Op::STORE_FIELD)) && slot >= kVmFastFirstWindowSlot);
}
bool writes_slot(const FastInstruction& u, uint32_t slot) {
  return (slot >= u.base && slot < u.base + u.written) ||
         (is(u, isa::Op::STORE_FIELD) && slot >= kVmFastFirstWindowSlot);
}
bool touches_slot(const FastInstruction& u, uint32_t slot) { return reads_slot(u, slot) || writes_slot(u, slot); }

class Fuser {
 public:
  explicit Fuser(const FastOperandSection& section) {
    for (size_t i = 0; i + 4 <= section.code.size(); i += 4)
      code_.push_back(decode_fast_instruction(std::span(section.code).subspan(i, 4)));
    immediates_ = section.immediates;
  }

  std::vector<FastInstruction> run() {
    for (size_t k = 0; k < code_.size(); ++k)
      if (is(code_[k], isa::Op::CLAMP) && fuse_saturate(k)) --k;  // code_[k] is the next one now
    for (size_t k = 0; k < code_.size(); ++k)
      if (is(code_[k], isa::Op::KILL) && fuse_compare(k)) --k;
    return code_;
  }

 private:
  // Whether source s reads `bits` in each of the first n lanes (as the interpreter reads the
  // source: a scalar source's lanes past x are 0.0).
  bool source_is(const FastInstruction& u, uint32_t s, uint32_t n, uint32_t bits) const {
    if (u.operand_class[s] != (n == 1 ? kVmOperandScalar : kVmOperandVector)) return false;
    for (uint32_t c = 0; c < n; ++c)
      if (fast_constant_slot_bits(u.slots[s][c], immediates_) != bits) return false;
    return true;
  }
  bool untouched_between(size_t from, size_t to, uint32_t slot) const {
    for (size_t m = from + 1; m < to; ++m)
      if (touches_slot(code_[m], slot)) return false;
    return true;
  }
  bool unwritten_between(size_t from, size_t to, uint32_t slot) const {
    for (size_t m = from + 1; m < to; ++m)
      if (writes_slot(code_[m], slot)) return false;
    return true;
  }
  // Whether register `slot` is read after instruction k before something writes it again
  // (registers end with the section).
  bool read_after(size_t k, uint32_t slot) const {
    for (size_t m = k + 1; m < code_.size(); ++m) {
      if (reads_slot(code_[m], slot)) return true;
      if (writes_slot(code_[m], slot)) return false;
    }
    return false;
  }

  // CLAMP d = r, 0.0, 1.0 at k, r the whole result of one earlier instruction P that nobody else
  // reads: P writes d, saturated.
  bool fuse_saturate(size_t k) {
    const FastInstruction& clamp = code_[k];
    const uint32_t n = clamp.lanes;
    if (clamp.saturate || clamp.written != n || !source_is(clamp, 1, n, 0u) ||
        !source_is(clamp, 2, n, std::bit_cast<uint32_t>(1.0f)))
      return false;
    if (clamp.operand_class[0] != (n == 1 ? kVmOperandScalar : kVmOperandVector)) return false;
    const uint32_t r = clamp.slots[0][0], d = clamp.base;
    if (r + n > kVmFastRegisterSlots) return false;
    for (uint32_t c = 1; c < n; ++c)
      if (clamp.slots[0][c] != r + c) return false;
    if (d != r && d < r + n && r < d + n) return false;  // overlapping runs: not worth the care
    // P: the last instruction before the CLAMP that writes any of r's lanes.
    size_t p = k;
    while (p-- > 0) {
      bool writes = false;
      for (uint32_t c = 0; c < n; ++c) writes = writes || writes_slot(code_[p], r + c);
      if (writes) break;
    }
    if (p == size_t(-1) || p >= k) return false;
    FastInstruction& producer = code_[p];
    if (producer.saturate || producer.base != r || producer.written != n || is(producer, isa::Op::STORE_FIELD))
      return false;
    for (uint32_t c = 0; c < n; ++c) {
      if (!untouched_between(p, k, r + c) || !untouched_between(p, k, d + c)) return false;
      if (d != r && read_after(k, r + c)) return false;
    }
    producer.base = d;
    producer.saturate = true;
    code_.erase(code_.begin() + std::ptrdiff_t(k));
    return true;
  }

  // KILL m (the plain form: m != 0.0) at k, m the result of an earlier CMP that nobody else
  // reads and whose sources do not change in between: the KILL makes the comparison.
  bool fuse_compare(size_t k) {
    const FastInstruction& kill = code_[k];
    if (kill.operand_class[0] != kVmOperandScalar || !source_is(kill, 1, 1, 0u) || kill.word[2] != kVmCmpNe)
      return false;
    const uint32_t m = kill.slots[0][0];
    if (m >= kVmFastRegisterSlots) return false;
    size_t j = k;
    while (j-- > 0)
      if (writes_slot(code_[j], m)) break;
    if (j == size_t(-1)) return false;
    const FastInstruction& cmp = code_[j];
    if (!is(cmp, isa::Op::CMP) || cmp.saturate || cmp.lanes != 1 || cmp.written != 1 || cmp.base != m) return false;
    if (!untouched_between(j, k, m) || read_after(k, m)) return false;
    for (uint32_t s = 0; s < 2; ++s)
      if (cmp.operand_class[s] == kVmOperandScalar && !unwritten_between(j, k, cmp.slots[s][0])) return false;
    FastInstruction fused = kill;
    for (uint32_t s = 0; s < 2; ++s) {
      fused.operand_class[s] = cmp.operand_class[s];
      fused.slots[s] = cmp.slots[s];
      fused.word[s] = cmp.word[s];
    }
    fused.word[2] = cmp.word[2];  // the comparison's code
    code_[k] = fused;
    code_.erase(code_.begin() + std::ptrdiff_t(j));
    return true;
  }

  std::vector<FastInstruction> code_;
  std::vector<uint32_t> immediates_;
};

}  // namespace

FastOperandSection fuse_fast_instructions(const FastOperandSection& section) {
  if (section.code.size() % 4 != 0) return section;
  FastOperandSection out;
  out.immediates = section.immediates;
  for (const FastInstruction& u : Fuser(section).run()) encode_fast_instruction(u, out.code);
  out.registers_to_clear = registers_read_before_written(out.code);
  return out;
}

}  // namespace mote
