// CPU images as the scene renderer hands them out (mote/scene.hpp), and writing them: PNG files
// and the contact sheet `mote render` writes beside its frames.
//
// Plain values and free functions, safe from any thread on distinct images. Errors are values
// (mote/result.hpp) with the file in `where`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "mote/result.hpp"

namespace mote {

// Tightly packed 8-bit RGBA, rows top to bottom, colour sRGB-encoded, alpha straight.
struct ImageRgba8 {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4
};

// Creates or replaces `path` with the image as an 8-bit RGBA PNG. Errors: kInvalidArgument
// (pixels do not match the size, or an empty image), kIo / kNotFound (the file).
Status write_png(const std::filesystem::path& path, const ImageRgba8& image);

// The frames laid out left to right, top to bottom in `columns` columns, each scaled down by an
// integer box filter so that a tile is at most `max_tile_width` wide. Errors: kInvalidArgument
// (no frames, frames of different sizes, columns or max_tile_width 0).
Result<ImageRgba8> contact_sheet(std::span<const ImageRgba8> frames, uint32_t columns, uint32_t max_tile_width);

}  // namespace mote
