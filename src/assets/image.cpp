// Image decode/encode over the packaged stb (libstb.so) and the contact sheet.
#include "assets/image.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include <stb_image.h>
#include <stb_image_write.h>

#include "core/file.hpp"

namespace mote::assets {
namespace {

// A file this large cannot hold an image within kMaxImageDimension that stb would accept, and
// stb's memory API takes an int length.
constexpr size_t kMaxImageFileBytes = size_t(1) << 30;

struct StbiFree {
  void operator()(stbi_uc* p) const { stbi_image_free(p); }
};

std::string stb_reason() {
  const char* r = stbi_failure_reason();
  return r ? r : "unknown reason";
}

Error dimension_error(ImageSize size, uint32_t max_side, std::string_view name) {
  return make_error(ErrorCode::kFormat,
                    "image is " + std::to_string(size.width) + " x " + std::to_string(size.height) +
                        " texels; each side must be between 1 and " + std::to_string(max_side),
                    std::string(name));
}

bool valid_dimensions(ImageSize size, uint32_t max_side) {
  return size.width > 0 && size.height > 0 && size.width <= max_side && size.height <= max_side;
}

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }

// The PNG signature, then the first chunk: length 13, "IHDR", width, height (big-endian).
constexpr uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
constexpr size_t kPngIhdrEnd = 24;

Status check_image(const ImageRgba8& image, const std::string& where) {
  if (image.width == 0 || image.height == 0 || image.width > kMaxImageDimension || image.height > kMaxImageDimension)
    return make_error(ErrorCode::kInvalidArgument,
                      "image is " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                          "; each side must be between 1 and " + std::to_string(kMaxImageDimension),
                      where);
  if (image.pixels.size() != size_t(image.width) * image.height * 4)
    return make_error(ErrorCode::kInvalidArgument,
                      "pixel buffer holds " + std::to_string(image.pixels.size()) +
                          " bytes, expected width * height * 4 = " +
                          std::to_string(size_t(image.width) * image.height * 4),
                      where);
  return {};
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size > 0) out->insert(out->end(), bytes, bytes + size);
}

// The formats stb_image reads that Mote refuses, by the signature stb itself tests for each:
// HDR (stb 2.27's RLE reader loops without end on a truncated scanline — fuzz/fuzz_image found
// it, docs/design/reliability.md), and GIF, PSD, PIC and PNM, which no texture needs and which
// stb's history of reports makes a cost with no use. The name of the format, or nullptr.
const char* refused_format(std::span<const uint8_t> b) {
  auto starts = [&](std::string_view magic) {
    return b.size() >= magic.size() && std::memcmp(b.data(), magic.data(), magic.size()) == 0;
  };
  if (starts("#?RADIANCE") || starts("#?RGBE")) return "HDR";
  if (starts("GIF8")) return "GIF";
  if (starts("8BPS")) return "PSD";
  if (starts("\x53\x80\xF6\x34")) return "PIC";
  if (starts("P5") || starts("P6")) return "PNM";
  return nullptr;
}

// stb_image 2.27 (Debian's libstb.so) builds a JPEG Huffman table without checking that its 16
// code-length counts sum to at most 256, so a hostile DHT segment writes past the decoder's
// tables (found by fuzz/fuzz_image, docs/design/reliability.md "Findings of the fuzzers"). Every
// DHT table of a JPEG is checked here before stb sees the file. Walks the marker segments the way
// stb reads them, and the entropy-coded data between them byte by byte (a marker there is 0xFF
// followed by anything but 0x00, a fill 0xFF or RSTn).
bool jpeg_huffman_tables_fit(std::span<const uint8_t> b) {
  // stb takes any number of 0xFF fill bytes before the start-of-image marker (a finding too).
  size_t soi = 0;
  while (soi < b.size() && b[soi] == 0xFF) ++soi;
  if (soi == 0 || soi == b.size() || b[soi] != 0xD8) return true;  // not a JPEG to stb
  size_t i = soi + 1;
  while (i + 1 < b.size()) {
    const uint8_t marker = b[i + 1];
    if (b[i] != 0xFF || marker == 0xFF || marker == 0x00 || (marker >= 0xD0 && marker <= 0xD8) || marker == 0x01) {
      i += b[i] == 0xFF && marker != 0xFF ? 2 : 1;  // entropy-coded data, fill, stuffing, RSTn, SOI, TEM
      continue;
    }
    if (marker == 0xD9 || i + 4 > b.size()) return true;  // the end, or a truncation stb refuses
    const size_t length = size_t(b[i + 2]) << 8 | b[i + 3];
    if (marker == 0xC4) {
      // stb's loop: tables while the segment's length lasts, each 1 + 16 + n bytes. stb reads
      // the bytes past the end of the file as zeros, so a table the file cuts short counts the
      // bytes it has (the campaign's finding).
      size_t p = i + 4;
      for (int64_t left = int64_t(length) - 2; left > 0 && p + 1 < b.size();) {
        size_t n = 0;
        for (size_t k = 1; k <= 16 && p + k < b.size(); ++k) n += b[p + k];
        if (n > 256) return false;
        p += 17 + n;
        left -= int64_t(17 + n);
      }
    }
    i += 2 + length;
  }
  return true;
}

}  // namespace

