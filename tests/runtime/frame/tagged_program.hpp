// Programs that differ only in a tag their UPDATE writes (tests of the frame at scale): each tag
// is a distinct program, so an emitter per tag is a placement and a bucket of its own, and a
// particle's `tag` word says whose UPDATE ran on it last (0 until its first UPDATE). Particles age
// by DT and die when their age reaches the emitter field `life`; the rate is the emitter field
// `rate`, so the reference simulation's counts follow the same rule.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"

namespace mote::test {

inline std::string tagged_program_text(uint32_t tag) {
  return R"(
.registers 16
.particle position 3
.particle age 1
.particle life 1
.particle tag 1
.emitter life 1
.emitter rate 1

.init
  LOAD_BUILTIN r0.xyz, EMITTER_POSITION
  RAND r3.xyz, #0
  ADD r0.xyz, r0.xyz, r3.xyz
  STORE_FIELD @position, r0.xyz
  STORE_FIELD @age, 0.0
  LOAD_BUILTIN r6.x, emitter:life
  STORE_FIELD @life, r6.x
  STORE_FIELD @tag, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r5.x, @age
  ADD r5.x, r5.x, r0.x
  STORE_FIELD @age, r5.x
  STORE_FIELD @tag, )" +
         std::to_string(tag) + R"(.0
  LOAD_FIELD r6.x, @life
  CMP r7.x, r5.x, r6.x, GE
  KILL r7.x
)";
}

// The effect of tag `tag`: `rate` particles a second living `life` seconds.
inline Result<CompiledEffect> tagged_effect(uint32_t tag, float rate, float life) {
  MOTE_TRY_ASSIGN(Program program, assemble(tagged_program_text(tag)));
  CompiledEffect e;
  e.name = "tagged_" + std::to_string(tag);
  e.program = std::move(program);
  e.emitter_defaults = {std::bit_cast<uint32_t>(life), std::bit_cast<uint32_t>(rate)};
  e.emission.rate = rate;
  e.emission.capacity_hint = 1024;
  return e;
}

}  // namespace mote::test
