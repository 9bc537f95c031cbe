// Image decode/encode (stb) and the contact sheet.
#include <gtest/gtest.h>

#include <stb_image_write.h>

#include "assets/image.hpp"
#include "assets_test_util.hpp"

namespace {

using mote::ErrorCode;
using mote::assets::ImageRgba8;
using mote::test::pattern_image;
using mote::test::TempDir;

std::vector<uint8_t> png_of(const ImageRgba8& image) {
  auto encoded = mote::assets::encode_png(image);
  EXPECT_TRUE(encoded.ok()) << encoded.error().to_string();
  return encoded.ok() ? encoded.value() : std::vector<uint8_t>{};
}

// PNG IHDR fields (big-endian) at fixed offsets after the 8-byte signature and chunk header.
constexpr size_t kIhdrWidth = 16, kIhdrHeight = 20, kIhdrBitDepth = 24, kIhdrColourType = 25;

void put_be32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = uint8_t(v >> (24 - 8 * i));
}

TEST(Image, PngRoundTripIsExact) {
  // Odd sizes, transparent texels with colour (straight alpha must survive), every byte value.
  for (auto [w, h] : {std::pair{1u, 1u}, {7u, 3u}, {64u, 33u}}) {
    const ImageRgba8 image = pattern_image(w, h, uint8_t(w));
    const std::vector<uint8_t> png = png_of(image);
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png[1], 'P');
    auto decoded = mote::assets::decode_image(png, "roundtrip.png");
    ASSERT_TRUE(decoded.ok()) << decoded.error().to_string();
    EXPECT_EQ(decoded->width, w);
    EXPECT_EQ(decoded->height, h);
    EXPECT_EQ(decoded->pixels, image.pixels);
  }
}

TEST(Image, WritePngThenLoadImage) {
  TempDir dir;
  const ImageRgba8 image = pattern_image(19, 11, 5);
  ASSERT_TRUE(mote::assets::write_png(dir / "a.png", image).ok());
  auto loaded = mote::assets::load_image(dir / "a.png");
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(loaded->pixels, image.pixels);

  // write_png replaces an existing file.
  const ImageRgba8 other = pattern_image(2, 2, 9);
  ASSERT_TRUE(mote::assets::write_png(dir / "a.png", other).ok());
  loaded = mote::assets::load_image(dir / "a.png");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->pixels, other.pixels);
}

void append(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

TEST(Image, FewerChannelsAndOtherFormatsDecodeToRgba) {
  // 1-channel PNG, 3-channel BMP and TGA written by stb_image_write directly: every one comes
  // back as tightly packed RGBA with alpha 255 and grey replicated.
  const uint32_t w = 5, h = 3;
  std::vector<uint8_t> grey(w * h), rgb(w * h * 3);
  for (size_t i = 0; i < grey.size(); ++i) grey[i] = uint8_t(i * 17);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint8_t(i * 5 + 1);

  std::vector<uint8_t> file;
  ASSERT_TRUE(stbi_write_png_to_func(append, &file, int(w), int(h), 1, grey.data(), int(w)));
  auto g = mote::assets::decode_image(file, "grey.png");
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  ASSERT_EQ(g->pixels.size(), size_t(w) * h * 4);
  for (size_t i = 0; i < grey.size(); ++i) {
    EXPECT_EQ(g->pixels[i * 4 + 0], grey[i]);
    EXPECT_EQ(g->pixels[i * 4 + 1], grey[i]);
    EXPECT_EQ(g->pixels[i * 4 + 2], grey[i]);
    EXPECT_EQ(g->pixels[i * 4 + 3], 255);
  }

  using Writer = int (*)(stbi_write_func*, void*, int, int, int, const void*);
  const std::pair<Writer, const char*> writers[] = {{stbi_write_bmp_to_func, "rgb.bmp"},
                                                    {stbi_write_tga_to_func, "rgb.tga"}};
  for (auto [writer, name] : writers) {
    file.clear();
    ASSERT_TRUE(writer(append, &file, int(w), int(h), 3, rgb.data()));
    auto c = mote::assets::decode_image(file, name);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    ASSERT_EQ(c->width, w);
    ASSERT_EQ(c->height, h);
    for (size_t i = 0; i < size_t(w) * h; ++i)
      for (size_t k = 0; k < 4; ++k)
        EXPECT_EQ(c->pixels[i * 4 + k], k < 3 ? rgb[i * 3 + k] : 255) << name << " texel " << i;
  }
}

TEST(Image, MissingFileIsNotFoundWithThePath) {
  TempDir dir;
  auto r = mote::assets::load_image(dir / "nope.png");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().where, (dir / "nope.png").string());
}

