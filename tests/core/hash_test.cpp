// Content hashes and pointer tokens (src/core/hash.hpp, src/core/json_pointer.hpp) against the
// published check values of the functions they name, so a swapped implementation fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/hash.hpp"
#include "core/json_pointer.hpp"

namespace {

std::span<const uint8_t> bytes_of(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(Hash, Crc32MatchesTheStandardCheckValueAndContinues) {
  EXPECT_EQ(mote::crc32(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(mote::crc32(bytes_of("")), 0u);
  // Continuing from a previous value is the same as hashing the concatenation.
  EXPECT_EQ(mote::crc32(bytes_of("56789"), mote::crc32(bytes_of("1234"))), 0xCBF43926u);
}

TEST(Hash, ContentKeyIsXxh3AndSeparatesNearInputs) {
  EXPECT_EQ(mote::content_key64(bytes_of("")), 0x2D06800538D394C2ull);  // XXH3_64bits of nothing
  std::vector<uint8_t> a(1000, 7), b = a;
  b[999] ^= 1;
  EXPECT_EQ(mote::content_key64(a), mote::content_key64(std::vector<uint8_t>(1000, 7)));
  EXPECT_NE(mote::content_key64(a), mote::content_key64(b));
}

TEST(Hash, Fnv1aKeepsItsFixedValuesForTheSeedsFilesDependOn) {
  EXPECT_EQ(mote::fnv1a64(bytes_of("")), 0xcbf29ce484222325ull);
  EXPECT_EQ(mote::fnv1a64(bytes_of("a")), 0xaf63dc4c8601ec8cull);
}

TEST(JsonPointer, TokensEscapeTildeBeforeSlash) {
  EXPECT_EQ(mote::json_pointer_token("plain"), "plain");
  EXPECT_EQ(mote::json_pointer_token("a/b"), "a~1b");
  EXPECT_EQ(mote::json_pointer_token("m~n"), "m~0n");
  EXPECT_EQ(mote::json_pointer_token("~/"), "~0~1");
  EXPECT_EQ(mote::json_pointer_token(""), "");
  EXPECT_EQ(mote::json_child("/nodes", "x/y"), "/nodes/x~1y");
  EXPECT_EQ(mote::json_child("", size_t(3)), "/3");
}

}  // namespace
