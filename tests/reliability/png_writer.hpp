// A PNG writer for the image findings: an all-black 8-bit grey image of any size, compressed by
// runs (fixed-Huffman deflate, a 258-byte match at distance 1 per 13 bits), so a 16384 x 16384
// image is a 1.7 MB file made in milliseconds. Sizes past 2^29 texels get an image-data chunk of
// no pixels: those files are for header checks only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mote::test {

class BitWriter {
 public:
  void bits(uint32_t value, int count) {  // LSB first, as deflate packs its fields
    for (int i = 0; i < count; ++i) put((value >> i) & 1u);
  }
  void code(uint32_t code, int length) {  // Huffman codes go MSB first
    for (int i = length - 1; i >= 0; --i) put((code >> i) & 1u);
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  void put(uint32_t bit) {
    if (used_ == 0) bytes_.push_back(0);
    bytes_.back() |= uint8_t(bit << used_);
    used_ = (used_ + 1) % 8;
  }
  std::vector<uint8_t> bytes_;
  int used_ = 0;
};

inline uint32_t png_crc(const uint8_t* data, size_t size, uint32_t crc = 0xFFFFFFFFu) {
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc;
}

inline void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
}

inline void png_chunk(std::vector<uint8_t>& out, const char* type, const std::vector<uint8_t>& data) {
  put_be32(out, uint32_t(data.size()));
  std::vector<uint8_t> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  out.insert(out.end(), body.begin(), body.end());
  put_be32(out, png_crc(body.data(), body.size()) ^ 0xFFFFFFFFu);
}

// zlib stream of `n` zero bytes.
inline std::vector<uint8_t> zlib_zeros(uint64_t n) {
  BitWriter w;
  w.bits(1, 1);  // BFINAL
  w.bits(1, 2);  // fixed Huffman
  uint64_t left = n;
  if (left) {
    w.code(0x30, 8);  // literal 0
    --left;
  }
  for (; left >= 258; left -= 258) {
    w.code(0xC5, 8);  // length 258 (code 285)
    w.code(0, 5);     // distance 1 (code 0)
  }
  for (; left; --left) w.code(0x30, 8);
  w.code(0, 7);  // end of block (256)
  const std::vector<uint8_t> deflated = w.take();
  std::vector<uint8_t> out;
  out.reserve(deflated.size() + 6);
  out.push_back(0x78);  // deflate, 32 KiB window
  out.push_back(0x01);
  for (uint8_t b : deflated) out.push_back(b);
  const uint32_t adler = uint32_t((n % 65521) << 16 | 1u);  // a stays 1, b sums n ones
  put_be32(out, adler);
  return out;
}

inline std::vector<uint8_t> blank_grey_png(uint32_t width, uint32_t height) {
  std::vector<uint8_t> out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, width);
  put_be32(ihdr, height);
  ihdr.insert(ihdr.end(), {8, 0, 0, 0, 0});  // 8-bit grey, deflate, no filter method, no interlace
  png_chunk(out, "IHDR", ihdr);
  const uint64_t raw = (uint64_t(width) + 1) * height;  // a filter byte per row
  png_chunk(out, "IDAT", zlib_zeros(raw <= (uint64_t(1) << 29) ? raw : 0));
  png_chunk(out, "IEND", {});
  return out;
}

}  // namespace mote::test
