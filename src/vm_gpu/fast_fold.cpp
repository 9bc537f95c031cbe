#include "vm_gpu/fast_fold.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cmath>
#include <numeric>
#include <optional>
#include <vector>

#include "isa/evaluate.hpp"
#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_fast_operands.h"
#include "shared/vm_limits.h"
#include "shared/vm_semantics.h"

namespace mote {
namespace {

using shader::kVmFastRegisterSlots;
using shader::kVmFastZeroSlot;
using shader::kVmOperandNone;
using shader::kVmOperandScalar;
using shader::kVmOperandVector;

constexpr uint32_t kLoadField = uint32_t(isa::Op::LOAD_FIELD);
constexpr uint32_t kStoreField = uint32_t(isa::Op::STORE_FIELD);
constexpr uint32_t kLoadConst = uint32_t(isa::Op::LOAD_CONST);
constexpr uint32_t kLoadBuiltin = uint32_t(isa::Op::LOAD_BUILTIN);
constexpr uint32_t kKill = uint32_t(isa::Op::KILL);
constexpr uint32_t kEmitEvent = uint32_t(isa::Op::EMIT_EVENT);
constexpr uint32_t kMov = uint32_t(isa::Op::MOV);

// Every row the table calls gpu_exact is one the host can evaluate.
constexpr bool gpu_exact_rows_evaluate() {
  for (const isa::OpInfo& op : isa::all_ops())
    if (op.gpu_exact && !isa::evaluates(op)) return false;
  return true;
}
static_assert(gpu_exact_rows_evaluate(), "a gpu_exact row of isa_table.inc that isa::evaluate_pure does not compute");

class Folder {
 public:
  Folder(const FastOperandSection& section, const FastFoldContext& context)
      : context_(context), record_words_(std::max(context.record_words, 1u)) {
    const size_t n = section.code.size() / 4;
    in_.reserve(n);
    for (size_t i = 0; i < n; ++i) in_.push_back(decode_fast_instruction(std::span(section.code).subspan(4 * i, 4)));
    immediates_ = section.immediates;
    // live_after_[i]: the registers some instruction after i reads before writing them again.
    live_after_.resize(n);
    std::bitset<64> live;
    for (size_t i = n; i-- > 0;) {
      live_after_[i] = live;
      for (uint32_t c = 0; c < in_[i].written; ++c)
        if (in_[i].base + c < kVmFastRegisterSlots) live.reset(in_[i].base + c);
      for_each_fast_read(in_[i], [&](uint32_t slot) {
        if (slot < kVmFastRegisterSlots) live.set(slot);
      });
    }
    std::iota(location_.begin(), location_.end(), 0u);
    last_access_.fill(-1);
    last_writer_.fill(-1);
  }

  FastOperandSection run() {
    for (size_t i = 0; i < in_.size(); ++i) step(i);
    FastOperandSection out;
    out.immediates = immediates_;
    for (const FastInstruction& u : without_dead_code()) encode_fast_instruction(u, out.code);
    out.registers_to_clear = registers_read_before_written(out.code);
    return out;
  }

 private:
  // The file slot of lane c of a field access with raw word `raw`: the word computed as the
  // interpreter computes it (a 32-bit sum, clamped to the record), when the window holds it.
  std::optional<uint32_t> window_slot(uint32_t raw, uint32_t c) const {
    const uint32_t word = std::min(raw + c, record_words_ - 1u);
    const uint32_t rel = word - context_.window.first_chunk * 4u;
    if (context_.window.chunks == 0 || rel >= context_.window.chunks * 4u) return std::nullopt;
    return shader::kVmFastFirstWindowSlot + rel;
  }
  // Every lane's window slot of a field access, when the window holds all of them.
  bool window_slots(const FastInstruction& u, std::array<uint32_t, 4>& slots) const {
    for (uint32_t c = 0; c < u.lanes; ++c) {
      const std::optional<uint32_t> slot = window_slot(u.word[0], c);
      if (!slot) return false;
      slots[c] = *slot;
    }
    return true;
  }

