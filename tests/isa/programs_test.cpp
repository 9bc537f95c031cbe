#include <gtest/gtest.h>

#include "mote/assembly.hpp"
#include "mote/link.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"
#include "test_support.hpp"

namespace mote {
namespace {

TEST(ExamplePrograms, AssembleVerifyAndRoundTrip) {
  const auto programs = test::example_programs();
  ASSERT_GE(programs.size(), 5u) << "programs/*.masm not found in " << MOTE_PROGRAMS_DIR;
  for (const auto& [name, text] : programs) {
    SCOPED_TRACE(name);
    Result<Program> p = assemble(text);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    Status s = verify_program(*p);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    const std::string dis = disassemble(*p);
    Result<Program> back = assemble(dis);
    ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << dis;
    EXPECT_EQ(*back, *p) << dis;
    EXPECT_EQ(disassemble(*back), dis);
    const std::vector<uint8_t> bytes = save_mfx(*p);
    EXPECT_EQ(save_mfx(*back), bytes);
    Result<Program> loaded = load_mfx(bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    EXPECT_EQ(*loaded, *p);
    EXPECT_EQ(loaded->hash(), p->hash());
    // Placed at some offsets, the linked program verifies as linked.
    std::vector<uint32_t> offsets;
    uint32_t next = 0;
    for (const GlobalImport& g : p->global_imports) {
      offsets.push_back(next);
      next += g.width;
    }
    Result<Program> linked = link_globals(*p, offsets);
    ASSERT_TRUE(linked.ok());
    Status ls = verify_program(*linked, {.linked = true, .global_field_words = next});
    EXPECT_TRUE(ls.ok()) << ls.error().to_string();
  }
}

}  // namespace
}  // namespace mote
