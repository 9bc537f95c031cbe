#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime_test_support.hpp"

namespace mote::runtime {
namespace {

using test::make_program;

TEST(ProgramHeap, HeaderDescribesTheSections) {
  ProgramHeapOptions options;
  options.initial_constant_words = 64;
  options.initial_code_words = 128;
  options.initial_field_block_words = 32;
  ProgramHeap heap(options);
  const auto image = heap.image();
  EXPECT_EQ(image[shader::kHeapWordConstantsBase], shader::kHeapHeaderWords);
  EXPECT_EQ(image[shader::kHeapWordCodeBase], shader::kHeapHeaderWords + 64);
  EXPECT_EQ(image[shader::kHeapWordFieldBase], shader::kHeapHeaderWords + 64 + 128);
  EXPECT_EQ(image[shader::kHeapWordFieldCapacity], shader::kVmMaxGlobalFieldWords + 32);
  EXPECT_EQ(image[shader::kHeapWordGlobalWords], shader::kVmMaxGlobalFieldWords);
  EXPECT_EQ(image.size(), shader::kHeapHeaderWords + 64 + 128 + shader::kVmMaxGlobalFieldWords + 32);
  EXPECT_EQ(heap.dirty(), (WordSpan{0, uint32_t(image.size())}));
}

TEST(ProgramHeap, DeduplicatesAndCountsReferences) {
  ProgramHeap heap;
  const Program a = make_program({.variant = 1, .registers = 8});
  const Program b = make_program({.variant = 2, .registers = 12});
  const ProgramHandle a1 = heap.acquire(a).value();
  const ProgramHandle a2 = heap.acquire(a).value();
  const ProgramHandle b1 = heap.acquire(b).value();
  EXPECT_EQ(a1, a2);
  EXPECT_NE(a1, b1);
  EXPECT_EQ(heap.ref_count(a1), 2u);
  EXPECT_EQ(heap.live_program_count(), 2u);
  EXPECT_EQ(heap.max_register_count(), 12u);
  const uint32_t code_used = heap.code_allocator().used();
  ASSERT_TRUE(heap.release(a1).ok());
  EXPECT_TRUE(heap.is_live(a2));
  EXPECT_EQ(heap.code_allocator().used(), code_used);  // still referenced
  ASSERT_TRUE(heap.release(a2).ok());                  // the last release frees
  EXPECT_FALSE(heap.is_live(a1));
  EXPECT_LT(heap.code_allocator().used(), code_used);
  EXPECT_FALSE(heap.release(a1).ok());
  ASSERT_TRUE(heap.release(b1).ok());
  EXPECT_EQ(heap.max_register_count(), 0u);
  EXPECT_EQ(heap.code_allocator().used(), 0u);
  EXPECT_EQ(heap.constants_allocator().used(), 0u);
  // Ids are reused, and the id capacity keeps the peak.
  const ProgramHandle c = heap.acquire(make_program({.variant = 3})).value();
  EXPECT_LT(c.id, 2u);
  EXPECT_EQ(heap.program_id_capacity(), 2u);
  test::expect_placed_matches(heap, c);
}

TEST(ProgramHeap, RefusesAnUnverifiableProgram) {
  ProgramHeap heap;
  Program p = make_program({.variant = 1});
  p.register_count = 1;  // reads r4..r6: fails verification
  Result<ProgramHandle> r = heap.acquire(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kVerify);
  EXPECT_EQ(heap.program_id_capacity(), 0u);
}

TEST(ProgramHeap, FieldBlocksAfterTheGlobalWords) {
  ProgramHeapOptions options;
  options.initial_field_block_words = 8;
  ProgramHeap heap(options);
  const FieldBlockHandle a = heap.allocate_field_block(3).value();
  const FieldBlockHandle e = heap.allocate_field_block(0).value();
  EXPECT_EQ(heap.field_block_offset(a), heap.global_field_words());
  EXPECT_EQ(heap.field_block_words(e), 0u);
  const uint32_t values[] = {5, 6, 7};
  ASSERT_TRUE(heap.write_field_block(a, values).ok());
  EXPECT_EQ(heap.image()[heap.field_base() + heap.field_block_offset(a) + 2], 7u);
  EXPECT_FALSE(heap.write_field_block(a, std::span<const uint32_t>(values, 2)).ok());
  // Growth past the initial block capacity keeps the values and the offsets.
  std::vector<FieldBlockHandle> more;
  for (int i = 0; i < 10; ++i) more.push_back(heap.allocate_field_block(4).value());
  EXPECT_EQ(heap.image()[heap.field_base() + heap.field_block_offset(a) + 1], 6u);
  ASSERT_TRUE(heap.free_field_block(a).ok());
  EXPECT_FALSE(heap.free_field_block(a).ok());
  EXPECT_FALSE(heap.allocate_field_block(shader::kVmMaxEmitterFieldWords + 1).ok());
}

TEST(ProgramHeap, RepacksBeforeGrowing) {
  ProgramHeapOptions options;
  options.initial_code_words = 64;
  options.initial_constant_words = 64;
  ProgramHeap heap(options);
  // Each program: 3 + 1 code instructions... fill the code section with four 16-word programs.
  std::vector<ProgramHandle> hs;
  for (uint32_t v = 0; v < 4; ++v) hs.push_back(heap.acquire(make_program({.variant = v})).value());
  EXPECT_EQ(heap.code_allocator().used(), 64u);
  // Free the first and third: 32 words free, but no run of 20.
  ASSERT_TRUE(heap.release(hs[0]).ok());
  ASSERT_TRUE(heap.release(hs[2]).ok());
  const uint64_t version = heap.placement_version();
  const uint32_t capacity = heap.code_allocator().capacity();
  const ProgramHandle big = heap.acquire(make_program({.variant = 9, .extra_update = 1})).value();
  EXPECT_EQ(heap.code_allocator().capacity(), capacity);  // repacked, not grown
  EXPECT_GT(heap.placement_version(), version);
  for (ProgramHandle h : {hs[1], hs[3], big}) test::expect_placed_matches(heap, h);
  // Now it must grow.
  const ProgramHandle bigger = heap.acquire(make_program({.variant = 10, .extra_update = 20})).value();
  EXPECT_GT(heap.code_allocator().capacity(), capacity);
  for (ProgramHandle h : {hs[1], hs[3], big, bigger}) test::expect_placed_matches(heap, h);
}

// A heap told how to encode code (ProgramHeapOptions::encode_section, as the GPU frame stores
// the fast interpreter's form) places exactly those words, of any length, and keeps them
// through a repack and a growth; the placement's lengths are the encoding's.
TEST(ProgramHeap, PlacesTheSectionsAsTheEncoderWritesThem) {
  // A stand-in encoding that depends on the program and the section only: a marker, the
  // section's instruction count, then its words reversed (so a copy of the instructions as
  // written would not pass).
  auto encode = [](const Program& linked, Section section) {
    std::vector<uint32_t> words{section == Section::kInit ? 0xA11Cu : 0xB22Du, uint32_t(linked.code(section).size())};
    for (const Instruction& ins : linked.code(section)) words.insert(words.end(), ins.words.begin(), ins.words.end());
    std::reverse(words.begin() + 2, words.end());
    return words;
  };
  ProgramHeapOptions options;
  options.initial_code_words = 64;
  options.encode_section = encode;
  ProgramHeap heap(options);
  auto expect_encoded = [&](ProgramHandle h) {
    const Program& key = heap.program(h);
    const Placement& p = heap.placement(h);
    const std::span<const uint32_t> image = heap.image();
    for (Section section : {Section::kInit, Section::kUpdate}) {
      const std::vector<uint32_t> want = encode(heap.linked_program(h), section);
      const bool init = section == Section::kInit;
      const uint32_t offset = init ? p.init_offset : p.update_offset, length = init ? p.init_length : p.update_length;
      ASSERT_EQ(length, want.size()) << "program id " << p.program_id;
      EXPECT_TRUE(std::equal(want.begin(), want.end(), image.begin() + heap.code_base() + offset))
          << "program id " << p.program_id;
    }
    EXPECT_EQ(p.update_offset, p.init_offset + p.init_length);
    EXPECT_EQ(heap.linked_program(h), key);  // no globals: linking changes nothing
  };
  std::vector<ProgramHandle> hs;
  for (uint32_t v = 0; v < 3; ++v) hs.push_back(heap.acquire(make_program({.variant = v, .extra_update = v})).value());
  for (ProgramHandle h : hs) expect_encoded(h);
  ASSERT_TRUE(heap.release(hs[0]).ok());
  const uint64_t version = heap.placement_version();
  const ProgramHandle big = heap.acquire(make_program({.variant = 7, .extra_update = 12})).value();
  EXPECT_GT(heap.placement_version(), version);  // something moved: a repack or a growth
  for (ProgramHandle h : {hs[1], hs[2], big}) expect_encoded(h);
}

struct Snapshot {
  std::map<uint32_t, Placement> placements;  // by id
  std::map<uint32_t, uint32_t> blocks;       // by block id: offset
  uint32_t capacities[3] = {0, 0, 0};
};

// Randomized churn: thousands of acquire/release and field block alloc/free on small
// sections. After every step: no overlap, allocators and placements agree, every live
// placement's words equal the linked program, capacity never falls, and placement_version
// moves exactly when a surviving placement or block moved (or a repack ran).
TEST(ProgramHeap, ChurnKeepsImageAndPlacementsConsistent) {
  std::mt19937 rng(42);
  ProgramHeapOptions options;
  options.initial_constant_words = 16;
  options.initial_code_words = 32;
  options.initial_field_block_words = 8;
  options.global_field_words = 64;
  ProgramHeap heap(options);
  std::vector<Program> pool;
  const std::vector<std::string> names = {"g0", "g1", "g2", "g3", "g4", "g5"};
  for (uint32_t v = 0; v < 40; ++v) {
    test::ProgramSpec spec{.variant = v,
                           .constant_vec4s = 1 + v % 5,
                           .extra_update = (v * 7) % 13,
                           .emitter_fields = v % 3};
    for (uint32_t g = 0; g < v % 3; ++g) spec.globals.push_back({names[(v + g) % names.size()], 1 + (v + g) % 6 / 2});
    pool.push_back(make_program(spec));
  }
  // Some pool programs disagree on a global's width: those acquires are refused; fine.
  std::vector<ProgramHandle> held;  // one entry per reference
  std::vector<FieldBlockHandle> blocks;
  std::map<uint32_t, std::vector<uint32_t>> block_values;  // by block id
  auto snapshot = [&] {
    Snapshot s;
    for (ProgramHandle h : held) s.placements[h.id] = heap.placement(h);
    for (FieldBlockHandle b : blocks) s.blocks[b.id] = heap.field_block_offset(b);
    s.capacities[0] = heap.constants_allocator().capacity();
    s.capacities[1] = heap.code_allocator().capacity();
    s.capacities[2] = heap.field_allocator().capacity();
    return s;
  };
  uint32_t refused = 0, repacks_seen = 0;
  for (int step = 0; step < 4000; ++step) {
    const Snapshot before = snapshot();
    const uint64_t version = heap.placement_version();
    const uint64_t repacks = heap.repack_count();
    const uint32_t op = rng() % 100;
    if (op < 35) {
      Result<ProgramHandle> h = heap.acquire(pool[rng() % pool.size()]);
      if (h.ok()) held.push_back(*h);
      else ++refused;
    } else if (op < 65 && !held.empty()) {
      const size_t i = rng() % held.size();
      ASSERT_TRUE(heap.release(held[i]).ok());
      held.erase(held.begin() + long(i));
    } else if (op < 83) {
      const uint32_t words = 1 + rng() % 12;
      const FieldBlockHandle b = heap.allocate_field_block(words).value();
      std::vector<uint32_t> values(words);
      for (uint32_t& w : values) w = rng();
      ASSERT_TRUE(heap.write_field_block(b, values).ok());
      blocks.push_back(b);
      block_values[b.id] = values;
    } else if (!blocks.empty()) {
      const size_t i = rng() % blocks.size();
      ASSERT_TRUE(heap.free_field_block(blocks[i]).ok());
      block_values.erase(blocks[i].id);
      blocks.erase(blocks.begin() + long(i));
    }
    const Snapshot after = snapshot();
    bool moved = false;
    for (const auto& [id, p] : before.placements)
      if (after.placements.count(id) && !(after.placements.at(id) == p)) moved = true;
    for (const auto& [id, off] : before.blocks)
      if (after.blocks.count(id) && after.blocks.at(id) != off) moved = true;
    const uint64_t repacks_now = heap.repack_count() - repacks;
    repacks_seen += uint32_t(repacks_now);
    ASSERT_EQ(heap.placement_version() - version, repacks_now) << "step " << step;
    if (moved) {
      ASSERT_GT(heap.placement_version(), version) << "step " << step;
    }
    if (heap.placement_version() == version) {
      ASSERT_FALSE(moved);
    }
    for (int s = 0; s < 3; ++s) ASSERT_GE(after.capacities[s], before.capacities[s]);

    // Placements and allocations agree one to one (so no two overlap), and every live
    // program's words in the image are its linked form.
    std::map<uint32_t, uint32_t> constants, code, fields;
    for (const auto& [id, p] : after.placements) {
      if (p.constants_length) constants[p.constants_offset] = p.constants_length;
      if (p.init_length + p.update_length) code[p.init_offset] = p.init_length + p.update_length;
    }
    fields[0] = heap.global_field_words();
    for (FieldBlockHandle b : blocks)
      if (heap.field_block_words(b)) fields[heap.field_block_offset(b)] = heap.field_block_words(b);
    ASSERT_EQ(constants, heap.constants_allocator().allocations());
    ASSERT_EQ(code, heap.code_allocator().allocations());
    ASSERT_EQ(fields, heap.field_allocator().allocations());
    if (step % 50 == 0 || step > 3900) {
      for (const auto& [id, p] : after.placements) test::expect_placed_matches(heap, ProgramHandle{id});
      for (FieldBlockHandle b : blocks) {
        const auto& values = block_values[b.id];
        const uint32_t at = heap.field_base() + heap.field_block_offset(b);
        ASSERT_TRUE(std::equal(values.begin(), values.end(), heap.image().begin() + at)) << "block " << b.id;
      }
    }
    ASSERT_EQ(heap.image().size(),
              shader::kHeapHeaderWords + after.capacities[0] + after.capacities[1] + after.capacities[2]);
  }
  EXPECT_GT(repacks_seen, 10u);  // the churn exercised repacks
  EXPECT_LT(refused, 4000u);
}

// The owner's side of changes(): a copy of the image kept the way the GPU frame keeps it (on a
// layout change, every section moved to its new base with its old words; then the zeroed ranges
// filled, then the written ranges copied) equals the image after every step of a churn that
// places, releases, repacks and grows, and it never copies more than the changes name.
TEST(ProgramHeap, SectionChangesReproduceTheImageAcrossRepacksAndGrowth) {
  ProgramHeapOptions options;
  options.initial_constant_words = 8;
  options.initial_code_words = 16;
  options.initial_field_block_words = 8;
  options.global_field_words = 16;
  ProgramHeap heap(options);
  std::vector<uint32_t> copy(heap.image().begin(), heap.image().end());
  heap.clear_changes();
  uint32_t bases[kHeapSectionCount], capacities[kHeapSectionCount];
  auto remember_layout = [&] {
    for (uint32_t s = 0; s < kHeapSectionCount; ++s) {
      bases[s] = heap.section_base(HeapSection(s));
      capacities[s] = heap.section_capacity(HeapSection(s));
    }
  };
  remember_layout();
  uint64_t copied = 0, relayouts = 0;
  auto sync = [&] {
    const std::span<const uint32_t> image = heap.image();
    bool moved = image.size() != copy.size();
    for (uint32_t s = 0; s < kHeapSectionCount; ++s)
      moved = moved || bases[s] != heap.section_base(HeapSection(s)) ||
              capacities[s] != heap.section_capacity(HeapSection(s));
    if (moved) {
      std::vector<uint32_t> grown(image.size(), 0u);
      std::copy_n(copy.begin(), shader::kHeapHeaderWords, grown.begin());
      for (uint32_t s = 0; s < kHeapSectionCount; ++s)
        std::copy_n(copy.begin() + bases[s], capacities[s], grown.begin() + heap.section_base(HeapSection(s)));
      copy = std::move(grown);
      ++relayouts;
    }
    const HeapChanges& c = heap.changes();
    if (c.header) std::copy_n(image.begin(), shader::kHeapHeaderWords, copy.begin());
    for (uint32_t s = 0; s < kHeapSectionCount; ++s) {
      const uint32_t base = heap.section_base(HeapSection(s));
      for (const auto& [first, last] : c.zeroed[s])
        std::fill(copy.begin() + base + first, copy.begin() + base + last, 0u);
      for (const auto& [first, last] : c.written[s]) {
        std::copy(image.begin() + base + first, image.begin() + base + last, copy.begin() + base + first);
        copied += last - first;
      }
    }
    heap.clear_changes();
    remember_layout();
    ASSERT_EQ(copy.size(), image.size());
    for (size_t w = 0; w < image.size(); ++w) ASSERT_EQ(copy[w], image[w]) << "word " << w;
  };
  std::mt19937 rng(11);
  std::vector<ProgramHandle> programs;
  std::vector<FieldBlockHandle> blocks;
  uint64_t writes = 0;
  for (int step = 0; step < 800; ++step) {
    const uint32_t op = rng() % 10;
    if (op < 3) {
      const uint32_t v = rng() % 20;
      auto h = heap.acquire(make_program({.variant = v,
                                          .constant_vec4s = 1 + v % 3,
                                          .extra_update = v % 7,
                                          .globals = {{"g" + std::to_string(v % 4), 1 + v % 4 % 3}}}));
      if (h.ok()) programs.push_back(*h);
    } else if (op < 5 && !programs.empty()) {
      const size_t i = rng() % programs.size();
      ASSERT_TRUE(heap.release(programs[i]).ok());
      programs.erase(programs.begin() + ptrdiff_t(i));
    } else if (op < 7) {
      auto b = heap.allocate_field_block(1 + rng() % 9);
      ASSERT_TRUE(b.ok());
      blocks.push_back(*b);
    } else if (op < 8 && !blocks.empty()) {
      const size_t i = rng() % blocks.size();
      ASSERT_TRUE(heap.free_field_block(blocks[i]).ok());
      blocks.erase(blocks.begin() + ptrdiff_t(i));
    } else if (!blocks.empty()) {
      const FieldBlockHandle b = blocks[rng() % blocks.size()];
      std::vector<uint32_t> values(heap.field_block_words(b));
      for (uint32_t& v : values) v = rng();
      ASSERT_TRUE(heap.write_field_block(b, values).ok());
      writes += values.size();
    }
    if (rng() % 4 == 0) {
      sync();
      if (HasFatalFailure()) return;
    }
  }
  sync();
  EXPECT_GT(heap.repack_count(), 5u);
  EXPECT_GT(relayouts, 3u);
  EXPECT_GT(writes, 100u);
  // Changes name what was written, not the image: far fewer words than an image a sync.
  EXPECT_LT(copied, uint64_t(heap.image().size()) * 200);
}

// per_emitter_globals: no shared section; a program is linked to its own imports packed from 0,
// so its emitters' blocks carry the copies after their fields; the shared-global calls refuse.
TEST(ProgramHeap, PerEmitterGlobalsLinkEachProgramToItsOwnPacking) {
  ProgramHeap heap({.per_emitter_globals = true});
  EXPECT_EQ(heap.global_field_words(), 0u);
  EXPECT_EQ(heap.field_allocator().used(), 0u);
  const Program p = make_program({.variant = 1, .emitter_fields = 2, .globals = {{"wind", 3}, {"gust", 1}}});
  const Program q = make_program({.variant = 2, .globals = {{"gust", 1}}});
  EXPECT_EQ(heap.emitter_block_words(p), 2u + 4u);
  EXPECT_EQ(heap.emitter_block_words(q), 1u);
  const ProgramHandle hp = heap.acquire(p).value();
  const ProgramHandle hq = heap.acquire(q).value();
  for (ProgramHandle h : {hp, hq}) {
    const Program& key = heap.program(h);
    std::vector<uint32_t> offsets;
    uint32_t words = 0;
    for (const GlobalImport& g : key.global_imports) {
      offsets.push_back(words);
      words += g.width;
    }
    const Program linked = link_globals(key, offsets).value();
    const Placement& pl = heap.placement(h);
    std::vector<Instruction> update(pl.update_length / 4);
    for (size_t i = 0; i < update.size(); ++i)
      for (size_t w = 0; w < 4; ++w) update[i].words[w] = heap.image()[heap.code_base() + pl.update_offset + i * 4 + w];
    EXPECT_EQ(update, linked.update) << "program " << h.id;
    EXPECT_TRUE(verify_program(linked, {.linked = true, .global_field_words = words}).ok());
  }
  // "gust" is at word 3 in p's copies and word 0 in q's: one name, two packings, no conflict.
  EXPECT_TRUE(heap.acquire(make_program({.variant = 3, .globals = {{"gust", 2}}})).ok());
  EXPECT_FALSE(heap.declare_global("wind", 3).ok());
  const uint32_t one = 0x3f800000u;
  EXPECT_FALSE(heap.set_global("gust", std::span(&one, 1)).ok());
  // A block may hold the largest field block and the largest global copy.
  EXPECT_TRUE(heap.allocate_field_block(shader::kVmMaxEmitterFieldWords + shader::kVmMaxGlobalFieldWords).ok());
  EXPECT_FALSE(heap.allocate_field_block(shader::kVmMaxEmitterFieldWords + shader::kVmMaxGlobalFieldWords + 1).ok());
}

}  // namespace
}  // namespace mote::runtime
