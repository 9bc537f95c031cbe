// A second test program for the GPU frame's tests, beside spawn_probe_program.hpp's probe: other
// code (so its own placement and its own emit and simulate dispatches), particles that die at a
// random fraction of the emitter field `life`.
#pragma once

namespace mote::test {

inline constexpr const char* kRandomLifeProgram = R"(
.registers 8
.particle age 1
.particle life 1
.emitter life 1
.emitter rate 1

.init
  STORE_FIELD @age, 0.0
  RAND r0.x, #0
  LOAD_BUILTIN r1.x, emitter:life
  MUL r0.x, r0.x, r1.x
  STORE_FIELD @life, r0.x

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
  LOAD_FIELD r2.x, @life
  CMP r3.x, r1.x, r2.x, GE
  KILL r3.x
)";

}  // namespace mote::test
