// Little-endian byte writing and bounded reading for the cooked-effect format
// (docs/design/cooked.md). The reader never reads past its span: every read checks what is left
// and fails with a kFormat error at the file offset where the missing or bad bytes are.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mote/result.hpp"

namespace mote::cook {

std::string offset_text(size_t offset);  // "offset 0x24"

class ByteWriter {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void f32(float v) { u32(std::bit_cast<uint32_t>(v)); }
  // u32 length, the bytes, zeros to the next multiple of 4.
  void string(std::string_view s);
  void raw(std::span<const uint8_t> bytes);
  void pad();
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

class ByteReader {
 public:
  // `base` is the offset of bytes[0] in the file, for error locations.
  ByteReader(std::span<const uint8_t> bytes, size_t base) : bytes_(bytes), base_(base) {}
  Result<uint32_t> u32();
  Result<float> f32();  // finite only
  Result<std::string> string(uint32_t max_bytes);
  Result<std::span<const uint8_t>> raw(size_t size);
  Status zero_padding();  // to the next multiple of 4, every byte zero
  Status at_end() const;  // nothing left over
  size_t offset() const { return base_ + at_; }
  size_t left() const { return bytes_.size() - at_; }
  Error error(std::string message) const { return error_at(std::move(message), offset()); }
  Error error_at(std::string message, size_t offset) const {
    return make_error(ErrorCode::kFormat, std::move(message), offset_text(offset));
  }

 private:
  std::span<const uint8_t> bytes_;
  size_t base_ = 0;
  size_t at_ = 0;
};

}  // namespace mote::cook
