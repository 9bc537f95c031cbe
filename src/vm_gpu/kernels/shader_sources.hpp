// The GLSL the VM's run-time compiler builds kernels from, embedded as text at build time
// (cmake/MoteEmbedText.cmake; the list is in src/vm_gpu/kernels/CMakeLists.txt): the kernels' harness
// (shaders/vm_gpu/run_compiled.comp) and every header it includes (shaders/shared/*.h,
// shaders/vm_gpu/harness_builtins.glsl, the generated generated/vm_isa.glsl). `#include` resolves
// from here, never from the file system, so a kernel compiled at run time uses exactly the
// semantics the interpreters and CPU executors of the same build were compiled with.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace mote::vm_kernels {

// The text of an embedded source by its include name ("shared/vm_semantics.h",
// "vm_gpu/run_compiled.comp"); nullopt when it was not embedded. The view points at static storage.
std::optional<std::string_view> find_shader_source(std::string_view include_name);
// Every embedded source's include name.
std::vector<std::string_view> shader_source_names();

}  // namespace mote::vm_kernels
