#include "core/json_reader.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mote::core {

using nlohmann::json;

namespace {

// Thrown by the parse callback to stop the parser at once: the callback's `false` only discards
// a value, and the parser would go on reading (and stacking) every level below it.
struct TooDeep {
  Error error;
};

// The parse callback: finds the first duplicate key and refuses nesting past kMaxJsonDepth, each
// with its pointer. Each frame is an open object or array and the element being read in it.
class StrictParseCallback {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open(false); break;
      case json::parse_event_t::array_start: open(true); break;
      case json::parse_event_t::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && !duplicate_)
          duplicate_ = json_parse_error(pointer(), fmt::format("duplicate key '{}'", top.key));
        break;
      }
      case json::parse_event_t::value: element_done(); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
    }
    return true;
  }
  const std::optional<Error>& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;  // arrays: the element being read
    std::string key;   // objects: the key being read
    std::set<std::string> keys;
  };
  // Called before the parser builds the new level, so a refusal here bounds what it allocates.
  void open(bool array) {
    if (frames_.size() >= kMaxJsonDepth)
      throw TooDeep{json_parse_error(pointer(), fmt::format("JSON nests deeper than {} levels", kMaxJsonDepth))};
    frames_.emplace_back().array = array;
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
  std::vector<Frame> frames_;
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

Result<json> parse_json(std::string_view text) {
  StrictParseCallback callback;
  json j;
  try {
    j = json::parse(text.begin(), text.end(), std::ref(callback));
  } catch (const json::exception& e) {
    return json_parse_error("/", fmt::format("not valid JSON: {}", e.what()));
  } catch (TooDeep& e) {
    return std::move(e.error);
  }
  if (callback.duplicate()) return *callback.duplicate();
  return j;
}

Status check_object(const json& j, const std::string& where, std::initializer_list<std::string_view> allowed) {
  MOTE_TRY(expect_object(j, where));
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (auto a : allowed) known = known || it.key() == a;
    if (!known) return json_parse_error(json_child(where, it.key()), fmt::format("unknown key '{}'", it.key()));
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
  return json_parse_error(where, fmt::format("'{}' is not one of {}", s, list));
}

Result<std::string> read_identifier(const json& j, const std::string& where) {
  MOTE_TRY_ASSIGN(std::string s, read_string(j, where));
  if (!is_identifier(s))
    return json_parse_error(where, fmt::format("'{}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64)", s));
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