  void record_accesses(const FastInstruction& u, int64_t at) {
    for_each_fast_read(u, [&](uint32_t slot) { last_access_[slot] = at; });
    for (uint32_t c = 0; c < u.written; ++c) {
      last_access_[u.base + c] = at;
      last_writer_[u.base + c] = at;
    }
    if (u.op == kLoadField || u.op == kStoreField) {
      for (uint32_t c = 0; c < u.lanes; ++c) {
        if (std::optional<uint32_t> slot = window_slot(u.word[0], c)) {
          last_access_[*slot] = at;
          if (u.op == kStoreField) last_writer_[*slot] = at;
        }
      }
    }
  }
  void emit(const FastInstruction& u) {
    emitted_.push_back(u);
    record_accesses(u, int64_t(emitted_.size()) - 1);
  }

  // Registers that still stand for window slot `slot` and are read after instruction i get the
  // value for real, before instruction i overwrites the slot.
  void materialize(uint32_t slot, size_t i) {
    for (uint32_t x = 0; x < kVmFastRegisterSlots; ++x) {
      if (location_[x] != slot || !live_after_[i][x]) continue;
      FastInstruction mov;
      mov.op = kMov;
      mov.lanes = 1;
      mov.written = 1;
      mov.base = x;
      mov.operand_class = {kVmOperandScalar, kVmOperandNone, kVmOperandNone};
      mov.slots[0] = {slot, kVmFastZeroSlot, kVmFastZeroSlot, kVmFastZeroSlot};
      emit(mov);
      location_[x] = x;
    }
  }

  // The slot of an immediate bit pattern (+0.0 is the zero slot), adding it while there is room.
  std::optional<uint32_t> immediate_slot(uint32_t bits) {
    if (bits == 0) return kVmFastZeroSlot;
    auto found = std::find(immediates_.begin(), immediates_.end(), bits);
    if (found == immediates_.end()) {
      if (immediates_.size() >= shader::kVmFastMaxImmediates) return std::nullopt;
      immediates_.push_back(bits);
      found = immediates_.end() - 1;
    }
    return shader::kVmFastFirstImmediateSlot + uint32_t(found - immediates_.begin());
  }

  // LOAD_CONST: lane c is constant word[0] + c (a 32-bit sum, clamped to the pool; 0.0 with no
  // pool).
  std::array<uint32_t, 4> constant_values(const FastInstruction& u) const {
    std::array<uint32_t, 4> values{};
    const std::span<const uint32_t> pool = context_.constants;
    for (uint32_t c = 0; c < 4; ++c)
      values[c] = pool.empty() ? 0u : pool[std::min<size_t>(uint32_t(u.word[0] + c), pool.size() - 1)];
    return values;
  }
  // The f32 bits slot `slot` holds for the whole run: the zero slot's or an immediate's that the
  // reader does not fill at run time.
  std::optional<uint32_t> constant_bits(uint32_t slot) const {
    const std::optional<uint32_t> bits = fast_constant_slot_bits(slot, immediates_);
    const std::vector<uint32_t>& filled = context_.runtime_immediates;
    if (bits && std::find(filled.begin(), filled.end(), *bits) != filled.end()) return std::nullopt;
    return bits;
  }
  // The result of `u` (lane c, for the lanes it writes) when every source is a constant and the
  // opcode is one the GPU computes exactly (the ISA table's gpu_exact column), as the interpreter
  // computes it: the table's own evaluation of the row (isa/evaluate.hpp, the same shared
  // functions), lanes past x of a scalar source reading 0.0.
  std::optional<std::array<uint32_t, 4>> constant_result(const FastInstruction& u) const {
    using namespace shader;
    const isa::OpInfo* info = isa::op_info(u.op);
    if (info == nullptr || !info->gpu_exact) return std::nullopt;
    const isa::Op op = info->op;
    if (u.saturate || u.written == 0 || u.written > 4) return std::nullopt;
    const bool orders_zeros = op == isa::Op::MIN || op == isa::Op::MAX || op == isa::Op::CLAMP;
    // A float the GPU may treat differently from the host: NaN, subnormal, and -0.0 where the
    // opcode orders values.
    auto unsafe = [&](float x) {
      return std::isnan(x) || std::fpclassify(x) == FP_SUBNORMAL || (orders_zeros && x == 0.0f && std::signbit(x));
    };
    std::array<vec4, 3> in{vec4(0.0f), vec4(0.0f), vec4(0.0f)};
    for (uint32_t s = 0; s < 3; ++s) {
      const uint32_t cls = u.operand_class[s];
      if (cls == kVmOperandNone) continue;
      for (uint32_t c = 0; c < (cls == kVmOperandScalar ? 1u : 4u); ++c) {
        const std::optional<uint32_t> bits = constant_bits(u.slots[s][c]);
        if (!bits) return std::nullopt;
        in[s][int(c)] = std::bit_cast<float>(*bits);
        if (c < u.written && unsafe(in[s][int(c)])) return std::nullopt;
      }
    }
    // FMA only where a * b is exact in f32 (a float product is exact in double): then a GPU that
    // fuses and one that does not round the same sum (vm_fma's own caveat).
    if (op == isa::Op::FMA) {
      for (uint32_t c = 0; c < u.written; ++c) {
        const double product = double(in[0][int(c)]) * double(in[1][int(c)]);
        const float rounded = float(product);
        if (double(rounded) != product || unsafe(rounded)) return std::nullopt;
      }
    }
    const std::optional<vec4> r = isa::evaluate_pure(op, in[0], in[1], in[2], u.word[2]);
    if (!r) return std::nullopt;
    std::array<uint32_t, 4> out{};
    for (uint32_t c = 0; c < u.written; ++c) {
      if (unsafe((*r)[int(c)])) return std::nullopt;
      out[c] = std::bit_cast<uint32_t>((*r)[int(c)]);
    }
    return out;
  }

