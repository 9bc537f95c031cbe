#include <gtest/gtest.h>

#include "runtime/bookkeeping/global_fields.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime_test_support.hpp"

namespace mote::runtime {
namespace {

TEST(GlobalFields, AppendOnlyFromZero) {
  GlobalFieldLayout layout;
  EXPECT_EQ(layout.declare("wind", 1).value(), 0u);
  EXPECT_EQ(layout.declare("gravity", 3).value(), 1u);
  EXPECT_EQ(layout.declare("wind", 1).value(), 0u);  // same name, same width: the same field
  EXPECT_FALSE(layout.declare("wind", 2).ok());      // a name is one field
  EXPECT_FALSE(layout.declare("", 1).ok());
  EXPECT_FALSE(layout.declare("x", 5).ok());
  EXPECT_EQ(layout.used(), 4u);
  for (uint32_t w : layout.words()) EXPECT_EQ(w, 0u);  // unset values read 0
}

TEST(GlobalFields, CheckRefusesBeforeClaiming) {
  GlobalFieldLayout layout(8);
  ASSERT_TRUE(layout.declare("a", 4).ok());
  const std::vector<GlobalImport> conflict = {{"b", 2}, {"a", 2}};
  Status s = layout.check(conflict);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().where, "global_imports[1]");
  EXPECT_FALSE(layout.declare_imports(conflict).ok());
  EXPECT_EQ(layout.find("b"), nullptr);  // nothing claimed
  EXPECT_EQ(layout.used(), 4u);

  const std::vector<GlobalImport> too_big = {{"c", 4}, {"d", 1}};
  s = layout.check(too_big);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kOutOfMemory);
  EXPECT_FALSE(layout.declare_imports(too_big).ok());
  EXPECT_EQ(layout.find("c"), nullptr);
  EXPECT_EQ(layout.used(), 4u);

  const std::vector<GlobalImport> twice = {{"c", 2}, {"c", 2}, {"a", 4}};
  EXPECT_TRUE(layout.check(twice).ok());  // a repeated name counts once
  const auto offsets = layout.declare_imports(twice);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(*offsets, (std::vector<uint32_t>{4, 4, 0}));
  const std::vector<GlobalImport> two_widths = {{"e", 1}, {"e", 2}};
  EXPECT_FALSE(layout.check(two_widths).ok());
}

TEST(GlobalFields, SetMarksTheSpan) {
  GlobalFieldLayout layout;
  ASSERT_TRUE(layout.declare("a", 1).ok());
  ASSERT_TRUE(layout.declare("b", 3).ok());
  ASSERT_TRUE(layout.declare("c", 2).ok());
  EXPECT_TRUE(layout.dirty().empty());
  const uint32_t b[] = {7, 8, 9};
  ASSERT_TRUE(layout.set("b", b).ok());
  EXPECT_EQ(layout.dirty(), (WordSpan{1, 4}));
  const uint32_t c[] = {1, 2};
  ASSERT_TRUE(layout.set("c", c).ok());
  EXPECT_EQ(layout.dirty(), (WordSpan{1, 6}));
  EXPECT_EQ(layout.words()[2], 8u);
  EXPECT_FALSE(layout.set("b", c).ok());        // wrong width
  EXPECT_FALSE(layout.set("missing", c).ok());  // not declared
  layout.clear_dirty();
  EXPECT_TRUE(layout.dirty().empty());
}

TEST(GlobalFields, HeapLinksImportsToLayoutOffsets) {
  ProgramHeap heap;
  ASSERT_TRUE(heap.declare_global("first", 2).ok());  // a game may declare names first
  const Program p = test::make_program({.variant = 1, .globals = {{"gust", 1}, {"first", 2}, {"target", 3}}});
  const auto handle = heap.acquire(p);
  ASSERT_TRUE(handle.ok()) << handle.error().to_string();
  EXPECT_EQ(heap.globals().find("gust")->offset, 2u);
  EXPECT_EQ(heap.globals().find("target")->offset, 3u);
  test::expect_placed_matches(heap, *handle);
  // The keyed program stays unlinked; the image holds space-3 reads at the offsets.
  EXPECT_EQ(heap.program(*handle), p);
  const Placement& pl = heap.placement(*handle);
  const uint32_t update = heap.code_base() + pl.update_offset;
  // update[1..3] are the three global reads, in import order.
  const uint32_t expected[] = {2, 0, 3};
  for (uint32_t i = 0; i < 3; ++i) {
    const uint32_t word = heap.image()[update + (1 + i) * 4 + 1];
    EXPECT_EQ(word >> 16, 3u);
    EXPECT_EQ(word & 0xFFFFu, expected[i]);
  }
  // Values go into the field section's reserved words and mark the image.
  heap.clear_dirty();
  const uint32_t target[] = {10, 11, 12};
  ASSERT_TRUE(heap.set_global("target", target).ok());
  EXPECT_EQ(heap.dirty(), (WordSpan{heap.field_base() + 3, heap.field_base() + 6}));
  EXPECT_EQ(heap.image()[heap.field_base() + 4], 11u);
}

TEST(GlobalFields, HeapRefusalClaimsNothing) {
  ProgramHeapOptions options;
  options.global_field_words = 4;
  ProgramHeap heap(options);
  ASSERT_TRUE(heap.declare_global("wind", 1).ok());
  const Program wrong_width = test::make_program({.variant = 2, .globals = {{"fresh", 1}, {"wind", 3}}});
  const Program no_room = test::make_program({.variant = 3, .globals = {{"big", 4}}});
  const auto version = heap.placement_version();
  for (const Program* p : {&wrong_width, &no_room}) {
    EXPECT_FALSE(heap.check(*p).ok());
    EXPECT_FALSE(heap.acquire(*p).ok());
  }
  EXPECT_EQ(heap.live_program_count(), 0u);
  EXPECT_EQ(heap.program_id_capacity(), 0u);
  EXPECT_EQ(heap.globals().find("fresh"), nullptr);
  EXPECT_EQ(heap.globals().used(), 1u);
  EXPECT_EQ(heap.constants_allocator().used(), 0u);
  EXPECT_EQ(heap.code_allocator().used(), 0u);
  EXPECT_EQ(heap.placement_version(), version);
}

}  // namespace
}  // namespace mote::runtime
