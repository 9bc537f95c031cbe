#include "vm_gpu/kernels/harness_interface.hpp"

#include <string>

#include "gpu/embedded_shaders.hpp"
#include "gpu/shader_reflection.hpp"

namespace mote::vm_kernels {
namespace {

// The interpreter build the frame binds in the kernel's place.
const char* interpreter_twin(KernelHarness harness) {
  switch (harness) {
    case KernelHarness::kFrameSimulate: return "runtime/frame/simulate";
    case KernelHarness::kFrameEmit: return "runtime/frame/emit";
    case KernelHarness::kRunProgram: break;
  }
  return nullptr;
}

std::string binding_text(const gpu::ReflectedBinding& b) {
  return "set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) + " (type " +
         std::to_string(int(b.type)) + ")";
}

}  // namespace

Status check_harness_interface(KernelHarness harness, std::span<const uint32_t> spirv) {
  const char* twin_name = interpreter_twin(harness);
  if (twin_name == nullptr) return {};
  const gpu::EmbeddedShader* twin = gpu::find_embedded_shader(twin_name);
  if (twin == nullptr) return make_error(ErrorCode::kInternal, std::string("no embedded shader ") + twin_name);
  MOTE_TRY_ASSIGN(const gpu::ShaderReflection expected,
                  gpu::reflect_spirv(std::span<const uint32_t>(twin->words, twin->word_count)));
  MOTE_TRY_ASSIGN(const gpu::ShaderReflection got, gpu::reflect_spirv(spirv));
  const std::string what = std::string("the kernel's interface differs from this build's ") + twin_name + ": ";
  if (got.local_size != expected.local_size) return make_error(ErrorCode::kFormat, what + "workgroup size");
  if (got.push_constant_size != expected.push_constant_size)
    return make_error(ErrorCode::kFormat, what + "push constants of " + std::to_string(got.push_constant_size) +
                                              " bytes, not " + std::to_string(expected.push_constant_size));
  // Both sorted by (set, binding).
  for (size_t i = 0; i < got.bindings.size() || i < expected.bindings.size(); ++i) {
    if (i >= got.bindings.size())
      return make_error(ErrorCode::kFormat, what + "no " + binding_text(expected.bindings[i]));
    if (i >= expected.bindings.size())
      return make_error(ErrorCode::kFormat, what + "an extra " + binding_text(got.bindings[i]));
    const gpu::ReflectedBinding& g = got.bindings[i];
    const gpu::ReflectedBinding& e = expected.bindings[i];
    if (g.set != e.set || g.binding != e.binding || g.type != e.type || g.count != e.count)
      return make_error(ErrorCode::kFormat, what + binding_text(g) + " where it has " + binding_text(e));
  }
  return {};
}

}  // namespace mote::vm_kernels
