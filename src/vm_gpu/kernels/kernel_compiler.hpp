// The point where a GLSL -> SPIR-V compiler joins the runtime. The compiled kernels (the
// gpu-compiled executor, the frame's compiled simulate and emit) translate bytecode to GLSL
// themselves, but compiling that GLSL needs glslang, which a shipped program should not have to
// carry: the runtime library (mote::runtime) holds no compiler, and libraries that do
// (mote_glsl_compiler, inside mote::tools) register theirs here when they are loaded. With none
// registered, a kernel comes from a cooked effect's SPIR-V or the interpreter runs the program
// (docs/design/package.md, "Kernels without glslang").
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "mote/result.hpp"

namespace mote::vm_kernels {

struct GlslCompileOptions {
  // SPIRV-Tools' performance passes (glslc -O). Off by default: every driver optimises the
  // module itself (docs/design/vm.md, "The compiled kernels", has what was measured).
  bool optimize = false;
};

class KernelCompiler {
 public:
  virtual ~KernelCompiler() = default;
  // Compiles a GLSL 4.60 compute shader whose `#include`s name the embedded sources
  // (shader_sources.hpp). `name` tags diagnostics. Errors: kParse with the compiler's log.
  // Must be safe to call from several threads at once.
  virtual Result<std::vector<uint32_t>> compile_compute(std::string_view source, std::string_view name,
                                                        const GlslCompileOptions& options = {}) const = 0;
};

// The compiler this process has, or null when none was linked in. Thread-safe.
const KernelCompiler* kernel_compiler();
// Installs `compiler` (which must live as long as the process; null removes it). Called by a
// compiler library's static initialiser, and by tests that take it away to check the fallbacks.
void register_kernel_compiler(const KernelCompiler* compiler);

}  // namespace mote::vm_kernels
