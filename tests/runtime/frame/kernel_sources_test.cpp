// Where the frame's compiled kernels come from (src/runtime/frame/frame_kernels.cpp,
// docs/design/package.md "Kernels without glslang"): the process's GLSL compiler when it has one,
// else the kernels an effect was cooked with, else the interpreter — each giving the same
// particles. The compiler is taken away for a test the way a runtime-only program lacks it.
#include <gtest/gtest.h>

#include <vector>

#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "support/effect_presets.hpp"
#include "support/gpu_fixture.hpp"
#include "gpu/embedded_shaders.hpp"
#include "vm_gpu/kernels/harness_interface.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

// Unregisters the process's kernel compiler for the scope: what a program linking the runtime
// alone has.
class WithoutKernelCompiler {
 public:
  WithoutKernelCompiler() : saved_(vm_kernels::kernel_compiler()) { vm_kernels::register_kernel_compiler(nullptr); }
  ~WithoutKernelCompiler() { vm_kernels::register_kernel_compiler(saved_); }
  WithoutKernelCompiler(const WithoutKernelCompiler&) = delete;
  WithoutKernelCompiler& operator=(const WithoutKernelCompiler&) = delete;

 private:
  const vm_kernels::KernelCompiler* saved_;
};

// What `mote compile` cooks (compile_effect_kernels, in the tools), done with the internal call
// this test binary links.
CompiledEffect with_kernels(CompiledEffect effect) {
  auto compile = [&](Section section, vm_kernels::KernelHarness harness, KernelStage stage) {
    Result<std::vector<uint32_t>> spirv = vm_kernels::KernelCache::compile_spirv(effect.program, section, harness);
    EXPECT_TRUE(spirv.ok()) << spirv.error().to_string();
    if (spirv.ok()) effect.kernels.push_back({stage, effect.program.hash(), std::move(spirv).value()});
  };
  compile(Section::kInit, vm_kernels::KernelHarness::kFrameEmit, KernelStage::kEmit);
  compile(Section::kUpdate, vm_kernels::KernelHarness::kFrameSimulate, KernelStage::kSimulate);
  return effect;
}

class KernelSourcesTest : public test::GpuTest {
 protected:
  struct Run {
    std::vector<uint32_t> pool;
    uint32_t kernels = 0;
  };
  // 40 frames of the effect at one emitter; the pool and how many kernels the system built.
  Run run(const CompiledEffect& effect, bool compiled_simulate) {
    Result<ParticleSystem> made = ParticleSystem::create(
        device(), {.capacity = 1024, .record_words = 32, .max_emitters = 4, .compiled_simulate = compiled_simulate});
    EXPECT_TRUE(made.ok()) << made.error().to_string();
    if (!made.ok()) return {};
    ParticleSystem system = std::move(made).value();
    EXPECT_TRUE(system.add_emitter(effect, {.seed = 11}).ok());
    for (int f = 0; f < 40; ++f) {
      const Status s = system.execute(1.0f / 60.0f);
      EXPECT_TRUE(s.ok()) << s.error().to_string();
    }
    Result<std::vector<uint32_t>> pool = system.read_pool();
    EXPECT_TRUE(pool.ok());
    return {pool.ok() ? std::move(pool).value() : std::vector<uint32_t>{}, system.compiled_kernel_count()};
  }
};

TEST_F(KernelSourcesTest, WithoutACompilerTheInterpreterRunsWhatWasAskedToBeCompiled) {
  const CompiledEffect fire = test::load_preset("fire.json");
  const Run interpreted = run(fire, /*compiled_simulate=*/false);
  WithoutKernelCompiler no_compiler;
  const Run asked_compiled = run(fire, /*compiled_simulate=*/true);
  EXPECT_EQ(asked_compiled.kernels, 0u) << "no compiler and no cooked kernels: nothing can be built";
  EXPECT_EQ(asked_compiled.pool, interpreted.pool) << "the interpreter ran both";
}

