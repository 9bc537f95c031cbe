// CPU images as the scene renderer hands them out (mote/scene.hpp), and writing them: PNG files,
// the contact sheet `mote render` writes beside its frames, and animated GIFs (giflib).
//
// Plain values and free functions, safe from any thread on distinct images. Errors are values
// (mote/result.hpp) with the file in `where`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
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

// An animated GIF written frame by frame, so a long render never holds its frames: each frame is
// quantized to its own palette of at most 256 colours (giflib's median cut) and shown for
// 100 / fps hundredths of a second (GIF counts in hundredths: 24 fps plays at 25), looping forever.
// Alpha is dropped (GIF frames here are opaque). One thread at a time.
class GifWriter {
 public:
  // Creates or replaces `path`. Errors: kInvalidArgument (a size of 0 or over 65535, fps 0 or
  // over 100), kIo (the file cannot be created).
  static Result<std::unique_ptr<GifWriter>> create(const std::filesystem::path& path, uint32_t width, uint32_t height,
                                                   uint32_t fps);
  ~GifWriter();  // finishes the file if finish() was not called (errors then go unreported)
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // Errors: kInvalidArgument (a frame of another size), kIo (a write failed).
  Status add_frame(const ImageRgba8& frame);
  // Writes the trailer and closes the file. Errors: kIo. Calling it again does nothing.
  Status finish();
  uint32_t frames_written() const;

 private:
  struct State;
  explicit GifWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace mote
