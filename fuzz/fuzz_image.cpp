// libFuzzer harness: image decoding (probe_image, decode_image over stb_image: PNG, JPEG, BMP,
// TGA, GIF, PSD, HDR, PNM), capped at 1024 texels a side so one input cannot take the run's
// memory. A decoded image re-encodes to a PNG that decodes to the same texels.
#include <cstddef>
#include <cstdint>
#include <span>

#include "assets/image.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  (void)mote::assets::probe_image(bytes, "fuzz");
  mote::Result<mote::assets::ImageRgba8> image = mote::assets::decode_image(bytes, "fuzz", 1024);
  if (!image.ok()) return 0;
  FUZZ_REQUIRE(image->pixels.size() == size_t(image->width) * image->height * 4, "pixels match the size");
  mote::Result<std::vector<uint8_t>> png = mote::assets::encode_png(*image);
  FUZZ_REQUIRE(png.ok(), "a decoded image encodes");
  mote::Result<mote::assets::ImageRgba8> again = mote::assets::decode_image(*png, "fuzz.png");
  FUZZ_REQUIRE(again.ok() && again->pixels == image->pixels, "the PNG round trip keeps every texel");
  return 0;
}
