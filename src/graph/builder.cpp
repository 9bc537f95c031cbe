// The IR builder: values, folding and common-subexpression elimination at construction time.
#include "builder.hpp"

#include <bit>

#include <fmt/format.h>

namespace mote::graph {

namespace {

// Pure opcodes CSE may share: everything but randomness and the side effects. LOAD_FIELD is
// pure because every read of a section sees the record as the section began (stores are
// emitted last, see lower_nodes.cpp).
bool is_shareable(isa::Op op) {
  switch (op) {
    case isa::Op::RAND:
    case isa::Op::KILL:
    case isa::Op::EMIT_EVENT:
    case isa::Op::STORE_FIELD:
    case isa::Op::NOP: return false;
    default: return true;
  }
}

uint32_t pack_swizzle(const ValueRef& v, uint32_t width) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < 4; ++i) s |= uint32_t(i < width ? v.swizzle[i] : i) << (2 * i);
  return s;
}

}  // namespace

uint32_t source_width(const isa::OpInfo& info, int s, uint32_t lanes) { return isa::source_width(info.src[s], lanes); }

bool IrBuilder::fill_sources(const isa::OpInfo& info, uint8_t lanes, std::initializer_list<Src> srcs, IrInst& ins) {
  int s = 0;
  for (const Src& src : srcs) {
    const uint32_t w = source_width(info, s, lanes);
    if (src.is_raw || w == 0) {
      ins.src[size_t(s)] = IrOperand{IrOperand::Kind::kNone, src.is_raw ? src.word : 0u, {}};
    } else {
      auto o = operand(src.value, w);
      if (!o) return false;
      ins.src[size_t(s)] = *o;
    }
    ++s;
  }
  return true;
}

void IrBuilder::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

uint32_t IrBuilder::new_value(uint8_t width) {
  fn_.values.push_back(IrValue{width, std::nullopt});
  return uint32_t(fn_.values.size() - 1);
}

ValueRef IrBuilder::constant(std::array<float, 4> v, uint8_t width) {
  for (uint32_t i = width; i < 4; ++i) v[i] = 0.0f;
  const uint32_t id = new_value(width);
  fn_.values[id].constant = v;
  return ValueRef{id, width, {0, 1, 2, 3}};
}

ValueRef IrBuilder::component(ValueRef v, int i) { return ValueRef{v.id, 1, {v.swizzle[size_t(i)], 1, 2, 3}}; }

ValueRef IrBuilder::prefix(ValueRef v, uint8_t width) {
  ValueRef r = v;
  r.width = width;
  for (uint32_t i = width; i < 4; ++i) r.swizzle[i] = uint8_t(i);
  return r;
}

std::optional<std::array<float, 4>> IrBuilder::constant_of(ValueRef v) const {
  if (v.id >= fn_.values.size() || !fn_.values[v.id].constant) return std::nullopt;
  const auto& c = *fn_.values[v.id].constant;
  std::array<float, 4> out{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t i = 0; i < v.width; ++i) out[i] = c[v.swizzle[i] & 3u];
  return out;
}

// The operand reading `v` at `width` components: a width-1 view is broadcast; a constant
// becomes an immediate when every component is equal, else a (shared) LOAD_CONST.
std::optional<IrOperand> IrBuilder::operand(ValueRef v, uint32_t width) {
  if (v.id >= fn_.values.size()) {
    fail("operand names no value");
    return std::nullopt;
  }
  ValueRef view = v;
  if (v.width == 1 && width > 1) {
    for (uint32_t i = 1; i < 4; ++i) view.swizzle[i] = i < width ? v.swizzle[0] : uint8_t(i);
  } else if (v.width < width) {
    fail(fmt::format("a width-{} value feeds a width-{} operand", v.width, width));
    return std::nullopt;
  }
  view = prefix(view, uint8_t(width));
  if (auto c = constant_of(view)) {
    bool splat = true;
    for (uint32_t i = 1; i < width; ++i)
      splat = splat && std::bit_cast<uint32_t>((*c)[i]) == std::bit_cast<uint32_t>((*c)[0]);
    if (splat) return IrOperand{IrOperand::Kind::kImm, std::bit_cast<uint32_t>((*c)[0]), {}};
    std::vector<uint32_t> key{width};
    for (uint32_t i = 0; i < width; ++i) key.push_back(std::bit_cast<uint32_t>((*c)[i]));
    auto it = const_loads_.find(key);
    ValueRef loaded;
    if (it != const_loads_.end()) {
      loaded = it->second;
    } else {
      fn_.const_vectors.push_back({*c, uint8_t(width)});
      IrInst ins;
      ins.op = isa::Op::LOAD_CONST;
      ins.lanes = uint8_t(width);
      ins.dst = new_value(uint8_t(width));
      ins.src[0] = IrOperand{IrOperand::Kind::kNone, uint32_t(fn_.const_vectors.size() - 1), {}};
      ins.pending = Pending::kConst;
      fn_.code.push_back(ins);
      loaded = ValueRef{ins.dst, uint8_t(width), {0, 1, 2, 3}};
      const_loads_.emplace(std::move(key), loaded);
    }
    return IrOperand{IrOperand::Kind::kReg, 0, loaded};
  }
  return IrOperand{IrOperand::Kind::kReg, 0, view};
}

