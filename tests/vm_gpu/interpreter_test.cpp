// What is particular to the GPU interpreters: the choice by register count, the fast file's
// limit, and the clamps that keep a program which slipped past the verifier inside its buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <cstdio>
#include <map>

#include "gpu/embedded_shaders.hpp"
#include "gpu/shader_reflection.hpp"
#include "mote/assembly.hpp"
#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "support/gpu_fixture.hpp"
#include "vm_test_support.hpp"
#include "vm_gpu/gpu_executor.hpp"
#include "support/program_generator.hpp"

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

Program store_constant_program(uint32_t register_count, uint32_t dst_slot) {
  Program p;
  p.register_count = register_count;
  p.particle_fields = {{"value", 1}};
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  p.update.push_back({{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, dst_slot), f2u(5.0f), 0, 0}});
  p.update.push_back({{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 1, reg(dst_slot), 0}});
  return p;
}

TEST(GpuInterpreterChoice, RegisterCountPicksTheInterpreter) {
  Program p;
  p.register_count = 64;
  EXPECT_EQ(choose_gpu_interpreter(p), GpuInterpreter::kFast);
  p.register_count = 65;
  EXPECT_EQ(choose_gpu_interpreter(p), GpuInterpreter::kWide);
}

// r0 = sum of `n` distinct immediates (1, 2, ..., n), stored to the record's word 1.
Program immediate_sum_program(uint32_t n) {
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  Program p;
  p.register_count = 1;
  p.particle_fields = {{"value", 1}};
  p.update.push_back({{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 0), f2u(1.0f), 0, 0}});
  for (uint32_t i = 2; i <= n; ++i)
    p.update.push_back({{word0(isa::Op::ADD, 1, kVmKindReg, kVmKindImm, kVmKindNone, 0), reg(0), f2u(float(i)), 0}});
  p.update.push_back({{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 1, reg(0), 0}});
  return p;
}

TEST(GpuInterpreterLayout, TheImmediatesBlockIsWhereTheHostWritesIt) {
  // run_program.comp's binding 9: the count, the immediates, then the constant vectors at
  // kConstantVectorsViewOffset, all inside the kImmediatesViewBytes the host binds.
  const gpu::EmbeddedShader* shader = gpu::find_embedded_shader("vm_gpu/run_program_fast");
  ASSERT_NE(shader, nullptr);
  auto r = gpu::reflect_spirv(std::span(shader->words, shader->word_count));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const auto block = r->structs.find("Immediates");
  ASSERT_NE(block, r->structs.end());
  std::map<std::string, uint32_t> offsets;
  for (const gpu::ReflectedMember& m : block->second) offsets[m.name] = m.offset;
  EXPECT_EQ(offsets.at("vm_immediate_count"), 0u);
  EXPECT_EQ(offsets.at("vm_immediates"), 16u);
  EXPECT_EQ(offsets.at("vm_constant_vectors"), kConstantVectorsViewOffset);
  EXPECT_EQ(kConstantVectorsViewOffset + shader::kVmFastMaxConstantVectors * 16, kImmediatesViewBytes);
  EXPECT_GE(kConstantVectorsViewOffset, 16 + (shader::kVmFastMaxImmediates + 3) / 4 * 16);
}

TEST(GpuInterpreterChoice, ImmediatesBeyondTheFastFilePickTheWideInterpreter) {
  EXPECT_EQ(choose_gpu_interpreter(immediate_sum_program(shader::kVmFastMaxImmediates)), GpuInterpreter::kFast);
  EXPECT_EQ(choose_gpu_interpreter(immediate_sum_program(shader::kVmFastMaxImmediates + 1)), GpuInterpreter::kWide);
}