TEST_F(KernelSourcesTest, CookedKernelsRunWithoutACompilerAndMatchCompiledOnes) {
  const CompiledEffect fire = with_kernels(test::load_preset("fire.json"));
  ASSERT_EQ(fire.kernels.size(), 2u);
  const Run compiled_here = run(test::load_preset("fire.json"), /*compiled_simulate=*/true);
  ASSERT_EQ(compiled_here.kernels, 2u);
  WithoutKernelCompiler no_compiler;
  const Run cooked = run(fire, /*compiled_simulate=*/true);
  EXPECT_EQ(cooked.kernels, 2u) << "the cooked emit and simulate kernels were built into pipelines";
  EXPECT_EQ(cooked.pool, compiled_here.pool) << "the same SPIR-V: the same particles";
}

TEST_F(KernelSourcesTest, KernelsCookedForAnotherProgramAreNotUsed) {
  CompiledEffect fire = test::load_preset("fire.json");
  fire.kernels = with_kernels(test::load_preset("smoke.json")).kernels;
  const Run interpreted = run(test::load_preset("fire.json"), /*compiled_simulate=*/false);
  WithoutKernelCompiler no_compiler;
  const Run mismatched = run(fire, /*compiled_simulate=*/true);
  EXPECT_EQ(mismatched.kernels, 0u) << "smoke's kernels are not fire's: the interpreter runs fire";
  EXPECT_EQ(mismatched.pool, interpreted.pool);
}

// A kernel cooked against another interface — another version's harness, or SPIR-V that is no
// frame kernel — would fail when the frame binds it: it is refused before a pipeline is made, and
// the section runs as though the effect carried no kernel.
TEST_F(KernelSourcesTest, KernelsOfAnotherInterfaceAreRefusedAndTheInterpreterRuns) {
  CompiledEffect fire = with_kernels(test::load_preset("fire.json"));
  ASSERT_EQ(fire.kernels.size(), 2u);
  for (CookedKernel& k : fire.kernels)  // each stage's words under the other stage's name
    k.stage = k.stage == KernelStage::kEmit ? KernelStage::kSimulate : KernelStage::kEmit;
  const Run interpreted = run(test::load_preset("fire.json"), /*compiled_simulate=*/false);
  WithoutKernelCompiler no_compiler;
  const Run swapped = run(fire, /*compiled_simulate=*/true);
  EXPECT_EQ(swapped.kernels, 0u) << "an emit kernel is not a simulate kernel, nor the other way round";
  EXPECT_EQ(swapped.pool, interpreted.pool);
}

TEST(HarnessInterface, AKernelMatchesItsOwnHarnessAndNoOther) {
  const CompiledEffect fire = test::load_preset("fire.json");
  Result<std::vector<uint32_t>> simulate =
      vm_kernels::KernelCache::compile_spirv(fire.program, Section::kUpdate, vm_kernels::KernelHarness::kFrameSimulate);
  ASSERT_TRUE(simulate.ok()) << simulate.error().to_string();
  EXPECT_TRUE(vm_kernels::check_harness_interface(vm_kernels::KernelHarness::kFrameSimulate, simulate.value()).ok());
  const Status as_emit = vm_kernels::check_harness_interface(vm_kernels::KernelHarness::kFrameEmit, simulate.value());
  ASSERT_FALSE(as_emit.ok());
  EXPECT_EQ(as_emit.error().code, ErrorCode::kFormat);
  // Any other valid compute shader of ours (the finish pass) is no simulate kernel either.
  const gpu::EmbeddedShader* finish = gpu::find_embedded_shader("runtime/frame/finish");
  ASSERT_NE(finish, nullptr);
  EXPECT_FALSE(vm_kernels::check_harness_interface(vm_kernels::KernelHarness::kFrameSimulate,
                                                   std::span<const uint32_t>(finish->words, finish->word_count))
                   .ok());
}

}  // namespace
}  // namespace mote
