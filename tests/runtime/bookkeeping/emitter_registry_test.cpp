#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "runtime/bookkeeping/emitter_registry.hpp"
#include "runtime_test_support.hpp"

namespace mote::runtime {
namespace {

using test::make_program;

Emitter make_emitter(const Program& program, uint32_t transform_row = 0) {
  Emitter e;
  e.effect.program = program;
  e.effect.emitter_defaults.assign(program.emitter_field_words(), 0x3f800000u);  // 1.0f
  e.effect.emission.rate = 10.0f;
  e.transform_row = transform_row;
  return e;
}

shader::EmitterRecord record_at(const EmitterRegistry& registry, uint32_t row) {
  shader::EmitterRecord r;
  std::memcpy(&r, registry.table().data() + size_t(row) * shader::kEmitterRecordWords, sizeof(r));
  return r;
}

void expect_rows_staged(const EmitterRegistry& registry) {
  for (uint32_t row = 0; row < registry.row_capacity(); ++row) {
    const shader::EmitterRecord got = record_at(registry, row);
    if (!registry.is_live(row)) {
      EXPECT_EQ(got.generation, 0u) << "row " << row;
      EXPECT_EQ(got.flags, 0u);
      continue;
    }
    shader::EmitterRecord want{};
    write_emitter_record(want, *registry.emitter(row), *registry.context(row), registry.heap(),
                         registry.options().seed_from_generation);
    EXPECT_EQ(std::memcmp(&got, &want, sizeof(got)), 0) << "row " << row << " is stale";
  }
}

TEST(EmitterRegistry, TwoEmittersOfOneEffectShareAPlacement) {
  ProgramHeap heap;
  EmitterRegistry registry(heap);
  const Program p = make_program({.variant = 1, .emitter_fields = 2});
  Emitter a = make_emitter(p), b = make_emitter(p);
  b.field_values = {0x40000000u, 0x40400000u};
  const uint32_t ra = registry.add(a).value(), rb = registry.add(b).value();
  const EmitterContext& ca = *registry.context(ra);
  const EmitterContext& cb = *registry.context(rb);
  EXPECT_EQ(ca.program, cb.program);
  EXPECT_EQ(heap.ref_count(ca.program), 2u);
  EXPECT_NE(heap.field_block_offset(ca.field_block), heap.field_block_offset(cb.field_block));
  (void)registry.flush();
  EXPECT_EQ(record_at(registry, ra).program_id, record_at(registry, rb).program_id);
  EXPECT_EQ(heap.image()[heap.field_base() + heap.field_block_offset(ca.field_block)], 0x3f800000u);  // defaults
  EXPECT_EQ(heap.image()[heap.field_base() + heap.field_block_offset(cb.field_block) + 1], 0x40400000u);
  const ProgramHandle shared = ca.program;
  ASSERT_TRUE(registry.remove(ra).ok());
  EXPECT_EQ(heap.ref_count(shared), 1u);
  ASSERT_TRUE(registry.remove(rb).ok());
  EXPECT_FALSE(heap.is_live(shared));
  EXPECT_EQ(heap.live_program_count(), 0u);
  EXPECT_EQ(heap.field_allocator().used(), heap.global_field_words());
}

TEST(EmitterRegistry, StableRowsReuseAndGenerations) {
  ProgramHeap heap;
  EmitterRegistry registry(heap);
  const Program p = make_program({.variant = 1});
  std::vector<Emitter> emitters(5, make_emitter(p));
  std::vector<uint32_t> rows;
  for (Emitter& e : emitters) rows.push_back(registry.add(e).value());
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(registry.context(i)->generation, i + 1);
  ASSERT_TRUE(registry.remove(2).ok());
  EXPECT_FALSE(registry.remove(2).ok());
  EXPECT_EQ(registry.context(2), nullptr);
  EXPECT_EQ(registry.context(3)->row, 3u);  // others keep their rows
  Emitter late = make_emitter(p);
  EXPECT_EQ(registry.add(late).value(), 2u);       // the freed row is handed back
  EXPECT_EQ(registry.context(2)->generation, 6u);  // a new generation for the reused row
  EXPECT_EQ(registry.row_capacity(), 5u);
}

TEST(EmitterRegistry, GenerationWrapSkipsZero) {
  ProgramHeap heap;
  EmitterRegistry registry(heap, {.first_generation = UINT32_MAX - 1});
  const Program p = make_program({.variant = 1});
  std::vector<Emitter> emitters(3, make_emitter(p));
  std::vector<uint32_t> generations;
  for (Emitter& e : emitters) generations.push_back(registry.context(registry.add(e).value())->generation);
  EXPECT_EQ(generations, (std::vector<uint32_t>{UINT32_MAX - 1, UINT32_MAX, 1}));
}

TEST(EmitterRegistry, SeedDefaultsToGeneration) {
  ProgramHeap heap;
  EmitterRegistry registry(heap, {.first_generation = 7});
  const Program p = make_program({.variant = 1});
  Emitter a = make_emitter(p), b = make_emitter(p);
  b.seed = 1234;
  const uint32_t ra = registry.add(a).value(), rb = registry.add(b).value();
  (void)registry.flush();
  EXPECT_EQ(record_at(registry, ra).seed, 7u);
  EXPECT_EQ(record_at(registry, rb).seed, 1234u);
  EXPECT_EQ(a.seed, 0u);  // resolved, not written back
}

TEST(EmitterRegistry, RestagesOnlyWhatChanged) {
  ProgramHeap heap;
  EmitterRegistry registry(heap);
  const Program p = make_program({.variant = 1, .emitter_fields = 1});
  std::vector<Emitter> emitters(4, make_emitter(p));
  for (Emitter& e : emitters) ASSERT_TRUE(registry.add(e).ok());
  FlushReport r = registry.flush();
  EXPECT_EQ(r.restaged, 4u);
  EXPECT_EQ(r.rows, (WordSpan{0, 4}));
  r = registry.flush();
  EXPECT_EQ(r.restaged, 0u);
  EXPECT_TRUE(r.rows.empty());

  emitters[2].transform_row = 99;
  emitters[2].field_values = {0x41200000u};
  ++emitters[2].version;
  r = registry.flush();
  EXPECT_EQ(r.restaged, 1u);
  EXPECT_EQ(r.rows, (WordSpan{2, 3}));
  EXPECT_EQ(record_at(registry, 2).transform_row, 99u);
  EXPECT_EQ(heap.image()[heap.field_base() + heap.field_block_offset(registry.context(2)->field_block)], 0x41200000u);

  ASSERT_TRUE(registry.remove(1).ok());
  r = registry.flush();
  EXPECT_EQ(r.restaged, 0u);
  EXPECT_EQ(r.rows, (WordSpan{1, 2}));  // the cleared row goes out
  expect_rows_staged(registry);
}

TEST(EmitterRegistry, RelocationRestagesEveryRow) {
  ProgramHeapOptions options;
  options.initial_code_words = 32;
  options.initial_constant_words = 8;
  ProgramHeap heap(options);
  EmitterRegistry registry(heap);
  std::vector<Emitter> emitters;
  emitters.reserve(4);
  for (uint32_t v = 0; v < 4; ++v) emitters.push_back(make_emitter(make_program({.variant = v})));
  for (Emitter& e : emitters) ASSERT_TRUE(registry.add(e).ok());
  (void)registry.flush();
  ASSERT_TRUE(registry.remove(0).ok());  // a hole at the start of every section
  (void)registry.flush();
  const uint64_t version = heap.placement_version();
  Emitter big = make_emitter(make_program({.variant = 50, .extra_update = 3}));
  ASSERT_TRUE(registry.add(big).ok());
  ASSERT_GT(heap.placement_version(), version);
  const FlushReport r = registry.flush();
  EXPECT_TRUE(r.relocated);
  EXPECT_EQ(r.restaged, 4u);
  expect_rows_staged(registry);
}

TEST(EmitterRegistry, LiveSwapAndRefusal) {
  ProgramHeapOptions options;
  options.global_field_words = 4;
  ProgramHeap heap(options);
  EmitterRegistry registry(heap);
  const Program a = make_program({.variant = 1, .emitter_fields = 1, .globals = {{"wind", 1}}});
  const Program b = make_program({.variant = 2, .emitter_fields = 3});
  const Program bad = make_program({.variant = 3, .emitter_fields = 2, .globals = {{"wind", 2}}});
  Emitter e = make_emitter(a);
  const uint32_t row = registry.add(e).value();
  (void)registry.flush();
  const ProgramHandle old = registry.context(row)->program;

  // set_program: acquire new, then release old; the block follows the layout's size.
  ASSERT_TRUE(registry.set_program(row, b).ok());
  EXPECT_FALSE(heap.is_live(old));
  EXPECT_EQ(heap.program(registry.context(row)->program), b);
  EXPECT_EQ(heap.field_block_words(registry.context(row)->field_block), 3u);
  EXPECT_EQ(e.effect.program, b);
  FlushReport r = registry.flush();
  EXPECT_EQ(r.restaged, 1u);
  r = registry.flush();
  EXPECT_EQ(r.restaged, 0u);  // no swap back

  // A refused program via set_program leaves everything as it was.
  const ProgramHandle current = registry.context(row)->program;
  EXPECT_FALSE(registry.set_program(row, bad).ok());
  EXPECT_EQ(registry.context(row)->program, current);
  EXPECT_EQ(e.effect.program, b);

  // A refused program via the author's data: kept on the old one, not offered again.
  const FieldBlockHandle block = registry.context(row)->field_block;
  e.effect.program = bad;
  e.field_values = {1, 2};
  ++e.version;
  r = registry.flush();
  EXPECT_EQ(r.refused, 1u);
  EXPECT_EQ(registry.context(row)->program, current);
  EXPECT_EQ(registry.context(row)->field_block, block);
  ++e.version;  // edited again, program unchanged: not retried
  r = registry.flush();
  EXPECT_EQ(r.refused, 0u);
  EXPECT_EQ(registry.context(row)->program, current);
  // A changed program is offered again and taken.
  e.effect.program = a;
  e.field_values.clear();
  ++e.version;
  r = registry.flush();
  EXPECT_EQ(r.refused, 0u);
  EXPECT_EQ(heap.program(registry.context(row)->program), a);
  expect_rows_staged(registry);
}

// Randomized registry churn: add / remove / set_program / author edits, flushes in between;
// after every flush every row's record equals what write_emitter_record gives now (so no
// relocation went unstaged), and every live placement's image words are its linked program.
TEST(EmitterRegistry, ChurnKeepsTheTableTrue) {
  std::mt19937 rng(7);
  ProgramHeapOptions options;
  options.initial_constant_words = 16;
  options.initial_code_words = 64;
  options.initial_field_block_words = 16;
  ProgramHeap heap(options);
  EmitterRegistry registry(heap);
  std::vector<Program> pool;
  for (uint32_t v = 0; v < 24; ++v)
    pool.push_back(make_program({.variant = v,
                                 .constant_vec4s = 1 + v % 4,
                                 .extra_update = v % 9,
                                 .emitter_fields = v % 4,
                                 .globals = {{"g" + std::to_string(v % 5), 1 + v % 5 % 3}}}));
  std::vector<std::unique_ptr<Emitter>> emitters;  // by row; null when free
  uint32_t last_generation = 0;
  uint32_t relocated_flushes = 0, swaps = 0;
  for (int step = 0; step < 3000; ++step) {
    const uint32_t op = rng() % 100;
    if (op < 35) {
      auto e = std::make_unique<Emitter>(make_emitter(pool[rng() % pool.size()], rng() % 64));
      Result<uint32_t> row = registry.add(*e);
      if (!row.ok()) continue;
      const uint32_t g = registry.context(*row)->generation;
      ASSERT_NE(g, 0u);
      ASSERT_GT(g, last_generation);
      last_generation = g;
      if (emitters.size() <= *row) emitters.resize(*row + 1);
      ASSERT_EQ(emitters[*row], nullptr) << "row handed out twice";
      emitters[*row] = std::move(e);
    } else if (op < 60) {
      const uint32_t row = rng() % std::max<size_t>(1, emitters.size());
      if (row >= emitters.size() || !emitters[row]) continue;
      ASSERT_TRUE(registry.remove(row).ok());
      emitters[row].reset();
    } else if (op < 75) {
      const uint32_t row = rng() % std::max<size_t>(1, emitters.size());
      if (row >= emitters.size() || !emitters[row]) continue;
      const ProgramHandle before = registry.context(row)->program;
      if (!registry.set_program(row, pool[rng() % pool.size()]).ok()) {
        ASSERT_EQ(registry.context(row)->program, before);
      } else {
        ++swaps;
      }
    } else if (op < 90) {
      const uint32_t row = rng() % std::max<size_t>(1, emitters.size());
      if (row >= emitters.size() || !emitters[row]) continue;
      Emitter& e = *emitters[row];
      e.effect.program = pool[rng() % pool.size()];
      e.transform_row = rng() % 64;
      ++e.version;
    } else {
      relocated_flushes += registry.flush().relocated;
      expect_rows_staged(registry);
      for (uint32_t row = 0; row < registry.row_capacity(); ++row)
        if (registry.is_live(row)) test::expect_placed_matches(heap, registry.context(row)->program);
      if (HasFailure()) return;
    }
    // Rows are stable: each live row's context still names that row.
    for (uint32_t row = 0; row < emitters.size(); ++row) ASSERT_EQ(registry.is_live(row), emitters[row] != nullptr);
  }
  (void)registry.flush();
  expect_rows_staged(registry);
  EXPECT_GT(relocated_flushes, 5u);  // the churn did move placements under the registry
  EXPECT_GT(swaps, 100u);
}

// What the GPU frame asks of the registry: per-emitter global copies after the fields in one
// block (the record says where), generations inside a mask, a seed of 0 kept, the lowest free row
// first, a renewed generation for a live row, the pose and the "rate" field in the record.
TEST(EmitterRegistry, FrameOptionsPerEmitterGlobalsAndGenerations) {
  ProgramHeap heap({.per_emitter_globals = true});
  EmitterRegistry registry(heap, {.first_generation = 4094, .max_generation = 0xFFF, .seed_from_generation = false});
  Program p = make_program({.variant = 1, .emitter_fields = 1, .globals = {{"wind", 3}}});
  p.emitter_fields.push_back({"rate", 1});
  std::vector<Emitter> emitters(4, make_emitter(p, shader::kEmitterNoTransform));
  for (Emitter& e : emitters) {
    e.field_values = {0x3f800000u, 0x41480000u};  // e0 = 1, rate = 12.5
    e.global_values = {1, 2, 3};
  }
  emitters[1].global_values = {7, 8, 9};
  emitters[1].position[0] = 5.0f;
  emitters[1].rotation[0] = 0.0f;  // a quarter turn about +Y: +Z goes to +X
  emitters[1].rotation[1] = 0.70710678f;
  emitters[1].rotation[3] = 0.70710678f;
  std::vector<uint32_t> rows;
  for (Emitter& e : emitters) rows.push_back(registry.add(e).value());
  (void)registry.flush();
  EXPECT_EQ(registry.context(rows[0])->generation, 4094u);
  EXPECT_EQ(registry.context(rows[1])->generation, 4095u);
  EXPECT_EQ(registry.context(rows[2])->generation, 1u);  // wrapped inside the mask, past 0
  const shader::EmitterRecord r = record_at(registry, rows[1]);
  EXPECT_EQ(r.seed, 0u);
  EXPECT_EQ(r.field_words, 2u);
  EXPECT_EQ(r.global_offset, r.field_offset + 2);
  EXPECT_EQ(r.global_words, 3u);
  EXPECT_EQ(r.spawn_rate, 12.5f);  // the "rate" field, not the effect's 10
  EXPECT_EQ(r.position.x, 5.0f);
  EXPECT_NEAR(r.direction.x, 1.0f, 1e-6f);
  EXPECT_NEAR(r.direction.z, 0.0f, 1e-6f);
  EXPECT_NEAR(r.up.y, 1.0f, 1e-6f);
  EXPECT_EQ(r.transform_row, shader::kEmitterNoTransform);
  for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(heap.image()[heap.field_base() + r.global_offset + c], 7u + c);
  // An edit of the rate field restages the record's rate.
  emitters[1].field_values[1] = 0x41a00000u;  // 20
  ++emitters[1].version;
  (void)registry.flush();
  EXPECT_EQ(record_at(registry, rows[1]).spawn_rate, 20.0f);
  // Lowest free row first, whatever the order of removal.
  ASSERT_TRUE(registry.remove(rows[3]).ok());
  ASSERT_TRUE(registry.remove(rows[0]).ok());
  Emitter late = make_emitter(p);
  EXPECT_EQ(registry.add(late).value(), rows[0]);
  EXPECT_EQ(registry.context(rows[0])->generation, 3u);
  // A renewed generation restages the row and nothing else.
  (void)registry.flush();
  ASSERT_TRUE(registry.renew_generation(rows[1]).ok());
  EXPECT_EQ(registry.context(rows[1])->generation, 4u);
  const FlushReport report = registry.flush();
  EXPECT_EQ(report.restaged, 1u);
  EXPECT_EQ(record_at(registry, rows[1]).generation, 4u);
  EXPECT_FALSE(registry.renew_generation(rows[3]).ok());
  expect_rows_staged(registry);
}

}  // namespace
}  // namespace mote::runtime
