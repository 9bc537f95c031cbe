// A deterministic mutation fuzz of the loader over the example documents (and the presets in
// effects/ when they exist): never a crash, every rejection has a message and a pointer.
#include <gtest/gtest.h>

#include <filesystem>

#include "graph_test_util.hpp"
#include "mote/effect.hpp"

namespace {

uint32_t next(uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

TEST(Fuzz, MutatedDocumentsFailCleanly) {
  std::vector<std::string> docs;
  for (const char* dir : {MOTE_GRAPH_GOLDEN_DIR, MOTE_EFFECTS_DIR}) {
    if (!std::filesystem::is_directory(dir)) continue;
    std::vector<std::filesystem::path> paths;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) docs.push_back(read_text(p.string()));
  }
  ASSERT_FALSE(docs.empty());
  const char* tokens[] = {"0",    "-1",      "1e39",        "\"x\"", "[]", "{}", "null",
                          "true", "\"a.b\"", "[1,2,3,4,5]", ",",     "]",  "}"};
  uint32_t seed = 0x1234567u;
  int rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string d = docs[next(seed) % docs.size()];
    const int edits = 1 + int(next(seed) % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = next(seed) % d.size();
      switch (next(seed) % 4) {
        case 0: d.erase(at, 1 + next(seed) % 8); break;
        case 1: d.insert(at, tokens[next(seed) % std::size(tokens)]); break;
        case 2: d[at] = char(32 + next(seed) % 95); break;
        default: {  // swap a value after a colon for a token: keeps the JSON valid more often
          const size_t colon = d.find(':', at);
          if (colon == std::string::npos) break;
          const size_t end = d.find_first_of(",}", colon);
          if (end == std::string::npos) break;
          d.replace(colon + 1, end - colon - 1, tokens[next(seed) % std::size(tokens)]);
        }
      }
      if (d.empty()) d = "{";
    }
    auto r = mote::compile_effect(d);
    if (r.ok()) continue;
    ++rejected;
    EXPECT_NE(r.error().code, mote::ErrorCode::kInternal) << r.error().to_string() << "\n" << d;
    EXPECT_FALSE(r.error().message.empty());
    ASSERT_FALSE(r.error().where.empty());
    EXPECT_EQ(r.error().where[0], '/') << r.error().to_string();
  }
  EXPECT_GT(rejected, 100);
}

}  // namespace
