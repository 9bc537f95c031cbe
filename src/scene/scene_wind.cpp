#include "scene/scene_wind.hpp"

#include <fmt/format.h>

#include "core/json_pointer.hpp"
#include "core/json_reader.hpp"

namespace mote::scene {

using namespace core;  // the strict reader (src/core/json_reader.hpp)

Status read_wind(const nlohmann::json& j, const std::string& where, Wind& wind) {
  MOTE_TRY(check_object(j, where,
                        {"velocity", "gust_strength", "gust_period", "turbulence_amplitude", "turbulence_frequency",
                         "turbulence_scroll"}));
  if (j.contains("velocity")) {
    const std::string w = json_child(where, "velocity");
    if (!j["velocity"].is_array() || j["velocity"].size() != 3) return json_parse_error(w, "expected [x, y, z] in m/s");
    MOTE_TRY_ASSIGN(const std::vector<float> v, read_number_elements(j["velocity"], w, {-1e4, 1e4}));
    for (size_t k = 0; k < 3; ++k) wind.velocity[k] = v[k];
  }
  MOTE_TRY(read_optional_number(j, where, "gust_strength", {0.0, 1.0}, wind.gust_strength));
  MOTE_TRY(read_optional_number(j, where, "gust_period", {0.0, 1e6}, wind.gust_period));
  MOTE_TRY(read_optional_number(j, where, "turbulence_amplitude", {0.0, 1e4}, wind.turbulence_amplitude));
  MOTE_TRY(read_optional_number(j, where, "turbulence_frequency", {0.0, 1e4, true}, wind.turbulence_frequency));
  MOTE_TRY(read_optional_number(j, where, "turbulence_scroll", {-1e4, 1e4}, wind.turbulence_scroll));
  // The ranges above are check_wind's; it stays the one statement of them.
  if (Status checked = check_wind(wind); !checked.ok()) return json_parse_error(where, checked.error().message);
  return {};
}

}  // namespace mote::scene
