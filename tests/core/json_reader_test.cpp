// The strict JSON reader (src/core/json_reader.hpp): the parse's refusals (syntax, duplicate
// keys, nesting depth) and each typed reader's accept and refuse cases, with their pointers.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"

namespace {

using mote::ErrorCode;
using nlohmann::json;
using namespace mote::core;

// `r` failed with kParse at `where`, and its message contains `message_part`.
template <typename R>
void expect_refused(const R& r, const std::string& where, const std::string& message_part) {
  ASSERT_FALSE(r.ok()) << "accepted; expected an error at " << where;
  EXPECT_EQ(r.error().code, ErrorCode::kParse) << r.error().to_string();
  EXPECT_EQ(r.error().where, where) << r.error().to_string();
  EXPECT_NE(r.error().message.find(message_part), std::string::npos) << r.error().to_string();
}

// `depth` arrays inside one another around a 0.
std::string nested_arrays(size_t depth) { return std::string(depth, '[') + "0" + std::string(depth, ']'); }

// "/0/0/…" with `count` tokens.
std::string zeros_pointer(size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += "/0";
  return out;
}

// ---- parse_json --------------------------------------------------------------------------------

TEST(ParseJson, AcceptsADocument) {
  auto r = parse_json(R"({"a": [1, {"b": "c"}], "d": null})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ((*r)["a"][1]["b"], "c");
  EXPECT_TRUE((*r)["d"].is_null());
}

TEST(ParseJson, RefusesTextThatIsNotJson) {
  for (const char* text : {"", "{", "{\"a\": 1,}", "[1] x", "{'a': 1}", "[1e400]"}) {
    SCOPED_TRACE(text);
    expect_refused(parse_json(text), "/", "not valid JSON");
  }
}

TEST(ParseJson, RefusesADuplicateKeyAtTheSecond) {
  expect_refused(parse_json(R"({"a": 1, "b": 2, "a": 3})"), "/a", "duplicate key 'a'");
  expect_refused(parse_json(R"({"o": {"k": 1, "k": {"x": 1}}})"), "/o/k", "duplicate key 'k'");
}

TEST(ParseJson, DuplicateKeysInObjectsInArraysHaveTheirIndex) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([{"k": 1}, {"k": 1, "k": 2}])", "/1/k"},
      {R"({"a": [0, [1, 2], {"x": [{"y": 1}, {"z": 1, "z": 1}]}]})", "/a/2/x/1/z"},
      // Arrays and objects before the duplicate, nested and empty, advance the indices right.
      {R"({"a": [[], {}, [[0]], {"b": {}}, {"k": 1, "k": 2}]})", "/a/4/k"},
      {R"({"n": [{"v": [1, [2], {"x": 3}], "v": 4}]})", "/n/0/v"},
      {R"({"p/q": [{"t~u": 1, "t~u": 2}]})", "/p~1q/0/t~0u"},
  };
  for (const auto& [text, where] : cases) {
    SCOPED_TRACE(text);
    expect_refused(parse_json(text), where, "duplicate key");
  }
}

TEST(ParseJson, EqualKeysInDifferentObjectsAreFine) {
  EXPECT_TRUE(parse_json(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}], "k": 5})").ok());
}

TEST(ParseJson, ASyntaxErrorWinsOverAnEarlierDuplicate) {
  expect_refused(parse_json(R"({"a": 1, "a": 2, )"), "/", "not valid JSON");
}

TEST(ParseJson, AcceptsNestingAtTheDepthLimit) {
  auto r = parse_json(nested_arrays(kMaxJsonDepth));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const json* v = &*r;
  for (size_t i = 0; i < kMaxJsonDepth; ++i) {
    ASSERT_TRUE(v->is_array());
    v = &(*v)[0];
  }
  EXPECT_EQ(*v, 0);
}

