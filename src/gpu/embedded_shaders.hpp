// SPIR-V compiled at build time and linked into the library (cmake/MoteShaders.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace mote::gpu {

struct EmbeddedShader {
  const char* name;  // e.g. "vm_gpu/interpret_fast"
  const uint32_t* words;
  size_t word_count;
};

std::span<const EmbeddedShader> embedded_shaders();
// nullptr when no shader of that name was built.
const EmbeddedShader* find_embedded_shader(std::string_view name);

}  // namespace mote::gpu