TEST_F(GpuTest, FastInterpreterRunsAFullImmediateFileAndRefusesOneMore) {
  const uint32_t full = shader::kVmFastMaxImmediates;
  auto fast = make_gpu_executor(device(), GpuInterpreter::kFast);
  auto ran = fast->run(input_for(immediate_sum_program(full), 70, 2));
  ASSERT_TRUE(ran.ok()) << ran.error().to_string();
  for (uint32_t i = 0; i < 70; ++i) EXPECT_EQ(u2f(ran->records[i * 2 + 1]), float(full * (full + 1) / 2)) << i;
  auto refused = fast->run(input_for(immediate_sum_program(full + 1), 4, 2));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
  auto automatic = make_gpu_executor(device(), GpuInterpreter::kAuto);
  auto wide = automatic->run(input_for(immediate_sum_program(full + 1), 4, 2));
  ASSERT_TRUE(wide.ok()) << wide.error().to_string();
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(u2f(wide->records[i * 2 + 1]), float((full + 1) * (full + 2) / 2));
}

TEST_F(GpuTest, FastInterpreterRefusesAProgramBeyondItsRegisterFile) {
  Program p = store_constant_program(100, 90);
  auto fast = make_gpu_executor(device(), GpuInterpreter::kFast);
  auto result = fast->run(input_for(p, 4, 2));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kUnsupported);
  // The automatic choice runs it on the wide file, with the right result.
  auto automatic = make_gpu_executor(device(), GpuInterpreter::kAuto);
  auto ok = automatic->run(input_for(p, 4, 2));
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(u2f(ok->records[i * 2 + 1]), 5.0f);
}

// One run of the fast interpreter built with `spec` (what GpuExecutor does with its own);
// `groups`, when not 0, replaces the launch the executor would make. An uninstrumented `spec`
// runs the section with its moves folded, as the executor does, unless `fold` is false.
Result<RunOutput> run_specialised(gpu::Device& device, const RunInput& input, const GpuInterpreterSpecialization& spec,
                                  uint32_t groups = 0, bool fold = true) {
  MOTE_TRY_ASSIGN(gpu::ComputePipeline pipeline, create_gpu_interpreter(device, GpuInterpreter::kFast, spec));
  const uint32_t words = effective_record_words(input);
  GpuInterpreterSpecialization image_spec = spec;
  if (!fold) image_spec.instrumented = true;  // the image as an instrumented pipeline gets it: unfolded
  GpuProgramImage image = make_gpu_program_image(input, words, GpuInterpreter::kFast, device.limits(), &image_spec);
  if (groups != 0) {
    image.groups = groups;
    image.params.launch_lanes = groups * shader::kVmWorkgroupSize;
  }
  return run_gpu_harness(device, input, image, nullptr, [&](gpu::ComputeRecorder& rec, const GpuRunBuffers& b) {
    rec.bind(pipeline)
        .buffers({{0, &b.program},
                  {1, &b.records},
                  {2, &b.killed},
                  {3, &b.op_counts},
                  {4, &b.params},
                  {6, &b.trace},
                  {10, &b.field_headers},
                  {11, &b.field_values},
                  {12, &b.depth},
                  code_view(image, b.program),
                  immediates_view(image, b.program)})
        .dispatch(image.groups);
  });
}

