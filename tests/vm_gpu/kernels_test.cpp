// What is particular to the compiled kernels (src/vm_gpu/kernels/): the embedded headers, the include
// resolver, the kernel's interface, the cache, and the clamps that keep a program which slipped
// past the verifier inside its buffers. Their results are held to the parity suites with every
// other executor (test_vm_parity.cpp, test_vm_gpu_trace.cpp; "gpu-compiled").
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "core/file.hpp"
#include "gpu/shader_reflection.hpp"
#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"
#include "support/gpu_fixture.hpp"
#include "vm_test_support.hpp"
#include "support/program_generator.hpp"
#include "vm_gpu/kernels/compiled_executor.hpp"
#include "vm_gpu/kernels/glsl_compiler.hpp"
#include "vm_gpu/kernels/glsl_translator.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"
#include "vm_gpu/kernels/shader_sources.hpp"

namespace mote {
namespace {

using test::GpuTest;

using test::f2u;
using test::input_for;
float u2f(uint32_t u) { return std::bit_cast<float>(u); }

uint32_t word0(isa::Op op, uint32_t lanes, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t dst) {
  return uint32_t(op) | (lanes << 8) | (k0 << 16) | (k1 << 18) | (k2 << 20) | (dst << 24);
}
uint32_t reg(uint32_t base) { return base | (shader::kVmSwizzleIdentity << 8); }

// value = constant[k] * 2 + dst_slot's immediate, stored to field 1.
Program store_program(uint32_t register_count, uint32_t slot, float constant) {
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  Program p;
  p.register_count = register_count;
  p.particle_fields = {{"value", 1}};
  p.constants = {f2u(constant), 0, 0, 0};
  p.update = {
      {{word0(isa::Op::LOAD_CONST, 1, kVmKindNone, kVmKindNone, kVmKindNone, slot), 0, 0, 0}},
      {{word0(isa::Op::FMA, 1, kVmKindReg, kVmKindImm, kVmKindImm, slot), reg(slot), f2u(2.0f), f2u(float(slot))}},
      {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 1, reg(slot), 0}},
  };
  return p;
}

TEST(VmJitSources, EmbeddedSourcesAreThisSourceTreesFiles) {
  const auto names = vm_kernels::shader_source_names();
  ASSERT_FALSE(names.empty());
  EXPECT_TRUE(vm_kernels::find_shader_source("vm_gpu/run_compiled.comp").has_value());
  EXPECT_TRUE(vm_kernels::find_shader_source("shared/vm_semantics.h").has_value());
  for (std::string_view name : names) {
    if (name.starts_with("generated/")) continue;  // written by the build, not in the tree
    auto on_disk = read_file_text(std::string(MOTE_SOURCE_DIR) + "/shaders/" + std::string(name));
    ASSERT_TRUE(on_disk.ok()) << name << ": " << on_disk.error().to_string();
    EXPECT_EQ(*vm_kernels::find_shader_source(name), *on_disk) << name << " is stale in the build";
  }
  EXPECT_TRUE(vm_kernels::find_shader_source("runtime/frame/simulate.comp").has_value())
      << "the frame's compiled simulate";
  EXPECT_FALSE(vm_kernels::find_shader_source("shared/media_density.h").has_value());
}

TEST(VmJitCompiler, IncludesResolveOnlyAgainstEmbeddedHeaders) {
  vm_kernels::GlslCompiler compiler;
  const std::string good =
      "#version 460\n#include \"shared/vm_semantics.h\"\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { float v[]; };\nvoid main() { v[0] = vm_noise3(vec3(v[1])); }\n";
  auto spirv = compiler.compile_compute(good, "good");
  ASSERT_TRUE(spirv.ok()) << spirv.error().to_string();
  EXPECT_EQ((*spirv)[0], 0x07230203u) << "SPIR-V magic";

  const std::string missing =
      "#version 460\n#include \"shared/media_density.h\"\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  auto refused = compiler.compile_compute(missing, "missing");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kParse);
  EXPECT_NE(refused.error().message.find("no embedded source named 'shared/media_density.h'"), std::string::npos)
      << refused.error().message;

  auto broken = compiler.compile_compute("#version 460\nvoid main() { undeclared = 1; }\n", "broken");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().code, ErrorCode::kParse);
}