  // The load's registers stand for `values` (lane c, for the lanes it writes) when every value
  // gets a slot.
  bool fold_values(const FastInstruction& u, const std::array<uint32_t, 4>& values) {
    std::array<uint32_t, 4> slots{};
    const std::vector<uint32_t> before = immediates_;
    for (uint32_t c = 0; c < u.written; ++c) {
      const uint32_t bits = c < u.lanes ? values[c] : 0u;
      const std::optional<uint32_t> slot = immediate_slot(bits);
      if (!slot) {
        immediates_ = before;  // no room: the instruction stays, and so does the file
        return false;
      }
      slots[c] = *slot;
    }
    for (uint32_t c = 0; c < u.written; ++c) location_[u.base + c] = slots[c];
    return true;
  }

  // STORE_FIELD of registers d..d+lanes-1, all written by one earlier instruction I as its whole
  // run: I writes the window slots instead, when nothing between I and the store reads or writes
  // them and no register that stands for their old values is still to be read.
  bool fold_field_store(const FastInstruction& u, const std::array<uint32_t, 4>& window, size_t i) {
    const uint32_t lanes = u.lanes;
    const uint32_t value_class = u.operand_class[1];
    if (!(value_class == kVmOperandVector || (value_class == kVmOperandScalar && lanes == 1))) return false;
    const uint32_t d = u.slots[1][0];
    if (d + lanes > kVmFastRegisterSlots) return false;
    const int64_t producer = last_writer_[d];
    if (producer < 0 || emitted_[producer].base != d || emitted_[producer].written != lanes) return false;
    for (uint32_t c = 0; c < lanes; ++c) {
      if (window[c] != window[0] + c || u.slots[1][c] != d + c || last_writer_[d + c] != producer ||
          last_access_[window[c]] > producer)
        return false;
      for (uint32_t x = 0; x < kVmFastRegisterSlots; ++x)
        if (location_[x] == window[c] && live_after_[i][x]) return false;
    }
    emitted_[producer].base = window[0];
    for (size_t j = size_t(producer) + 1; j < emitted_.size(); ++j) {
      for_each_fast_read(emitted_[j], [&](uint32_t& slot) {
        if (slot >= d && slot < d + lanes) {
          slot = window[slot - d];
          last_access_[slot] = int64_t(j);
        }
      });
    }
    for (uint32_t c = 0; c < lanes; ++c) {
      last_writer_[window[c]] = producer;
      last_access_[window[c]] = std::max(last_access_[window[c]], producer);
      last_writer_[d + c] = -1;
      location_[d + c] = window[c];
    }
    return true;
  }

