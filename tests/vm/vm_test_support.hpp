// Small helpers for hand-built VM programs and tolerance checks in the VM tests.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "mote/isa.hpp"
#include "mote/program.hpp"
#include "mote/vm.hpp"
#include "shared/isa_encoding.h"

namespace mote::test {

struct Src {
  uint32_t kind = shader::kVmKindNone;
  uint32_t word = 0;
};

inline uint32_t f2u(float f) { return std::bit_cast<uint32_t>(f); }

// An UPDATE run of `p` over `count` records of `record_words`, every word poisoned with -1.0f so
// a word an executor forgets to write shows.
inline RunInput input_for(const Program& p, uint32_t count, uint32_t record_words) {
  RunInput in;
  in.program = &p;
  in.section = Section::kUpdate;
  in.count = count;
  in.record_words = record_words;
  in.records.assign(size_t(count) * record_words, f2u(-1.0f));
  return in;
}
inline float u2f(uint32_t u) { return std::bit_cast<float>(u); }

// REG source: base slot plus swizzle components (unused ones must stay the identity).
inline Src reg(uint32_t base, std::array<uint32_t, 4> swizzle = {0, 1, 2, 3}) {
  uint32_t w = base;
  for (uint32_t c = 0; c < 4; ++c) w |= swizzle[c] << (8 + 2 * c);
  return {shader::kVmKindReg, w};
}
inline Src imm(float value) { return {shader::kVmKindImm, f2u(value)}; }
inline Src raw(uint32_t word) { return {shader::kVmKindNone, word}; }

inline Instruction make_ins(isa::Op op, uint32_t lanes, uint32_t dst, Src s0 = {}, Src s1 = {}, Src s2 = {}) {
  const uint32_t w0 = uint32_t(op) | (lanes << 8) | (s0.kind << 16) | (s1.kind << 18) | (s2.kind << 20) | (dst << 24);
  return Instruction{{w0, s0.word, s1.word, s2.word}};
}

inline uint32_t builtin_word(uint32_t space, uint32_t index) { return (space << shader::kVmBuiltinSpaceShift) | index; }

// The ISA table's parity rule: |got - ref| <= max(ulp * ulp(ref), abs); NaN matches NaN and
// equal infinities match.
inline bool within_tolerance(float got, float ref, float tol_ulp, float tol_abs) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
  if (std::isinf(ref) || std::isinf(got)) return got == ref;
  const float mag = std::fabs(ref);
  const float ulp = std::nextafter(mag, std::numeric_limits<float>::infinity()) - mag;
  const double diff = std::fabs(double(got) - double(ref));
  return diff <= std::max(double(tol_ulp) * double(ulp), double(tol_abs));
}

// The magnitude an op's rounding error scales with. For most ops it is |result| (the ULP rule
// above). For ops whose result is a sum of products that can cancel — DOT, CROSS, FMA, MIX,
// QMUL, QROTATE, QINTEGRATE, DISTANCE — a result near zero carries the rounding error of its
// large terms (a backward-stable bound), and a GPU that fuses a multiply-add legitimately moves
// it by an ULP of those terms; so the bound uses the size of the terms instead.
inline double op_error_scale(isa::Op op, const float a[4], const float b[4], const float c[4]) {
  auto norm = [](const float v[4]) {
    return std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2] + double(v[3]) * v[3]);
  };
  switch (op) {
    case isa::Op::DOT:
    case isa::Op::CROSS:
    case isa::Op::QMUL: return norm(a) * norm(b);
    case isa::Op::QROTATE: return norm(b) * (1.0 + 2.0 * norm(a) * norm(a));
    case isa::Op::DISTANCE: return norm(a) + norm(b);
    // a - b * floor(a / b) cancels terms of the size of a.
    case isa::Op::MOD: return norm(a) + norm(b);
    // Trigonometry outside [-pi, pi]: Vulkan bounds sin/cos only inside it (2^-11 absolute);
    // GPUs reduce larger arguments approximately, so the error grows with the argument. The
    // bound used here is the table's ULPs of the argument itself.
    case isa::Op::SIN:
    case isa::Op::COS: {
      double m = 0;
      for (int i = 0; i < 4; ++i) m = std::max(m, std::fabs(double(a[i])));
      return m;
    }
    // tan near a pole: an argument error of one ULP moves the result by |x| (1 + tan^2 x) ULPs.
    case isa::Op::TAN: {
      double m = 0;
      for (int i = 0; i < 4; ++i) {
        const double t = std::tan(double(a[i]));
        m = std::max(m, std::fabs(double(a[i])) * (1.0 + t * t));
      }
      return m;
    }
    case isa::Op::QFROM_AXIS_ANGLE: return std::fabs(double(b[0]));
    case isa::Op::QINTEGRATE: return norm(a) * (1.0 + norm(b) * std::fabs(double(c[0])));
    case isa::Op::FMA: {
      double m = 0;
      for (int i = 0; i < 4; ++i) m = std::max(m, std::fabs(double(a[i]) * b[i]) + std::fabs(double(c[i])));
      return m;
    }
    case isa::Op::MIX: {
      double m = 0;
      for (int i = 0; i < 4; ++i)
        m = std::max(m, std::fabs(double(a[i])) +
                            (std::fabs(double(a[i])) + std::fabs(double(b[i]))) * std::fabs(double(c[i])));
      return m;
    }
    default: return 0.0;
  }
}

