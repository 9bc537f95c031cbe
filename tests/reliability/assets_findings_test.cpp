// Findings 9, 10 and 11 of docs/design/reliability.md against the asset decoders: a glTF buffer
// URI that left the model's folder, a small PNG whose header claims 16384 x 16384 decoded in full
// before the atlas refused it, and PNG headers of 0 x 0 or 100000 x 100000 called "unknown image
// type".
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assets/assets_test_util.hpp"
#include "assets/atlas.hpp"
#include "assets/gltf_builder.hpp"
#include "assets/image.hpp"
#include "assets/mesh.hpp"
#include "reliability/png_writer.hpp"

namespace {

using mote::ErrorCode;
using mote::test::GltfBuilder;
using mote::test::TempDir;
namespace fs = std::filesystem;

GltfBuilder triangle() {
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, 3);
  b.add_mesh(pos);
  b.add_node({{"mesh", 0}});
  b.set_scene({0});
  return b;
}

// A file outside the model's folder, with the bytes a buffer of `b` expects.
void write_secret(const fs::path& path, const GltfBuilder& b) { mote::test::write_bytes(path, b.bin()); }

TEST(GltfFindings, BufferUriCannotLeaveTheModelFolder) {
  TempDir dir;
  const GltfBuilder b = triangle();
  fs::create_directories(dir / "model");
  write_secret(dir / "secret.bin", b);
  const std::vector<std::string> uris = {"../secret.bin", "./../secret.bin", "sub/../../secret.bin",
                                         "%2E%2E/secret.bin", (dir / "secret.bin").string()};
  for (const std::string& uri : uris) {
    mote::test::write_text(dir / "model" / "model.gltf", b.to_gltf_external(uri));
    auto mesh = mote::assets::load_gltf(dir / "model" / "model.gltf");
    EXPECT_FALSE(mesh.ok()) << uri << " read a file outside the model's folder";
  }
  // A symbolic link inside the folder that points outside it is refused too.
  fs::create_symlink(dir / "secret.bin", dir / "model" / "link.bin");
  mote::test::write_text(dir / "model" / "model.gltf", b.to_gltf_external("link.bin"));
  EXPECT_FALSE(mote::assets::load_gltf(dir / "model" / "model.gltf").ok());
  // The buffer beside the model still loads.
  mote::test::write_bytes(dir / "model" / "inside.bin", b.bin());
  mote::test::write_text(dir / "model" / "model.gltf", b.to_gltf_external("inside.bin"));
  auto inside = mote::assets::load_gltf(dir / "model" / "model.gltf");
  EXPECT_TRUE(inside.ok()) << inside.error().to_string();
}

// A model named without a folder ("model.gltf") lives in the working directory: the same rule.
TEST(GltfFindings, BufferUriCannotLeaveTheWorkingDirectoryOfABareModelName) {
  TempDir dir;
  const GltfBuilder b = triangle();
  fs::create_directories(dir / "model");
  write_secret(dir / "secret.bin", b);
  mote::test::write_text(dir / "model" / "model.gltf", b.to_gltf_external("../secret.bin"));
  const fs::path saved = fs::current_path();
  fs::current_path(dir / "model");
  auto mesh = mote::assets::load_gltf("model.gltf");
  fs::current_path(saved);
  EXPECT_FALSE(mesh.ok()) << "an empty base folder allowed any path";
}

std::vector<uint8_t> read_bytes(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The test images are real PNG files: one of a decodable size decodes to black.
TEST(ImageFindings, TheBlankPngWriterWritesDecodableFiles) {
  const std::vector<uint8_t> png = mote::test::blank_grey_png(300, 200);
  auto image = mote::assets::decode_image(png, "blank.png");
  ASSERT_TRUE(image.ok()) << image.error().to_string();
  ASSERT_EQ(image->width, 300u);
  ASSERT_EQ(image->height, 200u);
  for (size_t i = 0; i < image->pixels.size(); i += 4) {
    ASSERT_EQ(image->pixels[i], 0);
    ASSERT_EQ(image->pixels[i + 3], 255);
  }
}

// Finding 10: the atlas decoded the whole image (gigabytes) before refusing its size.
TEST(ImageFindings, ImageTooLargeForTheAtlasIsRefusedFromItsHeader) {
  TempDir dir;
  const std::vector<uint8_t> png = mote::test::blank_grey_png(16384, 16384);
  EXPECT_LT(png.size(), 4u << 20);  // a small file
  mote::test::write_bytes(dir / "huge.png", png);
  const long before = peak_rss_kib();
  auto atlas = mote::assets::build_atlas({{.key = "huge.png", .path = dir / "huge.png"}});
  const long grown_mib = (peak_rss_kib() - before) / 1024;
  ASSERT_FALSE(atlas.ok());
  EXPECT_EQ(atlas.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(atlas.error().message.find("16384 x 16384"), std::string::npos) << atlas.error().message;
  EXPECT_LT(grown_mib, 200) << "refusing the texture cost " << grown_mib << " MiB";
}

// Finding 11: a 0 x 0 or 100000 x 100000 header was "unknown image type".
TEST(ImageFindings, ImpossibleHeadersAreNamedBySize) {
  for (auto [w, h] : {std::pair<uint32_t, uint32_t>{0, 0}, {100000, 100000}, {0, 5}, {70000, 1}}) {
    const std::vector<uint8_t> png = mote::test::blank_grey_png(w, h);
    auto image = mote::assets::decode_image(png, "claimed.png");
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().code, ErrorCode::kFormat);
    const std::string size = std::to_string(w) + " x " + std::to_string(h);
    EXPECT_NE(image.error().message.find(size), std::string::npos) << image.error().message;
  }
}

// Found by fuzz/fuzz_image under UBSan: stb_image 2.27 overflows its Huffman tables on a DHT
// segment whose counts sum past 256 (out of bounds writes in stbi__build_huffman and after it).
// The file is refused before stb decodes it; a DHT segment before the frame header is refused
// before stbi_info reads it too.
TEST(ImageFindings, JpegHuffmanTableOfMoreThan256CodesIsRefused) {
  const std::vector<uint8_t> jpeg = read_bytes(fs::path(MOTE_RELIABILITY_DATA_DIR) / "stb_jpeg_dht_overflow.jpg");
  ASSERT_GT(jpeg.size(), 100u);
  auto image = mote::assets::decode_image(jpeg, "dht.jpg");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().code, ErrorCode::kFormat);
  EXPECT_NE(image.error().message.find("Huffman"), std::string::npos) << image.error().message;
  // The same table moved before the frame header (SOF0): stbi_info would read it.
  std::vector<uint8_t> early{0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x13, 0x00};
  for (int k = 0; k < 16; ++k) early.push_back(0x20);  // 16 x 32 = 512 codes
  early.insert(early.end(), jpeg.begin() + 2, jpeg.end());
  auto probed = mote::assets::probe_image(early, "early.jpg");
  ASSERT_FALSE(probed.ok());
  EXPECT_NE(probed.error().message.find("Huffman"), std::string::npos) << probed.error().message;
  // A well-formed JPEG still decodes.
  auto good = mote::assets::decode_image(read_bytes(fs::path(MOTE_FUZZ_CORPUS_DIR) / "fuzz_image" / "stb_12x8.jpg"),
                                         "good.jpg");
  EXPECT_TRUE(good.ok()) << good.error().to_string();
}