TEST(Image, EmptyAndGarbageAreFormatErrors) {
  auto empty = mote::assets::decode_image({}, "empty.png");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::kFormat);
  EXPECT_EQ(empty.error().where, "empty.png");

  std::vector<uint8_t> garbage(1000);
  uint32_t s = 77;
  for (auto& b : garbage) b = uint8_t(mote::test::xorshift(s));
  garbage[0] = 0x42;  // not a PNG/JPEG/GIF magic
  auto r = mote::assets::decode_image(garbage, "garbage.bin");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFormat);
  EXPECT_EQ(r.error().where, "garbage.bin");
  EXPECT_FALSE(r.error().message.empty());

  auto text = mote::assets::decode_image(mote::test::to_bytes("hello, I am not an image"), "hello.txt");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().code, ErrorCode::kFormat);
}

TEST(Image, TruncatedPngIsRefused) {
  const std::vector<uint8_t> png = png_of(pattern_image(16, 16, 3));
  ASSERT_GT(png.size(), 12u);
  // Every prefix that lacks the IEND chunk must be refused (stb stops at IEND's type, so the last
  // 4 bytes, IEND's CRC, are not needed).
  for (size_t n = 0; n + 12 < png.size(); ++n) {
    auto r = mote::assets::decode_image(std::span(png.data(), n), "cut.png");
    ASSERT_FALSE(r.ok()) << "a PNG cut to " << n << " of " << png.size() << " bytes decoded";
    EXPECT_EQ(r.error().code, ErrorCode::kFormat);
    EXPECT_EQ(r.error().where, "cut.png");
  }
}

TEST(Image, CorruptHeaderFieldsAreRefused) {
  const std::vector<uint8_t> png = png_of(pattern_image(8, 8, 4));
  auto refused = [](std::vector<uint8_t> bytes, const char* what) {
    auto r = mote::assets::decode_image(bytes, "corrupt.png");
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().code, ErrorCode::kFormat) << what;
    EXPECT_EQ(r.error().where, "corrupt.png") << what;
    EXPECT_FALSE(r.error().message.empty()) << what;
  };
  auto bad = png;
  bad[kIhdrBitDepth] = 3;
  refused(bad, "bit depth 3");
  bad = png;
  bad[kIhdrColourType] = 5;
  refused(bad, "colour type 5");
  bad = png;
  put_be32(bad, kIhdrWidth, 0);
  refused(bad, "zero width");
  bad = png;
  bad[0] = 0;
  refused(bad, "signature");
  bad = png;
  bad.resize(bad.size() - 20);  // IDAT's tail and IEND gone
  refused(bad, "short IDAT");
}

TEST(Image, DimensionsOverTheLimitAreRefusedFromTheHeader) {
  // A real 16384 x 1 image decodes; the same file claiming 16385 or 2^30 texels per side is
  // refused from its header (stbi_info) before anything is allocated.
  ImageRgba8 wide;
  wide.width = mote::assets::kMaxImageDimension;
  wide.height = 1;
  wide.pixels.assign(size_t(wide.width) * 4, 200);
  const std::vector<uint8_t> png = png_of(wide);
  auto ok = mote::assets::decode_image(png, "wide.png");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->width, mote::assets::kMaxImageDimension);

  for (uint32_t claimed : {mote::assets::kMaxImageDimension + 1, 1u << 30, 0x7fffffffu}) {
    auto bad = png;
    put_be32(bad, kIhdrWidth, claimed);
    auto r = mote::assets::decode_image(bad, "huge.png");
    ASSERT_FALSE(r.ok()) << claimed;
    EXPECT_EQ(r.error().code, ErrorCode::kFormat);
    EXPECT_EQ(r.error().where, "huge.png");
    bad = png;
    put_be32(bad, kIhdrHeight, claimed);
    EXPECT_FALSE(mote::assets::decode_image(bad, "tall.png").ok()) << claimed;
  }
  // Our own limit, not stb's, answers 16385 (stb's is 2^24).
  auto bad = png;
  put_be32(bad, kIhdrWidth, mote::assets::kMaxImageDimension + 1);
  auto r = mote::assets::decode_image(bad, "huge.png");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("16384"), std::string::npos) << r.error().message;
}

TEST(Image, EncodeRefusesMalformedImages) {
  ImageRgba8 empty;
  EXPECT_EQ(mote::assets::encode_png(empty).error().code, ErrorCode::kInvalidArgument);
  ImageRgba8 short_pixels = pattern_image(4, 4, 1);
  short_pixels.pixels.pop_back();
  EXPECT_EQ(mote::assets::encode_png(short_pixels).error().code, ErrorCode::kInvalidArgument);
  TempDir dir;
  auto s = mote::assets::write_png(dir / "x.png", short_pixels);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().where, (dir / "x.png").string());
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

// ---- contact sheet ---------------------------------------------------------------------------

ImageRgba8 solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  ImageRgba8 image;
  image.width = w;
  image.height = h;
  for (size_t i = 0; i < size_t(w) * h; ++i) image.pixels.insert(image.pixels.end(), {r, g, b, a});
  return image;
}

