// mote/wind.hpp: the wind's description checked and evaluated into the VM's field.
#include "mote/wind.hpp"

#include <cmath>
#include <string>

namespace mote {

namespace {

constexpr float kTwoPi = 6.28318530717958647692f;

Status refuse(const char* member, float value, const char* range) {
  return make_error(ErrorCode::kInvalidArgument,
                    std::string("wind ") + member + " is " + std::to_string(value) + ", must be " + range);
}

}  // namespace

Status check_wind(const Wind& wind) {
  for (float v : wind.velocity)
    if (!std::isfinite(v)) return refuse("velocity", v, "finite");
  if (!(wind.gust_strength >= 0.0f && wind.gust_strength <= 1.0f))
    return refuse("gust_strength", wind.gust_strength, "in 0..1");
  if (!(wind.gust_period >= 0.0f) || !std::isfinite(wind.gust_period))
    return refuse("gust_period", wind.gust_period, "a finite number >= 0");
  if (!(wind.turbulence_amplitude >= 0.0f) || !std::isfinite(wind.turbulence_amplitude))
    return refuse("turbulence_amplitude", wind.turbulence_amplitude, "a finite number >= 0");
  if (!(wind.turbulence_frequency > 0.0f) || !std::isfinite(wind.turbulence_frequency))
    return refuse("turbulence_frequency", wind.turbulence_frequency, "a finite number > 0");
  if (!std::isfinite(wind.turbulence_scroll)) return refuse("turbulence_scroll", wind.turbulence_scroll, "finite");
  return {};
}

VmWindField wind_field_at(const Wind& wind, float time) {
  float gust = 1.0f;
  if (wind.gust_period > 0.0f) gust = 1.0f + wind.gust_strength * std::sin(kTwoPi * time / wind.gust_period);
  VmWindField field;
  for (int i = 0; i < 3; ++i) field.base_velocity[size_t(i)] = wind.velocity[size_t(i)] * gust;
  field.turbulence = {wind.turbulence_amplitude, wind.turbulence_frequency, wind.turbulence_scroll, time};
  return field;
}

}  // namespace mote