// Found by the fuzz_image campaign (docs/design/reliability.md): the file ends inside a DHT
// table whose counts present already sum past 256; stb reads the missing bytes as zeros and
// overflows the table all the same, so the check must count a truncated table too.
TEST(ImageFindings, TruncatedJpegHuffmanTableOfMoreThan256CodesIsRefused) {
  const std::vector<uint8_t> jpeg = read_bytes(fs::path(MOTE_RELIABILITY_DATA_DIR) / "stb_jpeg_dht_truncated.jpg");
  ASSERT_EQ(jpeg.size(), 46u);
  auto probed = mote::assets::probe_image(jpeg, "truncated.jpg");
  ASSERT_FALSE(probed.ok());
  EXPECT_EQ(probed.error().code, ErrorCode::kFormat);
  EXPECT_NE(probed.error().message.find("Huffman"), std::string::npos) << probed.error().message;
  auto image = mote::assets::decode_image(jpeg, "truncated.jpg");
  ASSERT_FALSE(image.ok());
  EXPECT_NE(image.error().message.find("Huffman"), std::string::npos) << image.error().message;
}

// Found by the same campaign after that fix: stb takes any number of 0xFF fill bytes before the
// start-of-image marker, so a file of 128 fill bytes and then a JPEG is a JPEG to stb, and its
// oversized table must be refused like any other.
TEST(ImageFindings, JpegAfterFillBytesIsCheckedLikeAnyJpeg) {
  const std::vector<uint8_t> jpeg = read_bytes(fs::path(MOTE_RELIABILITY_DATA_DIR) / "stb_jpeg_dht_after_fill.jpg");
  ASSERT_EQ(jpeg.size(), 645u);
  auto image = mote::assets::decode_image(jpeg, "fill.jpg");
  ASSERT_FALSE(image.ok());
  EXPECT_NE(image.error().message.find("Huffman"), std::string::npos) << image.error().message;
  // Fill bytes before a good JPEG change nothing: it still decodes.
  std::vector<uint8_t> good = read_bytes(fs::path(MOTE_FUZZ_CORPUS_DIR) / "fuzz_image" / "stb_12x8.jpg");
  good.insert(good.begin(), 40, 0xFF);
  auto decoded = mote::assets::decode_image(good, "good_after_fill.jpg");
  EXPECT_TRUE(decoded.ok()) << decoded.error().to_string();
}

// Found by fuzz/fuzz_image as a timeout: stb_image 2.27's HDR reader loops without end on this
// file. HDR, GIF, PSD, PIC and PNM are refused before stb reads them; PNG, JPEG, BMP, TGA are read.
TEST(ImageFindings, FormatsMoteDoesNotReadAreRefusedBeforeStb) {
  const std::vector<uint8_t> hdr = read_bytes(fs::path(MOTE_RELIABILITY_DATA_DIR) / "stb_hdr_rle_endless.hdr");
  ASSERT_GT(hdr.size(), 10u);
  auto image = mote::assets::decode_image(hdr, "endless.hdr");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().code, ErrorCode::kUnsupported) << image.error().to_string();
  EXPECT_NE(image.error().message.find("HDR"), std::string::npos);
  for (const std::string magic : {"#?RGBE\n", "GIF89a", "8BPS", "P6\n2 2\n255\n", "P5 1 1 255 ", "\x53\x80\xF6\x34"}) {
    std::vector<uint8_t> bytes(magic.begin(), magic.end());
    bytes.resize(256, 0);
    auto refused = mote::assets::probe_image(bytes, "x");
    ASSERT_FALSE(refused.ok()) << magic;
    EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported) << magic;
  }
  for (const char* ok : {"stb_12x8.png", "stb_12x8.jpg", "stb_12x8.bmp", "stb_12x8.tga"}) {
    auto decoded = mote::assets::decode_image(read_bytes(fs::path(MOTE_FUZZ_CORPUS_DIR) / "fuzz_image" / ok), ok);
    EXPECT_TRUE(decoded.ok()) << ok << ": " << decoded.error().to_string();
  }
}

}  // namespace
