// Memory exhaustion at the API boundary (docs/design/reliability.md, "Memory"): every allocation
// of a decoder's run is made to fail in turn (this binary replaces operator new), and each run
// must end in a value, never an exception: either a result, or kOutOfMemory. Before the guards,
// the first failed allocation escaped compile_effect as std::bad_alloc (finding 7's abort).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/mfx.hpp"
#include "mote/simulation.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"

namespace {

// The allocation to fail, counted from 0 at arm(); -1 = none.
thread_local long g_countdown = -1;
thread_local long g_failed = 0;

void* allocate(size_t size, size_t alignment = 0) {
  if (g_countdown >= 0 && g_countdown-- == 0) {
    ++g_failed;
    throw std::bad_alloc();
  }
  void* p = alignment ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                      : std::malloc(size ? size : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(size_t size) { return allocate(size); }
void* operator new[](size_t size) { return allocate(size); }
void* operator new(size_t size, std::align_val_t a) { return allocate(size, size_t(a)); }
void* operator new[](size_t size, std::align_val_t a) { return allocate(size, size_t(a)); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

using mote::ErrorCode;

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The last error's message, for the failure report.
thread_local std::string message;

// Runs `call` with allocation n failing, for n = 0, 1, ... (every one up to 300, then a spread)
// until a run needs no more allocations than that. `call` returns the run's error code, or
// nothing when it succeeded.
void fail_each_allocation(const char* what, const std::function<std::optional<ErrorCode>()>& call) {
  long runs = 0;
  for (long n = 0;; n += n < 300 ? 1 : 1 + n / 50, ++runs) {
    g_failed = 0;
    g_countdown = n;
    std::optional<ErrorCode> code;
    bool threw = false;
    try {
      code = call();
    } catch (...) {
      threw = true;
    }
    const bool failed_one = g_failed > 0;
    g_countdown = -1;
    ASSERT_FALSE(threw) << what << ": an exception crossed the API when allocation " << n << " failed";
    if (failed_one && code) {
      EXPECT_EQ(*code, ErrorCode::kOutOfMemory) << what << ", allocation " << n << ": " << message;
    }
    if (!failed_one) {
      EXPECT_FALSE(code.has_value()) << what << " fails with every allocation granted";
      break;
    }
  }
  EXPECT_GE(runs, 3) << what << " allocates almost nothing: the test did not exercise it";
}

template <typename R>
std::optional<ErrorCode> code_of(const R& r) {
  if (r.ok()) return std::nullopt;
  message = r.error().to_string();
  return r.error().code;
}

// The fountain as a raw node graph (its document before the presets were written as modules,
// kept for the parity test). A module document is not run this way, for Scene::parse's reason
// below: its expansion builds JSON trees whose destructors allocate.
TEST(AllocationFailure, CompileEffect) {
  const std::string text = read_text(std::string(MOTE_PRESET_FIXTURES_DIR) + "/fountain.json");
  fail_each_allocation("compile_effect", [&] { return code_of(mote::compile_effect(text)); });
}

TEST(AllocationFailure, AssembleAndVerify) {
  const std::string text = read_text(std::string(MOTE_PROGRAMS_DIR) + "/integrate_gravity.masm");
  fail_each_allocation("assemble", [&] { return code_of(mote::assemble(text)); });
  auto program = mote::assemble(text);
  ASSERT_TRUE(program.ok());
  fail_each_allocation("verify_program", [&] { return code_of(mote::verify_program(*program)); });
  const std::vector<uint8_t> bytes = mote::save_mfx(*program);
  fail_each_allocation("load_mfx", [&] { return code_of(mote::load_mfx(bytes)); });
}

// Scene::parse is not run this way: nlohmann::json's destructor allocates (a stack of the
// children it frees), and a failure injected there is a throw from a noexcept destructor, so
// std::terminate. Ordinary exhaustion fails the large allocations first, which parse_json's guard
// answers with kOutOfMemory (docs/design/reliability.md, "Memory").

TEST(AllocationFailure, SimulationCreateAndStep) {
  auto effect = mote::compile_effect(read_text(std::string(MOTE_EFFECTS_DIR) + "/fountain.json"));
  ASSERT_TRUE(effect.ok());
  fail_each_allocation("Simulation", [&]() -> std::optional<ErrorCode> {
    auto sim = mote::Simulation::create(*effect, {.capacity = 64});
    if (!sim.ok()) return sim.error().code;
    for (int f = 0; f < 3; ++f) {
      auto r = sim->step();
      if (!r.ok()) return r.error().code;
    }
    return std::nullopt;
  });
}

// The CPU executors' runs (the GPU executors' are guarded the same way; failing allocations
// inside a Vulkan driver is not something a test can do safely).
TEST(AllocationFailure, ExecutorRuns) {
  auto program = mote::assemble(read_text(std::string(MOTE_PROGRAMS_DIR) + "/integrate_gravity.masm"));
  ASSERT_TRUE(program.ok());
  mote::RunInput input;
  input.program = &*program;
  input.count = 300;
  input.record_words = program->particle_record_words();
  input.records.assign(size_t(input.count) * input.record_words, 0u);
  for (auto make : {&mote::make_reference_executor, &mote::make_batch_executor}) {
    std::unique_ptr<mote::Executor> executor = make();
    const std::string what = std::string(executor->name()) + " executor's run";
    fail_each_allocation(what.c_str(), [&]() -> std::optional<ErrorCode> {
      auto out = executor->run(input);
      if (!out.ok()) return out.error().code;
      return std::nullopt;
    });
  }
}

}  // namespace
