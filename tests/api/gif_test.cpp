// mote::GifWriter (mote/image.hpp): the file it writes decodes with giflib to the frames it was
// given — count, size, the loop extension, each frame's delay, and colours close to the input.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "mote/image.hpp"

namespace mote {
namespace {

ImageRgba8 gradient(uint32_t width, uint32_t height, uint32_t shift) {
  ImageRgba8 image{width, height, std::vector<uint8_t>(size_t(width) * height * 4)};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(size_t(y) * width + x) * 4];
      p[0] = uint8_t((x * 255) / (width - 1));
      p[1] = uint8_t((y * 255) / (height - 1));
      p[2] = uint8_t(shift * 60);
      p[3] = 255;
    }
  return image;
}

class GifTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mote_gif_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(GifTest, DecodesToTheFramesWritten) {
  const auto path = dir_ / "frames.gif";
  constexpr uint32_t kWidth = 48, kHeight = 20, kFrames = 4;
  {
    Result<std::unique_ptr<GifWriter>> gif = GifWriter::create(path, kWidth, kHeight, 25);
    ASSERT_TRUE(gif.ok()) << gif.error().to_string();
    for (uint32_t f = 0; f < kFrames; ++f) ASSERT_TRUE((*gif)->add_frame(gradient(kWidth, kHeight, f)).ok());
    EXPECT_EQ((*gif)->frames_written(), kFrames);
    ASSERT_TRUE((*gif)->finish().ok());
  }
  int error = 0;
  GifFileType* file = DGifOpenFileName(path.c_str(), &error);
  ASSERT_NE(file, nullptr) << GifErrorString(error);
  ASSERT_EQ(DGifSlurp(file), GIF_OK) << GifErrorString(file->Error);
  EXPECT_EQ(file->SWidth, int(kWidth));
  EXPECT_EQ(file->SHeight, int(kHeight));
  ASSERT_EQ(file->ImageCount, int(kFrames));
  // giflib hands an extension to the image it precedes: the loop extension is the first image's.
  bool loops = false;
  for (int i = 0; i < file->SavedImages[0].ExtensionBlockCount; ++i) {
    const ExtensionBlock& b = file->SavedImages[0].ExtensionBlocks[i];
    loops = loops || (b.Function == APPLICATION_EXT_FUNC_CODE && b.ByteCount == 11 &&
                      std::string(reinterpret_cast<const char*>(b.Bytes), 11) == "NETSCAPE2.0");
  }
  EXPECT_TRUE(loops) << "no NETSCAPE2.0 loop extension";
  for (int f = 0; f < file->ImageCount; ++f) {
    const SavedImage& image = file->SavedImages[f];
    GraphicsControlBlock control;
    ASSERT_EQ(DGifSavedExtensionToGCB(file, f, &control), GIF_OK);
    EXPECT_EQ(control.DelayTime, 4);  // 100 / 25 fps
    ASSERT_EQ(image.ImageDesc.Width, int(kWidth));
    ASSERT_EQ(image.ImageDesc.Height, int(kHeight));
    ASSERT_NE(image.ImageDesc.ColorMap, nullptr);
    const ImageRgba8 expected = gradient(kWidth, kHeight, uint32_t(f));
    // 960 colours into 256 by giflib's median cut (5 bits a channel inside): close on average,
    // never far (a wrong palette or index is off by ~100).
    int worst = 0;
    double total = 0.0;
    for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
      const GifColorType c = image.ImageDesc.ColorMap->Colors[image.RasterBits[i]];
      const int off = std::max({std::abs(int(c.Red) - expected.pixels[i * 4]),
                                std::abs(int(c.Green) - expected.pixels[i * 4 + 1]),
                                std::abs(int(c.Blue) - expected.pixels[i * 4 + 2])});
      worst = std::max(worst, off);
      total += off;
    }
    EXPECT_LE(total / double(kWidth * kHeight), 16.0) << "frame " << f;
    EXPECT_LE(worst, 48) << "frame " << f << ": a colour far from the input";
  }
  DGifCloseFile(file, &error);
}

TEST_F(GifTest, RefusesWhatItCannotWrite) {
  EXPECT_EQ(GifWriter::create(dir_ / "a.gif", 0, 10, 24).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(GifWriter::create(dir_ / "b.gif", 10, 10, 0).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(GifWriter::create(dir_ / "no_such_dir" / "c.gif", 10, 10, 24).error().code, ErrorCode::kIo);
  Result<std::unique_ptr<GifWriter>> gif = GifWriter::create(dir_ / "d.gif", 10, 10, 24);
  ASSERT_TRUE(gif.ok());
  EXPECT_EQ((*gif)->add_frame(gradient(12, 10, 0)).error().code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE((*gif)->finish().ok());
  EXPECT_EQ((*gif)->add_frame(gradient(10, 10, 0)).error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote
