// Random draws on the GPU frame against the reference simulation, with a second emitter's
// particles in the same pool (lavapipe, validation on): INIT's draws are keyed by the birth
// serial and UPDATE's by the slot (docs/design/simulation.md, "Emit" and "Simulate"), on the wide
// interpreter and compiled. The shared pool gives the emitter other slots than the reference's
// pool of its own, so an UPDATE draw matches the reference's particle in the same slot, not the
// one of the same serial. The UPDATE is the part of generated program 17 (tests/support's
// generator) that the program-heap frame test once compared by serial: a draw, its arcsine and
// absolute value, stored.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/simulation.hpp"
#include "runtime/frame/particle_system.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"
#include "support/gpu_fixture.hpp"
#include "support/spawn_probe_program.hpp"

namespace mote {
namespace {

using runtime::FrameStats;
using runtime::ParticleSystem;

// Over the fast file's 64 registers: the wide interpreter, or a compiled kernel.
constexpr const char* kDraws = R"(
.registers 190
.particle born 1
.particle draw 3
.particle bent 2

.init
  RAND r0.x, #5
  STORE_FIELD @born, r0.x
  STORE_FIELD.3 @draw, -1
  STORE_FIELD.2 @bent, -1

.update
  RAND r60.xyz, #758
  ASIN r143.xyzw, r62.xxxx
  ABS r155.xy, r142.zy
  STORE_FIELD @draw, r60.xyz
  STORE_FIELD @bent, r154.yz
)";

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kRecord = 40, kSerial = 39, kCapacity = 4096;
constexpr uint32_t kBornWord = 1, kDrawWord = 2, kBentWord = 5;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

CompiledEffect effect(const char* text, std::vector<uint32_t> defaults, float rate) {
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "draws";
  e.program = p.ok() ? std::move(p).value() : Program{};
  e.emitter_defaults = std::move(defaults);
  e.emission.rate = rate;
  e.emission.capacity_hint = kCapacity;
  return e;
}

class UpdateDrawsTest : public test::GpuTest {
 protected:
  void check(bool compiled);
};

void UpdateDrawsTest::check(bool compiled) {
  // The probe (test::kProgram, a fast program) spawns one particle a frame that lives past the
  // test, taking a slot of the pool each frame.
  const CompiledEffect probe = effect(test::kProgram, {bits(1.0f), bits(60.0f)}, 60.0f);
  const CompiledEffect draws = effect(kDraws, {}, 9000.0f);  // 150 a frame
  ASSERT_GT(draws.program.register_count, shader::kVmFastRegisterSlots);
  auto made = ParticleSystem::create(device(), {.capacity = kCapacity,
                                                .record_words = kRecord,
                                                .max_emitters = 4,
                                                .serial_word = kSerial,
                                                .wide_lanes = 64,
                                                .compiled_simulate = compiled});
  ASSERT_TRUE(made.ok()) << made.error().to_string();
  ParticleSystem& system = *made;
  ASSERT_TRUE(system.add_emitter(probe, {.seed = 1}).ok());
  auto added = system.add_emitter(draws, {.seed = 9});
  ASSERT_TRUE(added.ok()) << added.error().to_string();
  const uint32_t row = *added;
  EXPECT_EQ(system.wide_program_count(), 1u);
  auto made_ref = Simulation::create(draws, {.dt = kDt,
                                             .emitter = {.seed = 9},
                                             .capacity = kCapacity,
                                             .record_words = kRecord,
                                             .prewarm = false,
                                             .emitter_row = row,
                                             .emitter_generation = system.generation(row)});
  ASSERT_TRUE(made_ref.ok()) << made_ref.error().to_string();
  Simulation& ref = *made_ref;

  std::map<uint32_t, uint32_t> serial_of;  // reference slot -> birth serial
  uint32_t born = 0, by_serial = 0, by_slot = 0, moved = 0;
  for (int f = 0; f < 8; ++f) {
    const std::string where = "frame " + std::to_string(f);
    const Status st = system.execute(kDt);
    ASSERT_TRUE(st.ok()) << st.error().to_string();
    const FrameReport r = ref.step().value();
    for (uint32_t k = 0; k < r.spawned; ++k) serial_of[ref.alive_slots()[k]] = born + k;
    born += r.spawned;
    auto pool = system.read_pool();
    auto alive = system.read_alive_slots();
    ASSERT_TRUE(pool.ok() && alive.ok()) << where;
    std::map<uint32_t, uint32_t> slot_of_serial;  // the GPU's, this emitter's
    std::set<uint32_t> live;
    for (uint32_t slot : *alive) {
      const uint32_t* rec = pool->data() + size_t(slot) * kRecord;
      if (header_row(rec[0]) != row) continue;
      slot_of_serial[rec[kSerial]] = slot;
      live.insert(slot);
    }
    ASSERT_EQ(slot_of_serial.size(), ref.alive_slots().size()) << where;
    for (uint32_t slot : ref.alive_slots()) {
      const uint32_t* want = ref.pool().data() + size_t(slot) * kRecord;
      const uint32_t serial = serial_of.at(slot);
      auto it = slot_of_serial.find(serial);
      ASSERT_NE(it, slot_of_serial.end()) << where << ": serial " << serial;
      const uint32_t* got = pool->data() + size_t(it->second) * kRecord;
      // INIT's draw follows the serial, wherever the pool put the particle.
      ASSERT_EQ(got[kBornWord], want[kBornWord]) << where << ": serial " << serial;
      ++by_serial;
      if (it->second != slot) ++moved;
      // UPDATE's draws follow the slot: the GPU's particle in this slot, if it has been advanced
      // (a newborn still holds INIT's -1, on either side).
      if (!live.count(slot)) continue;
      const uint32_t* there = pool->data() + size_t(slot) * kRecord;
      if (there[kDrawWord] == bits(-1.0f) || want[kDrawWord] == bits(-1.0f)) continue;
      for (uint32_t w = kDrawWord; w < kDrawWord + 3; ++w)
        ASSERT_EQ(there[w], want[w]) << where << ": slot " << slot << " word " << w;
      for (uint32_t w = kBentWord; w < kBentWord + 2; ++w) {
        const float x = std::bit_cast<float>(there[w]), y = std::bit_cast<float>(want[w]);
        // The arcsine within its ISA row's tolerance (4096 ulp or 1e-4).
        const float ulp = std::nextafter(std::abs(y), INFINITY) - std::abs(y);
        ASSERT_NEAR(x, y, std::max(1e-4f, 4096.0f * ulp)) << where << ": slot " << slot << " word " << w;
      }
      ++by_slot;
    }
  }
  EXPECT_GT(by_serial, 500u);
  EXPECT_GT(by_slot, 500u);
  // The probe's particles moved this emitter's: otherwise slot and serial keys could not be told
  // apart here.
  EXPECT_GT(moved, 500u);
  EXPECT_EQ(system.compiled_kernel_count(), compiled ? 4u : 0u);
}

TEST_F(UpdateDrawsTest, UpdateDrawsFollowTheSlotOnTheWideInterpreter) { check(false); }
TEST_F(UpdateDrawsTest, UpdateDrawsFollowTheSlotCompiled) { check(true); }

}  // namespace
}  // namespace mote