Result<ImageSize> probe_image(std::span<const uint8_t> bytes, std::string_view name) {
  if (bytes.empty()) return make_error(ErrorCode::kFormat, "empty file", std::string(name));
  if (bytes.size() > kMaxImageFileBytes || bytes.size() > size_t(INT_MAX))
    return make_error(ErrorCode::kFormat,
                      "file of " + std::to_string(bytes.size()) + " bytes is too large for an image",
                      std::string(name));
  if (bytes.size() >= kPngIhdrEnd && std::memcmp(bytes.data(), kPngSignature, 8) == 0 &&
      std::memcmp(bytes.data() + 12, "IHDR", 4) == 0)
    return ImageSize{be32(bytes.data() + 16), be32(bytes.data() + 20)};
  if (const char* format = refused_format(bytes))
    return make_error(ErrorCode::kUnsupported,
                      std::string(format) + " images are not read (PNG, JPEG, BMP and TGA are)", std::string(name));
  // Before stbi_info too: it reads the tables a JPEG puts before its frame header.
  if (!jpeg_huffman_tables_fit(bytes))
    return make_error(ErrorCode::kFormat, "a JPEG Huffman table declares more than 256 codes", std::string(name));
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), int(bytes.size()), &width, &height, &channels))
    return make_error(ErrorCode::kFormat, "not a readable image: " + stb_reason(), std::string(name));
  return ImageSize{uint32_t(std::max(width, 0)), uint32_t(std::max(height, 0))};
}

Result<ImageRgba8> decode_image(std::span<const uint8_t> bytes, std::string_view name, uint32_t max_side) {
  max_side = std::min(max_side, kMaxImageDimension);
  // The header alone first: a hostile header must not make us allocate before we refuse it.
  MOTE_TRY_ASSIGN(const ImageSize header, probe_image(bytes, name));
  if (!valid_dimensions(header, max_side)) return dimension_error(header, max_side, name);
  const int len = int(bytes.size());
  const int width = int(header.width), height = int(header.height);
  int channels = 0;

  // Another thread's global stbi_set_flip_vertically_on_load must not turn our rows over.
  stbi_set_flip_vertically_on_load_thread(0);
  int got_width = 0, got_height = 0;
  std::unique_ptr<stbi_uc, StbiFree> decoded(stbi_load_from_memory(bytes.data(), len, &got_width, &got_height,
                                                                   &channels, 4));
  if (!decoded) return make_error(ErrorCode::kFormat, "cannot decode image: " + stb_reason(), std::string(name));
  if (got_width != width || got_height != height)
    return make_error(ErrorCode::kFormat,
                      "header says " + std::to_string(width) + " x " + std::to_string(height) +
                          " but the data decodes to " + std::to_string(got_width) + " x " + std::to_string(got_height),
                      std::string(name));

  ImageRgba8 image;
  image.width = uint32_t(width);
  image.height = uint32_t(height);
  const size_t size = size_t(image.width) * image.height * 4;
  image.pixels.assign(decoded.get(), decoded.get() + size);
  return image;
}

Result<ImageRgba8> load_image(const std::filesystem::path& path, uint32_t max_side) {
  const std::string name = path.string();
  MOTE_TRY_ASSIGN(auto bytes, read_file_bytes(name, kMaxImageFileBytes));
  return decode_image(bytes, name, max_side);
}