TEST_F(GpuTest, InterpreterSpecialisedToAnOpcodeSetRunsItsOpcodesOnly) {
  // b = (a + 1) * 2
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 1}, {"b", 1}};
  p.update.push_back({{word0(isa::Op::LOAD_FIELD, 1, kVmKindNone, kVmKindNone, kVmKindNone, 0), 1, 0, 0}});
  p.update.push_back({{word0(isa::Op::ADD, 1, kVmKindReg, kVmKindImm, kVmKindNone, 1), reg(0), f2u(1.0f), 0}});
  p.update.push_back({{word0(isa::Op::MUL, 1, kVmKindReg, kVmKindImm, kVmKindNone, 2), reg(1), f2u(2.0f), 0}});
  p.update.push_back({{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 2, reg(2), 0}});
  RunInput input = input_for(p, 100, 3);
  for (uint32_t i = 0; i < 100; ++i) input.records[i * 3 + 1] = f2u(float(i));

  const GpuInterpreterSpecialization own = gpu_interpreter_specialization(p, Section::kUpdate, 3, true, true);
  const auto bit = [](isa::Op op) { return uint64_t(1) << uint32_t(op); };
  // The program's opcodes, and MOV, which the move fold may add.
  EXPECT_EQ(own.opcodes, bit(isa::Op::LOAD_FIELD) | bit(isa::Op::ADD) | bit(isa::Op::MUL) | bit(isa::Op::STORE_FIELD) |
                             bit(isa::Op::MOV));
  auto ran = run_specialised(device(), input, own);
  ASSERT_TRUE(ran.ok()) << ran.error().to_string();
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(u2f(ran->records[i * 3 + 2]), (float(i) + 1.0f) * 2.0f) << i;

  // Built without MUL, the MUL does nothing but write zeros: b = 0.
  GpuInterpreterSpecialization without_mul = own;
  without_mul.opcodes &= ~bit(isa::Op::MUL);
  auto skipped = run_specialised(device(), input, without_mul);
  ASSERT_TRUE(skipped.ok()) << skipped.error().to_string();
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(u2f(skipped->records[i * 3 + 2]), 0.0f) << i;
}

// The interpreter's workgroup runs blocks of 64 consecutive records together (their windows move
// through shared memory as one run): every particle of full blocks, of a tail block that is
// partly past the end, and of blocks reached by the grid-stride loop of a launch too small for
// the run must come out as the reference computes it, each counted once; and the build without
// the counters and the trace (what benchmarks time) must compute the same records.
TEST_F(GpuTest, InterpreterBlocksMatchTheReferenceAcrossTheTailAndTheGridStride) {
  using isa::Op;
  using test::builtin_word, test::imm, test::make_ins, test::raw;
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"a", 1}, {"b", 1}, {"c", 2}};
  p.update = {
      make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),
      make_ins(Op::LOAD_BUILTIN, 1, 1,
               raw(builtin_word(shader::kVmSpaceEngine, uint32_t(isa::Builtin::PARTICLE_INDEX)))),
      make_ins(Op::RAND, 2, 2, raw(3)),
      make_ins(Op::FMA, 1, 4, test::reg(0), imm(2.0f), test::reg(1)),
      make_ins(Op::ADD, 2, 5, test::reg(2), test::reg(4, {0, 0, 2, 3})),
      make_ins(Op::STORE_FIELD, 1, 0, raw(2), test::reg(4)),
      make_ins(Op::STORE_FIELD, 2, 0, raw(3), test::reg(5)),
      make_ins(Op::CMP, 1, 7, test::reg(0), imm(150.0f), raw(shader::kVmCmpGt)),
      make_ins(Op::KILL, 1, 0, test::reg(7)),
  };
  const uint32_t count = 3 * shader::kVmWorkgroupSize + 6;  // the tail block holds 6
  const uint32_t record_words = 8;
  RunInput input = input_for(p, count, record_words);
  for (uint32_t i = 0; i < count; ++i) input.records[size_t(i) * record_words + 1] = f2u(float(i));
  input.rng_base = 77;
  input.first_particle_index = 1000;

  auto reference = make_reference_executor()->run(input);
  ASSERT_TRUE(reference.ok()) << reference.error().to_string();
  ASSERT_GT(std::count(reference->killed.begin(), reference->killed.end(), 1), 0);

  const GpuInterpreterSpecialization staged = gpu_interpreter_specialization(p, Section::kUpdate, record_words);
  ASSERT_GT(staged.window_chunks, 0u);
  GpuInterpreterSpecialization direct = staged;
  direct.window_chunks = 0;
  GpuInterpreterSpecialization uninstrumented = staged;
  uninstrumented.instrumented = false;
  struct Case {
    const char* name;
    GpuInterpreterSpecialization spec;
    uint32_t groups;
  };
  for (const Case& c :
       {Case{"window staged", staged, 0}, Case{"fields direct", direct, 0},
        Case{"one workgroup walking every block", staged, 1}, Case{"without counters and trace", uninstrumented, 2}}) {
    SCOPED_TRACE(c.name);
    auto ran = run_specialised(device(), input, c.spec, c.groups);
    ASSERT_TRUE(ran.ok()) << ran.error().to_string();
    ASSERT_EQ(ran->records.size(), reference->records.size());
    for (size_t w = 0; w < ran->records.size(); ++w)
      ASSERT_EQ(ran->records[w], reference->records[w])
          << "particle " << w / record_words << " word " << w % record_words;
    EXPECT_EQ(ran->killed, reference->killed);
    if (!c.spec.instrumented) {
      for (uint64_t n : ran->op_executions) EXPECT_EQ(n, 0u) << "an uninstrumented build counted";
      continue;
    }
    for (const Instruction& ins : p.update) {
      const uint32_t op = shader::vm_op(ins.words[0]);
      EXPECT_EQ(ran->op_executions[op], reference->op_executions[op]) << isa::op_info(isa::Op(op)).mnemonic;
    }
  }
}

