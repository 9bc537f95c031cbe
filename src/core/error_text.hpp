// Text from untrusted input inside error messages. A message names what it refused, and the
// input is hostile: a 10 MB token or raw non-UTF-8 bytes must not reach a terminal or a log
// (docs/design/reliability.md, finding 11). make_error passes every message and location
// through printable_text; the loaders quote the tokens they echo with quote_token.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mote::core {

inline constexpr size_t kMaxQuotedTokenBytes = 64;
inline constexpr size_t kMaxErrorMessageBytes = 1024;
inline constexpr size_t kMaxErrorWhereBytes = 1024;

// `text` with every byte that is not part of a valid UTF-8 character, and every control
// character but '\n' and '\t', written as \xNN; cut at a character boundary to at most
// `max_bytes` (before the escapes), with "… (N bytes)" appended when cut.
std::string printable_text(std::string_view text, size_t max_bytes);

// 'token' as printable_text writes it, cut to kMaxQuotedTokenBytes.
std::string quote_token(std::string_view token);

}  // namespace mote::core
