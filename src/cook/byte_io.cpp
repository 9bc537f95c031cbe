#include "cook/byte_io.hpp"

#include <cmath>
#include <cstdio>

namespace mote::cook {

std::string offset_text(size_t offset) {
  char text[32];
  std::snprintf(text, sizeof(text), "offset 0x%zx", offset);
  return text;
}

void ByteWriter::string(std::string_view s) {
  u32(uint32_t(s.size()));
  bytes_.insert(bytes_.end(), s.begin(), s.end());
  pad();
}

void ByteWriter::raw(std::span<const uint8_t> bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }

void ByteWriter::pad() {
  while (bytes_.size() % 4 != 0) bytes_.push_back(0);
}

Result<uint32_t> ByteReader::u32() {
  if (left() < 4) return error("needs 4 more bytes, " + std::to_string(left()) + " left");
  const uint8_t* p = bytes_.data() + at_;
  at_ += 4;
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

Result<float> ByteReader::f32() {
  const size_t at = offset();
  MOTE_TRY_ASSIGN(const uint32_t bits, u32());
  const float v = std::bit_cast<float>(bits);
  if (!std::isfinite(v)) return error_at("a number that is not finite", at);
  return v;
}

Result<std::string> ByteReader::string(uint32_t max_bytes) {
  const size_t at = offset();
  MOTE_TRY_ASSIGN(const uint32_t size, u32());
  if (size > max_bytes)
    return error_at("a string of " + std::to_string(size) + " bytes (at most " + std::to_string(max_bytes) + ")", at);
  MOTE_TRY_ASSIGN(const std::span<const uint8_t> text, raw(size));
  for (uint8_t c : text)
    if (c == 0) return error_at("a string with a zero byte", at);
  MOTE_TRY(zero_padding());
  return std::string(text.begin(), text.end());
}

Result<std::span<const uint8_t>> ByteReader::raw(size_t size) {
  if (left() < size) return error("needs " + std::to_string(size) + " more bytes, " + std::to_string(left()) + " left");
  const std::span<const uint8_t> out = bytes_.subspan(at_, size);
  at_ += size;
  return out;
}

Status ByteReader::zero_padding() {
  while (offset() % 4 != 0) {
    if (left() == 0) return error("padding is missing");
    if (bytes_[at_] != 0) return error("padding is not zero");
    ++at_;
  }
  return ok_status();
}

Status ByteReader::at_end() const {
  if (left() != 0) return error(std::to_string(left()) + " bytes left over");
  return ok_status();
}

}  // namespace mote::cook