TEST_F(GpuTest, UnverifiedProgramsStayInsideTheirBuffers) {
  // Everything here is what the verifier rejects: a register slot past register_count, a
  // field offset past the record, a constant index past the pool, a global offset past the
  // section, an unknown opcode. The interpreter must clamp each, never touch foreign memory.
  using shader::kVmKindImm, shader::kVmKindNone, shader::kVmKindReg;
  for (GpuInterpreter which : {GpuInterpreter::kFast, GpuInterpreter::kWide}) {
    Program p;
    p.register_count = 8;
    p.particle_fields = {{"a", 1}, {"b", 1}, {"c", 1}};
    p.constants = {f2u(7.0f), f2u(8.0f), f2u(9.0f), f2u(10.0f)};
    p.update = {
        {{word0(isa::Op::MOV, 1, kVmKindImm, kVmKindNone, kVmKindNone, 200), f2u(5.0f), 0, 0}},          // slot 200
        {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 5000, reg(200), 0}},  // word 5000
        {{word0(isa::Op::LOAD_CONST, 1, kVmKindNone, kVmKindNone, kVmKindNone, 1), 1u << 30, 0, 0}},     // const 2^30
        {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 1, reg(1), 0}},
        {{word0(isa::Op::LOAD_BUILTIN, 1, kVmKindNone, kVmKindNone, kVmKindNone, 2),
          (shader::kVmSpaceGlobalField << shader::kVmBuiltinSpaceShift) | 0xFFFFu, 0, 0}},  // global 65535
        {{word0(isa::Op::STORE_FIELD, 1, kVmKindNone, kVmKindReg, kVmKindNone, 0), 2, reg(2), 0}},
        {{0xFFu | (1u << 8), 0, 0, 0}},  // opcode 255
    };
    const uint32_t record_words = 4, count = 300;
    RunInput in = input_for(p, count, record_words);
    in.global_fields = {f2u(11.0f), f2u(12.0f)};
    auto executor = make_unverified_gpu_executor_for_tests(device(), which);
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
  }
}

