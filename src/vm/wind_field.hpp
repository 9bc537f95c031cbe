// The public wind field (mote/vm.hpp: plain floats) as the shared semantics read it
// (shaders/shared/vm_semantics.h: two vec4s). Both are the same 32-byte std430 block, checked
// member by member here, so the conversion is a bit copy.
#pragma once

#include <bit>
#include <cstddef>

#include "mote/vm.hpp"
#include "shared/vm_semantics.h"

namespace mote::vm_detail {

static_assert(sizeof(VmWindField) == sizeof(shader::VmWindField));
static_assert(offsetof(VmWindField, base_velocity) == offsetof(shader::VmWindField, base_velocity));
static_assert(offsetof(VmWindField, turbulence) == offsetof(shader::VmWindField, turbulence));
static_assert(sizeof(VmWindField::base_velocity) == sizeof(shader::VmWindField::base_velocity));
static_assert(sizeof(VmWindField::turbulence) == sizeof(shader::VmWindField::turbulence));

inline shader::VmWindField to_shader_wind(const VmWindField& wind) { return std::bit_cast<shader::VmWindField>(wind); }

}  // namespace mote::vm_detail

namespace mote::shader {

// SAMPLE_WIND over a RunInput's wind: the executors call s::vm_sample_wind(input.wind, p).
inline vec3 vm_sample_wind(const mote::VmWindField& wind, vec3 p) {
  return vm_sample_wind(vm_detail::to_shader_wind(wind), p);
}

}  // namespace mote::shader
