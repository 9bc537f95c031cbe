// JSON pointers (RFC 6901) for error locations, shared by every strict JSON loader (effect
// documents, scene files): escaping a key into a token, appending it to a pointer, the
// identifier rule for names, and the kParse error that carries the pointer in `where`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "mote/result.hpp"

namespace mote {

// `key` escaped as a pointer token ('~' → "~0", '/' → "~1").
std::string json_pointer_token(std::string_view key);
// `where` + "/" + the escaped key.
std::string json_child(const std::string& where, std::string_view key);
// `where` + "/" + the array index.
std::string json_child(const std::string& where, size_t index);
// A kParse error at `where` ("/" for the document itself).
Error json_parse_error(const std::string& where, std::string message);
// [A-Za-z_][A-Za-z0-9_]*, at most 64 characters.
bool is_identifier(std::string_view s);

}  // namespace mote