TEST_F(GpuTest, ConstantIndicesPastTheTableReadItsLastVector) {
  // A constant source's word indexes the section's constant vectors (src/vm_gpu/fast_reads.hpp); the
  // interpreter clamps it to the table, so a word the host never writes reads the last vector
  // and nothing outside the Immediates block.
  using test::imm, test::make_ins, test::raw;
  Program p;
  p.register_count = 2;
  p.particle_fields = {{"a", 1}, {"b", 1}};
  p.update = {make_ins(isa::Op::LOAD_FIELD, 1, 0, raw(1)), make_ins(isa::Op::ADD, 1, 1, test::reg(0), imm(2.0f)),
              make_ins(isa::Op::STORE_FIELD, 1, 0, raw(2), test::reg(1))};
  const uint32_t count = 130, record_words = 4;
  RunInput in = input_for(p, count, record_words);
  for (uint32_t i = 0; i < count; ++i) in.records[size_t(i) * record_words + 1] = f2u(float(i));
  GpuInterpreterSpecialization spec = gpu_interpreter_specialization(p, Section::kUpdate, record_words);
  spec.instrumented = false;
  auto pipeline = create_gpu_interpreter(device(), GpuInterpreter::kFast, spec);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().to_string();
  GpuProgramImage image = make_gpu_program_image(in, record_words, GpuInterpreter::kFast, device().limits(), &spec);
  // The folded section is the ADD alone, writing b's window slot, its 2.0 a constant vector.
  ASSERT_EQ(image.params.code_length, 1u);
  uint32_t* add = image.words.data() + image.params.code_offset;
  ASSERT_EQ((add[0] >> (shader::kVmFastClassShift + 2)) & 3u, shader::kVmOperandConstant);
  ASSERT_EQ(image.words[image.immediates_offset + kConstantVectorsViewOffset / 4 + 4 * add[2]], f2u(2.0f));
  add[2] = 0xFFFFFFFFu;
  const size_t last = image.immediates_offset + kConstantVectorsViewOffset / 4 +
                      4 * (shader::kVmFastMaxConstantVectors - 1);
  image.words[last] = f2u(40.0f);
  auto out = run_gpu_harness(device(), in, image, nullptr, [&](gpu::ComputeRecorder& rec, const GpuRunBuffers& b) {
    rec.bind(*pipeline)
        .buffers({{0, &b.program},
                  {1, &b.records},
                  {2, &b.killed},
                  {3, &b.op_counts},
                  {4, &b.params},
                  {6, &b.trace},
                  {10, &b.field_headers},
                  {11, &b.field_values},
                  {12, &b.depth},
                  code_view(image, b.program),
                  immediates_view(image, b.program)})
        .dispatch(image.groups);
  });
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(u2f(out->records[size_t(i) * record_words + 2]), float(i) + 40.0f) << i;
    EXPECT_EQ(out->records[size_t(i) * record_words + 3], f2u(-1.0f)) << i;
  }
}

TEST_F(GpuTest, VerifiedRunRejectsWhatTheVerifierRejects) {
  Program p = store_constant_program(4, 200);  // slot 200 >= register_count
  auto executor = make_gpu_executor(device(), GpuInterpreter::kAuto);
  auto result = executor->run(input_for(p, 1, 2));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::kVerify);
  EXPECT_NE(result.error().where.find("update["), std::string::npos);
}

