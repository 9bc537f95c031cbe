// What a frame kernel must declare to be bound where the frame binds its interpreter build: the
// frame's simulate and emit passes push the same bindings and push constants to the compiled
// kernel of a program as to the interpreter (runtime/frame/simulate_pass.cpp, emit_pass.cpp), so
// a kernel whose interface differs — cooked by another version of Mote, whose harness bound
// other buffers, or words that are no kernel of ours — is refused before a pipeline is made of it
// (docs/design/package.md, "Kernels without glslang").
#pragma once

#include <cstdint>
#include <span>

#include "mote/result.hpp"
#include "vm_gpu/kernels/glsl_translator.hpp"

namespace mote::vm_kernels {

// Ok when `spirv` declares exactly the descriptor bindings (set, binding, type), push constant
// size and workgroup size of `harness`'s interpreter build; a kFormat error naming the first
// difference otherwise. The run_program harness has no interpreter twin to compare with: always ok.
Status check_harness_interface(KernelHarness harness, std::span<const uint32_t> spirv);

}  // namespace mote::vm_kernels
