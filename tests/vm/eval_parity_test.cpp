// EVAL on every executor (docs/design/isa.md, "EVAL"): a stateless section's output is a
// function of the run's time, seed and index alone, whatever the records held before the run;
// and generated EVAL programs agree with the reference (ProgramParity and the GPU's trace replay
// run them too; this suite checks what is particular to EVAL on every executor, the GPU's
// included, bit for bit against the executor itself).
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "support/program_generator.hpp"
#include "test_executors.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

class EvalParity : public ::testing::TestWithParam<std::string> {};

// The same run with the records filled twice differently: EVAL may only read back what it
// stored, so every word a run stored is the same, and every other word is left as it was.
TEST_P(EvalParity, OutputDoesNotDependOnWhatTheRecordsHeld) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr) << GetParam();
  auto reference = make_reference_executor();
  for (uint32_t k = 0; k < 16; ++k) {
    Executor* run_on = k % 2 == 0 ? executor.get() : reference.get();
    const Program program = generate_random_eval_program(500 + k / 2);
    const uint32_t count = 1 + (k / 2 * 41) % 130;
    RunInput first = make_random_input(program, Section::kEval, count, 900 + k / 2);
    RunInput second = first;
    const uint32_t rw = effective_record_words(first);
    for (size_t w = 0; w < second.records.size(); ++w)
      if (w % rw != 0) second.records[w] = 0x7F7FFFFFu ^ uint32_t(w * 2654435761u);  // finite, unlike the first
    const std::string where = std::string(run_on->name()) + " program " + std::to_string(500 + k / 2);
    auto a = run_on->run(first);
    ASSERT_TRUE(a.ok()) << where << ": " << a.error().to_string();
    auto b = run_on->run(second);
    ASSERT_TRUE(b.ok()) << where << ": " << b.error().to_string();
    // Which words the section stores: the same offsets for every particle (straight-line code).
    std::vector<bool> stored(rw, false);
    for (const Instruction& ins : program.eval)
      if (shader::vm_op(ins.words[0]) == uint32_t(isa::Op::STORE_FIELD))
        for (uint32_t l = 0; l < shader::vm_lanes(ins.words[0]); ++l) stored[ins.words[1] + l] = true;
    for (size_t w = 0; w < a->records.size(); ++w) {
      if (stored[w % rw]) {
        ASSERT_EQ(a->records[w], b->records[w]) << where << " word " << w << ": a stored word depends on the input";
      } else {
        ASSERT_EQ(a->records[w], first.records[w]) << where << " word " << w << " changed though never stored";
        ASSERT_EQ(b->records[w], second.records[w]) << where << " word " << w << " changed though never stored";
      }
    }
    for (uint8_t killed : a->killed) ASSERT_EQ(killed, 0) << where;
    for (uint32_t events : a->events) ASSERT_EQ(events, 0u) << where;
  }
}

// The particle is what its index and the run's seed and time say: the same particle index in a
// run of another size (another slice of the fixed count) computes the same record.
TEST_P(EvalParity, AParticleIsItsIndexNotItsPlaceInTheRun) {
  auto executor = make_executor_for_test(GetParam());
  ASSERT_NE(executor, nullptr) << GetParam();
  uint32_t tested = 0;
  for (uint32_t k = 0; tested < 4 && k < 64; ++k) {
    const Program program = generate_random_eval_program(700 + k);
    // SPAWN_INDEX, SPAWN_COUNT and SPAWN_FRACTION describe the run, not the particle: keep to
    // programs that read none of them for this property.
    bool reads_run_builtin = false;
    for (const Instruction& ins : program.eval)
      if (shader::vm_op(ins.words[0]) == uint32_t(isa::Op::LOAD_BUILTIN) && (ins.words[1] >> 16) == 0) {
        const isa::Builtin b = isa::builtin_info(ins.words[1] & 0xFFFFu)->builtin;
        reads_run_builtin |= b == isa::Builtin::SPAWN_INDEX || b == isa::Builtin::SPAWN_COUNT ||
                             b == isa::Builtin::SPAWN_FRACTION;
      }
    if (reads_run_builtin) continue;
    ++tested;
    RunInput whole = make_random_input(program, Section::kEval, 96, 1300 + k);
    const uint32_t rw = effective_record_words(whole);
    RunInput tail = whole;
    tail.count = 32;
    tail.first_particle_index = whole.first_particle_index + 64;
    tail.records.assign(whole.records.begin() + 64 * rw, whole.records.end());
    auto a = executor->run(whole);
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    auto b = executor->run(tail);
    ASSERT_TRUE(b.ok()) << b.error().to_string();
    for (size_t w = 0; w < b->records.size(); ++w)
      ASSERT_EQ(b->records[w], a->records[64 * rw + w]) << GetParam() << " program " << 700 + k << " word " << w;
  }
  EXPECT_EQ(tested, 4u);
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Executors, EvalParity, ::testing::ValuesIn(parity_executor_names()), param_name);

}  // namespace
}  // namespace mote::test