TEST(ParseJson, RefusesNestingOnePastTheLimitAtTheLevelThatOpensPastIt) {
  const std::string message = "deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  expect_refused(parse_json(nested_arrays(kMaxJsonDepth + 1)), zeros_pointer(kMaxJsonDepth), message);

  // Objects count as levels too, and the pointer names their keys.
  std::string objects, pointer;
  for (size_t i = 0; i <= kMaxJsonDepth; ++i) objects += "{\"k\": ";
  objects += "1" + std::string(kMaxJsonDepth + 1, '}');
  for (size_t i = 0; i < kMaxJsonDepth; ++i) pointer += "/k";
  expect_refused(parse_json(objects), pointer, message);

  // Siblings do not add up: only nesting counts.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += (i ? "," : "") + nested_arrays(kMaxJsonDepth - 1);
  EXPECT_TRUE(parse_json(wide + "]").ok());
}

TEST(ParseJson, RefusesAHostileDeepDocumentFast) {
  // 150 MB of nesting: building it would take gigabytes and seconds. The refusal comes after
  // kMaxJsonDepth + 1 bytes, which the pointer shows.
  const size_t depth = size_t(75) << 20;
  const std::string text = std::string(depth, '[') + std::string(depth, ']');
  const auto start = std::chrono::steady_clock::now();
  auto r = parse_json(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  expect_refused(r, zeros_pointer(kMaxJsonDepth), "nests deeper");
  EXPECT_LT(seconds, 1.0);
  // Unterminated: refused for its depth before the parser could see the missing end.
  expect_refused(parse_json(std::string(depth, '[')), zeros_pointer(kMaxJsonDepth), "nests deeper");
}

// ---- object shape ------------------------------------------------------------------------------

TEST(CheckObject, AcceptsKnownKeysAndRefusesOthersAtTheirPointer) {
  const json j = json::parse(R"({"a": 1, "b": 2})");
  EXPECT_TRUE(check_object(j, "/x", {"a", "b", "c"}).ok());
  EXPECT_TRUE(check_object(json::object(), "/x", {}).ok());
  expect_refused(check_object(j, "/x", {"a"}), "/x/b", "unknown key 'b'");
  expect_refused(check_object(json::parse(R"({"a/b~": 1})"), "/x", {"a"}), "/x/a~1b~0", "unknown key");
  expect_refused(check_object(json::array(), "/x", {"a"}), "/x", "expected an object, got array");
  // The document itself is "/".
  expect_refused(check_object(json(3), "", {}), "/", "expected an object, got number");
}

TEST(ExpectObject, AcceptsAnyObject) {
  EXPECT_TRUE(expect_object(json::parse(R"({"anything": 1})"), "/p").ok());
  expect_refused(expect_object(json("s"), "/p"), "/p", "expected an object, got string");
}

TEST(Require, RefusesAMissingKeyAtTheObject) {
  const json j = json::parse(R"({"a": null})");
  EXPECT_TRUE(require(j, "/o", "a").ok());
  expect_refused(require(j, "/o", "b"), "/o", "missing required key 'b'");
}

TEST(Exclusive, RefusesBothAtTheSecond) {
  EXPECT_TRUE(exclusive(json::parse(R"({"a": 1})"), "/o", "a", "b").ok());
  EXPECT_TRUE(exclusive(json::parse(R"({"b": 1})"), "/o", "a", "b").ok());
  expect_refused(exclusive(json::parse(R"({"a": 1, "b": 1})"), "/o", "a", "b"), "/o/b", "'a' and 'b' are exclusive");
}

// ---- scalars -----------------------------------------------------------------------------------

TEST(ReadNumber, AcceptsNumbersInTheRange) {
  auto r = read_number(json(0.5), "/n", {0.0, 1.0});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 0.5f);
  EXPECT_EQ(*read_number(json(0), "/n", {0.0, 1.0}), 0.0f);  // closed ends include the bounds
  EXPECT_EQ(*read_number(json(1), "/n", {0.0, 1.0}), 1.0f);
  EXPECT_EQ(*read_number(json(-7), "/n", kAnyFloat), -7.0f);  // integers are numbers
  EXPECT_FLOAT_EQ(*read_number(json(3e38), "/n", kAnyFloat), 3e38f);
}

