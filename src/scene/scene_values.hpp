// The scene reader's numbers, vectors, rotations and scales (src/scene/scene_loader.cpp reads the
// sections with them): the bounds it holds every value to, and the readers of the shapes that
// recur across the sections. Errors are kParse with the JSON pointer (core/json_reader.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "mote/result.hpp"

namespace mote::scene::detail {

using core::NumberRange;

// Bounds the header leaves open. They keep every value a finite float with room to compute
// with, and reject what can only be a typo (a camera 10,000 km away).
inline constexpr double kMaxCoordinate = 1e6;  // metres, for positions, centres and offsets
inline constexpr double kMaxRadiance = 1e6;    // colour components other than the albedo
inline constexpr double kMaxIntensity = 1e9;   // light and ambient intensities
inline constexpr double kMaxScale = 1e6;       // scale components
inline constexpr double kMaxSeconds = 1e6;     // key times, start times
inline constexpr double kMaxDegrees = 1e6;     // angles and angular rates in degrees
inline constexpr double kZeroLength = 1e-6;    // a direction, axis or quaternion shorter than this is zero

inline constexpr NumberRange kAny{-kMaxCoordinate, kMaxCoordinate};
inline constexpr NumberRange kNonNegative{0.0, kMaxCoordinate};
inline constexpr NumberRange kPositive{0.0, kMaxCoordinate, true};
inline constexpr NumberRange kUnit{0.0, 1.0};
inline constexpr NumberRange kRadiance{0.0, kMaxRadiance};
inline constexpr NumberRange kIntensity{0.0, kMaxIntensity};

// An array of 3 numbers, each in `r`.
Result<glm::vec3> read_vec3(const nlohmann::json& j, const std::string& where, NumberRange r);
// The optional member `key` as read_vec3 reads it, into `out` when present.
Status read_optional_vec3(const nlohmann::json& j, const std::string& where, std::string_view key, NumberRange r,
                          glm::vec3& out);
// A 3-vector that must not be zero, returned normalised.
Result<glm::vec3> read_direction(const nlohmann::json& j, const std::string& where);
// "rotation": [x, y, z, w] (normalised here) or "euler_degrees": [x, y, z] (applied X first,
// then Y, then Z, about the parent's fixed axes), exclusive. Absent: identity.
Status read_rotation(const nlohmann::json& j, const std::string& where, glm::quat& out);
// "scale": a number (uniform) or [x, y, z], every component > 0.
Result<glm::vec3> read_scale(const nlohmann::json& j, const std::string& where);

// Where the files a scene names resolve: the scene's folder, inside the asset root (if any).
struct PathBase {
  std::filesystem::path base_dir;
  std::filesystem::path asset_root;  // canonical; empty = not confined
};

// A path (non-empty string) resolved against the scene's folder, inside the asset root when there
// is one (docs/design/reliability.md, "Asset paths"); existence is the renderer's business.
Result<std::filesystem::path> read_path(const nlohmann::json& j, const std::string& where, const PathBase& base);

}  // namespace mote::scene::detail
