#include "core/json_pointer.hpp"

#include <nlohmann/json.hpp>

namespace mote {

std::string json_pointer_token(std::string_view key) {
  // nlohmann's json_pointer does the RFC 6901 escaping; a one-token pointer prints as "/" + token.
  return (nlohmann::json::json_pointer() / std::string(key)).to_string().substr(1);
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