TEST(ContactSheet, LayoutLeftToRightTopToBottom) {
  // Five 4x4 frames, three columns, no scaling: a 12 x 8 sheet whose sixth cell is empty.
  std::vector<ImageRgba8> frames;
  for (uint8_t i = 0; i < 5; ++i) frames.push_back(solid(4, 4, uint8_t(10 * (i + 1)), i, 255, 255));
  auto sheet = mote::assets::contact_sheet(frames, 3, 4);
  ASSERT_TRUE(sheet.ok()) << sheet.error().to_string();
  ASSERT_EQ(sheet->width, 12u);
  ASSERT_EQ(sheet->height, 8u);
  ASSERT_EQ(sheet->pixels.size(), 12u * 8 * 4);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 12; ++x) {
      const uint32_t cell = (y / 4) * 3 + x / 4;
      const uint8_t* p = sheet->at(x, y);
      if (cell < 5) {
        EXPECT_EQ(p[0], 10 * (cell + 1)) << x << "," << y;
        EXPECT_EQ(p[1], cell);
        EXPECT_EQ(p[3], 255);
      } else {
        EXPECT_EQ(p[0] | p[1] | p[2] | p[3], 0) << "the empty cell is transparent black";
      }
    }
  // More columns than frames: one row, as wide as the frames.
  auto row = mote::assets::contact_sheet(frames, 10, 4);
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->width, 20u);
  EXPECT_EQ(row->height, 4u);
}

TEST(ContactSheet, BoxFilterAveragesBlocks) {
  // A 4x4 frame with max tile width 2: factor 2, each output texel the rounded mean of a 2x2 block.
  ImageRgba8 frame;
  frame.width = frame.height = 4;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x)
      frame.pixels.insert(frame.pixels.end(), {uint8_t(x * 10 + y), uint8_t(x == 0 ? 255 : 0), 1, uint8_t(y * 80)});
  auto sheet = mote::assets::contact_sheet(std::span(&frame, 1), 1, 2);
  ASSERT_TRUE(sheet.ok());
  ASSERT_EQ(sheet->width, 2u);
  ASSERT_EQ(sheet->height, 2u);
  for (uint32_t ty = 0; ty < 2; ++ty)
    for (uint32_t tx = 0; tx < 2; ++tx)
      for (int c = 0; c < 4; ++c) {
        uint32_t sum = 0;
        for (uint32_t y = 2 * ty; y < 2 * ty + 2; ++y)
          for (uint32_t x = 2 * tx; x < 2 * tx + 2; ++x) sum += frame.at(x, y)[c];
        EXPECT_EQ(sheet->at(tx, ty)[c], (sum + 2) / 4) << tx << "," << ty << " channel " << c;
      }
  // Hand-checked: red of block (0,0) = mean(0, 1, 10, 11) = 5.5 -> 6; green = mean(255, 255, 0, 0) -> 128.
  EXPECT_EQ(sheet->at(0, 0)[0], 6);
  EXPECT_EQ(sheet->at(0, 0)[1], 128);
  EXPECT_EQ(sheet->at(1, 1)[3], 200);  // alpha rows 2, 3: mean(160, 240)
}

TEST(ContactSheet, PartialBlocksAtTheEdge) {
  // 5 x 3 with max width 2: factor 3, tiles of ceil(5/3) x ceil(3/3) = 2 x 1; the second column
  // averages the 2 x 3 block that remains.
  ImageRgba8 frame = solid(5, 3, 0, 0, 0, 255);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 5; ++x) frame.at(x, y)[0] = uint8_t(x < 3 ? 30 : 90 + y);
  auto sheet = mote::assets::contact_sheet(std::span(&frame, 1), 4, 2);
  ASSERT_TRUE(sheet.ok());
  ASSERT_EQ(sheet->width, 2u);
  ASSERT_EQ(sheet->height, 1u);
  EXPECT_EQ(sheet->at(0, 0)[0], 30);
  EXPECT_EQ(sheet->at(1, 0)[0], 91);  // mean(90, 91, 92, 90, 91, 92)
  EXPECT_EQ(sheet->at(1, 0)[3], 255);
}

TEST(ContactSheet, RefusesBadArguments) {
  std::vector<ImageRgba8> frames{solid(4, 4, 1, 2, 3, 4), solid(4, 3, 1, 2, 3, 4)};
  auto mismatch = mote::assets::contact_sheet(frames, 2, 4);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(mismatch.error().where, "frames[1]");
  frames.pop_back();
  EXPECT_FALSE(mote::assets::contact_sheet(frames, 0, 4).ok());
  EXPECT_FALSE(mote::assets::contact_sheet(frames, 1, 0).ok());
  EXPECT_FALSE(mote::assets::contact_sheet({}, 1, 4).ok());
}

}  // namespace
