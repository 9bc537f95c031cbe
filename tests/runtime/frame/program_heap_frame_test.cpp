// The frame's program buffer is the ProgramHeap's image and its emitter table the
// EmitterRegistry's (lavapipe, validation on): emitters of one effect share one placement and one
// emit/simulate dispatch and the last one's removal releases it; a thousand adds and removals of
// three effects write only the changed ranges (counted), and the GPU's copies of the image and
// the table stay equal to the CPU's while every emitter spawns what the reference accumulator
// says; a heap forced to repack and grow (tiny sections) gives every live emitter the same
// particles, bit for bit, as a heap that never moves anything, bound fields and run-time values
// included; generated programs match the reference simulation: over 64 registers on the wide
// interpreter and compiled, within the fast file on the fast interpreter (in the operand form
// the heap keeps for it), and with more immediates than the fast file holds on the wide one.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/isa.hpp"
#include "mote/simulation.hpp"
#include "mote/verifier.hpp"
#include "runtime/frame/particle_system.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "shared/isa_encoding.h"
#include "sim/emission.hpp"
#include "support/gpu_fixture.hpp"
#include "support/random_life_program.hpp"
#include "support/spawn_probe_program.hpp"
#include "vm_gpu/fast_operands.hpp"
#include "support/program_generator.hpp"

