// TIME is the system's clock and EMITTER_AGE the emitter's: an emitter added later sees the same
// TIME as one that ran from the start, and its own, shorter age — on the interpreter and on the
// compiled kernels, in INIT and in UPDATE.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <optional>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/simulation.hpp"
#include "runtime/frame/particle_system.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

constexpr float kDt = 1.0f / 60.0f;

// Every particle writes this frame's TIME and EMITTER_AGE (INIT and UPDATE alike) and lives on.
constexpr const char* kClockProgram = R"(
.registers 4
.particle time 1
.particle age 1
.emitter rate 1

.init
  LOAD_BUILTIN r0.x, TIME
  STORE_FIELD @time, r0.x
  LOAD_BUILTIN r1.x, EMITTER_AGE
  STORE_FIELD @age, r1.x

.update
  LOAD_BUILTIN r0.x, TIME
  STORE_FIELD @time, r0.x
  LOAD_BUILTIN r1.x, EMITTER_AGE
  STORE_FIELD @age, r1.x
)";

class ClockTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};

TEST_P(ClockTest, TimeIsTheSystemsClockAndAgeTheEmitters) {
  auto s =
      ParticleSystem::create(device(),
                             {.capacity = 4096, .record_words = 8, .max_emitters = 4, .compiled_simulate = GetParam()});
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  Result<Program> program = assemble(kClockProgram);
  ASSERT_TRUE(program.ok()) << program.error().to_string();
  CompiledEffect effect;
  effect.name = "clock";
  effect.program = *program;
  effect.emitter_defaults = {std::bit_cast<uint32_t>(120.0f)};
  effect.emission.rate = 120.0f;
  auto first = s->add_emitter(effect, {.seed = 1});
  ASSERT_TRUE(first.ok());
  float system_time = 0.0f;
  float late_age = 0.0f;
  std::optional<uint32_t> late;
  for (int frame = 0; frame < 30; ++frame) {
    if (frame == 12) {
      auto added = s->add_emitter(effect, {.seed = 2});
      ASSERT_TRUE(added.ok());
      late = *added;
    }
    ASSERT_TRUE(s->execute(kDt).ok());
    system_time = system_time + kDt;  // f32, as the frame sums it
    if (late) late_age = late_age + kDt;
  }
  EXPECT_EQ(std::bit_cast<uint32_t>(s->time()), std::bit_cast<uint32_t>(system_time));
  auto pool = s->read_pool();
  auto alive = s->read_alive_slots();
  ASSERT_TRUE(pool.ok() && alive.ok());
  std::map<uint32_t, uint32_t> per_row;
  for (uint32_t slot : *alive) {
    const uint32_t* record = pool->data() + size_t(slot) * 8;
    const uint32_t row = header_row(record[0]);
    ++per_row[row];
    EXPECT_EQ(record[1], std::bit_cast<uint32_t>(system_time)) << "TIME of a particle of row " << row;
    const float expected_age = row == *first ? system_time : late_age;
    EXPECT_EQ(record[2], std::bit_cast<uint32_t>(expected_age)) << "EMITTER_AGE of a particle of row " << row;
  }
  EXPECT_GT(per_row[*first], 0u);
  EXPECT_GT(per_row[*late], 0u);
  EXPECT_NE(std::bit_cast<uint32_t>(late_age), std::bit_cast<uint32_t>(system_time));
}

INSTANTIATE_TEST_SUITE_P(Simulate, ClockTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "compiled" : "interpreted"; });

}  // namespace
}  // namespace mote