  void step(size_t i) {
    FastInstruction u = in_[i];
    // Sources name wherever each register's value is now.
    for_each_fast_read(u, [&](uint32_t& slot) {
      if (slot < kVmFastRegisterSlots) slot = location_[slot];
    });
    std::array<uint32_t, 4> window{};
    if (u.op == kLoadField && window_slots(u, window)) {
      for (uint32_t c = 0; c < u.written; ++c) location_[u.base + c] = window[c];
      return;
    }
    if (u.op == kLoadConst && fold_values(u, constant_values(u))) return;
    if (std::optional<std::array<uint32_t, 4>> values = constant_result(u); values && fold_values(u, *values)) return;
    if (u.op == kLoadBuiltin && context_.uniform_builtin) {
      if (std::optional<std::array<uint32_t, 4>> values = context_.uniform_builtin(u.word[0]);
          values && fold_values(u, *values))
        return;
    }
    if (u.op == kStoreField) {
      if (window_slots(u, window) && fold_field_store(u, window, i)) return;
      for (uint32_t c = 0; c < u.lanes; ++c)
        if (std::optional<uint32_t> slot = window_slot(u.word[0], c)) materialize(*slot, i);
    }
    emit(u);
    for (uint32_t c = 0; c < u.written; ++c) location_[u.base + c] = u.base + c;
  }

  // Drops every instruction without an effect (a field store, a kill, an event, a write to the window)
  // whose registers are not read before being written again (registers end with the section).
  std::vector<FastInstruction> without_dead_code() const {
    std::vector<bool> keep(emitted_.size(), false);
    std::bitset<64> live;
    for (size_t j = emitted_.size(); j-- > 0;) {
      const FastInstruction& u = emitted_[j];
      bool needed = u.op == kStoreField || u.op == kKill || u.op == kEmitEvent;
      for (uint32_t c = 0; c < u.written; ++c)
        needed = needed || u.base + c >= kVmFastRegisterSlots || live[u.base + c];
      if (!needed) continue;
      keep[j] = true;
      for (uint32_t c = 0; c < u.written; ++c)
        if (u.base + c < kVmFastRegisterSlots) live.reset(u.base + c);
      for_each_fast_read(u, [&](uint32_t slot) {
        if (slot < kVmFastRegisterSlots) live.set(slot);
      });
    }
    std::vector<FastInstruction> kept;
    for (size_t j = 0; j < emitted_.size(); ++j)
      if (keep[j]) kept.push_back(emitted_[j]);
    return kept;
  }

  const FastFoldContext& context_;
  const uint32_t record_words_;
  std::vector<FastInstruction> in_;
  std::vector<std::bitset<64>> live_after_;
  std::vector<uint32_t> immediates_;
  std::array<uint32_t, 64> location_{};  // where register r's value is: r itself, a window slot or an immediate slot
  std::vector<FastInstruction> emitted_;
  std::array<int64_t, 256> last_access_{};  // the last emitted instruction that read or wrote the slot
  std::array<int64_t, 256> last_writer_{};  // the last emitted instruction that wrote it
};

}  // namespace

namespace {

// Whether `section` keeps the rules fast_operand_section writes by, which the pass relies on
// for its tables: lanes 1..4, at most 4 slots written, all of them registers, classes none,
// scalar or vector, at most kVmFastMaxImmediates immediates, whole instructions.
bool is_fast_form(const FastOperandSection& section) {
  if (section.code.size() % 4 != 0 || section.immediates.size() > shader::kVmFastMaxImmediates) return false;
  for (size_t i = 0; i < section.code.size(); i += 4) {
    const FastInstruction u = decode_fast_instruction(std::span(section.code).subspan(i, 4));
    if (u.lanes < 1 || u.lanes > 4 || u.written > 4 || u.base + u.written > kVmFastRegisterSlots) return false;
    for (uint32_t c : u.operand_class)
      if (c > kVmOperandVector) return false;
  }
  return true;
}

}  // namespace

FastOperandSection fold_fast_moves(const FastOperandSection& section, const FastFoldContext& context) {
  if (!is_fast_form(section)) return section;  // not ours to rewrite: it runs as it is
  return Folder(section, context).run();
}

}  // namespace mote
