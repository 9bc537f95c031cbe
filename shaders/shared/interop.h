// Included by both C++ and GLSL 4.60: lets one header declare constants, structs and pure
// functions for both languages (the WickedEngine ShaderInterop.h habit). Rules for shared
// structs: std430, 4-byte scalars, vec2/vec4/mat4 only (no vec3, no bool), named padding, and a
// static_assert on every size and offset (MOTE_ASSERT_LAYOUT), checked against the SPIR-V too.
#ifndef MOTE_SHADERS_SHARED_INTEROP_H
#define MOTE_SHADERS_SHARED_INTEROP_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
namespace mote::shader {
using uint = uint32_t;
using uvec2 = glm::uvec2;
using uvec4 = glm::uvec4;
using ivec4 = glm::ivec4;
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using vec4 = glm::vec4;
using mat4 = glm::mat4;
}  // namespace mote::shader
#define MOTE_CONSTANT(type, name, value) inline constexpr type name = value
#define MOTE_ASSERT_SIZE(type, bytes) static_assert(sizeof(type) == (bytes), #type " size drifted")
#define MOTE_ASSERT_OFFSET(type, member, bytes) \
  static_assert(offsetof(type, member) == (bytes), #type "::" #member " offset drifted")
#define MOTE_SHARED_BEGIN namespace mote::shader {
#define MOTE_SHARED_END }
#else
#define MOTE_CONSTANT(type, name, value) const type name = value
#define MOTE_ASSERT_SIZE(type, bytes)
#define MOTE_ASSERT_OFFSET(type, member, bytes)
#define MOTE_SHARED_BEGIN
#define MOTE_SHARED_END
#endif

#endif
