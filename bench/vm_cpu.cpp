// CPU executors on a typical UPDATE program: gravity + drag integration, ageing, size and colour
// over life, kill at end of life; ~20 instructions over 1M particles with a 32-word record, one
// thread. Reports particles/s (items_per_second). Each run copies the 128 MiB record block into
// the (reused) output first, which both executors pay alike.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstdio>

#include "mote/isa.hpp"
#include "update_program.hpp"
#include "mote/vm.hpp"
#include "shared/isa_encoding.h"

namespace {

using mote::bench::make_update_program;

using mote::Instruction;
using mote::Program;
using mote::isa::Op;
namespace sh = mote::shader;

constexpr uint32_t kParticles = 1u << 20;
constexpr uint32_t kRecordWords = 32;

mote::RunInput make_input(const Program& p) {
  mote::RunInput in;
  in.program = &p;
  in.section = mote::Section::kUpdate;
  in.count = kParticles;
  in.record_words = kRecordWords;
  in.records.assign(size_t(kParticles) * kRecordWords, 0);
  for (uint32_t i = 0; i < kParticles; ++i) {
    uint32_t* r = &in.records[size_t(i) * kRecordWords];
    auto f = [](float x) { return std::bit_cast<uint32_t>(x); };
    r[1] = f(float(i % 100));
    r[2] = f(1.0f);
    r[3] = f(-float(i % 7));
    r[4] = f(0.5f);
    r[5] = f(3.0f);
    r[6] = f(-0.25f);
    r[7] = f(float(i % 1000) * 0.003f);
    r[8] = f(2.0f);
  }
  in.emitter.dt = 1.0f / 60.0f;
  return in;
}

void run_executor(benchmark::State& state, std::unique_ptr<mote::Executor> executor) {
  const Program program = make_update_program();
  const mote::RunInput input = make_input(program);
  mote::RunOutput out;  // reused: no reallocation or page faults inside the timed loop
  for (auto _ : state) {
    if (mote::Status s = executor->run_into(input, out); !s.ok()) {
      state.SkipWithError(s.error().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(out.records.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kParticles);
}

void BM_Reference(benchmark::State& state) { run_executor(state, mote::make_reference_executor()); }
void BM_Batch(benchmark::State& state) { run_executor(state, mote::make_batch_executor()); }

BENCHMARK(BM_Reference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Batch)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
