// The particle texture atlas: the built-in soft disc and white texel, the effects' textures packed
// with stb_rect_pack (skyline, bottom-left, sorted by height), each padded by a replicated border.
#include "assets/atlas.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_set>

#include <stb_rect_pack.h>

#include "core/file.hpp"

namespace mote::assets {
namespace {

constexpr uint32_t kMinAtlasSize = 256;

struct Placement {
  const ImageRgba8* image = nullptr;
  size_t entry = 0;       // index into Atlas::entries
  uint32_t x = 0, y = 0;  // the padded rect's corner
};

// Packs every placement into a side x side square; false when they do not all fit.
bool pack(std::vector<Placement>& placements, uint32_t side) {
  uint64_t area = 0;
  for (const Placement& p : placements) {
    const uint64_t w = p.image->width + 2 * kAtlasPadding, h = p.image->height + 2 * kAtlasPadding;
    if (w > side || h > side) return false;
    area += w * h;
  }
  if (area > uint64_t(side) * side) return false;

  std::vector<stbrp_node> nodes(side);  // one node per column: stb_rect_pack never runs out
  stbrp_context context;
  stbrp_init_target(&context, int(side), int(side), nodes.data(), int(nodes.size()));
  std::vector<stbrp_rect> rects(placements.size());
  for (size_t i = 0; i < placements.size(); ++i) {
    rects[i] = {};
    rects[i].id = int(i);
    rects[i].w = stbrp_coord(placements[i].image->width + 2 * kAtlasPadding);
    rects[i].h = stbrp_coord(placements[i].image->height + 2 * kAtlasPadding);
  }
  if (!stbrp_pack_rects(&context, rects.data(), int(rects.size()))) return false;
  for (const stbrp_rect& r : rects) {
    placements[size_t(r.id)].x = uint32_t(r.x);
    placements[size_t(r.id)].y = uint32_t(r.y);
  }
  return true;
}

// Copies `image` into the atlas with its top-left texel at (x + pad, y + pad); the pad texels
// around it repeat the nearest edge texel (corners repeat the corner texel).
void blit_padded(ImageRgba8& atlas, const ImageRgba8& image, uint32_t x, uint32_t y) {
  const uint32_t pw = image.width + 2 * kAtlasPadding, ph = image.height + 2 * kAtlasPadding;
  for (uint32_t dy = 0; dy < ph; ++dy) {
    const uint32_t sy = uint32_t(std::clamp<int64_t>(int64_t(dy) - kAtlasPadding, 0, image.height - 1));
    for (uint32_t dx = 0; dx < pw; ++dx) {
      const uint32_t sx = uint32_t(std::clamp<int64_t>(int64_t(dx) - kAtlasPadding, 0, image.width - 1));
      std::copy_n(image.at(sx, sy), 4, atlas.at(x + dx, y + dy));
    }
  }
}

ImageRgba8 white_texel() {
  ImageRgba8 white;
  white.width = white.height = 1;
  white.pixels = {255, 255, 255, 255};
  return white;
}

// A request's image, its header checked against the atlas before anything is decoded
// (docs/design/reliability.md, finding 10). `too_large` is set, and the atlas fails (the scene's
// error), when the texture cannot fit in it; any other problem is in `image` and the entry falls
// back to the soft disc.
struct AtlasImage {
  Result<ImageRgba8> image = make_error(ErrorCode::kInternal, "not loaded");
  std::optional<Error> too_large;
};

AtlasImage load_atlas_image(const AtlasRequest& request) {
  const std::string name = request.path.string();
  AtlasImage out;
  Result<std::vector<uint8_t>> bytes = read_file_bytes(name, size_t(1) << 30);
  if (!bytes.ok()) return {bytes.take_error(), std::nullopt};
  Result<ImageSize> size = probe_image(*bytes, name);
  if (!size.ok()) return {size.take_error(), std::nullopt};
  // A header past kMaxImageDimension (or of 0 texels) is a broken file, decode_image's kFormat.
  const bool readable = size->width <= kMaxImageDimension && size->height <= kMaxImageDimension;
  if (readable && (size->width + 2 * kAtlasPadding > kMaxAtlasSize || size->height + 2 * kAtlasPadding > kMaxAtlasSize))
    out.too_large = make_error(ErrorCode::kUnsupported,
                               "texture is " + std::to_string(size->width) + " x " + std::to_string(size->height) +
                                   " texels; with its padding it cannot fit in a " + std::to_string(kMaxAtlasSize) +
                                   " x " + std::to_string(kMaxAtlasSize) + " atlas",
                               request.key);
  else out.image = decode_image(*bytes, name, kMaxAtlasSize - 2 * kAtlasPadding);
  return out;
}

}  // namespace

ImageRgba8 make_soft_disc(uint32_t size) {
  ImageRgba8 disc;
  disc.width = disc.height = size;
  disc.pixels.resize(size_t(size) * size * 4);
  const double radius = size * 0.5;
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      // Distance from the texel's centre to the image centre, in radii.
      const double dx = (x + 0.5) - radius, dy = (y + 0.5) - radius;
      const double t = std::min(1.0, std::sqrt(dx * dx + dy * dy) / radius);
      const double alpha = 1.0 - t * t * (3.0 - 2.0 * t);  // 1 - smoothstep(0, 1, t)
      uint8_t* p = disc.at(x, y);
      p[0] = p[1] = p[2] = 255;
      p[3] = uint8_t(std::lround(alpha * 255.0));
    }
  return disc;
}