TEST(VmJitTranslator, SectionIsOneFunctionOverTheInterpretersHostContract) {
  // The section alone names only the host contract (so the frame's passes could host it): no
  // harness binding, no VmRunParams.
  const Program program = generate_random_program(11, {});
  auto section = vm_kernels::translate_section(program, Section::kUpdate);
  ASSERT_TRUE(section.ok()) << section.error().to_string();
  EXPECT_NE(section->find("bool vm_compiled_run() {"), std::string::npos);
  for (const char* harness_name : {"params", "records[", "program_words", "op_counts", "trace[", "#include"})
    EXPECT_EQ(section->find(harness_name), std::string::npos) << harness_name << " in\n" << *section;
  auto kernel = vm_kernels::translate_to_glsl(program, Section::kUpdate);
  ASSERT_TRUE(kernel.ok());
  EXPECT_NE(kernel->find(*section), std::string::npos);
  EXPECT_EQ(kernel->find("#include \"vm_gpu/compiled_section.glsl\""), std::string::npos);
}

TEST(VmJitTranslator, KernelKeepsTheHarnessInterface) {
  // A generated program using every kind of source: the kernel's reflected interface must be
  // run_program.comp's (storage buffers at bindings 0-3 and 6, the run parameters' uniform
  // buffer at 4, the vector field table at 10 and 11, the
  // collision depth at 12, no push constants, 64-wide workgroups).
  const Program program = generate_random_program(7, {});
  for (Section section : {Section::kInit, Section::kUpdate}) {
    auto glsl = vm_kernels::translate_to_glsl(program, section);
    ASSERT_TRUE(glsl.ok()) << glsl.error().to_string();
    auto spirv = vm_kernels::GlslCompiler().compile_compute(*glsl, "generated");
    ASSERT_TRUE(spirv.ok()) << spirv.error().to_string() << "\n" << *glsl;
    auto reflection = gpu::reflect_spirv(*spirv);
    ASSERT_TRUE(reflection.ok()) << reflection.error().to_string();
    EXPECT_EQ(reflection->local_size[0], shader::kVmWorkgroupSize);
    EXPECT_EQ(reflection->push_constant_size, 0u);
    ASSERT_EQ(reflection->bindings.size(), 9u);
    const uint32_t expected[] = {0, 1, 2, 3, 4, 6, 10, 11, 12};
    for (size_t i = 0; i < 9; ++i) {
      EXPECT_EQ(reflection->bindings[i].binding, expected[i]);
      EXPECT_EQ(reflection->bindings[i].type,
                expected[i] == 4 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    }
  }
}

TEST(VmJitTranslator, RefusesASectionLongerThanTheGpuBound) {
  Program p;
  p.register_count = 1;
  p.update.assign(shader::kVmMaxSectionInstructions + 1, Instruction{{word0(isa::Op::NOP, 1, 0, 0, 0, 0), 0, 0, 0}});
  auto glsl = vm_kernels::translate_to_glsl(p, Section::kUpdate);
  ASSERT_FALSE(glsl.ok());
  EXPECT_EQ(glsl.error().code, ErrorCode::kUnsupported);
  p.update.resize(shader::kVmMaxSectionInstructions);
  EXPECT_TRUE(vm_kernels::translate_to_glsl(p, Section::kUpdate).ok());
}

TEST_F(GpuTest, CompiledKernelsAreCachedByContent) {
  auto executor = make_compiled_gpu_executor(device());
  const vm_kernels::KernelCache* cache = compiled_kernel_cache(*executor);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(compiled_kernel_cache(*make_reference_executor()), nullptr);

  const Program a = store_program(8, 3, 1.5f);
  for (int run = 0; run < 3; ++run) {
    auto out = executor->run(input_for(a, 70, 2));
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    for (uint32_t i = 0; i < 70; ++i) EXPECT_EQ(u2f(out->records[i * 2 + 1]), 1.5f * 2.0f + 3.0f);
  }
  EXPECT_EQ(cache->stats().translations, 1u);
  EXPECT_EQ(cache->stats().pipelines, 1u);
  EXPECT_EQ(cache->stats().hits, 2u);
  {
    // Per-opcode execution counts, as every executor reports them.
    auto counted = executor->run(input_for(a, 70, 2));
    ASSERT_TRUE(counted.ok()) << counted.error().to_string();
    auto reference = make_reference_executor()->run(input_for(a, 70, 2));
    ASSERT_TRUE(reference.ok());
    EXPECT_EQ(counted->op_executions, reference->op_executions);
    EXPECT_EQ(counted->op_executions[uint32_t(isa::Op::FMA)], 70u);
  }

  // Another record stride: the same SPIR-V, a new specialisation.
  auto wider = executor->run(input_for(a, 5, 9));
  ASSERT_TRUE(wider.ok()) << wider.error().to_string();
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(u2f(wider->records[i * 9 + 1]), 6.0f);
    EXPECT_EQ(u2f(wider->records[i * 9 + 2]), -1.0f) << "a word the program does not store";
  }
  EXPECT_EQ(cache->stats().translations, 1u);
  EXPECT_EQ(cache->stats().pipelines, 2u);
  EXPECT_EQ(cache->stats().hits, 3u);

  // Another constant pool is another program: the constants are compiled in.
  const Program b = store_program(8, 3, -4.0f);
  auto other = executor->run(input_for(b, 3, 2));
  ASSERT_TRUE(other.ok()) << other.error().to_string();
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(u2f(other->records[i * 2 + 1]), -4.0f * 2.0f + 3.0f);
  EXPECT_EQ(cache->stats().translations, 2u);
  EXPECT_EQ(cache->size(), 2u);
}