TEST(ReadNumber, RefusesOutsideTheRangeWithItsEnds) {
  expect_refused(read_number(json(2), "/n", {0.0, 1.0}), "/n", "2 is outside [0, 1]");
  expect_refused(read_number(json(-0.5), "/n", {0.0, 1.0}), "/n", "-0.5 is outside [0, 1]");
  expect_refused(read_number(json(0), "/n", {0.0, 1.0, true}), "/n", "0 is outside (0, 1]");
  expect_refused(read_number(json(1), "/n", {0.0, 1.0, false, true}), "/n", "1 is outside [0, 1)");
  EXPECT_TRUE(read_number(json(1e-9), "/n", {0.0, 1.0, true}).ok());
  expect_refused(read_number(json(1e300), "/n", kAnyFloat), "/n", "is outside");
}

TEST(ReadNumber, RefusesWhatIsNotAFiniteFloat) {
  expect_refused(read_number(json("1"), "/n", kAnyFloat), "/n", "expected a number, got string");
  expect_refused(read_number(json(true), "/n", kAnyFloat), "/n", "expected a number, got boolean");
  expect_refused(read_number(json(std::numeric_limits<double>::infinity()), "/n", {-1e308, 1e308}), "/n", "not finite");
  expect_refused(read_number(json(std::nan("")), "/n", kAnyFloat), "/n", "not finite");
  // A range wider than a float's still gets a float or nothing.
  expect_refused(read_number(json(1e39), "/n", {-1e300, 1e300}), "/n", "does not fit a 32-bit float");
}

TEST(ReadUint, AcceptsIntegersInTheRange) {
  EXPECT_EQ(*read_uint(json(4), "/u", 1, 4), 4u);
  EXPECT_EQ(*read_uint(json(1), "/u", 1, 4), 1u);
  EXPECT_EQ(*read_uint(json::parse("4294967295"), "/u", 0, 0xffffffffu), 0xffffffffu);
}

TEST(ReadUint, RefusesOtherNumbersAndTypes) {
  expect_refused(read_uint(json(5), "/u", 1, 4), "/u", "integer is outside [1, 4]");
  expect_refused(read_uint(json(0), "/u", 1, 4), "/u", "integer is outside [1, 4]");
  expect_refused(read_uint(json(-1), "/u", 0, 4), "/u", "integer is outside [0, 4]");
  expect_refused(read_uint(json::parse("4294967296"), "/u", 0, 0xffffffffu), "/u", "outside");
  expect_refused(read_uint(json::parse("18446744073709551615"), "/u", 0, 0xffffffffu), "/u", "outside");
  expect_refused(read_uint(json(1.5), "/u", 0, 4), "/u", "expected an integer, got number");
  expect_refused(read_uint(json::parse("2.0"), "/u", 0, 4), "/u", "expected an integer");
  expect_refused(read_uint(json("2"), "/u", 0, 4), "/u", "expected an integer, got string");
}

TEST(ReadString, ReadsStringsOnly) {
  EXPECT_EQ(*read_string(json("héllo"), "/s"), "héllo");
  EXPECT_EQ(*read_string(json(""), "/s"), "");
  expect_refused(read_string(json(1), "/s"), "/s", "expected a string, got number");
  expect_refused(read_string(json(nullptr), "/s"), "/s", "expected a string, got null");
}

TEST(ReadBool, ReadsBooleansOnly) {
  EXPECT_TRUE(*read_bool(json(true), "/b"));
  EXPECT_FALSE(*read_bool(json(false), "/b"));
  expect_refused(read_bool(json(1), "/b"), "/b", "expected true or false, got number");
  expect_refused(read_bool(json("true"), "/b"), "/b", "expected true or false, got string");
}

TEST(ReadChoice, ReadsOneOfTheChoices) {
  EXPECT_EQ(*read_choice(json("add"), "/c", {"alpha", "add"}), "add");
  expect_refused(read_choice(json("mul"), "/c", {"alpha", "add"}), "/c", "'mul' is not one of alpha, add");
  expect_refused(read_choice(json("Alpha"), "/c", {"alpha"}), "/c", "not one of");
  expect_refused(read_choice(json(0), "/c", {"alpha"}), "/c", "expected a string");
}

