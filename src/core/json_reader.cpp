#include "core/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error_text.hpp"

namespace mote::core {

using nlohmann::json;

namespace {

// The strict pre-pass: a SAX walk over the text that finds the first problem the DOM must not be
// built for, with its pointer: nesting past kMaxJsonDepth, an array past its JsonArrayLimit, more
// than kMaxJsonValues values (each refused when it opens, so the walk stops there), a syntax error,
// and the first duplicate key (kept, and reported only when the text has no syntax error). It
// costs O(text) and holds only the open levels. nlohmann::json's own parse callback cannot do
// this: after every object or array it closes, it scans the enclosing one for discarded values,
// which made a file of a million small objects quadratic (docs/design/reliability.md, finding 4).
class StrictSax {
 public:
  explicit StrictSax(std::span<const JsonArrayLimit> limits) : limits_(limits) {
    for (const JsonArrayLimit& l : limits_)
      limit_depth_ = std::max(limit_depth_, size_t(std::count(l.pointer.begin(), l.pointer.end(), '/')));
  }

  bool null() { return scalar(); }
  bool boolean(bool) { return scalar(); }
  bool number_integer(json::number_integer_t) { return scalar(); }
  bool number_unsigned(json::number_unsigned_t) { return scalar(); }
  bool number_float(json::number_float_t, const json::string_t&) { return scalar(); }
  bool string(json::string_t&) { return scalar(); }
  bool binary(json::binary_t&) { return scalar(); }
  bool start_object(size_t) { return open(false); }
  bool start_array(size_t) { return open(true); }
  bool key(json::string_t& key) {
    Frame& top = frames_.back();
    top.key = key;
    if (!top.keys.insert(key).second && !duplicate_)
      duplicate_ = json_parse_error(pointer(), fmt::format("duplicate key {}", quote_token(key)));
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    // e.what() quotes the last token whole: a 10 MB token or raw bytes would land in the message.
    std::string what = e.what();
    if (const size_t cut = what.find("; last read: "); cut != std::string::npos) what.resize(cut);
    error_ = json_parse_error("/", fmt::format("not valid JSON: {}; last read: {} (byte {})", what,
                                               quote_token(last_token), position));
    return false;
  }

  const std::optional<Error>& error() const { return error_; }
  const std::optional<Error>& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;         // arrays: the element being read
    size_t max_elements = 0;  // arrays: SIZE_MAX unless a JsonArrayLimit names this one
    std::string key;          // objects: the key being read
    std::set<std::string> keys;
  };

  // A value starts in the innermost frame: counted, and checked against its array's limit.
  bool begin_value() {
    if (++values_ > kMaxJsonValues) {
      error_ = json_parse_error(pointer(), fmt::format("the document holds more than {} values", kMaxJsonValues));
      return false;
    }
    if (!frames_.empty() && frames_.back().array && frames_.back().index >= frames_.back().max_elements) {
      error_ = json_parse_error(pointer(), fmt::format("the array holds more than {} entries, its limit",
                                                       frames_.back().max_elements));
      return false;
    }
    return true;
  }
  bool scalar() {
    if (!begin_value()) return false;
    element_done();
    return true;
  }
  // Refused before the level is entered, so the walk holds at most kMaxJsonDepth frames.
  bool open(bool array) {
    if (!begin_value()) return false;
    if (frames_.size() >= kMaxJsonDepth) {
      error_ = json_parse_error(pointer(), fmt::format("JSON nests deeper than {} levels", kMaxJsonDepth));
      return false;
    }
    size_t max_elements = SIZE_MAX;
    if (array && frames_.size() < limit_depth_) {
      const std::string here = pointer();
      for (const JsonArrayLimit& l : limits_)
        if (l.pointer == here) max_elements = l.max_elements;
    }
    Frame& frame = frames_.emplace_back();
    frame.array = array;
    frame.max_elements = max_elements;
    return true;
  }
  bool close() {
    frames_.pop_back();
    element_done();
    return true;
  }
  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  // The pointer of the value being read in the innermost frame.
  std::string pointer() const {
    std::string out;
    for (const Frame& f : frames_) out = f.array ? json_child(out, f.index) : json_child(out, f.key);
    return out;
  }

  std::span<const JsonArrayLimit> limits_;
  size_t limit_depth_ = 0;  // the most segments a limit's pointer has
  size_t values_ = 0;
  std::vector<Frame> frames_;
  std::optional<Error> error_;
  std::optional<Error> duplicate_;
};

// The read_optional_* functions: `read` the member `key` into `out` when the object has it.
template <typename T, typename Read>
Status read_member(const json& j, const std::string& where, std::string_view key, T& out, Read read) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  MOTE_TRY_ASSIGN(out, read(*it, json_child(where, key)));
  return {};
}

}  // namespace

Result<json> parse_json(std::string_view text, std::span<const JsonArrayLimit> limits) {
  StrictSax sax(limits);
  try {
    json::sax_parse(text.begin(), text.end(), &sax);
    if (sax.error()) return *sax.error();
    if (sax.duplicate()) return *sax.duplicate();
    // The pre-pass accepted the text: the DOM parse sees valid JSON within every limit.
    return json::parse(text.begin(), text.end());
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kOutOfMemory, fmt::format("out of memory reading {} bytes of JSON", text.size()), "/");
  } catch (const json::exception& e) {
    return json_parse_error("/", fmt::format("not valid JSON: {}", e.what()));
  }
}

