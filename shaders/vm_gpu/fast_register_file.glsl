// The fast interpreter's register file in private memory (shared/vm_fast_operands.h): the
// program's registers, the zero slot, the section's immediates and, where the includer keeps
// it there, the particle's record window: kVmFastFileSlots floats, each named by a slot byte, so
// no operand can reach outside it. It is what shaders/vm_gpu/interpreter.glsl asks of an includer
// that hands it code in the fast operand form (VM_FAST_OPERANDS, defined here). Shared by the
// run-one-program harness (run_program.comp) and the GPU frame's fast build (runtime/frame/vm.glsl);
// each fills the zero slot and the immediates itself before a section runs.
#include "shared/vm_fast_operands.h"
#define VM_FAST_OPERANDS

float vm_fast_registers[kVmFastFileSlots];
float vm_reg_read(uint slot) { return vm_fast_registers[slot & (kVmFastFileSlots - 1u)]; }
// n (1..4) consecutive slots from base, base + n <= kVmFastFileSlots (the interpreter clamps
// base): one address for the run, the lanes at fixed offsets from it.
void vm_reg_write_run(uint base, vec4 v, uint n) {
  vm_fast_registers[base] = v.x;
  if (n > 1u) vm_fast_registers[base + 1u] = v.y;
  if (n > 2u) vm_fast_registers[base + 2u] = v.z;
  if (n > 3u) vm_fast_registers[base + 3u] = v.w;
}
