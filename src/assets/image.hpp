// CPU images: decoding untrusted files (PNG, JPEG, TGA and BMP through stb_image; its other
// formats are refused, kUnsupported: docs/design/reliability.md) into RGBA8,
// writing PNG (stb_image_write), and the small image operations the renderer's outputs need.
// Decoding never crashes on a corrupt or hostile file: it answers kFormat (or kIo, kNotFound)
// with the file name in `where`, and refuses images over kMaxImageDimension per side.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "mote/result.hpp"

namespace mote::assets {

inline constexpr uint32_t kMaxImageDimension = 16384;

// Tightly packed 8-bit RGBA, rows top to bottom. Colour is sRGB-encoded as stored in the file;
// alpha is straight (not premultiplied).
struct ImageRgba8 {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4

  uint8_t* at(uint32_t x, uint32_t y) { return pixels.data() + (size_t(y) * width + x) * 4; }
  const uint8_t* at(uint32_t x, uint32_t y) const { return pixels.data() + (size_t(y) * width + x) * 4; }
};

struct ImageSize {
  uint32_t width = 0;
  uint32_t height = 0;
};

// The size an image file's header claims, read without decoding anything. A PNG's is read from
// its IHDR chunk by us, so a 0 x 0 or 100000 x 100000 header is named as such (stb calls both
// "unknown image type"); other formats through stbi_info. kFormat when there is no header.
Result<ImageSize> probe_image(std::span<const uint8_t> bytes, std::string_view name);

// Decodes an image held in memory; `name` is used in errors only. The header is checked against
// `max_side` (at most kMaxImageDimension) before anything is decoded: a 260 KB PNG claiming
// 16384 x 16384 must not cost gigabytes to refuse (docs/design/reliability.md, finding 10).
Result<ImageRgba8> decode_image(std::span<const uint8_t> bytes, std::string_view name,
                                uint32_t max_side = kMaxImageDimension);
Result<ImageRgba8> load_image(const std::filesystem::path& path, uint32_t max_side = kMaxImageDimension);

// PNG encoding (8-bit RGBA). write_png creates or replaces `path`.
Result<std::vector<uint8_t>> encode_png(const ImageRgba8& image);
Status write_png(const std::filesystem::path& path, const ImageRgba8& image);

// Frames laid out left to right, top to bottom in `columns` columns, each scaled down by an
// integer box filter so that a tile is at most `max_tile_width` wide; frames must share a size.
Result<ImageRgba8> contact_sheet(std::span<const ImageRgba8> frames, uint32_t columns, uint32_t max_tile_width);

}  // namespace mote::assets
