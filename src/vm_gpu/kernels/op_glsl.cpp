#include "vm_gpu/kernels/op_glsl.hpp"

#include <algorithm>
#include <cstdio>

namespace mote::vm_kernels {
namespace {

using Translation = std::string (*)(const OpSite&);

std::string u(uint32_t value) { return std::to_string(value) + "u"; }
const char kLane[] = "xyzw";

// r's lanes [0, lanes) from `lane(k)`; the rest stay 0.
template <typename Lane>
std::string per_lane(uint32_t lanes, Lane lane) {
  std::string s;
  for (uint32_t k = 0; k < lanes; ++k) s += std::string("r.") + kLane[k] + " = " + lane(k) + "; ";
  return s;
}

// LOAD_CONST reads the pool at translation time: the kernel is compiled per program, so the
// values become literals. Indices clamp to the pool exactly as the interpreter's
// vm_load_constant clamps them (u32 arithmetic, an empty pool reads 0).
std::string load_const(const OpSite& s) {
  return per_lane(s.lanes, [&](uint32_t k) {
    if (s.constants.empty()) return std::string("0.0f");
    const uint32_t index = std::min<uint32_t>(s.words[1] + k, uint32_t(s.constants.size()) - 1);
    return glsl_float_bits(s.constants[index]);
  });
}

// A lane-wise row (form kLane<arity>): the row's scalar function per lane, for the
// instruction's lanes (the rest of r stays 0 and is never written back), as the interpreter's
// VM_RUN_LANEWISE<n> computes it.
std::string lanewise(std::string_view fn, uint32_t arity, const OpSite& s) {
  return per_lane(s.lanes, [&](uint32_t k) {
    std::string call = std::string(fn) + "(";
    for (uint32_t q = 0; q < arity; ++q) call += std::string(q ? ", " : "") + "abc"[q] + "." + kLane[k];
    return call + ")";
  });
}

// A vector row (form kVector): the row's vm_vector_ function over the three sources (zero for
// one the row does not read: the block declares only the row's own); a scalar result is its .x.
std::string vector(const isa::OpInfo& info) {
  std::string call = std::string(info.semantics) + "(";
  for (uint32_t q = 0; q < 3; ++q)
    call += std::string(q ? ", " : "") +
            (info.src[q] == isa::SrcRule::kUnused ? std::string("vec4(0.0f)") : std::string(1, "abc"[q]));
  call += ")";
  return info.dst == isa::DstRule::kDstScalar ? "r.x = " + call + ".x;" : "r = " + call + ";";
}

// ---- The special rows (form kSpecial), one function each, named after its row of
// isa_table.inc: the table below names op_<NAME> for every special row, so one without a
// translation fails to compile right there.
std::string op_NOP(const OpSite&) { return ""; }
// The compare code is src2's raw word, whole (vm_cmp reads codes 0..5; any other is false).
std::string op_CMP(const OpSite& s) { return "r = vm_cmp(a, b, " + u(s.words[3]) + ");"; }
// Record words src0 + k in u32 arithmetic, as the interpreter computes them; the host's
// accessors clamp them to the record.
std::string op_LOAD_FIELD(const OpSite& s) {
  return per_lane(s.lanes, [&](uint32_t k) { return "vm_record_read(" + u(s.words[1] + k) + ")"; });
}
std::string op_STORE_FIELD(const OpSite& s) {
  std::string text;
  for (uint32_t k = 0; k < s.lanes; ++k) text += "vm_record_write(" + u(s.words[1] + k) + ", b." + kLane[k] + "); ";
  return text;
}
std::string op_LOAD_CONST(const OpSite& s) { return load_const(s); }
// The host resolves the builtin id (any id: unknown ones read 0); with the id and lane count
// literal, the driver folds the lookup to the one value.
std::string op_LOAD_BUILTIN(const OpSite& s) {
  return "r = vm_load_builtin(" + u(s.words[1]) + ", " + u(s.lanes) + ");";
}
std::string op_RAND(const OpSite& s) {
  return per_lane(s.lanes, [&](uint32_t k) { return "vm_rand(vm_seed, " + u(s.words[1]) + ", " + u(k) + ")"; });
}
std::string op_SAMPLE_WIND(const OpSite&) { return "r = vec4(vm_sample_wind(vm_wind(), a.xyz), 0.0f);"; }
// The slot is literal (< kVmVectorFields: check_form); the host's fetch reads 0 for any other.
std::string op_SAMPLE_FIELD(const OpSite& s) {
  return "r = vec4(vm_sample_vector_field_slot(" + u(s.words[2]) + ", a.xyz), 0.0f);";
}
std::string op_SAMPLE_DEPTH(const OpSite&) { return "r = vm_sample_depth(a.xyz, b.x);"; }
std::string op_KILL(const OpSite&) { return "vm_killed = vm_killed || a.x != 0.0f;"; }
// The output index is literal (< kVmEventOutputs: check_form); vm_event_add4 ignores any other.
std::string op_EMIT_EVENT(const OpSite& s) {
  return "vm_event_counts = vm_event_add4(vm_event_counts, " + u(s.words[2]) + ", a.x);";
}

// One entry per row, indexed by opcode number (the table lists opcodes densely in number order,
// isa.hpp asserts it): the special rows' functions above; nullptr for the rows translated from
// their form.
constexpr Translation kSpecialTranslations[] = {
#define MOTE_KERNEL_kLane1(NAME) nullptr,
#define MOTE_KERNEL_kLane2(NAME) nullptr,
#define MOTE_KERNEL_kLane3(NAME) nullptr,
#define MOTE_KERNEL_kVector(NAME) nullptr,
#define MOTE_KERNEL_kSpecial(NAME) &op_##NAME,
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) MOTE_KERNEL_##FORM(NAME)
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
#undef MOTE_KERNEL_kLane1
#undef MOTE_KERNEL_kLane2
#undef MOTE_KERNEL_kLane3
#undef MOTE_KERNEL_kVector
#undef MOTE_KERNEL_kSpecial
};
static_assert(std::size(kSpecialTranslations) == isa::kOpCount);

}  // namespace

std::string translate_op(isa::Op op, const OpSite& site) {
  const isa::OpInfo& info = isa::op_info(op);
  switch (info.form) {
    case isa::OpForm::kLane1: return lanewise(info.semantics, 1, site);
    case isa::OpForm::kLane2: return lanewise(info.semantics, 2, site);
    case isa::OpForm::kLane3: return lanewise(info.semantics, 3, site);
    case isa::OpForm::kVector: return vector(info);
    case isa::OpForm::kSpecial: break;
  }
  return kSpecialTranslations[uint32_t(op)](site);
}

std::string glsl_float_bits(uint32_t bits) {
  char text[32];
  std::snprintf(text, sizeof(text), "uintBitsToFloat(0x%08Xu)", bits);
  return text;
}

}  // namespace mote::vm_kernels