// An UPDATE with each pattern the fold computes or fuses away (src/vm_gpu/fast_fold.hpp,
// src/vm_gpu/fast_fuse.hpp), and one of each that must stay.
Program fold_and_fuse_program() {
  using isa::Op, test::imm, test::make_ins, test::raw, test::reg;
  Program p;
  p.register_count = 16;
  p.particle_fields = {{"a", 1}, {"b", 1}, {"v", 3}, {"c", 1}, {"d", 1}, {"e", 1}};  // words 1, 2, 3-5, 6, 7, 8
  p.update = {
      make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),
      make_ins(Op::LOAD_FIELD, 1, 1, raw(2)),
      make_ins(Op::DIV, 1, 2, reg(0), reg(1)),
      make_ins(Op::CLAMP, 1, 2, reg(2), imm(0.0f), imm(1.0f)),  // saturates the DIV, in place
      make_ins(Op::STORE_FIELD, 1, 0, raw(6), reg(2)),
      make_ins(Op::LOAD_FIELD, 3, 4, raw(3)),
      make_ins(Op::MUL, 3, 8, reg(4), imm(0.75f)),
      make_ins(Op::CLAMP, 3, 12, reg(8), imm(0.0f), imm(1.0f)),  // saturates the MUL, into r12
      make_ins(Op::STORE_FIELD, 3, 0, raw(3), reg(12)),
      make_ins(Op::SUB, 1, 9, reg(1), imm(0.5f)),
      make_ins(Op::CLAMP, 1, 10, reg(9), imm(0.0f), imm(1.0f)),  // stays: r9 is read below
      make_ins(Op::ADD, 1, 11, reg(9), reg(10)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(7), reg(11)),
      make_ins(Op::ADD, 1, 3, imm(2.0f), imm(3.0f)),  // computed on the host: 5.0
      make_ins(Op::MUL, 1, 3, reg(3), reg(0)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(2), reg(3)),
      make_ins(Op::FMA, 1, 13, imm(0.25f), imm(3.0f), imm(1.0f)),  // an exact product: computed on the host
      make_ins(Op::FMA, 1, 14, imm(0.1f), imm(0.3f), reg(13)),     // an inexact one: stays
      make_ins(Op::ADD, 1, 15, reg(14), reg(0)),
      make_ins(Op::STORE_FIELD, 1, 0, raw(8), reg(15)),
      make_ins(Op::CMP, 1, 5, reg(0), imm(0.5f), raw(shader::kVmCmpGt)),
      make_ins(Op::KILL, 1, 0, reg(5)),  // compares itself
      make_ins(Op::CMP, 1, 6, reg(1), imm(0.25f), raw(shader::kVmCmpLt)),
      make_ins(Op::KILL, 1, 0, reg(6)),  // stays plain: the mask is stored below
      make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(6)),
  };
  return p;
}

