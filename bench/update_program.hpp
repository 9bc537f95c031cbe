// The benchmark UPDATE program shared by bench/vm_cpu and bench/vm_gpu: gravity + linear drag
// integration, ageing, size and colour over life, kill at end of life — 25 instructions over a
// record of position(3) velocity(3) age life size color(4), the "typical particle" of the
// VM issue's performance targets.
#pragma once

#include <bit>
#include <cstdint>

#include "mote/isa.hpp"
#include "mote/program.hpp"
#include "shared/isa_encoding.h"

namespace mote::bench {

using mote::Instruction;
using mote::Program;
using mote::isa::Op;
namespace sh = mote::shader;

struct Src {
  uint32_t kind = 0, word = 0;
};
inline Src reg(uint32_t base, uint32_t swz = sh::kVmSwizzleIdentity) { return {sh::kVmKindReg, base | (swz << 8)}; }
// Component x broadcast to `lanes` lanes (the unused components keep the identity, as the
// verifier requires).
inline Src xxxx(uint32_t base, uint32_t lanes) {
  uint32_t swz = 0;
  for (uint32_t c = lanes; c < 4; ++c) swz |= c << (2 * c);
  return reg(base, swz);
}
inline Src imm(float f) { return {sh::kVmKindImm, std::bit_cast<uint32_t>(f)}; }
inline Src raw(uint32_t w) { return {sh::kVmKindNone, w}; }
inline Instruction ins(Op op, uint32_t lanes, uint32_t dst, Src a = {}, Src b = {}, Src c = {}) {
  return Instruction{{uint32_t(op) | (lanes << 8) | (a.kind << 16) | (b.kind << 18) | (c.kind << 20) | (dst << 24),
                      a.word, b.word, c.word}};
}

inline Program make_update_program() {
  Program p;
  p.register_count = 28;
  p.particle_fields = {{"position", 3}, {"velocity", 3}, {"age", 1}, {"life", 1}, {"size", 1}, {"color", 4}};
  // offsets: position 1, velocity 4, age 7, life 8, size 9, color 10
  auto f = [](float x) { return std::bit_cast<uint32_t>(x); };
  p.constants = {f(0.0f), f(-9.81f), f(0.0f), f(0.0f),   // gravity
                 f(1.0f), f(0.9f),   f(0.2f), f(1.0f),   // colour at birth
                 f(0.3f), f(0.1f),   f(0.1f), f(0.0f)};  // colour at death
  p.update = {
      ins(Op::LOAD_FIELD, 3, 0, raw(1)),  // r0 = position
      ins(Op::LOAD_FIELD, 3, 4, raw(4)),  // r4 = velocity
      ins(Op::LOAD_BUILTIN, 1, 7, raw(uint32_t(mote::isa::Builtin::DT))),
      ins(Op::LOAD_FIELD, 1, 8, raw(7)),                   // age
      ins(Op::LOAD_FIELD, 1, 9, raw(8)),                   // life
      ins(Op::LOAD_CONST, 3, 12, raw(0)),                  // gravity
      ins(Op::FMA, 3, 4, reg(12), xxxx(7, 3), reg(4)),     // v += g dt
      ins(Op::FMA, 1, 10, reg(7), imm(-0.5f), imm(1.0f)),  // drag factor 1 - k dt
      ins(Op::MUL, 3, 4, reg(4), xxxx(10, 3)),             // v *= drag
      ins(Op::FMA, 3, 0, reg(4), xxxx(7, 3), reg(0)),      // p += v dt
      ins(Op::ADD, 1, 8, reg(8), reg(7)),                  // age += dt
      ins(Op::DIV, 1, 11, reg(8), reg(9)),                 // t = age / life
      ins(Op::CLAMP, 1, 11, reg(11), imm(0.0f), imm(1.0f)),
      ins(Op::SMOOTHSTEP, 1, 15, imm(0.0f), imm(1.0f), reg(11)),  // size over life
      ins(Op::MIX, 1, 15, imm(0.5f), imm(0.05f), reg(15)),
      ins(Op::LOAD_CONST, 4, 16, raw(4)),
      ins(Op::LOAD_CONST, 4, 20, raw(8)),
      ins(Op::MIX, 4, 16, reg(16), reg(20), xxxx(11, 4)),  // colour over life
      ins(Op::CMP, 1, 24, reg(8), reg(9), raw(sh::kVmCmpGt)),
      ins(Op::KILL, 1, 0, reg(24)),
      ins(Op::STORE_FIELD, 3, 0, raw(1), reg(0)),
      ins(Op::STORE_FIELD, 3, 0, raw(4), reg(4)),
      ins(Op::STORE_FIELD, 1, 0, raw(7), reg(8)),
      ins(Op::STORE_FIELD, 1, 0, raw(9), reg(15)),
      ins(Op::STORE_FIELD, 4, 0, raw(10), reg(16)),
  };
  return p;
}

// Field word offsets of make_update_program()'s layout.
inline constexpr uint32_t kPositionWord = 1, kVelocityWord = 4, kAgeWord = 7, kLifeWord = 8, kSizeWord = 9,
                          kColorWord = 10;

}  // namespace mote::bench