TEST_F(GpuTest, CompiledExecutorRunsAnyRegisterCount) {
  // Beyond the fast interpreter's 64 slots: the compiled kernel's registers are locals.
  const Program p = store_program(256, 250, 0.25f);
  auto executor = make_compiled_gpu_executor(device());
  auto out = executor->run(input_for(p, 4, 2));
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(u2f(out->records[i * 2 + 1]), 0.5f + 250.0f);
}

TEST_F(GpuTest, CompiledKernelStaysInsideItsBuffers) {
  // The interpreter's robustness case (test_vm_gpu_interpreter.cpp), compiled: a register slot
  // past register_count, a field offset past the record, a constant index past the pool, a
  // global offset past the section, an unknown opcode. Each is clamped as the interpreter
  // clamps it.
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"a", 1}, {"b", 1}, {"c", 1}};
  p.constants = {f2u(7.0f), f2u(8.0f), f2u(9.0f), f2u(10.0f)};
  p.update = {
      {{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 200), f2u(5.0f), 0, 0}},
      {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 5000, reg(200), 0}},
      {{word0(isa::Op::LOAD_CONST, 1, kVmKindNone, kVmKindNone, kVmKindNone, 1), 1u << 30, 0, 0}},
      {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 1, reg(1), 0}},
      {{word0(isa::Op::LOAD_BUILTIN, 1, kVmKindNone, kVmKindNone, kVmKindNone, 2),
        (shader::kVmSpaceGlobalField << shader::kVmBuiltinSpaceShift) | 0xFFFFu, 0, 0}},
      {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 2, reg(2), 0}},
      {{0xFFu | (1u << 8), 0, 0, 0}},  // opcode 255
  };
  const uint32_t record_words = 4, count = 300;
  RunInput in = input_for(p, count, record_words);
  in.global_fields = {f2u(11.0f), f2u(12.0f)};
  auto executor = make_unverified_compiled_gpu_executor_for_tests(device());
  auto out = executor->run(in);
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  ASSERT_EQ(out->records.size(), in.records.size());
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* r = &out->records[size_t(i) * record_words];
    EXPECT_EQ(r[0], f2u(-1.0f)) << "header of particle " << i;
    EXPECT_EQ(u2f(r[1]), 10.0f) << "constant index clamped to the last scalar";
    EXPECT_EQ(u2f(r[2]), 12.0f) << "global offset clamped to the last word";
    EXPECT_EQ(u2f(r[3]), 5.0f) << "field word clamped to the record's last word";
    EXPECT_EQ(out->killed[i], 0u);
  }
  // The verified executor refuses the same program.
  auto verified = make_compiled_gpu_executor(device());
  auto refused = verified->run(in);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kVerify);
}

}  // namespace
}  // namespace mote
