// mote/image.hpp over src/assets/image.hpp (stb_image_write).
#include "mote/image.hpp"

#include <vector>

#include "assets/image.hpp"

namespace mote {

namespace {

assets::ImageRgba8 to_assets(const ImageRgba8& image) { return {image.width, image.height, image.pixels}; }

}  // namespace

Status write_png(const std::filesystem::path& path, const ImageRgba8& image) {
  return assets::write_png(path, to_assets(image));
}

Result<ImageRgba8> contact_sheet(std::span<const ImageRgba8> frames, uint32_t columns, uint32_t max_tile_width) {
  std::vector<assets::ImageRgba8> copies;
  copies.reserve(frames.size());
  for (const ImageRgba8& frame : frames) copies.push_back(to_assets(frame));
  MOTE_TRY_ASSIGN(assets::ImageRgba8 sheet, assets::contact_sheet(copies, columns, max_tile_width));
  return ImageRgba8{sheet.width, sheet.height, std::move(sheet.pixels)};
}

}  // namespace mote
