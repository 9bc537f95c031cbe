// GLSL 4.60 compute shaders compiled to SPIR-V at run time with glslang, the Khronos reference
// front end (Debian package glslang-dev, linked statically), for the VM's per-program
// kernels. glslang is what libshaderc and glslc wrap; the settings match the build's glslc
// (cmake/MoteShaders.cmake: Vulkan 1.3, SPIR-V 1.6, GLSL 460, warnings are errors). `#include`
// resolves only against the sources embedded at build time (shader_sources.hpp).
//
// Why not libshaderc itself: Debian 12's libshaderc.so.1 (2023.2-1) records no dependency on
// the glslang it calls (glslc carries its own copy), and linked against glslang-dev 12.0.0's
// static libraries it crashes on the first compile (ABI mismatch) — see docs/design/vm.md.
//
// Its own library (mote_glsl_compiler), linked whole: loading it registers one GlslCompiler as
// the process's kernel compiler (kernel_compiler.hpp).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "mote/result.hpp"
#include "vm_gpu/kernels/kernel_compiler.hpp"

namespace mote::vm_kernels {

class GlslCompiler final : public KernelCompiler {
 public:
  GlslCompiler();  // initialises glslang's process state once per process

  // Compiles a compute shader. `name` tags diagnostics. Errors: kParse with the compiler's
  // log (for generated kernels a translation bug: they must always compile). Safe to call from
  // several threads at once.
  Result<std::vector<uint32_t>> compile_compute(std::string_view source, std::string_view name,
                                                const GlslCompileOptions& options = {}) const override;
};

}  // namespace mote::vm_kernels