const AtlasEntry* Atlas::find(std::string_view key) const {
  if (key.empty()) key = kSoftDiscKey;
  for (const AtlasEntry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

Result<Atlas> build_atlas(const std::vector<AtlasRequest>& requests) {
  Atlas atlas;
  const ImageRgba8 disc = make_soft_disc();
  const ImageRgba8 white = white_texel();
  atlas.entries.push_back({.key = kSoftDiscKey, .width = disc.width, .height = disc.height});
  atlas.entries.push_back({.key = kWhiteKey, .width = white.width, .height = white.height});

  // The images stay alive in `loaded` while placements point at them.
  std::vector<ImageRgba8> loaded;
  loaded.reserve(requests.size());
  std::vector<Placement> placements{{.image = &disc, .entry = 0}, {.image = &white, .entry = 1}};
  std::unordered_set<std::string> seen{"", kSoftDiscKey, kWhiteKey};
  for (const AtlasRequest& request : requests) {
    if (!seen.insert(request.key).second) continue;
    AtlasEntry entry{.key = request.key};
    // The header first: an image too large for the atlas is refused before it is decoded.
    AtlasImage loaded_image = load_atlas_image(request);
    if (loaded_image.too_large) return *loaded_image.too_large;
    Result<ImageRgba8>& image = loaded_image.image;
    if (!image.ok()) {
      entry.fallback = true;
      entry.problem = image.error().to_string();
      entry.width = disc.width;
      entry.height = disc.height;
      atlas.entries.push_back(std::move(entry));
      continue;
    }
    entry.width = image->width;
    entry.height = image->height;
    loaded.push_back(std::move(image).value());
    placements.push_back({.image = &loaded.back(), .entry = atlas.entries.size()});
    atlas.entries.push_back(std::move(entry));
  }

  uint32_t side = kMinAtlasSize;
  while (!pack(placements, side)) {
    if (side >= kMaxAtlasSize) {
      uint64_t texels = 0;
      for (const Placement& p : placements)
        texels += uint64_t(p.image->width + 2 * kAtlasPadding) * (p.image->height + 2 * kAtlasPadding);
      return make_error(ErrorCode::kUnsupported,
                        std::to_string(placements.size()) + " images (" + std::to_string(texels) +
                            " texels with padding) do not fit in a " + std::to_string(kMaxAtlasSize) + " x " +
                            std::to_string(kMaxAtlasSize) + " atlas",
                        "atlas");
    }
    side *= 2;
  }

  atlas.image.width = atlas.image.height = side;
  atlas.image.pixels.assign(size_t(side) * side * 4, 0);
  const float inv = 1.0f / float(side);
  for (const Placement& p : placements) {
    blit_padded(atlas.image, *p.image, p.x, p.y);
    atlas.entries[p.entry].rect = UvRect(float(p.x + kAtlasPadding) * inv, float(p.y + kAtlasPadding) * inv,
                                         float(p.image->width) * inv, float(p.image->height) * inv);
  }
  for (AtlasEntry& e : atlas.entries)
    if (e.fallback) e.rect = atlas.entries[0].rect;
  return atlas;
}

}  // namespace mote::assets
