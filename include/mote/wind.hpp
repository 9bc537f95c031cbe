// The wind SAMPLE_WIND (the `wind` node) reads: a uniform wind whose speed gusts, plus curl-noise
// turbulence scrolling through space (docs/design/wind.md). Described here once, evaluated per
// frame into the VM's VmWindField by wind_field_at; the reference simulation takes it through
// SimulationOptions::wind. All zero is still air.
#pragma once

#include <array>

#include "mote/result.hpp"
#include "mote/vm.hpp"

namespace mote {

struct Wind {
  std::array<float, 3> velocity{};  // m/s, the uniform wind
  // Gusts scale the uniform wind by 1 + gust_strength * sin(2 pi time / gust_period): a strength
  // of 0.5 swings it between half and one and a half times. gust_period 0 = no gusts.
  float gust_strength = 0.0f;  // 0 .. 1
  float gust_period = 0.0f;    // s, >= 0
  // Curl noise of this amplitude (m/s) and spatial frequency (1/m), scrolled along -Z at
  // turbulence_scroll m/s (SAMPLE_WIND's turbulence, docs/design/isa.md).
  float turbulence_amplitude = 0.0f;  // >= 0
  float turbulence_frequency = 1.0f;  // > 0
  float turbulence_scroll = 0.0f;
};

// kInvalidArgument naming the member and its value when a number is not finite or out of its
// range (above).
Status check_wind(const Wind& wind);

// The field SAMPLE_WIND reads at `time` (s). The wind must pass check_wind.
VmWindField wind_field_at(const Wind& wind, float time);

}  // namespace mote
