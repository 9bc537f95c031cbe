// Constant folding: one pure opcode on constant sources, through shaders/shared/vm_semantics.h,
// so a folded value is bit for bit what the reference executor would compute at run time.
#include <bit>

#include "builder.hpp"
#include "shared/vm_semantics.h"

namespace mote::graph {

std::optional<std::array<float, 4>> fold_op(isa::Op op, uint32_t lanes, const std::array<float, 4>& a4,
                                            const std::array<float, 4>& b4, const std::array<float, 4>& c4,
                                            uint32_t raw2) {
  using shader::vec3;
  using shader::vec4;
  namespace s = shader;
  const vec4 a(a4[0], a4[1], a4[2], a4[3]);
  const vec4 b(b4[0], b4[1], b4[2], b4[3]);
  const vec4 c(c4[0], c4[1], c4[2], c4[3]);
  vec4 r(0.0f);
  using isa::Op;
  switch (op) {
    case Op::MOV: r = a; break;
    case Op::ADD: r = s::vm_add(a, b); break;
    case Op::SUB: r = s::vm_sub(a, b); break;
    case Op::MUL: r = s::vm_mul(a, b); break;
    case Op::DIV: r = s::vm_div(a, b); break;
    case Op::FMA: r = s::vm_fma(a, b, c); break;
    case Op::MIN: r = s::vm_min(a, b); break;
    case Op::MAX: r = s::vm_max(a, b); break;
    case Op::CLAMP: r = s::vm_clamp(a, b, c); break;
    case Op::ABS: r = s::vm_abs(a); break;
    case Op::SIGN: r = s::vm_sign(a); break;
    case Op::FLOOR: r = s::vm_floor(a); break;
    case Op::CEIL: r = s::vm_ceil(a); break;
    case Op::FRACT: r = s::vm_fract(a); break;
    case Op::MOD: r = s::vm_mod(a, b); break;
    case Op::SQRT: r = s::vm_sqrt(a); break;
    case Op::RSQRT: r = s::vm_rsqrt(a); break;
    case Op::EXP: r = s::vm_exp(a); break;
    case Op::LOG: r = s::vm_log(a); break;
    case Op::POW: r = s::vm_pow(a, b); break;
    case Op::SIN: r = s::vm_sin(a); break;
    case Op::COS: r = s::vm_cos(a); break;
    case Op::TAN: r = s::vm_tan(a); break;
    case Op::ASIN: r = s::vm_asin(a); break;
    case Op::ACOS: r = s::vm_acos(a); break;
    case Op::ATAN2: r = s::vm_atan2(a, b); break;
    case Op::DOT: r.x = s::vm_dot(a, b); break;
    case Op::CROSS: r = s::vm_cross(a, b); break;
    case Op::LENGTH: r.x = s::vm_length(a); break;
    case Op::NORMALIZE: r = s::vm_normalize(a); break;
    case Op::DISTANCE: r.x = s::vm_distance(a, b); break;
    case Op::MIX: r = s::vm_mix(a, b, c); break;
    case Op::STEP: r = s::vm_step(a, b); break;
    case Op::SMOOTHSTEP: r = s::vm_smoothstep(a, b, c); break;
    case Op::CMP: r = s::vm_cmp(a, b, raw2); break;
    case Op::SELECT: r = s::vm_select(a, b, c); break;
    case Op::AND: r = s::vm_and(a, b); break;
    case Op::OR: r = s::vm_or(a, b); break;
    case Op::NOT: r = s::vm_not(a); break;
    case Op::QMUL: r = s::vm_qmul(a, b); break;
    case Op::QROTATE: r = vec4(s::vm_qrotate(a, vec3(b)), 0.0f); break;
    case Op::QFROM_AXIS_ANGLE: r = s::vm_qfrom_axis_angle(vec3(a), b.x); break;
    case Op::QINTEGRATE: r = s::vm_qintegrate(a, vec3(b), c.x); break;
    case Op::NOISE3: r.x = s::vm_noise3(vec3(a)); break;
    case Op::CURL3: r = vec4(s::vm_curl3(vec3(a)), 0.0f); break;
    default: return std::nullopt;
  }
  const isa::OpInfo& info = isa::op_info(op);
  const uint32_t written = info.dst == isa::DstRule::kDstScalar ? 1u : lanes;
  std::array<float, 4> out{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t k = 0; k < written && k < 4; ++k) out[k] = r[int(k)];
  return out;
}

}  // namespace mote::graph
