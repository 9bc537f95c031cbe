// A probe program shared by the reference simulation's tests and the GPU frame's tests, so both
// hold the same semantics to the same program: particles start at the emitter with a random
// offset, jitter from the slot's random stream, age by DT and die when their age reaches `life`
// (an emitter field); INIT records its spawn builtins (SPAWN_INDEX, SPAWN_COUNT, PARTICLE_INDEX,
// SPAWN_FRACTION) in the `spawn` field.
#pragma once

namespace mote::test {

inline constexpr const char* kProgram = R"(
.registers 16
.particle position 3
.particle age 1
.particle life 1
.particle spawn 4
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
  LOAD_BUILTIN r7.x, SPAWN_INDEX
  LOAD_BUILTIN r8.x, SPAWN_COUNT
  LOAD_BUILTIN r9.x, PARTICLE_INDEX
  LOAD_BUILTIN r10.x, SPAWN_FRACTION
  STORE_FIELD @spawn, r7.xyzw

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.xyz, @position
  RAND r11.x, #1
  MUL r11.x, r11.x, 0.001
  MOV r12.x, r0.x
  MOV r13.x, 0.0
  ADD r1.xyz, r1.xyz, r11.xyz
  STORE_FIELD @position, r1.xyz
  LOAD_FIELD r5.x, @age
  ADD r5.x, r5.x, r0.x
  STORE_FIELD @age, r5.x
  LOAD_FIELD r6.x, @life
  CMP r7.x, r5.x, r6.x, GE
  KILL r7.x
)";

}  // namespace mote::test