Status check_object(const json& j, const std::string& where, std::initializer_list<std::string_view> allowed) {
  MOTE_TRY(expect_object(j, where));
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (auto a : allowed) known = known || it.key() == a;
    if (!known)
      return json_parse_error(json_child(where, it.key()), fmt::format("unknown key {}", quote_token(it.key())));
  }
  return {};
}

Status require(const json& j, const std::string& where, std::string_view key) {
  if (!j.contains(key)) return json_parse_error(where, fmt::format("missing required key '{}'", key));
  return {};
}

Status exclusive(const json& j, const std::string& where, std::string_view a, std::string_view b) {
  if (j.contains(a) && j.contains(b))
    return json_parse_error(json_child(where, b), fmt::format("'{}' and '{}' are exclusive", a, b));
  return {};
}

Status expect_object(const json& j, const std::string& where) {
  if (!j.is_object()) return json_parse_error(where, fmt::format("expected an object, got {}", j.type_name()));
  return {};
}

Result<float> read_number(const json& j, const std::string& where, NumberRange range) {
  if (!j.is_number()) return json_parse_error(where, fmt::format("expected a number, got {}", j.type_name()));
  const double v = j.get<double>();
  if (!std::isfinite(v)) return json_parse_error(where, "number is not finite");
  const bool below = range.lo_open ? v <= range.lo : v < range.lo;
  const bool above = range.hi_open ? v >= range.hi : v > range.hi;
  if (below || above) {
    return json_parse_error(where, fmt::format("{} is outside {}{}, {}{}", v, range.lo_open ? '(' : '[', range.lo,
                                               range.hi, range.hi_open ? ')' : ']'));
  }
  if (std::fabs(v) > double(std::numeric_limits<float>::max()))
    return json_parse_error(where, "number does not fit a 32-bit float");
  return float(v);
}

Result<uint32_t> read_uint(const json& j, const std::string& where, uint64_t lo, uint64_t hi) {
  if (!j.is_number_integer()) return json_parse_error(where, fmt::format("expected an integer, got {}", j.type_name()));
  if (j.is_number_unsigned() || j.get<int64_t>() >= 0) {
    const uint64_t v = j.get<uint64_t>();
    if (v >= lo && v <= hi) return uint32_t(v);
  }
  return json_parse_error(where, fmt::format("integer is outside [{}, {}]", lo, hi));
}

Result<std::string> read_string(const json& j, const std::string& where) {
  if (!j.is_string()) return json_parse_error(where, fmt::format("expected a string, got {}", j.type_name()));
  return j.get<std::string>();
}

Result<bool> read_bool(const json& j, const std::string& where) {
  if (!j.is_boolean()) return json_parse_error(where, fmt::format("expected true or false, got {}", j.type_name()));
  return j.get<bool>();
}

Result<std::string> read_choice(const json& j, const std::string& where,
                                std::initializer_list<std::string_view> choices) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  std::string list;
  for (auto c : choices) {
    if (s == c) return s;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  return json_parse_error(where, fmt::format("{} is not one of {}", quote_token(s), list));
}

Result<std::string> read_identifier(const json& j, const std::string& where) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  if (!is_identifier(s))
    return json_parse_error(where, fmt::format("{} is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64)",
                                               quote_token(s)));
  return s;
}

Result<const json*> read_array(const json& j, const std::string& where, size_t max_size) {
  if (!j.is_array()) return json_parse_error(where, fmt::format("expected an array, got {}", j.type_name()));
  if (j.size() > max_size) return json_parse_error(where, fmt::format("more than {} entries", max_size));
  return &j;
}

Result<std::vector<float>> read_number_elements(const json& j, const std::string& where, NumberRange range) {
  MOTE_TRY_ASSIGN(const json* array, read_array(j, where));
  std::vector<float> out;
  out.reserve(array->size());
  for (size_t k = 0; k < array->size(); ++k) {
    MOTE_TRY_ASSIGN(float x, read_number((*array)[k], json_child(where, k), range));
    out.push_back(x);
  }
  return out;
}

Status read_optional_number(const json& j, const std::string& where, std::string_view key, NumberRange range,
                            float& out) {
  return read_member(j, where, key, out, [&](const json& v, const std::string& w) { return read_number(v, w, range); });
}

Status read_optional_uint(const json& j, const std::string& where, std::string_view key, uint64_t lo, uint64_t hi,
                          uint32_t& out) {
  return read_member(j, where, key, out, [&](const json& v, const std::string& w) { return read_uint(v, w, lo, hi); });
}

Status read_optional_bool(const json& j, const std::string& where, std::string_view key, bool& out) {
  return read_member(j, where, key, out, read_bool);
}

Status read_optional_string(const json& j, const std::string& where, std::string_view key, std::string& out) {
  return read_member(j, where, key, out, read_string);
}

}  // namespace mote::core