Result<std::vector<uint8_t>> encode_png(const ImageRgba8& image) {
  MOTE_TRY(check_image(image, "image"));
  std::vector<uint8_t> out;
  if (!stbi_write_png_to_func(append_bytes, &out, int(image.width), int(image.height), 4, image.pixels.data(),
                              int(image.width * 4)))
    return make_error(ErrorCode::kOutOfMemory, "stb_image_write could not encode the PNG", "image");
  return out;
}

Status write_png(const std::filesystem::path& path, const ImageRgba8& image) {
  auto encoded = encode_png(image);
  if (!encoded.ok()) {
    Error e = encoded.take_error();
    e.where = path.string();
    return e;
  }
  return write_file_bytes(path.string(), encoded.value());
}

Result<ImageRgba8> contact_sheet(std::span<const ImageRgba8> frames, uint32_t columns, uint32_t max_tile_width) {
  if (frames.empty()) return make_error(ErrorCode::kInvalidArgument, "no frames", "frames");
  if (columns == 0) return make_error(ErrorCode::kInvalidArgument, "columns must be at least 1", "columns");
  if (max_tile_width == 0)
    return make_error(ErrorCode::kInvalidArgument, "max_tile_width must be at least 1", "max_tile_width");
  const uint32_t width = frames[0].width, height = frames[0].height;
  for (size_t i = 0; i < frames.size(); ++i) {
    const std::string where = "frames[" + std::to_string(i) + "]";
    MOTE_TRY(check_image(frames[i], where));
    if (frames[i].width != width || frames[i].height != height)
      return make_error(ErrorCode::kInvalidArgument,
                        "frame is " + std::to_string(frames[i].width) + " x " + std::to_string(frames[i].height) +
                            ", frames[0] is " + std::to_string(width) + " x " + std::to_string(height),
                        where);
  }

  // The smallest integer factor that brings a tile within max_tile_width. A tile is
  // ceil(size / factor) texels: the last row and column average the partial block they cover.
  const uint32_t factor = (width + max_tile_width - 1) / max_tile_width;
  const uint32_t tile_w = (width + factor - 1) / factor;
  const uint32_t tile_h = (height + factor - 1) / factor;
  const uint32_t used_columns = uint32_t(std::min<size_t>(columns, frames.size()));
  const uint32_t rows = uint32_t((frames.size() + columns - 1) / columns);
  const uint64_t sheet_w = uint64_t(used_columns) * tile_w, sheet_h = uint64_t(rows) * tile_h;
  if (sheet_w > kMaxImageDimension || sheet_h > kMaxImageDimension)
    return make_error(ErrorCode::kInvalidArgument,
                      "the sheet would be " + std::to_string(sheet_w) + " x " + std::to_string(sheet_h) +
                          " texels, over the " + std::to_string(kMaxImageDimension) + " limit",
                      "frames");

  ImageRgba8 sheet;
  sheet.width = uint32_t(sheet_w);
  sheet.height = uint32_t(sheet_h);
  sheet.pixels.assign(size_t(sheet.width) * sheet.height * 4, 0);  // empty cells stay transparent black
  for (size_t i = 0; i < frames.size(); ++i) {
    const ImageRgba8& frame = frames[i];
    const uint32_t ox = uint32_t(i % columns) * tile_w, oy = uint32_t(i / columns) * tile_h;
    for (uint32_t ty = 0; ty < tile_h; ++ty) {
      const uint32_t y0 = ty * factor, y1 = std::min(height, y0 + factor);
      for (uint32_t tx = 0; tx < tile_w; ++tx) {
        const uint32_t x0 = tx * factor, x1 = std::min(width, x0 + factor);
        // The stored (sRGB-encoded, straight-alpha) bytes are averaged as they are: a preview,
        // not a resampler.
        uint64_t sum[4] = {0, 0, 0, 0};
        for (uint32_t y = y0; y < y1; ++y)
          for (uint32_t x = x0; x < x1; ++x) {
            const uint8_t* p = frame.at(x, y);
            for (int c = 0; c < 4; ++c) sum[c] += p[c];
          }
        const uint64_t n = uint64_t(y1 - y0) * (x1 - x0);
        uint8_t* out = sheet.at(ox + tx, oy + ty);
        for (int c = 0; c < 4; ++c) out[c] = uint8_t((sum[c] + n / 2) / n);
      }
    }
  }
  return sheet;
}

}  // namespace mote::assets