ValueRef IrBuilder::op(isa::Op op, uint8_t lanes, std::initializer_list<Src> srcs, Pending pending) {
  const isa::OpInfo& info = isa::op_info(op);
  const uint8_t result_width = info.dst == isa::DstRule::kDstScalar ? 1 : lanes;
  if (lanes < info.lanes_min || lanes > info.lanes_max || srcs.size() > 3) {
    fail(fmt::format("{} at {} lanes", info.mnemonic, lanes));
    return scalar(0.0f);
  }
  // Folding: every value source constant and the opcode pure arithmetic.
  if (fold && srcs.size() > 0 && !srcs.begin()->is_raw) {
    std::array<std::array<float, 4>, 3> k{};
    bool all_constant = true;
    uint32_t raw2 = 0;
    int s = 0;
    for (const Src& src : srcs) {
      const uint32_t w = source_width(info, s, lanes);
      if (src.is_raw) {
        if (s == 2) raw2 = src.word;
      } else if (w > 0) {
        auto c = constant_of(src.value);
        if (!c) {
          all_constant = false;
        } else {
          std::array<float, 4> padded{0.0f, 0.0f, 0.0f, 0.0f};
          for (uint32_t i = 0; i < w; ++i) padded[i] = src.value.width == 1 ? (*c)[0] : (*c)[i];
          k[size_t(s)] = padded;
        }
      }
      ++s;
    }
    if (all_constant) {
      if (auto r = fold_op(op, lanes, k[0], k[1], k[2], raw2)) return constant(*r, result_width);
    }
  }
  IrInst ins;
  ins.op = op;
  ins.lanes = lanes;
  ins.pending = pending;
  if (!fill_sources(info, lanes, srcs, ins)) return scalar(0.0f);
  std::vector<uint32_t> key;
  const bool share = cse && is_shareable(op);
  if (share) {
    key = {uint32_t(op), lanes, uint32_t(pending)};
    for (int i = 0; i < 3; ++i) {
      const IrOperand& o = ins.src[size_t(i)];
      key.push_back(uint32_t(o.kind));
      key.push_back(o.word);
      key.push_back(o.kind == IrOperand::Kind::kReg ? o.value.id : 0u);
      key.push_back(o.kind == IrOperand::Kind::kReg ? pack_swizzle(o.value, source_width(info, i, lanes)) : 0u);
    }
    auto it = cse_table_.find(key);
    if (it != cse_table_.end()) return it->second;
  }
  ins.dst = new_value(result_width);
  fn_.code.push_back(ins);
  const ValueRef result{ins.dst, result_width, {0, 1, 2, 3}};
  if (share) cse_table_.emplace(std::move(key), result);
  return result;
}

void IrBuilder::sink(isa::Op op, uint8_t lanes, std::initializer_list<Src> srcs) {
  const isa::OpInfo& info = isa::op_info(op);
  IrInst ins;
  ins.op = op;
  ins.lanes = lanes;
  if (!fill_sources(info, lanes, srcs, ins)) return;
  fn_.code.push_back(ins);
}

ValueRef IrBuilder::combine(std::span<const ValueRef> components) {
  const uint8_t width = uint8_t(components.size());
  if (width < 1 || width > 4) {
    fail("combine of more than 4 components");
    return scalar(0.0f);
  }
  std::array<float, 4> k{0.0f, 0.0f, 0.0f, 0.0f};
  bool all_constant = true;
  for (uint32_t i = 0; i < width; ++i) {
    auto c = constant_of(components[i]);
    if (c) k[i] = (*c)[0];
    else all_constant = false;
  }
  if (all_constant) return constant(k, width);
  // A run of components that are consecutive components of one value moves in one MOV.
  const uint32_t id = new_value(width);
  uint32_t i = 0;
  while (i < width) {
    uint32_t n = 1;
    const ValueRef& first = components[i];
    if (!constant_of(first)) {
      while (i + n < width && components[i + n].id == first.id && !constant_of(components[i + n]) &&
             components[i + n].swizzle[0] == first.swizzle[0] + n)
        ++n;
    }
    ValueRef run = first;
    run.width = uint8_t(n);
    for (uint32_t j = 0; j < 4; ++j) run.swizzle[j] = uint8_t(j < n ? first.swizzle[0] + j : j);
    auto o = operand(run, n);
    if (!o) return scalar(0.0f);
    IrInst ins;
    ins.op = isa::Op::MOV;
    ins.lanes = uint8_t(n);
    ins.dst = id;
    ins.dst_offset = uint8_t(i);
    ins.src[0] = *o;
    fn_.code.push_back(ins);
    i += n;
  }
  return ValueRef{id, width, {0, 1, 2, 3}};
}

}  // namespace mote::graph