TEST(ReadIdentifier, ReadsIdentifiersUpTo64Characters) {
  EXPECT_EQ(*read_identifier(json("_a9"), "/i"), "_a9");
  EXPECT_TRUE(read_identifier(json(std::string(64, 'x')), "/i").ok());
  const std::string bad_names[] = {"", "9a", "a-b", "a.b", "a b", std::string(65, 'x')};
  for (const std::string& bad : bad_names) {
    SCOPED_TRACE(bad);
    expect_refused(read_identifier(json(bad), "/i"), "/i", "is not an identifier");
  }
  expect_refused(read_identifier(json(7), "/i"), "/i", "expected a string");
}

// ---- arrays ------------------------------------------------------------------------------------

TEST(ReadArray, ReadsArraysUpToTheirLimit) {
  const json j = json::parse("[1, 2, 3]");
  auto r = read_array(j, "/a", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, &j);
  EXPECT_TRUE(read_array(j, "/a").ok());
  expect_refused(read_array(j, "/a", 2), "/a", "more than 2 entries");
  expect_refused(read_array(json::object(), "/a"), "/a", "expected an array, got object");
}

TEST(ReadNumberElements, ReadsEachElementAtItsIndex) {
  auto r = read_number_elements(json::parse("[1, 2.5, -3]"), "/v", kAnyFloat);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<float>{1.0f, 2.5f, -3.0f}));
  EXPECT_TRUE(read_number_elements(json::array(), "/v", kAnyFloat)->empty());
  expect_refused(read_number_elements(json::parse("[0, 0.5, 2]"), "/v", {0.0, 1.0}), "/v/2", "2 is outside [0, 1]");
  expect_refused(read_number_elements(json::parse(R"([0, "1"])"), "/v", kAnyFloat), "/v/1", "expected a number");
  expect_refused(read_number_elements(json(1), "/v", kAnyFloat), "/v", "expected an array");
}

// ---- optional members --------------------------------------------------------------------------

TEST(ReadOptional, AbsentKeepsTheDefaultPresentIsRead) {
  const json j = json::parse(R"({"n": 0.25, "u": 7, "b": true, "s": "x"})");
  struct Values {
    float n = 9.0f;
    uint32_t u = 9;
    bool b = false;
    std::string s = "d";
  };
  // Reads the members named by the keys above plus `suffix` into a Values of defaults.
  auto read_all = [&](const std::string& suffix) {
    Values v;
    EXPECT_TRUE(read_optional_number(j, "/o", "n" + suffix, {0.0, 1.0}, v.n).ok());
    EXPECT_TRUE(read_optional_uint(j, "/o", "u" + suffix, 0, 10, v.u).ok());
    EXPECT_TRUE(read_optional_bool(j, "/o", "b" + suffix, v.b).ok());
    EXPECT_TRUE(read_optional_string(j, "/o", "s" + suffix, v.s).ok());
    return v;
  };
  const Values present = read_all("");
  EXPECT_EQ(present.n, 0.25f);
  EXPECT_EQ(present.u, 7u);
  EXPECT_TRUE(present.b);
  EXPECT_EQ(present.s, "x");
  const Values absent = read_all("_absent");
  EXPECT_EQ(absent.n, 9.0f);
  EXPECT_EQ(absent.u, 9u);
  EXPECT_FALSE(absent.b);
  EXPECT_EQ(absent.s, "d");
}

TEST(ReadOptional, RefusesABadMemberAtItsPointer) {
  const json j = json::parse(R"({"n": 2, "u": 11, "b": 1, "s": 1, "a/b": -1})");
  float n = 0;
  uint32_t u = 0;
  bool b = false;
  std::string s;
  expect_refused(read_optional_number(j, "/o", "n", {0.0, 1.0}, n), "/o/n", "outside [0, 1]");
  expect_refused(read_optional_number(j, "/o", "a/b", {0.0, 1.0}, n), "/o/a~1b", "outside");
  expect_refused(read_optional_uint(j, "/o", "u", 0, 10, u), "/o/u", "outside [0, 10]");
  expect_refused(read_optional_bool(j, "/o", "b", b), "/o/b", "expected true or false");
  expect_refused(read_optional_string(j, "/o", "s", s), "/o/s", "expected a string");
  EXPECT_EQ(n, 0.0f);  // a refused value is not stored
  EXPECT_EQ(u, 0u);
}

}  // namespace
