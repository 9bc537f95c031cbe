// Text form of f32 immediates and constants: the shortest decimal that reads back to the same
// bits, or `f32:0x7fc00000` for NaN, infinities, -0 and anything that would not read back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mote::isa {

std::string format_f32(uint32_t bits);
// Accepts what format_f32 writes (and any decimal float literal); nullopt when malformed or
// out of f32 range.
std::optional<uint32_t> parse_f32(std::string_view text);
// Decimal or 0x-prefixed hexadecimal, no sign; nullopt on overflow or junk.
std::optional<uint32_t> parse_u32(std::string_view text);

}  // namespace mote::isa