// The ISA table's parity rule for lane `lane` of one application of `info.op` to sources a, b,
// c: |got - ref| <= max(ulp * ulp(max(|ref|, op_error_scale)), abs). MOD is compared modulo b:
// where a / b lies within the division's error of an integer, floor() may land on either side,
// so 0 and b are the same answer (Vulkan allows 2.5 ULP for the division: x / x need not be 1).
inline bool within_op_tolerance(const isa::OpInfo& info, float got, float ref, const float a[4], const float b[4],
                                const float c[4], uint32_t lane) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
  const double scale = std::max(double(std::fabs(ref)), op_error_scale(info.op, a, b, c));
  const double ulp = std::ldexp(1.0, std::ilogb(std::max(scale, 1e-38)) - 23);
  double tol = std::max(double(info.tolerance_ulp) * ulp, double(info.tolerance_abs));
  // Vulkan's bounds for the exponentials grow with the argument: exp(x) is 3 + 2|x| ULP; pow is
  // exp2(y log2 x), so it adds the exp2 bound at y log2 x and |y| times log2's absolute 2^-21.
  if (info.op == isa::Op::EXP) tol = std::max(tol, (3.0 + 2.0 * std::fabs(double(a[lane]))) * ulp);
  if (info.op == isa::Op::POW && a[lane] > 0.0f) {
    const double e = double(b[lane]) * std::log2(double(a[lane]));
    const double relative = (3.0 + 2.0 * std::fabs(e)) * 0x1p-23 + std::fabs(double(b[lane])) * 0x1p-21;
    tol = std::max(tol, relative * std::fabs(double(ref)));
  }
  // tan within float rounding of a pole: the argument's own rounding moves the result by more
  // than its magnitude, so the result carries no information and an infinity is as right as
  // the reference's huge finite value.
  if (info.op == isa::Op::TAN && std::isfinite(ref) && double(info.tolerance_ulp) * ulp >= std::fabs(double(ref)))
    return true;
  if (std::isinf(ref) || std::isinf(got)) return got == ref;
  const double diff = std::fabs(double(got) - double(ref));
  if (diff <= tol) return true;
  if (info.op == isa::Op::MOD) return std::fabs(diff - std::fabs(double(b[lane]))) <= tol;
  return false;
}

// The values an instruction's sources read from a register file (REG through the swizzle, IMM
// splatted, raw and unused sources as 0), each as wide as its rule says.
inline void read_source_values(const Instruction& ins, const float* regs, float out[3][4]) {
  const isa::OpInfo& info = *isa::op_info(ins.words[0] & 0xFFu);
  const uint32_t lanes = (ins.words[0] >> 8) & 7u;
  for (uint32_t s = 0; s < 3; ++s) {
    const uint32_t width = isa::source_width(info.src[s], lanes);
    const uint32_t kind = (ins.words[0] >> (16 + 2 * s)) & 3u;
    const uint32_t word = ins.words[1 + s];
    for (uint32_t c = 0; c < 4; ++c) {
      float v = 0.0f;
      if (c < width && kind == shader::kVmKindReg) v = regs[(word & 0xFFu) + ((word >> (8 + 2 * c)) & 3u)];
      if (c < width && kind == shader::kVmKindImm) v = std::bit_cast<float>(word);
      out[s][c] = v;
    }
  }
}

}  // namespace mote::test