namespace mote {
namespace {

using runtime::Channel;
using runtime::FrameStats;
using runtime::kNoParent;
using runtime::ParticleSystem;
using runtime::ParticleSystemOptions;
using runtime::TransformTable;
using runtime::UploadStats;

// Random life (its own code: a second placement).
using test::kRandomLifeProgram;  // tests/support/random_life_program.hpp

// Spawns at its emitter field `target` (bindable to a transform), drifts with the global `wind`
// (each emitter's own copy), dies at the emitter field `life`, and keeps a constant of its own.
constexpr const char* kTargetWind = R"(
.registers 16
.particle position 3
.particle born_wind 3
.particle age 1
.particle life 1
.emitter rate 1
.emitter target 3
.emitter life 1
.global wind 3
.const 0.25 0.5 0.75 1.0

.init
  LOAD_BUILTIN r0.xyz, emitter:target
  LOAD_CONST r4.xyzw, c[0]
  RAND r8.xyz, #0
  MUL r8.xyz, r8.xyz, r4.x
  ADD r0.xyz, r0.xyz, r8.xyz
  STORE_FIELD @position, r0.xyz
  LOAD_BUILTIN r12.xyz, global:wind
  STORE_FIELD @born_wind, r12.xyz
  STORE_FIELD @age, 0.0
  LOAD_BUILTIN r1.x, emitter:life
  STORE_FIELD @life, r1.x

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_BUILTIN r4.xyz, global:wind
  LOAD_FIELD r8.xyz, @position
  MUL r12.xyz, r4.xyz, r0.x
  ADD r8.xyz, r8.xyz, r12.xyz
  STORE_FIELD @position, r8.xyz
  LOAD_FIELD r1.x, @age
  ADD r1.x, r1.x, r0.x
  STORE_FIELD @age, r1.x
  LOAD_FIELD r2.x, @life
  CMP r3.x, r1.x, r2.x, GE
  KILL r3.x
)";

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kWords = 32;
constexpr uint32_t kSerialWord = 31;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect make_effect(const char* text, std::vector<uint32_t> defaults, float rate) {
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "test";
  e.program = p.ok() ? std::move(p).value() : Program{};
  e.emitter_defaults = std::move(defaults);
  e.emission.rate = rate;
  e.emission.capacity_hint = 1024;
  for (const GlobalImport& g : e.program.global_imports)
    e.globals.push_back({g.name, std::vector<float>(g.width, 0.5f)});
  return e;
}

// The three effects of these tests: rate / life are emitter fields of each (the record's rate is
// the field's value).
CompiledEffect probe_effect(float rate, float life) {
  return make_effect(test::kProgram, {bits(life), bits(rate)}, rate);
}
CompiledEffect random_life_effect(float rate, float life) {
  return make_effect(kRandomLifeProgram, {bits(life), bits(rate)}, rate);
}
CompiledEffect target_wind_effect(float rate, float life) {
  return make_effect(kTargetWind, {bits(rate), bits(0.0f), bits(1.0f), bits(0.0f), bits(life)}, rate);
}

// Live particles by (header, birth serial): what two systems fed the same actions must agree on,
// whichever slots their atomics handed out.
std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> live_by_serial(ParticleSystem& s) {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> out;
  auto pool = s.read_pool();
  auto alive = s.read_alive_slots();
  EXPECT_TRUE(pool.ok() && alive.ok());
  if (!pool.ok() || !alive.ok()) return out;
  for (uint32_t slot : *alive) {
    const uint32_t* rec = pool->data() + size_t(slot) * s.record_words();
    out[{rec[0], rec[kSerialWord]}] = std::vector<uint32_t>(rec, rec + s.record_words());
  }
  return out;
}

class ProgramHeapFrameTest : public test::GpuTest {
 protected:
  // Which generated programs check_generated_programs_against_the_reference runs.
  enum class Generated { kOverSixtyFourRegisters, kFastFile, kMoreImmediatesThanTheFastFile, kFullFastFile };
  void check_generated_programs_against_the_reference(Generated kind, bool compiled);
  ParticleSystem make_system(ParticleSystemOptions o) {
    auto s = ParticleSystem::create(device(), o);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? std::move(s).value() : ParticleSystem{};
  }
  uint32_t add(ParticleSystem& s, const CompiledEffect& e, const EmitterDesc& o = {}) {
    auto r = s.add_emitter(e, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? *r : 0u;
  }
  FrameStats step(ParticleSystem& s) {
    const Status st = s.execute(kDt);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
    auto r = s.read_stats();
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : FrameStats{};
  }
  // After an execute(): the program buffer holds the heap's image word for word, and the table
  // the registry's records (nothing bound, so no word is the bind pass's).
  void expect_gpu_copies_match(ParticleSystem& s, const std::string& where) {
    auto image = s.read_program_image();
    ASSERT_TRUE(image.ok()) << where;
    const std::span<const uint32_t> want = s.program_heap().image();
    ASSERT_EQ(image->size(), want.size()) << where;
    for (size_t w = 0; w < want.size(); ++w) ASSERT_EQ((*image)[w], want[w]) << where << ": image word " << w;
    const uint32_t rows = s.emitter_registry().row_capacity();
    auto table = s.read_emitter_table(rows);
    ASSERT_TRUE(table.ok()) << where;
    const std::span<const uint32_t> records = s.emitter_registry().table();
    for (size_t w = 0; w < records.size(); ++w) ASSERT_EQ((*table)[w], records[w]) << where << ": table word " << w;
  }
  void expect_pool_invariant(ParticleSystem& s, const std::string& where) {
    auto alive = s.read_alive_slots();
    auto free = s.read_free_slots();
    auto pool = s.read_pool();
    ASSERT_TRUE(alive.ok() && free.ok() && pool.ok());
    ASSERT_EQ(alive->size() + free->size(), s.capacity()) << where;
    std::vector<uint8_t> seen(s.capacity(), 0);
    for (uint32_t slot : *alive) {
      ASSERT_LT(slot, s.capacity()) << where;
      ASSERT_EQ(seen[slot]++, 0) << where << ": slot " << slot << " twice";
      const uint32_t header = (*pool)[size_t(slot) * s.record_words()];
      const uint32_t row = header_row(header);
      ASSERT_TRUE(s.is_live(row)) << where << ": alive slot of dead row " << row;
      ASSERT_EQ(header_generation(header), s.generation(row)) << where << ": an old generation of row " << row;
    }
    for (uint32_t slot : *free) {
      ASSERT_LT(slot, s.capacity()) << where;
      ASSERT_EQ(seen[slot]++, 0) << where << ": slot " << slot << " in both lists";
      ASSERT_EQ((*pool)[size_t(slot) * s.record_words()], 0u) << where;
    }
  }
};

// (a) Two emitters of one effect: one placement (reference count 2), one dispatch, their own
// blocks; each emitter's particles equal its own reference simulation; the last removal frees it.
// (The programs draw randomness in INIT only, which is seeded by the birth serial; UPDATE's
// stream is seeded by the slot, which a pool shared by three emitters hands out differently
// from three references with a pool each.)
TEST_F(ProgramHeapFrameTest, EmittersOfOneEffectShareOnePlacementAndOneDispatch) {
  const CompiledEffect probe = random_life_effect(90.0f, 0.25f);
  const CompiledEffect other = target_wind_effect(60.0f, 0.4f);
  ParticleSystem system =
      make_system({.capacity = 2048, .record_words = kWords, .max_emitters = 8, .serial_word = kSerialWord});
  const EmitterDesc slow{.seed = 11, .fields = {{"life", {0.5f}}, {"rate", {45.0f}}}};
  const uint32_t a = add(system, probe, {.seed = 7});
  const uint32_t b = add(system, probe, slow);
  EXPECT_EQ(system.placed_program_count(), 1u);
  const runtime::EmitterContext& ca = *system.emitter_registry().context(a);
  const runtime::EmitterContext& cb = *system.emitter_registry().context(b);
  EXPECT_EQ(ca.program, cb.program);
  EXPECT_EQ(system.program_heap().ref_count(ca.program), 2u);
  EXPECT_NE(system.program_heap().field_block_offset(ca.field_block),
            system.program_heap().field_block_offset(cb.field_block));
  const runtime::ProgramHandle shared = ca.program;
  const uint32_t code_words = system.program_heap().code_allocator().used();
  const uint32_t c = add(system, other, {.seed = 3});
  EXPECT_EQ(system.placed_program_count(), 2u);

  // Each emitter against its own reference (same row and generation, so the headers agree).
  std::vector<Simulation> refs;
  const std::vector<std::pair<uint32_t, const CompiledEffect*>> emitters = {{a, &probe}, {b, &probe}, {c, &other}};
  const std::vector<EmitterDesc> options = {{.seed = 7}, slow, {.seed = 3}};
  for (size_t i = 0; i < emitters.size(); ++i) {
    auto sim = Simulation::create(*emitters[i].second, {.dt = kDt,
                                                        .emitter = options[i],
                                                        .capacity = 2048,
                                                        .record_words = kWords,
                                                        .prewarm = false,
                                                        .emitter_row = emitters[i].first,
                                                        .emitter_generation = system.generation(emitters[i].first)});
    ASSERT_TRUE(sim.ok()) << sim.error().to_string();
    refs.push_back(std::move(sim).value());
  }
  std::vector<std::map<uint32_t, uint32_t>> serial_of(refs.size());  // reference slot -> serial
  std::vector<uint32_t> born(refs.size(), 0);
  for (int f = 0; f < 40; ++f) {
    const FrameStats g = step(system);
    uint32_t spawned = 0, killed = 0, alive = 0;
    for (size_t i = 0; i < refs.size(); ++i) {
      const FrameReport r = refs[i].step().value();
      spawned += r.spawned;
      killed += r.killed;
      alive += r.alive;
      const std::vector<uint32_t>& ref_alive = refs[i].alive_slots();
      for (uint32_t k = 0; k < r.spawned; ++k) serial_of[i][ref_alive[k]] = born[i] + k;
      born[i] += r.spawned;
    }
    ASSERT_EQ(g.newborns, spawned) << "frame " << f;
    ASSERT_EQ(g.killed, killed) << "frame " << f;
    ASSERT_EQ(g.alive, alive) << "frame " << f;
    if (f % 5 != 4) continue;
    // Every live particle, matched by (header, serial), equals its emitter's reference record.
    const auto got = live_by_serial(system);
    size_t compared = 0;
    for (size_t i = 0; i < refs.size(); ++i) {
      const uint32_t words = emitters[i].second->program.particle_record_words();
      for (uint32_t slot : refs[i].alive_slots()) {
        const uint32_t* want = refs[i].pool().data() + size_t(slot) * kWords;
        auto it = got.find({want[0], serial_of[i].at(slot)});
        ASSERT_NE(it, got.end()) << "frame " << f << " emitter " << i << " serial " << serial_of[i].at(slot);
        for (uint32_t w = 0; w < words; ++w) {
          const float x = std::bit_cast<float>(it->second[w]), y = std::bit_cast<float>(want[w]);
          ASSERT_NEAR(x, y, 1e-6 + 1e-6 * std::abs(y)) << "frame " << f << " emitter " << i << " word " << w;
        }
        ++compared;
      }
    }
    EXPECT_EQ(compared, got.size()) << "frame " << f;
  }
  expect_gpu_copies_match(system, "three emitters");
  // Records: one program id and code, two blocks.
  auto table = system.read_emitter_table(8);
  ASSERT_TRUE(table.ok());
  shader::EmitterRecord ra, rb;
  std::memcpy(&ra, table->data() + size_t(a) * shader::kEmitterRecordWords, sizeof(ra));
  std::memcpy(&rb, table->data() + size_t(b) * shader::kEmitterRecordWords, sizeof(rb));
  EXPECT_EQ(ra.program_id, rb.program_id);
  EXPECT_EQ(ra.init_offset, rb.init_offset);
  EXPECT_EQ(ra.update_offset, rb.update_offset);
  EXPECT_EQ(ra.constants_offset, rb.constants_offset);
  EXPECT_NE(ra.field_offset, rb.field_offset);
  EXPECT_EQ(rb.spawn_rate, 45.0f);  // the emitter field "rate"

  // The last emitter of the effect releases its placement; the other program stays.
  ASSERT_TRUE(system.remove_emitter(a).ok());
  EXPECT_EQ(system.placed_program_count(), 2u);
  EXPECT_EQ(system.program_heap().ref_count(shared), 1u);
  ASSERT_TRUE(system.remove_emitter(b).ok());
  EXPECT_EQ(system.placed_program_count(), 1u);
  EXPECT_FALSE(system.program_heap().is_live(shared));
  EXPECT_EQ(system.program_heap().code_allocator().used(),
            system.program_heap().placement(system.emitter_registry().context(c)->program).init_length +
                system.program_heap().placement(system.emitter_registry().context(c)->program).update_length);
  EXPECT_LT(system.program_heap().code_allocator().used(), code_words + 64);
  const FrameStats g = step(system);
  EXPECT_GT(g.orphaned, 0u);
  expect_gpu_copies_match(system, "after the removals");
  expect_pool_invariant(system, "after the removals");
}

// (b) A thousand emitters of three effects added and removed one at a time, a frame every few
// actions: each action writes its block and row, not the image (the whole image and table went
// out on every add and remove before); the GPU's copies stay equal to the CPU's, and every live
// emitter spawns exactly what the reference accumulator gives it.
TEST_F(ProgramHeapFrameTest, AThousandAddsAndRemovalsUploadOnlyWhatChanged) {
  constexpr uint32_t kEmitters = 1000;
  // Rates that never fill the pool: 1000 emitters x ~3/s x ~0.4 s alive.
  std::vector<CompiledEffect> effects = {probe_effect(3.0f, 0.4f), random_life_effect(2.0f, 0.8f),
                                         target_wind_effect(4.0f, 0.3f)};
  ParticleSystem system =
      make_system({.capacity = 8192, .record_words = kWords, .max_emitters = 1024, .serial_word = kSerialWord});
  std::mt19937 rng(424242);
  std::map<uint32_t, float> accumulator;  // live row -> the reference accumulator
  std::map<uint32_t, float> rate_of;
  uint64_t actions = 0, whole_image_bytes = 0, spawned = 0;
  std::vector<uint64_t> per_action_bytes;  // program buffer bytes written per frame
  UploadStats before = system.upload_stats();
  auto act = [&](bool adding) {
    if (adding) {
      const size_t e = rng() % effects.size();
      EmitterDesc o{.seed = uint32_t(rng())};
      o.position[0] = float(rng() % 100) * 0.1f;
      const float rate = float(1 + rng() % 5);
      o.fields = {{"rate", {rate}}};
      const uint32_t row = add(system, effects[e], o);
      accumulator[row] = 0.0f;
      rate_of[row] = rate;
    } else {
      auto it = accumulator.begin();
      std::advance(it, rng() % accumulator.size());
      ASSERT_TRUE(system.remove_emitter(it->first).ok());
      rate_of.erase(it->first);
      accumulator.erase(it);
    }
    ++actions;
    // Before: each add or removal uploaded the whole image (and the table).
    whole_image_bytes += uint64_t(system.program_heap().image().size()) * 4;
  };
  auto frame = [&](const std::string& where, bool check_copies) {
    before = system.upload_stats();
    const FrameStats g = step(system);
    per_action_bytes.push_back(system.upload_stats().program_bytes - before.program_bytes);
    uint32_t want = 0;
    for (auto& [row, acc] : accumulator) want += sim::take_rate_spawns(acc, rate_of[row], kDt);
    ASSERT_EQ(g.newborns, want) << where;
    ASSERT_EQ(g.dropped, 0u) << where;
    spawned += g.newborns;
    if (check_copies) {
      expect_gpu_copies_match(system, where);
      expect_pool_invariant(system, where);
    }
  };
  // Up to a thousand, four actions a frame (a removal now and then), then churn at the top.
  uint32_t checked_at = 0;
  while (accumulator.size() < kEmitters) {
    for (int k = 0; k < 4 && accumulator.size() < kEmitters; ++k) act(accumulator.size() < 10 || rng() % 10 != 0);
    const bool check = accumulator.size() >= checked_at + 100;
    if (check) checked_at = uint32_t(accumulator.size());
    frame("filling, " + std::to_string(accumulator.size()) + " live", check);
    if (HasFatalFailure()) return;
  }
  for (int i = 0; i < 300; ++i) {
    act(accumulator.size() < kEmitters && rng() % 2 == 0);
    if (rng() % 2 == 0) act(accumulator.size() < kEmitters);
    frame("churn " + std::to_string(i), i % 100 == 99);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(system.placed_program_count(), 3u);
  const uint64_t uploaded = system.upload_stats().program_bytes;
  std::sort(per_action_bytes.begin(), per_action_bytes.end());
  const uint64_t median = per_action_bytes[per_action_bytes.size() / 2];
  const uint64_t p95 = per_action_bytes[per_action_bytes.size() * 95 / 100];
  std::cout << "1000-emitter churn: " << actions << " adds and removals over " << per_action_bytes.size()
            << " frames, program buffer bytes written " << uploaded << " (whole-image uploads would have been "
            << whole_image_bytes << "), median " << median << " B, 95th percentile " << p95 << " B per frame, growths "
            << system.upload_stats().program_buffer_growths << ", repacks " << system.program_heap().repack_count()
            << ", table bytes " << system.upload_stats().table_bytes << ", image "
            << system.program_heap().image().size() * 4 << " B, particles spawned " << spawned << "\n";
  EXPECT_GT(spawned, 1000u);
  EXPECT_LT(uploaded * 50, whole_image_bytes);  // under 2% of re-uploading the image each time
  EXPECT_LE(median, 256u);                      // a few emitters' blocks (and the header now and then)
  EXPECT_LT(p95, 2048u);
  EXPECT_GT(system.upload_stats().program_buffer_growths, 0u);  // the field section grew on the GPU
  EXPECT_GT(system.upload_stats().staged_regions + system.upload_stats().updated_regions, actions);
  expect_gpu_copies_match(system, "end");
}

// kTargetWind with `extra` more UPDATE instructions (a longer placement) and `pads` unused
// 4-wide emitter fields (a larger block). Every (extra, pads) is its own program.
CompiledEffect variant_effect(uint32_t extra, uint32_t pads, float rate, float life) {
  std::string text = kTargetWind;
  const size_t update = text.find("\n", text.find(".update\n") + 8) + 1;  // after DT's load
  std::string more;
  for (uint32_t i = 0; i < extra; ++i) more += "  ADD r14.x, r0.x, " + std::to_string(i + 1) + ".0\n";
  text.insert(update, more);
  std::string fields;
  for (uint32_t i = 0; i < pads; ++i) fields += ".emitter pad" + std::to_string(i) + " 4\n";
  text.insert(text.find(".global"), fields);
  std::vector<uint32_t> defaults = {bits(rate), bits(0.0f), bits(1.0f), bits(0.0f), bits(life)};
  defaults.resize(defaults.size() + 4 * pads, bits(7.0f));
  return make_effect(text.c_str(), std::move(defaults), rate);
}

// (c) One sequence of actions on two systems: one whose heap starts with sections of 4 words
// (placements and blocks force repacks and growth, moving live programs and blocks, a bound one
// and ones with run-time values included) and one roomy enough never to move anything. Every
// frame both hold the same particles, bit for bit, matched by (header, serial). A field bound to
// a transform follows it through the moves, and keeps its last written value when unbound right
// after a repack moved its block, before any frame. (Every program here draws randomness in INIT
// only: UPDATE's stream is seeded by the slot, which the two pools' atomics may hand out
// differently.)
TEST_F(ProgramHeapFrameTest, ForcedRepacksKeepEveryLiveEmittersParticles) {
  auto made_table = TransformTable::create(device(), 4);
  ASSERT_TRUE(made_table.ok());
  TransformTable table = std::move(made_table).value();
  const uint32_t mover = table.add_row(kNoParent).value();
  ParticleSystem tiny = make_system({.capacity = 4096,
                                     .record_words = kWords,
                                     .max_emitters = 16,
                                     .serial_word = kSerialWord,
                                     .heap_constant_words = 4,
                                     .heap_code_words = 4,
                                     .heap_field_words = 4});
  ParticleSystem roomy = make_system({.capacity = 4096,
                                      .record_words = kWords,
                                      .max_emitters = 16,
                                      .serial_word = kSerialWord,
                                      .heap_constant_words = 8192,
                                      .heap_code_words = 16384,
                                      .heap_field_words = 8192});
  ParticleSystem* systems[2] = {&tiny, &roomy};
  for (ParticleSystem* s : systems) ASSERT_TRUE(s->set_transforms(&table).ok());

  int frame_index = 0;
  auto both = [&](auto&& action) {
    for (ParticleSystem* s : systems) action(*s);
  };
  auto mover_at = [](int frame) {
    const float t = float(frame) * kDt;
    return glm::vec3(std::sin(t) * 2.0f, 1.0f + t, -0.5f);
  };
  auto run = [&](int frames, const std::string& what) {
    for (int f = 0; f < frames; ++f, ++frame_index) {
      ASSERT_TRUE(device().wait_idle().ok());
      ASSERT_TRUE(table.set_local(mover, mover_at(frame_index), glm::quat(1, 0, 0, 0), glm::vec3(1)).ok());
      ASSERT_TRUE(table.upload().ok());
      const FrameStats a = step(tiny);
      const FrameStats b = step(roomy);
      const std::string where = what + ", frame " + std::to_string(frame_index);
      ASSERT_EQ(a.newborns, b.newborns) << where;
      ASSERT_EQ(a.killed, b.killed) << where;
      ASSERT_EQ(a.alive, b.alive) << where;
      ASSERT_EQ(a.orphaned, b.orphaned) << where;
      const auto pa = live_by_serial(tiny);
      const auto pb = live_by_serial(roomy);
      ASSERT_EQ(pa.size(), pb.size()) << where;
      for (const auto& [key, record] : pb) {
        auto it = pa.find(key);
        ASSERT_NE(it, pa.end()) << where << ": header " << key.first << " serial " << key.second;
        ASSERT_EQ(it->second, record) << where << ": header " << key.first << " serial " << key.second;
      }
    }
  };
  auto block_of = [](const ParticleSystem& s, uint32_t row) {
    return s.program_heap().field_block_offset(s.emitter_registry().context(row)->field_block);
  };

  // P1 and P2 first (their blocks and code open their sections), then the bound emitter W, then
  // others.
  uint32_t p1_row = 0, p2_row = 0, w_row = 0;
  std::vector<uint32_t> others;
  both([&](ParticleSystem& s) {
    p1_row = add(s, variant_effect(6, 1, 120.0f, 0.3f), {.seed = 1});
    p2_row = add(s, random_life_effect(100.0f, 0.3f), {.seed = 3});
    w_row = add(s, target_wind_effect(100.0f, 0.4f), {.seed = 2});
  });
  std::vector<uint32_t> made(2);
  for (uint32_t i = 0; i < 2; ++i)
    both([&](ParticleSystem& s) { made[i] = add(s, variant_effect(3 * i, i, 80.0f, 0.3f), {.seed = 10 + i}); });
  others = made;
  run(6, "four emitters");
  ASSERT_FALSE(HasFatalFailure());
  both([&](ParticleSystem& s) { ASSERT_TRUE(s.bind_field(w_row, "target", mover, Channel::kPosition).ok()); });
  run(4, "bound");

  // Churn of programs of other sizes around the bound emitter, with run-time values written into
  // blocks that move: repacks move live placements and blocks.
  std::mt19937 rng(99);
  for (uint32_t i = 0; i < 10; ++i) {
    const size_t victim = rng() % others.size();
    const uint32_t extra = rng() % 12, pads = rng() % 4;
    const float gust[3] = {float(i % 3) - 1.0f, 0.5f, float(i) * 0.1f};
    const float life = 0.2f + 0.05f * float(i);
    both([&](ParticleSystem& s) {
      ASSERT_TRUE(s.remove_emitter(others[victim]).ok());
      others[victim] = add(s, variant_effect(extra, pads, 60.0f + 10.0f * float(i), 0.35f), {.seed = 20 + i});
      ASSERT_TRUE(s.set_global("wind", gust).ok());
      ASSERT_TRUE(s.set_emitter_field(w_row, "life", std::span(&life, 1)).ok());
    });
    run(3, "churn " + std::to_string(i));
    ASSERT_FALSE(HasFatalFailure());
  }

  // W's newest particles spawn at `at` plus INIT's jitter (0 .. 0.25 per axis; a newborn has not
  // moved yet).
  auto expect_newborns_at = [&](const glm::vec3& at, const std::string& where) {
    auto pool = tiny.read_pool();
    auto states = tiny.read_emitter_states();
    auto alive = tiny.read_alive_slots();
    ASSERT_TRUE(pool.ok() && states.ok() && alive.ok());
    const uint32_t first = (*states)[w_row].spawn_first;
    uint32_t seen = 0;
    for (uint32_t slot : *alive) {
      const uint32_t* rec = pool->data() + size_t(slot) * kWords;
      if (header_row(rec[0]) != w_row || rec[kSerialWord] < first) continue;
      for (int c = 0; c < 3; ++c) {
        const float p = std::bit_cast<float>(rec[1 + c]);
        EXPECT_GE(p, at[c] - 1e-5f) << where << ", axis " << c;
        EXPECT_LE(p, at[c] + 0.25f + 1e-5f) << where << ", axis " << c;
      }
      ++seen;
    }
    EXPECT_GT(seen, 0u) << where;
  };
  // A hole before W's block, then a block longer than any free run: the repack moves W's block,
  // and the bind pass writes the block where it is now.
  auto move_w = [&](uint32_t& hole_row, float rate) {
    both([&](ParticleSystem& s) { ASSERT_TRUE(s.remove_emitter(hole_row).ok()); });
    const uint32_t w_block = block_of(tiny, w_row);
    const uint32_t need = tiny.program_heap().field_allocator().largest_free() + 4;
    both([&](ParticleSystem& s) { hole_row = add(s, variant_effect(1, (need + 3) / 4, rate, 0.3f), {.seed = 40}); });
    EXPECT_NE(block_of(tiny, w_row), w_block) << "the bound block did not move";
  };
  move_w(p1_row, 90.0f);
  run(4, "bound, its block moved");
  ASSERT_FALSE(HasFatalFailure());
  expect_newborns_at(mover_at(frame_index - 1), "bound after the move");
  // Moved again and unbound right then, before a frame: W keeps the value the last frame's bind
  // pass wrote, read back from where that frame's layout had it, not where the mover goes next.
  move_w(p2_row, 70.0f);
  both([&](ParticleSystem& s) { ASSERT_TRUE(s.unbind_field(w_row, "target").ok()); });
  const glm::vec3 last = mover_at(frame_index - 1);
  run(6, "unbound after a repack");
  ASSERT_FALSE(HasFatalFailure());
  expect_newborns_at(last, "unbound");
  both([&](ParticleSystem& s) { ASSERT_TRUE(s.remove_emitter(w_row).ok()); });
  both([&](ParticleSystem& s) { w_row = add(s, target_wind_effect(70.0f, 0.5f), {.seed = 50}); });
  run(4, "re-added");

  std::cout << "forced repacks: " << tiny.program_heap().repack_count() << " repacks, placement_version "
            << tiny.program_heap().placement_version() << ", " << tiny.upload_stats().program_buffer_growths
            << " program buffer growths, " << frame_index << " frames compared\n";
  EXPECT_GE(tiny.program_heap().placement_version(), 2u);  // at least the two moves of W
  EXPECT_GE(tiny.upload_stats().program_buffer_growths, 3u);
  EXPECT_EQ(roomy.program_heap().placement_version(), 0u) << "the comparison run moved placements too";
  EXPECT_EQ(roomy.upload_stats().program_buffer_growths, 0u);
  expect_gpu_copies_match(tiny, "tiny heap");
  expect_gpu_copies_match(roomy, "roomy heap");
}

// A generated program (src/support/program_generator.hpp) as an effect: its linked global reads
// become reads of extra emitter fields, which hold the values.
CompiledEffect generated_effect(uint64_t seed, float rate, const GeneratorOptions& options) {
  Program p = generate_random_program(seed, options);
  const uint32_t field_words = p.emitter_field_words();
  const uint32_t global_words = generated_global_field_words(p);
  for (Section section : {Section::kInit, Section::kUpdate})
    for (Instruction& ins : p.code(section)) {
      if (shader::vm_op(ins.words[0]) != uint32_t(isa::Op::LOAD_BUILTIN)) continue;
      const uint32_t id = ins.words[1];
      if ((id >> shader::kVmBuiltinSpaceShift) != shader::kVmSpaceGlobalField) continue;
      ins.words[1] = (shader::kVmSpaceEmitterField << shader::kVmBuiltinSpaceShift) |
                     (field_words + (id & shader::kVmBuiltinIndexMask));
    }
  // UPDATE's random stream is keyed by the slot (docs/design/simulation.md, "Simulate"), and the
  // frame's one pool, which the fast program shares here, numbers slots otherwise than the
  // reference's pool of its own: a draw in UPDATE that reaches a record differs particle by
  // particle (seed 17's program has one). Each becomes a MOV of a fixed value in [0, 1); the
  // slot keying itself is update_draws_test.cpp's.
  for (Instruction& ins : p.code(Section::kUpdate)) {
    if (shader::vm_op(ins.words[0]) != uint32_t(isa::Op::RAND)) continue;
    const uint32_t lanes = ins.words[0] & (0x7u << 8), dst = ins.words[0] & (0xFFu << 24);
    ins = Instruction{{uint32_t(isa::Op::MOV) | lanes | (shader::kVmKindImm << 16) | dst, bits(0.375f), 0u, 0u}};
  }
  p.global_imports.clear();
  for (uint32_t w = 0; w < global_words; ++w) p.emitter_fields.push_back({"g" + std::to_string(w), 1});
  CompiledEffect e;
  e.name = "generated_" + std::to_string(seed);
  e.program = std::move(p);
  std::mt19937 rng{uint32_t(seed)};
  for (uint32_t w = 0; w < e.program.emitter_field_words(); ++w)
    e.emitter_defaults.push_back(bits(float(int(rng() % 2001) - 1000) / 100.0f));
  e.emission.rate = rate;
  e.emission.capacity_hint = 4096;
  return e;
}

// (d) Generated programs beside a fast one in the same frame: counts equal the reference every
// frame, every live record (matched by birth serial) within the VM parity suite's program
// tolerance. Programs over the fast file's 64 registers, on the wide interpreter and (the
// default) compiled; on the wide interpreter with 64 wide lanes walking hundreds of particles
// (the grid stride). Programs the fast file holds, on the fast interpreter, which runs them in
// the fast operand form the heap keeps for it (ParticleSystem's frame_section_code), their
// constant loads folded into immediates. And programs within 64 registers but with more
// distinct immediates in a section than the fast file's immediate slots: the wide interpreter.
TEST_F(ProgramHeapFrameTest, ProgramsOverSixtyFourRegistersRunOnTheWideInterpreter) {
  check_generated_programs_against_the_reference(Generated::kOverSixtyFourRegisters, false);
}
TEST_F(ProgramHeapFrameTest, ProgramsOverSixtyFourRegistersRunCompiled) {
  check_generated_programs_against_the_reference(Generated::kOverSixtyFourRegisters, true);
}
TEST_F(ProgramHeapFrameTest, GeneratedProgramsRunOnTheFastInterpreterInItsOperandForm) {
  check_generated_programs_against_the_reference(Generated::kFastFile, false);
}
TEST_F(ProgramHeapFrameTest, ProgramsWithMoreImmediatesThanTheFastFileHoldsRunOnTheWideInterpreter) {
  check_generated_programs_against_the_reference(Generated::kMoreImmediatesThanTheFastFile, false);
}
// A section with as many distinct immediates as the fast file holds fills its last immediate
// slot, next to the record window's first: the interpreter fills the immediates four at a time
// and must not touch the window (the fold keeps every immediate: they feed a KILL).
TEST_F(ProgramHeapFrameTest, ProgramsThatFillTheFastFilesImmediatesRunOnTheFastInterpreter) {
  check_generated_programs_against_the_reference(Generated::kFullFastFile, false);
}
void ProgramHeapFrameTest::check_generated_programs_against_the_reference(Generated kind, bool compiled) {
  constexpr uint32_t kRecord = 40, kSerial = 39, kCapacity = 4096;
  const CompiledEffect probe = probe_effect(60.0f, 0.3f);
  GeneratorOptions options;
  if (kind == Generated::kOverSixtyFourRegisters) {
    options.min_registers = 96;
    options.max_registers = 256;
  }
  const uint32_t wide_programs = kind == Generated::kFastFile || kind == Generated::kFullFastFile ? 0u : 1u;
  for (uint64_t seed : {3u, 17u, 40u}) {
    CompiledEffect generated = generated_effect(seed, 9000.0f, options);  // 150 a frame
    if (kind == Generated::kMoreImmediatesThanTheFastFile) {
      // One more distinct immediate than the fast file's slots, each moved into the last
      // register at the end of UPDATE (which changes no field, but every executor runs it).
      const uint32_t last = generated.program.register_count - 1;
      for (uint32_t k = 0; k <= shader::kVmFastMaxImmediates; ++k)
        generated.program.update.push_back({{uint32_t(isa::Op::MOV) | (1u << 8) | (shader::kVmKindImm << 16) |
                                                 (last << 24),
                                             bits(0.5f + float(k)), 0u, 0u}});
    }
    if (kind == Generated::kFullFastFile) {
      // r = 0.5; r = max(r, 1.5), max(r, 2.5)... until the section holds kVmFastMaxImmediates
      // distinct immediates with the tail r *= 0; KILL r, which never fires.
      const uint32_t r = generated.program.register_count - 1;
      auto op = [&](isa::Op o, uint32_t kinds, uint32_t a, uint32_t b) {
        return Instruction{{uint32_t(o) | (1u << 8) | kinds | (r << 24), a, b, 0u}};
      };
      const uint32_t reg = r | (shader::kVmSwizzleIdentity << 8);
      const uint32_t reg_imm = (shader::kVmKindReg << 16) | (shader::kVmKindImm << 18);
      std::vector<Instruction>& update = generated.program.update;
      update.push_back(op(isa::Op::MOV, shader::kVmKindImm << 16, bits(0.5f), 0u));
      auto with_tail = [&] {
        std::vector<Instruction> u = update;
        u.push_back(op(isa::Op::MUL, reg_imm, reg, bits(0.0f)));
        u.push_back(Instruction{{uint32_t(isa::Op::KILL) | (1u << 8) | (shader::kVmKindReg << 16), reg, 0u, 0u}});
        return u;
      };
      for (uint32_t k = 1; distinct_immediates(with_tail()) < shader::kVmFastMaxImmediates; ++k)
        update.push_back(op(isa::Op::MAX, reg_imm, reg, bits(0.5f + float(k))));
      update = with_tail();
      ASSERT_EQ(distinct_immediates(update), shader::kVmFastMaxImmediates);
    }
    if (kind == Generated::kOverSixtyFourRegisters) {
      ASSERT_GT(generated.program.register_count, shader::kVmFastRegisterSlots);
    } else {
      ASSERT_LE(generated.program.register_count, shader::kVmFastRegisterSlots);
      const uint32_t most = std::max(distinct_immediates(generated.program.init),
                                     distinct_immediates(generated.program.update));
      if (kind == Generated::kFastFile || kind == Generated::kFullFastFile)
        ASSERT_LE(most, shader::kVmFastMaxImmediates);
      else ASSERT_GT(most, shader::kVmFastMaxImmediates);
    }
    ASSERT_TRUE(verify_program(generated.program).ok()) << verify_program(generated.program).error().to_string();
    ParticleSystem system = make_system({.capacity = kCapacity,
                                         .record_words = kRecord,
                                         .max_emitters = 4,
                                         .serial_word = kSerial,
                                         .wide_lanes = 64,
                                         .compiled_simulate = compiled});
    const uint32_t fast_row = add(system, probe, {.seed = 1});
    const uint32_t row = add(system, generated, {.seed = 9});
    if (HasFatalFailure()) return;
    EXPECT_EQ(system.placed_program_count(), 2u);
    EXPECT_EQ(system.wide_program_count(), wide_programs);
    auto made = Simulation::create(generated, {.dt = kDt,
                                               .emitter = {.seed = 9},
                                               .capacity = kCapacity,
                                               .record_words = kRecord,
                                               .prewarm = false,
                                               .emitter_row = row,
                                               .emitter_generation = system.generation(row)});
    ASSERT_TRUE(made.ok()) << made.error().to_string();
    Simulation& ref = *made;
    auto made_fast = Simulation::create(probe, {.dt = kDt,
                                                .emitter = {.seed = 1},
                                                .capacity = kCapacity,
                                                .record_words = kRecord,
                                                .prewarm = false,
                                                .emitter_row = fast_row,
                                                .emitter_generation = system.generation(fast_row)});
    ASSERT_TRUE(made_fast.ok());
    std::map<uint32_t, uint32_t> serial_of;
    uint32_t born = 0, compared = 0, peak = 0;
    for (int f = 0; f < 12; ++f) {
      const FrameStats g = step(system);
      const FrameReport r = ref.step().value();
      const FrameReport rf = made_fast->step().value();
      const std::string where = "seed " + std::to_string(seed) + " frame " + std::to_string(f);
      ASSERT_EQ(g.newborns, r.spawned + rf.spawned) << where;
      ASSERT_EQ(g.killed, r.killed + rf.killed) << where;
      ASSERT_EQ(g.alive, r.alive + rf.alive) << where;
      peak = std::max({peak, r.spawned, r.alive - r.spawned});
      for (uint32_t k = 0; k < r.spawned; ++k) serial_of[ref.alive_slots()[k]] = born + k;
      born += r.spawned;
      auto pool = system.read_pool();
      auto alive = system.read_alive_slots();
      ASSERT_TRUE(pool.ok() && alive.ok());
      std::map<uint32_t, const uint32_t*> got;  // serial -> record, the generated emitter's
      for (uint32_t slot : *alive) {
        const uint32_t* rec = pool->data() + size_t(slot) * kRecord;
        if (header_row(rec[0]) == row) got[rec[kSerial]] = rec;
      }
      ASSERT_EQ(got.size(), ref.alive_slots().size()) << where;
      for (uint32_t slot : ref.alive_slots()) {
        const uint32_t* want = ref.pool().data() + size_t(slot) * kRecord;
        auto it = got.find(serial_of.at(slot));
        ASSERT_NE(it, got.end()) << where << ": serial " << serial_of.at(slot);
        ASSERT_EQ(it->second[0], want[0]) << where;
        for (uint32_t w = 1; w < generated.program.particle_record_words(); ++w) {
          const float x = std::bit_cast<float>(it->second[w]), y = std::bit_cast<float>(want[w]);
          const bool same = x == y || (std::isnan(x) && std::isnan(y)) ||
                            std::abs(double(x) - double(y)) <= 1e-3 + 1e-3 * std::abs(double(y));
          ASSERT_TRUE(same) << where << " serial " << it->first << " word " << w << ": gpu " << x << " ref " << y;
        }
        ++compared;
      }
    }
    EXPECT_GT(peak, 64u) << "the 64 wide lanes never had to stride";  // newborns or survivors
    EXPECT_GT(compared, 500u);
    // Compiled: both programs' UPDATE and INIT ran as kernels, the generated one's included.
    EXPECT_EQ(system.compiled_kernel_count(), compiled ? 4u : 0u);
    // Removing the generated program's emitter leaves only the fast program.
    ASSERT_TRUE(system.remove_emitter(row).ok());
    EXPECT_EQ(system.wide_program_count(), 0u);
    const FrameStats g = step(system);
    EXPECT_GT(g.orphaned, 0u);
  }
}

}  // namespace
}  // namespace mote
