// Findings 4, 5, 7 and 11 of docs/design/reliability.md against the document loaders: scene
// files that were quadratic to read or refused only after the whole DOM was built, a transform
// chain with no depth limit, unbounded nesting, more bursts than the GPU frame schedules,
// duplicate keys, and error messages that echoed 10 MB tokens and raw bytes.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/emitter.hpp"
#include "scene/scene.hpp"

namespace {

using mote::ErrorCode;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string repeated(const std::string& item, size_t n, const std::string& separator = ",") {
  std::string out;
  out.reserve((item.size() + separator.size()) * n);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += separator;
    out += item;
  }
  return out;
}

// Whether every byte sequence of `s` is valid UTF-8 and printable (no control bytes but \n, \t).
bool printable_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = uint8_t(s[i]);
    size_t n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    if (n == 1 && ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F)) return false;
    for (size_t k = 1; k < n; ++k)
      if ((uint8_t(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

nlohmann::json explosion() {
  return nlohmann::json::parse(read_text(std::string(MOTE_EFFECTS_DIR) + "/explosion.json"));
}

// Finding 4: nlohmann's parse callback rescanned the enclosing array after each object it
// closed. A million empty objects (3 MB) took minutes; read in linear time they take well under
// a second, so the bound below has a wide margin for sanitizer builds and a loaded machine.
TEST(SceneFindings, MillionEmptyObjectsAreReadInLinearTime) {
  const std::string text = R"({"version": 1, "transforms": [)" + repeated("{}", 1000000) + "]}";
  const auto start = Clock::now();
  auto scene = mote::scene::load_scene(text, ".");
  const double seconds = seconds_since(start);
  ASSERT_FALSE(scene.ok());
  EXPECT_EQ(scene.error().where, "/transforms/0") << scene.error().to_string();
  EXPECT_LT(seconds, 20.0);
}

// Finding 4: the list limits are enforced while reading, at the first entry past the limit.
TEST(SceneFindings, EmittersPastTheLimitAreRefusedAtTheFirstOnePast) {
  const std::string text = R"({"version": 1, "emitters": [)" + repeated("{}", mote::scene::kMaxEmitters + 1) + "]}";
  const auto start = Clock::now();
  auto scene = mote::scene::load_scene(text, ".");
  ASSERT_FALSE(scene.ok());
  EXPECT_EQ(scene.error().code, ErrorCode::kParse);
  EXPECT_EQ(scene.error().where, "/emitters/" + std::to_string(mote::scene::kMaxEmitters)) << scene.error().to_string();
  EXPECT_NE(scene.error().message.find(std::to_string(mote::scene::kMaxEmitters)), std::string::npos);
  EXPECT_LT(seconds_since(start), 20.0);
}

// Finding 5: one GPU pass per level, and a 100,000-deep chain hung a one-frame render.
TEST(SceneFindings, TransformChainDeeperThanTheLimitIsRefusedAtItsParent) {
  std::string transforms = R"({"name": "t0"})";
  for (int i = 1; i < 100000; ++i)
    transforms += ",{\"name\": \"t" + std::to_string(i) + "\", \"parent\": \"t" + std::to_string(i - 1) + "\"}";
  auto scene = mote::scene::load_scene(R"({"version": 1, "transforms": [)" + transforms + "]}", ".");
  ASSERT_FALSE(scene.ok());
  EXPECT_EQ(scene.error().where, "/transforms/" + std::to_string(mote::kMaxTransformLevels) + "/parent")
      << scene.error().to_string();
  EXPECT_NE(scene.error().message.find(std::to_string(mote::kMaxTransformLevels + 1)), std::string::npos)
      << scene.error().message;

  // The deepest chain allowed loads, and the index finds every row.
  std::string ok = R"({"name": "t0"})";
  for (uint32_t i = 1; i < mote::kMaxTransformLevels; ++i)
    ok += ",{\"name\": \"t" + std::to_string(i) + "\", \"parent\": \"t" + std::to_string(i - 1) + "\"}";
  auto deepest = mote::scene::load_scene(R"({"version": 1, "transforms": [)" + ok + "]}", ".");
  ASSERT_TRUE(deepest.ok()) << deepest.error().to_string();
  EXPECT_EQ(deepest->find_transform("t63"), 63u);
  EXPECT_FALSE(deepest->find_transform("t64").has_value());
}

// Finding 7: nesting is refused before the DOM is built, in time and memory bounded by the limit.
TEST(DocumentFindings, DeepNestingIsRefusedEarly) {
  const std::string text = std::string(50 << 20, '[');
  const auto start = Clock::now();
  auto effect = mote::compile_effect(text);
  ASSERT_FALSE(effect.ok());
  EXPECT_EQ(effect.error().code, ErrorCode::kParse);
  EXPECT_NE(effect.error().message.find("deeper than"), std::string::npos) << effect.error().message;
  EXPECT_LT(seconds_since(start), 10.0);
}

// A document of more values than any real one holds is refused before its DOM.
TEST(DocumentFindings, TooManyValuesAreRefusedBeforeTheDom) {
  const std::string text = "[" + repeated("0", (size_t(1) << 24) + 1) + "]";
  auto effect = mote::compile_effect(text);
  ASSERT_FALSE(effect.ok());
  EXPECT_EQ(effect.error().code, ErrorCode::kParse);
  EXPECT_NE(effect.error().message.find("values"), std::string::npos) << effect.error().to_string();
}

// Finding 11: more than kMaxBursts bursts compiled and failed only in `render`.
TEST(DocumentFindings, MoreBurstsThanTheFrameSchedulesAreRefusedByCompile) {
  nlohmann::json doc = explosion();
  nlohmann::json bursts = nlohmann::json::array();
  for (uint32_t i = 0; i <= mote::kMaxBursts; ++i) bursts.push_back({{"time", i}, {"count", 10}});
  doc["emission"]["bursts"] = bursts;
  auto effect = mote::compile_effect(doc.dump());
  ASSERT_FALSE(effect.ok());
  EXPECT_EQ(effect.error().where, "/emission/bursts/" + std::to_string(mote::kMaxBursts)) << effect.error().to_string();
  // Bursts with no count never fire and do not count.
  bursts.erase(bursts.begin());
  bursts.push_back({{"time", 9}, {"count", 0}});
  doc["emission"]["bursts"] = bursts;
  auto fits = mote::compile_effect(doc.dump());
  EXPECT_TRUE(fits.ok()) << fits.error().to_string();
}

// Finding 11: duplicate keys were accepted, the last one winning.
TEST(DocumentFindings, DuplicateKeysAreRefused) {
  std::string text = explosion().dump();
  text.insert(1, R"("name": "first",)");
  auto effect = mote::compile_effect(text);
  ASSERT_FALSE(effect.ok());
  EXPECT_EQ(effect.error().where, "/name") << effect.error().to_string();
  EXPECT_NE(effect.error().message.find("duplicate"), std::string::npos);
}

// Finding 11: error messages echoed 10 MB tokens and raw non-UTF-8 bytes.
TEST(DocumentFindings, ErrorMessagesAreShortAndPrintable) {
  const std::string huge(10 << 20, 'k');
  std::vector<std::string> documents = {
      "{\"" + huge + "\": 1}",                           // an unknown key
      "{\"name\": \"" + huge + "\"}",                    // a bad value
      "[" + huge + "]",                                  // a syntax error on a huge token
      "{\"na\xff\xfe\x1b[31mme\": 1}",                   // raw bytes and an escape sequence in a key
      std::string("{\"name\": 1, \"x\": tru\xc3\x28}"),  // a syntax error at invalid UTF-8
  };
  for (const std::string& text : documents) {
    auto effect = mote::compile_effect(text);
    ASSERT_FALSE(effect.ok());
    const std::string message = effect.error().to_string();
    EXPECT_LT(message.size(), 4096u) << message.substr(0, 200);
    EXPECT_TRUE(printable_utf8(message)) << message.substr(0, 200);
  }
  auto assembled = mote::assemble(".registers 4\n.update\n  " + huge + " r0.x, 1\n");
  ASSERT_FALSE(assembled.ok());
  EXPECT_LT(assembled.error().to_string().size(), 4096u);
  auto bytes = mote::assemble(".registers 4\n.particle a\xff\x01 1\n");
  ASSERT_FALSE(bytes.ok());
  EXPECT_TRUE(printable_utf8(bytes.error().to_string())) << bytes.error().to_string();
}

}  // namespace
