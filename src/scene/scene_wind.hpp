// The scene's wind (the `wind` object of a scene file, docs/design/scene.md): what SAMPLE_WIND
// reads in every effect of the scene (mote::Wind, docs/design/wind.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "mote/result.hpp"
#include "mote/wind.hpp"

namespace mote::scene {

// Strict: every key known, every number finite and in range (check_wind's ranges), errors kParse
// at the member's pointer.
Status read_wind(const nlohmann::json& j, const std::string& where, Wind& wind);

}  // namespace mote::scene
