// The strict JSON reader every Mote document loader shares (effect documents, scene files): a
// parse that refuses duplicate keys and deep nesting, and typed readers that refuse anything
// outside a format with a kParse error whose `where` is the JSON pointer of the value at fault
// (src/core/json_pointer.hpp). The loaders stop at the first error they get; nothing here
// asserts on input.
//
// The header names nlohmann::json through its forward declarations; a file that calls these
// functions includes <nlohmann/json.hpp> and links nlohmann_json itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/json_pointer.hpp"
#include "mote/result.hpp"

namespace mote::core {

// How deeply arrays and objects may nest, the outermost one counting 1. Mote's documents nest
// about 7 deep (/update/nodes/0/params/keys/1/0); 64 is far above any real document, equals the
// glTF loader's limit (src/assets/gltf_loader.cpp), and refuses a hostile "[[[[…" document
// after its 65th byte.
inline constexpr size_t kMaxJsonDepth = 64;

// Values (scalars, arrays and objects) a document may hold: a scene of 2^20 emitters with a few
// members each stays well under it; a 64 MiB document of "[0,0,0,…" is refused before its DOM
// (tens of bytes a value) is built.
inline constexpr size_t kMaxJsonValues = size_t(1) << 24;

// The array at `pointer` ("/emitters") may hold at most `max_elements` entries: the loader's own
// list limits, enforced while the text is read rather than after the DOM holds every entry.
struct JsonArrayLimit {
  std::string_view pointer;
  size_t max_elements;
};

// Parses `text` in O(text): a strict pre-pass over the text, then the DOM. Refuses, at a JSON
// pointer:
//   - text that is not JSON: "not valid JSON: …" at "/" (the offending token quoted, cut short);
//   - an array or object nested deeper than kMaxJsonDepth: at the one that opens past the limit;
//   - an array named in `limits` with more entries than its limit: at the first entry past it;
//   - more than kMaxJsonValues values: at the first one past it;
//     each found before the DOM is built, so the cost is bounded by the limit and not by the
//     document's size;
//   - a key that appears twice in one object: at the second (nlohmann::json would silently keep
//     the last one). A syntax error anywhere in the text is reported in preference to this.
// Memory exhaustion is kOutOfMemory, never an exception.
Result<nlohmann::json> parse_json(std::string_view text, std::span<const JsonArrayLimit> limits = {});

// A closed interval by default; an open end excludes the bound itself.
struct NumberRange {
  double lo;
  double hi;
  bool lo_open = false;
  bool hi_open = false;
};

// Every finite 32-bit float.
inline constexpr NumberRange kAnyFloat{-3.4e38, 3.4e38};

// `j` is an object whose every key is in `allowed` (the first other key is refused at its own
// pointer).
Status check_object(const nlohmann::json& j, const std::string& where, std::initializer_list<std::string_view> allowed);
// `j` (an object) has `key`; refused at `where`.
Status require(const nlohmann::json& j, const std::string& where, std::string_view key);
// `j` (an object) does not have both `a` and `b`; refused at b.
Status exclusive(const nlohmann::json& j, const std::string& where, std::string_view a, std::string_view b);
// `j` is an object (any keys).
Status expect_object(const nlohmann::json& j, const std::string& where);

// A finite number in `range` that fits a 32-bit float.
Result<float> read_number(const nlohmann::json& j, const std::string& where, NumberRange range);
// An integer (no fraction, no exponent) in [lo, hi]; hi is at most 2^32 - 1.
Result<uint32_t> read_uint(const nlohmann::json& j, const std::string& where, uint64_t lo, uint64_t hi);
Result<std::string> read_string(const nlohmann::json& j, const std::string& where);
Result<bool> read_bool(const nlohmann::json& j, const std::string& where);
// A string equal to one of `choices`.
Result<std::string> read_choice(const nlohmann::json& j, const std::string& where,
                                std::initializer_list<std::string_view> choices);
// A string that is_identifier accepts.
Result<std::string> read_identifier(const nlohmann::json& j, const std::string& where);
// An array (of anything) of at most `max_size` elements, returned for the caller to walk.
Result<const nlohmann::json*> read_array(const nlohmann::json& j, const std::string& where, size_t max_size = SIZE_MAX);
// Every element of the array `j` as read_number reads it, each at its own index's pointer. The
// caller checks the element count first, with the message its format wants.
Result<std::vector<float>> read_number_elements(const nlohmann::json& j, const std::string& where, NumberRange range);

// The optional member `key` of the object `j` at `where`: read into `out` when present (errors
// at where/key); when absent, `out` keeps the default it already holds.
Status read_optional_number(const nlohmann::json& j, const std::string& where, std::string_view key, NumberRange range,
                            float& out);
Status read_optional_uint(const nlohmann::json& j, const std::string& where, std::string_view key, uint64_t lo,
                          uint64_t hi, uint32_t& out);
Status read_optional_bool(const nlohmann::json& j, const std::string& where, std::string_view key, bool& out);
Status read_optional_string(const nlohmann::json& j, const std::string& where, std::string_view key, std::string& out);

}  // namespace mote::core
