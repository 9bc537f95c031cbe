#include "isa/float_text.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace mote::isa {
namespace {
constexpr std::string_view kBitsPrefix = "f32:0x";

std::string bits_text(uint32_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "f32:0x%08x", bits);
  return buf;
}
}  // namespace

std::string format_f32(uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  // -0 would print as "-0", which reads back fine, but it is easy to lose in hand edits and
  // reads as "zero" to a human: keep it explicit, like NaN and the infinities.
  if (!std::isfinite(f) || bits == 0x80000000u) return bits_text(bits);
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), f);
  if (ec != std::errc()) return bits_text(bits);
  std::string text(buf, end);
  const std::optional<uint32_t> back = parse_f32(text);
  if (!back || *back != bits) return bits_text(bits);
  return text;
}

std::optional<uint32_t> parse_f32(std::string_view text) {
  if (text.substr(0, kBitsPrefix.size()) == kBitsPrefix) {
    const std::string_view hex = text.substr(kBitsPrefix.size());
    if (hex.empty() || hex.size() > 8) return std::nullopt;
    uint32_t bits = 0;
    const auto [ptr, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), bits, 16);
    if (ec != std::errc() || ptr != hex.data() + hex.size()) return std::nullopt;
    return bits;
  }
  if (text.empty()) return std::nullopt;
  // from_chars would also read "inf"/"nan"; those have the explicit bits form instead, so a
  // typo like "nan" is an error rather than some NaN.
  const char first = text[0] == '-' ? (text.size() > 1 ? text[1] : '\0') : text[0];
  if (!((first >= '0' && first <= '9') || first == '.')) return std::nullopt;
  float f = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return std::bit_cast<uint32_t>(f);
}

std::optional<uint32_t> parse_u32(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint32_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace mote::isa
