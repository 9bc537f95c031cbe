// Shared helpers for the assets tests: a scratch directory, deterministic images, file bytes.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assets/image.hpp"

namespace mote::test {

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "mote_assets_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    if (info) name += std::string("_") + info->name();
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline uint32_t xorshift(uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

// Every texel different where the size allows: (x, y, tag, pseudo-random alpha).
inline assets::ImageRgba8 pattern_image(uint32_t width, uint32_t height, uint8_t tag) {
  assets::ImageRgba8 image;
  image.width = width;
  image.height = height;
  image.pixels.resize(size_t(width) * height * 4);
  uint32_t seed = 0x9e3779b9u ^ tag;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = image.at(x, y);
      p[0] = uint8_t(x * 7 + y);
      p[1] = uint8_t(y * 13 + x * 3);
      p[2] = tag;
      p[3] = uint8_t(xorshift(seed));
    }
  return image;
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  ASSERT_TRUE(f.good()) << path;
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

inline std::vector<uint8_t> to_bytes(const std::string& text) { return {text.begin(), text.end()}; }

}  // namespace mote::test
