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

// ---- One function per opcode, named after its row of isa_table.inc.
std::string op_NOP(const OpSite&) { return ""; }
std::string op_MOV(const OpSite&) { return "r = a;"; }
std::string op_ADD(const OpSite&) { return "r = vm_add(a, b);"; }
std::string op_SUB(const OpSite&) { return "r = vm_sub(a, b);"; }
std::string op_MUL(const OpSite&) { return "r = vm_mul(a, b);"; }
std::string op_DIV(const OpSite&) { return "r = vm_div(a, b);"; }
std::string op_FMA(const OpSite&) { return "r = vm_fma(a, b, c);"; }
std::string op_MIN(const OpSite&) { return "r = vm_min(a, b);"; }
std::string op_MAX(const OpSite&) { return "r = vm_max(a, b);"; }
std::string op_CLAMP(const OpSite&) { return "r = vm_clamp(a, b, c);"; }
std::string op_ABS(const OpSite&) { return "r = vm_abs(a);"; }
std::string op_SIGN(const OpSite&) { return "r = vm_sign(a);"; }
std::string op_FLOOR(const OpSite&) { return "r = vm_floor(a);"; }
std::string op_CEIL(const OpSite&) { return "r = vm_ceil(a);"; }
std::string op_FRACT(const OpSite&) { return "r = vm_fract(a);"; }
std::string op_MOD(const OpSite&) { return "r = vm_mod(a, b);"; }
std::string op_SQRT(const OpSite&) { return "r = vm_sqrt(a);"; }
std::string op_RSQRT(const OpSite&) { return "r = vm_rsqrt(a);"; }
std::string op_EXP(const OpSite&) { return "r = vm_exp(a);"; }
std::string op_LOG(const OpSite&) { return "r = vm_log(a);"; }
std::string op_POW(const OpSite&) { return "r = vm_pow(a, b);"; }
std::string op_SIN(const OpSite&) { return "r = vm_sin(a);"; }
std::string op_COS(const OpSite&) { return "r = vm_cos(a);"; }
std::string op_TAN(const OpSite&) { return "r = vm_tan(a);"; }
std::string op_ASIN(const OpSite&) { return "r = vm_asin(a);"; }
std::string op_ACOS(const OpSite&) { return "r = vm_acos(a);"; }
std::string op_ATAN2(const OpSite&) { return "r = vm_atan2(a, b);"; }
std::string op_DOT(const OpSite&) { return "r.x = vm_dot(a, b);"; }
std::string op_CROSS(const OpSite&) { return "r = vm_cross(a, b);"; }
std::string op_LENGTH(const OpSite&) { return "r.x = vm_length(a);"; }
std::string op_NORMALIZE(const OpSite&) { return "r = vm_normalize(a);"; }
std::string op_DISTANCE(const OpSite&) { return "r.x = vm_distance(a, b);"; }
std::string op_MIX(const OpSite&) { return "r = vm_mix(a, b, c);"; }
std::string op_STEP(const OpSite&) { return "r = vm_step(a, b);"; }
std::string op_SMOOTHSTEP(const OpSite&) { return "r = vm_smoothstep(a, b, c);"; }
// The compare code is src2's raw word, whole (vm_cmp reads codes 0..5; any other is false).
std::string op_CMP(const OpSite& s) { return "r = vm_cmp(a, b, " + u(s.words[3]) + ");"; }
std::string op_SELECT(const OpSite&) { return "r = vm_select(a, b, c);"; }
std::string op_AND(const OpSite&) { return "r = vm_and(a, b);"; }
std::string op_OR(const OpSite&) { return "r = vm_or(a, b);"; }
std::string op_NOT(const OpSite&) { return "r = vm_not(a);"; }
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
std::string op_QMUL(const OpSite&) { return "r = vm_qmul(a, b);"; }
std::string op_QROTATE(const OpSite&) { return "r = vec4(vm_qrotate(a, b.xyz), 0.0f);"; }
std::string op_QFROM_AXIS_ANGLE(const OpSite&) { return "r = vm_qfrom_axis_angle(a.xyz, b.x);"; }
std::string op_QINTEGRATE(const OpSite&) { return "r = vm_qintegrate(a, b.xyz, c.x);"; }
std::string op_NOISE3(const OpSite&) { return "r.x = vm_noise3(a.xyz);"; }
std::string op_CURL3(const OpSite&) { return "r = vec4(vm_curl3(a.xyz), 0.0f);"; }
std::string op_SAMPLE_WIND(const OpSite&) { return "r = vec4(vm_sample_wind(vm_wind(), a.xyz), 0.0f);"; }
std::string op_KILL(const OpSite&) { return "vm_killed = vm_killed || a.x != 0.0f;"; }

// Indexed by opcode number: the table lists opcodes densely in number order (isa.hpp asserts
// it), and a row without an op_<NAME> above fails to compile right here.
constexpr Translation kTranslations[] = {
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, TULP, TABS, DOC) &op_##NAME,
#include "isa/isa_table.inc"
#undef MOTE_OP
};
static_assert(std::size(kTranslations) == isa::kOpCount);

}  // namespace

std::string translate_op(isa::Op op, const OpSite& site) { return kTranslations[uint32_t(op)](site); }

std::string glsl_float_bits(uint32_t bits) {
  char text[32];
  std::snprintf(text, sizeof(text), "uintBitsToFloat(0x%08Xu)", bits);
  return text;
}

}  // namespace mote::vm_kernels
