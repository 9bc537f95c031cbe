// The particle texture atlas: every effect's texture packed into one RGBA8 image (stb_rect_pack),
// plus the two built-in entries every atlas has — the soft disc drawn when an effect names no
// texture (white, alpha 1 at the centre falling to 0 at the rim; docs/design/assets.md) and a white
// texel. A particle's UV (its own uv_rect, e.g. a palette entry, and its flipbook cell) is remapped
// into its texture's rect on the GPU; entries are padded by a replicated border so bilinear
// filtering at a rect's edge does not bleed a neighbour in.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "assets/image.hpp"
#include "mote/result.hpp"

namespace mote::assets {

inline constexpr uint32_t kSoftDiscSize = 64;  // texels per side of the built-in disc
inline constexpr uint32_t kAtlasPadding = 2;   // replicated border texels around each entry
inline constexpr uint32_t kMaxAtlasSize = 8192;

// Where an entry lies in the atlas, in normalised UV: (offset x, offset y, size x, size y) —
// the same convention as a particle's uv_rect.
using UvRect = glm::vec4;

struct AtlasEntry {
  std::string key;  // the texture path as the effect named it, or "builtin:soft_disc" / "builtin:white"
  UvRect rect{0.0f, 0.0f, 1.0f, 1.0f};
  uint32_t width = 0, height = 0;  // texels of the source image
  bool fallback = false;           // the file was missing or corrupt: this entry is the soft disc
  std::string problem;             // why it fell back ("" when it did not)
};

struct Atlas {
  ImageRgba8 image;                 // power-of-two sides, straight alpha, sRGB-encoded colour
  std::vector<AtlasEntry> entries;  // [0] = soft disc, [1] = white, then the textures in request order

  // The entry for `key` ("" = the soft disc), or nullptr.
  const AtlasEntry* find(std::string_view key) const;
};

inline constexpr const char* kSoftDiscKey = "builtin:soft_disc";
inline constexpr const char* kWhiteKey = "builtin:white";

// The built-in soft disc, `size` x `size`: white, alpha = smoothstep falloff of the distance to
// the centre (1 at the centre, 0 at and beyond the inscribed circle).
ImageRgba8 make_soft_disc(uint32_t size = kSoftDiscSize);

struct AtlasRequest {
  std::string key;             // as the effect named it (deduplicated by key)
  std::filesystem::path path;  // resolved file to load
};

// Loads every requested image and packs them with the built-ins. A texture that is missing or
// cannot be decoded does not fail the atlas: its entry is the soft disc with `fallback` set and
// `problem` saying why (the renderer prints it as a warning) — a scene still renders. Fails
// (kUnsupported) only when the images cannot fit in kMaxAtlasSize x kMaxAtlasSize.
Result<Atlas> build_atlas(const std::vector<AtlasRequest>& requests);

}  // namespace mote::assets
