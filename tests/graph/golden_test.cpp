// Golden tests: each tests/graph/golden/*.json compiles to exactly its checked-in .masm
// (scripts/rebaseline_goldens.sh rewrites them after an intended change).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "graph_test_util.hpp"
#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/mfx.hpp"

namespace fs = std::filesystem;

TEST(Golden, EveryDocumentMatchesItsDisassembly) {
  int count = 0;
  std::vector<fs::path> paths;
  for (const auto& e : fs::directory_iterator(MOTE_GRAPH_GOLDEN_DIR))
    if (e.path().extension() == ".json") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    auto r = mote::compile_effect(read_text(p.string()));
    ASSERT_TRUE(r.ok()) << p << ": " << r.error().to_string();
    fs::path masm = p;
    masm.replace_extension(".masm");
    if (std::getenv("MOTE_REBASELINE_GOLDENS") != nullptr) {
      std::ofstream(masm, std::ios::binary) << mote::disassemble(r->program);
    }
    ASSERT_TRUE(fs::exists(masm)) << masm << " missing: run scripts/rebaseline_goldens.sh";
    EXPECT_EQ(mote::disassemble(r->program), read_text(masm.string())) << p;
    // The text form round-trips to the same program.
    auto back = mote::assemble(read_text(masm.string()));
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(mote::save_mfx(*back), mote::save_mfx(r->program));
    ++count;
  }
  EXPECT_GE(count, 2);
}
