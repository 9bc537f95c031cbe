#include "core/error_text.hpp"

#include <cstdint>

namespace mote::core {
namespace {

// The length of the valid UTF-8 character at text[i], or 0 when the bytes there are not one
// (overlong forms, surrogates and code points past U+10FFFF included).
size_t utf8_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return uint8_t(text[k]); };
  const uint8_t lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1F;
  else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0F;
  else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07;
  else return 0;
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  constexpr uint32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

void append_escaped_byte(std::string& out, uint8_t b) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

}  // namespace

std::string printable_text(std::string_view text, size_t max_bytes) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t length = utf8_length(text, i);
    if (i + (length ? length : 1) > max_bytes) break;
    const uint8_t b = uint8_t(text[i]);
    if (length == 0 || (length == 1 && ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F))) {
      append_escaped_byte(out, b);
      i += 1;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  if (i < text.size()) out += "\u2026 (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string quote_token(std::string_view token) { return "'" + printable_text(token, kMaxQuotedTokenBytes) + "'"; }

}  // namespace mote::core
