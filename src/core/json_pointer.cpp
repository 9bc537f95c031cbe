#include "core/json_pointer.hpp"

namespace mote {

std::string json_pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string json_child(const std::string& where, std::string_view key) { return where + "/" + json_pointer_token(key); }

std::string json_child(const std::string& where, size_t index) { return where + "/" + std::to_string(index); }

Error json_parse_error(const std::string& where, std::string message) {
  return make_error(ErrorCode::kParse, std::move(message), where.empty() ? "/" : where);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

}  // namespace mote