TEST_F(GpuTest, FoldedSectionsComputeExactlyWhatTheUnfoldedOnesDo) {
  // The move fold (src/vm_gpu/fast_fold.hpp) removes copies and computes what every particle would
  // compute alike, the fusion (src/vm_gpu/fast_fuse.hpp) merges a CMP into its KILL and a
  // CLAMP(x, 0, 1) into x's instruction, each with the same functions on the same values, and
  // constant sources are read from the constant vectors (src/vm_gpu/fast_reads.hpp). So on
  // one pipeline the folded and the unfolded section must agree bit for bit: records and kill
  // flags, for generated programs of every opcode and one written for the patterns, with the
  // program's own record and with a wider stride (the window then sits elsewhere in the record,
  // and clamped field words fall in it differently).
  std::map<GpuInterpreterSpecialization, gpu::ComputePipeline> pipelines;
  uint32_t sections = 0, instructions = 0, folded_instructions = 0, window_results = 0, saturated = 0,
           comparing_kills = 0, constant_sources = 0, sections_with_file_immediates = 0;
  for (uint32_t k = 0; k < 42; ++k) {
    const Program program = k < 40 ? generate_random_program(5000 + k, {}) : fold_and_fuse_program();
    if (!fits_fast_interpreter(program)) continue;
    for (Section section : {Section::kInit, Section::kUpdate}) {
      const uint32_t count = 1 + (k * 41) % 130;
      const uint32_t record_words = k % 3 == 2 ? 32u : 0u;
      const RunInput in = make_random_input(program, section, count, 9000 + k * 2 + uint32_t(section), record_words);
      const uint32_t words = effective_record_words(in);
      GpuInterpreterSpecialization spec = gpu_interpreter_specialization(program, section, words);
      spec.instrumented = false;
      auto found = pipelines.find(spec);
      if (found == pipelines.end()) {
        auto made = create_gpu_interpreter(device(), GpuInterpreter::kFast, spec);
        ASSERT_TRUE(made.ok()) << made.error().to_string();
        found = pipelines.emplace(spec, std::move(*made)).first;
      }
      auto run = [&](bool fold) -> Result<RunOutput> {
        GpuInterpreterSpecialization image_spec = spec;
        image_spec.instrumented = !fold;
        GpuProgramImage image = make_gpu_program_image(in, words, GpuInterpreter::kFast, device().limits(),
                                                       &image_spec);
        if (fold) {
          ++sections;
          instructions += uint32_t(program.code(section).size());
          folded_instructions += image.params.code_length;
          const uint32_t* code = image.words.data() + image.params.code_offset;
          for (uint32_t i = 0; i < image.params.code_length; ++i) {
            const uint32_t w0 = code[i * 4];
            window_results += ((w0 >> shader::kVmFastWrittenShift) & 7u) > 0 &&
                              (w0 >> 24) >= shader::kVmFastFirstWindowSlot;
            saturated += (w0 & shader::kVmFastSaturateBit) != 0;
            comparing_kills += (w0 & 0xFFu) == uint32_t(isa::Op::KILL) && code[i * 4 + 3] != shader::kVmCmpNe;
            for (uint32_t s = 0; s < 3; ++s)
              constant_sources += ((w0 >> (shader::kVmFastClassShift + 2 * s)) & 3u) == shader::kVmOperandConstant;
          }
          sections_with_file_immediates += image.words[image.immediates_offset] > 0;
        }
        return run_gpu_harness(device(), in, image, nullptr, [&](gpu::ComputeRecorder& rec, const GpuRunBuffers& b) {
          rec.bind(found->second)
              .buffers({{0, &b.program},
                        {1, &b.records},
                        {2, &b.killed},
                        {3, &b.op_counts},
                        {4, &b.params},
                        {6, &b.trace},
                        {10, &b.field_headers},
                        {11, &b.field_values},
                        {12, &b.depth},
                        code_view(image, b.program),
                        immediates_view(image, b.program)})
              .dispatch(image.groups);
        });
      };
      const std::string where = (k < 40 ? "program " + std::to_string(5000 + k)
                                        : std::string("the patterns' program")) +
                                (section == Section::kInit ? " init" : " update");
      auto unfolded = run(false);
      ASSERT_TRUE(unfolded.ok()) << where << ": " << unfolded.error().to_string();
      auto folded = run(true);
      ASSERT_TRUE(folded.ok()) << where << ": " << folded.error().to_string();
      ASSERT_EQ(folded->killed, unfolded->killed) << where;
      ASSERT_EQ(folded->records.size(), unfolded->records.size());
      for (size_t w = 0; w < folded->records.size(); ++w)
        ASSERT_EQ(folded->records[w], unfolded->records[w])
            << where << ": particle " << w / words << " word " << w % words << "\n"
            << disassemble(program);
    }
  }
  // The comparison means something only if the fold did fold: instructions went, and results
  // were written straight into the window.
  ASSERT_GT(sections, 50u);
  EXPECT_LT(folded_instructions, instructions * 9 / 10) << folded_instructions << " of " << instructions;
  EXPECT_GE(window_results, 5u);  // 10 with these seeds
  // The patterns' program fused twice into saturating instructions and once into a KILL, in
  // each of its two strides.
  EXPECT_GE(saturated, 4u);
  EXPECT_GE(comparing_kills, 2u);
  // Constant sources were read as constants (src/vm_gpu/fast_reads.hpp), and some sections kept
  // immediates in the file, for sources that mix them with registers, renumbered.
  EXPECT_GE(constant_sources, 100u);
  EXPECT_GE(sections_with_file_immediates, 1u);
  std::printf("[ fold     ] %u sections: %u instructions -> %u, %u results written into the window, %u saturated, "
              "%u comparing kills, %u constant sources, %u sections with immediates in the file\n",
              sections, instructions, folded_instructions, window_results, saturated, comparing_kills, constant_sources,
              sections_with_file_immediates);
}

}  // namespace
}  // namespace mote
