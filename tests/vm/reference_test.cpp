// Hand-checked semantics of the reference executor and of vm_semantics.h: the properties the
// parity suite takes for granted (RNG determinism and range, quaternion integration against
// its closed form, divergence-free curl noise, the safe-math rules, KILL, builtins).
#include <gtest/gtest.h>

#include <cmath>

#include "mote/vm.hpp"
#include "shared/vm_semantics.h"
#include "support/program_generator.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;
namespace s = shader;

// Runs `update` of a program with `fields` particle fields over `count` particles.
RunOutput run_reference(const Program& p, RunInput in) {
  in.program = &p;
  auto out = make_reference_executor()->run(in);
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  return out.ok() ? std::move(out).value() : RunOutput{};
}

RunInput blank_input(const Program& p, uint32_t count) {
  RunInput in;
  in.program = &p;
  in.section = Section::kUpdate;
  in.count = count;
  in.records.assign(size_t(count) * vm_particle_record_words(p), 0);
  return in;
}

TEST(VmReference, EveryTableOpcodeHasACase) {
  // One instruction of each opcode at its narrowest lane count: the reference's unknown-op
  // path (kInternal) must never be reached for an opcode of the table.
  for (const isa::OpInfo& info : isa::all_ops()) {
    Program p;
    p.register_count = 8;
    p.particle_fields = {{"v", 4}};
    p.constants = {0, 0, 0, 0};
    const uint32_t lanes = info.lanes_min;
    std::vector<Instruction>& code = p.update;
    code.push_back(make_ins(Op::MOV, 4, 0, imm(0.5f)));
    Src src[3];
    for (uint32_t k = 0; k < 3; ++k) {
      switch (info.src[k]) {
        case isa::SrcRule::kVal:
        case isa::SrcRule::kVal1:
        case isa::SrcRule::kVal3:
        case isa::SrcRule::kVal4: src[k] = reg(0); break;
        case isa::SrcRule::kField: src[k] = raw(1); break;
        case isa::SrcRule::kBuiltin: src[k] = raw(0); break;
        default: break;  // const index 0, draw 0, compare LT, unused: word 0
      }
    }
    const bool writes = info.dst != isa::DstRule::kDstNone;
    code.push_back(make_ins(info.op, lanes, writes ? 4 : 0, src[0], src[1], src[2]));
    auto out = make_reference_executor()->run(blank_input(p, 3));
    ASSERT_TRUE(out.ok()) << info.mnemonic << ": " << out.error().to_string();
    EXPECT_EQ(out->op_executions[info.number], info.op == Op::MOV ? 6u : 3u) << info.mnemonic;
  }
}

TEST(VmReference, RandIsDeterministicUniformAndDefinedByTheHash) {
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"r", 4}};
  p.update = {make_ins(Op::RAND, 4, 0, raw(7)), make_ins(Op::STORE_FIELD, 4, 0, raw(1), reg(0))};
  RunInput in = blank_input(p, 4096);
  in.rng_base = 1234;
  in.first_particle_index = 100;
  const RunOutput a = run_reference(p, in);
  const RunOutput b = run_reference(p, in);
  EXPECT_EQ(a.records, b.records);
  double sum = 0.0;
  for (uint32_t i = 0; i < in.count; ++i) {
    const uint32_t seed = s::vm_particle_seed(1234, 100 + i);
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const float v = u2f(a.records[i * 5 + 1 + lane]);
      ASSERT_GE(v, 0.0f);
      ASSERT_LT(v, 1.0f);
      ASSERT_EQ(v, float(s::vm_hash3(seed, 7, lane) >> 8) * (1.0f / 16777216.0f));
      sum += v;
    }
  }
  EXPECT_NEAR(sum / (4.0 * in.count), 0.5, 0.01);
  in.rng_base = 1235;
  EXPECT_NE(run_reference(p, in).records, a.records);
}

TEST(VmReference, QIntegrateMatchesClosedFormForConstantOmega) {
  const s::vec3 axis = s::vm_normalize(s::vec4(0.3f, -0.8f, 0.5f, 0.0f));
  const float speed = 2.5f, dt = 0.01f;
  const s::vec3 omega = axis * speed;
  s::vec4 q(0.0f, 0.0f, 0.0f, 1.0f);
  for (int step = 0; step < 200; ++step) q = s::vm_qintegrate(q, omega, dt);
  const s::vec4 expected = s::vm_qfrom_axis_angle(axis, speed * dt * 200.0f);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(q[k], expected[k], 2e-5f) << k;
  // omega == 0: normalize(q); zero q: identity.
  const s::vec4 same = s::vm_qintegrate(s::vec4(0.0f, 0.0f, 2.0f, 0.0f), s::vec3(0.0f), dt);
  EXPECT_EQ(same, s::vec4(0.0f, 0.0f, 1.0f, 0.0f));
  EXPECT_EQ(s::vm_qintegrate(s::vec4(0.0f), omega, dt), s::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_EQ(s::vm_qfrom_axis_angle(s::vec3(0.0f), 1.0f), s::vec4(0.0f, 0.0f, 0.0f, 1.0f));

  // Through the executor: one step from a stored orientation equals the header function.
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"q", 4}, {"w", 3}};
  p.update = {make_ins(Op::LOAD_FIELD, 4, 0, raw(1)), make_ins(Op::LOAD_FIELD, 3, 4, raw(5)),
              make_ins(Op::QINTEGRATE, 4, 0, reg(0), reg(4), imm(dt)), make_ins(Op::STORE_FIELD, 4, 0, raw(1), reg(0))};
  RunInput in = blank_input(p, 1);
  const float start[7] = {0.0f, 0.0f, 0.0f, 1.0f, omega.x, omega.y, omega.z};
  for (int k = 0; k < 7; ++k) in.records[1 + k] = f2u(start[k]);
  const RunOutput out = run_reference(p, in);
  const s::vec4 one = s::vm_qfrom_axis_angle(axis, speed * dt);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(u2f(out.records[1 + k]), one[k], 1e-6f);
}

TEST(VmReference, QuaternionProductAndRotation) {
  const s::vec4 qz = s::vm_qfrom_axis_angle(s::vec3(0, 0, 1), 3.14159265f / 2.0f);  // +90 deg about Z
  const s::vec3 r = s::vm_qrotate(qz, s::vec3(1, 0, 0));
  EXPECT_NEAR(r.x, 0.0f, 1e-6f);
  EXPECT_NEAR(r.y, 1.0f, 1e-6f);
  EXPECT_NEAR(r.z, 0.0f, 1e-6f);
  // Hamilton: (qz * qz) rotates by 180 degrees; q * p applies p first.
  const s::vec3 r2 = s::vm_qrotate(s::vm_qmul(qz, qz), s::vec3(1, 0, 0));
  EXPECT_NEAR(r2.x, -1.0f, 1e-6f);
  const s::vec4 qx = s::vm_qfrom_axis_angle(s::vec3(1, 0, 0), 3.14159265f / 2.0f);
  const s::vec3 composed = s::vm_qrotate(s::vm_qmul(qz, qx), s::vec3(0, 1, 0));  // x first: y -> z; then z stays
  EXPECT_NEAR(composed.z, 1.0f, 1e-6f);
}

TEST(VmReference, NoiseIsBoundedAndItsGradientIsAnalytic) {
  const float h = 1e-2f;
  for (int i = 0; i < 2000; ++i) {
    const s::vec3 p(s::vm_rand(9, i, 0) * 40.0f - 20.0f, s::vm_rand(9, i, 1) * 40.0f - 20.0f,
                    s::vm_rand(9, i, 2) * 40.0f - 20.0f);
    const float n = s::vm_noise3(p);
    ASSERT_GE(n, -1.0f);
    ASSERT_LE(n, 1.0f);
    const s::vec4 g = s::vm_noise3_gradient(p);
    for (int k = 0; k < 3; ++k) {
      s::vec3 dp(0.0f);
      dp[k] = h;
      const float fd = (s::vm_noise3_gradient(p + dp).w - s::vm_noise3_gradient(p - dp).w) / (2.0f * h);
      ASSERT_NEAR(g[k], fd, 2e-2f) << "point " << i << " axis " << k;
    }
  }
  // Integer lattice points are zeros of gradient noise; NaN input reads as 0.
  EXPECT_EQ(s::vm_noise3(s::vec3(3.0f, -2.0f, 7.0f)), 0.0f);
  EXPECT_EQ(s::vm_noise3(s::vec3(std::nanf(""), 0.0f, 0.0f)), 0.0f);
}

TEST(VmReference, CurlNoiseIsDivergenceFree) {
  const float h = 1e-2f;
  double worst = 0.0, scale = 0.0;
  for (int i = 0; i < 1000; ++i) {
    const s::vec3 p(s::vm_rand(5, i, 0) * 20.0f - 10.0f, s::vm_rand(5, i, 1) * 20.0f - 10.0f,
                    s::vm_rand(5, i, 2) * 20.0f - 10.0f);
    double div = 0.0;
    for (int k = 0; k < 3; ++k) {
      s::vec3 dp(0.0f);
      dp[k] = h;
      const double partial = (double(s::vm_curl3(p + dp)[k]) - double(s::vm_curl3(p - dp)[k])) / (2.0 * h);
      div += partial;
      scale = std::max(scale, std::fabs(partial));
    }
    worst = std::max(worst, std::fabs(div));
  }
  // Finite-difference noise only (O(h^2) truncation, float rounding): far below the partials.
  EXPECT_LT(worst, 0.02 * scale) << "worst divergence " << worst << " vs partials up to " << scale;
  EXPECT_GT(scale, 0.5);
}

TEST(VmReference, WindIsBasePlusScaledCurl) {
  s::VmWindField still{};
  EXPECT_EQ(s::vm_sample_wind(still, s::vec3(1, 2, 3)), s::vec3(0.0f));
  s::VmWindField w{};
  w.base_velocity = s::vec4(1, 2, 3, 0);
  EXPECT_EQ(s::vm_sample_wind(w, s::vec3(5, 6, 7)), s::vec3(1, 2, 3));
  w.turbulence = s::vec4(2.0f, 0.5f, 1.0f, 3.0f);
  const s::vec3 expect = s::vec3(1, 2, 3) + 2.0f * s::vm_curl3(s::vec3(2.5f, 3.0f, 3.5f - 3.0f));
  EXPECT_EQ(s::vm_sample_wind(w, s::vec3(5, 6, 7)), expect);
}

TEST(VmReference, SafeMathRules) {
  EXPECT_EQ(s::vm_div(3.0f, 0.0f), 0.0f);
  EXPECT_EQ(s::vm_div(3.0f, -0.0f), 0.0f);
  EXPECT_EQ(s::vm_div(3.0f, 2.0f), 1.5f);
  EXPECT_EQ(s::vm_mod(5.5f, 0.0f), 0.0f);
  EXPECT_EQ(s::vm_mod(-1.0f, 3.0f), 2.0f);  // floored, like GLSL
  EXPECT_EQ(s::vm_sqrt(-4.0f), 0.0f);
  EXPECT_EQ(s::vm_rsqrt(0.0f), 0.0f);
  EXPECT_EQ(s::vm_rsqrt(-1.0f), 0.0f);
  EXPECT_EQ(s::vm_rsqrt(4.0f), 0.5f);
  EXPECT_EQ(s::vm_log(0.0f), 0.0f);
  EXPECT_EQ(s::vm_log(-2.0f), 0.0f);
  EXPECT_EQ(s::vm_pow(0.0f, 2.0f), 0.0f);
  EXPECT_EQ(s::vm_pow(-8.0f, 1.0f / 3.0f), 0.0f);
  EXPECT_EQ(s::vm_pow(2.0f, 3.0f), 8.0f);
  EXPECT_EQ(s::vm_asin(2.0f), s::vm_asin(1.0f));
  EXPECT_EQ(s::vm_acos(-7.0f), s::vm_acos(-1.0f));
  EXPECT_EQ(s::vm_atan2(0.0f, 0.0f), 0.0f);
  EXPECT_EQ(s::vm_atan2(-0.0f, -0.0f), 0.0f);
  EXPECT_EQ(s::vm_normalize(s::vec4(0.0f)), s::vec4(0.0f));
  EXPECT_EQ(s::vm_smoothstep(1.0f, 1.0f, 0.5f), 0.0f);
  EXPECT_EQ(s::vm_smoothstep(1.0f, 1.0f, 1.0f), 1.0f);
  EXPECT_EQ(s::vm_smoothstep(0.0f, 2.0f, 1.0f), 0.5f);
  EXPECT_EQ(s::vm_sign(-3.0f), -1.0f);
  EXPECT_EQ(s::vm_sign(0.0f), 0.0f);
  EXPECT_EQ(s::vm_sign(-0.0f), 0.0f);
  EXPECT_EQ(s::vm_sign(2.0f), 1.0f);
  EXPECT_EQ(s::vm_step(1.0f, 0.5f), 0.0f);
  EXPECT_EQ(s::vm_step(1.0f, 1.0f), 1.0f);
  EXPECT_EQ(s::vm_select(std::nanf(""), 1.0f, 2.0f), 1.0f);
  EXPECT_EQ(s::vm_cmp(1.0f, 2.0f, s::kVmCmpLt), 1.0f);
  EXPECT_EQ(s::vm_cmp(std::nanf(""), 2.0f, s::kVmCmpNe), 1.0f);

  // And through the executor: DIV by a zero field gives 0, not inf.
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"a", 1}, {"b", 1}};
  p.update = {make_ins(Op::LOAD_FIELD, 1, 0, raw(1)), make_ins(Op::LOAD_FIELD, 1, 1, raw(2)),
              make_ins(Op::DIV, 1, 2, reg(0), reg(1)), make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(2))};
  RunInput in = blank_input(p, 1);
  in.records = {0, f2u(5.0f), f2u(0.0f)};
  EXPECT_EQ(u2f(run_reference(p, in).records[1]), 0.0f);
}

TEST(VmReference, KillIsPredicatedAndRecordsStillWritten) {
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"age", 1}, {"life", 1}};
  // age += 1; kill when age > life.
  p.update = {make_ins(Op::LOAD_FIELD, 1, 0, raw(1)),     make_ins(Op::LOAD_FIELD, 1, 1, raw(2)),
              make_ins(Op::ADD, 1, 0, reg(0), imm(1.0f)), make_ins(Op::CMP, 1, 2, reg(0), reg(1), raw(s::kVmCmpGt)),
              make_ins(Op::KILL, 1, 0, reg(2)),           make_ins(Op::STORE_FIELD, 1, 0, raw(1), reg(0))};
  RunInput in = blank_input(p, 3);
  in.records = {11, f2u(0.0f), f2u(5.0f), 22, f2u(4.5f), f2u(5.0f), 33, f2u(4.0f), f2u(5.0f)};
  const RunOutput out = run_reference(p, in);
  EXPECT_EQ(out.killed, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(u2f(out.records[1]), 1.0f);
  EXPECT_EQ(u2f(out.records[4]), 5.5f);  // the killed particle's store still happened
  EXPECT_EQ(u2f(out.records[7]), 5.0f);  // 5 > 5 is false
  EXPECT_EQ(out.records[0], 11u);
  EXPECT_EQ(out.records[3], 22u);
  // KILL is UPDATE-only: the verifier refuses it in INIT and the executor returns that error.
  p.init = p.update;
  p.update.clear();
  in.section = Section::kInit;
  auto refused = make_reference_executor()->run(in);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kVerify);
}

// EMIT_EVENT: floor(count) events to the named output, summed over the run's EMIT_EVENTs of
// that output, none for NaN or a count below 1, saturating at kVmMaxEventCount; allowed in INIT
// and UPDATE; an output index past the last is refused by the verifier.
TEST(VmReference, EmitEventCountsPerOutputAndSaturates) {
  Program p;
  p.register_count = 4;
  p.particle_fields = {{"n", 1}};
  p.update = {make_ins(Op::LOAD_FIELD, 1, 0, raw(1)), make_ins(Op::EMIT_EVENT, 1, 0, reg(0), raw(1)),
              make_ins(Op::EMIT_EVENT, 1, 0, reg(0), raw(1)), make_ins(Op::EMIT_EVENT, 1, 0, imm(3.0f), raw(3))};
  const float counts[] = {2.75f, 0.5f, -4.0f, std::nanf(""), 40000.0f, 1e30f};
  const uint32_t expected[] = {4,
                               0,
                               0,
                               0,  // floor(2.75) twice
                               s::kVmMaxEventCount,
                               s::kVmMaxEventCount};
  RunInput in = blank_input(p, 6);
  in.records.clear();
  for (float c : counts) in.records.insert(in.records.end(), {0u, f2u(c)});
  std::unique_ptr<Executor> executors[] = {make_reference_executor(), make_batch_executor()};
  for (const auto& executor : executors) {
    const auto out = executor->run(in);
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    ASSERT_EQ(out->events.size(), 6u * s::kVmEventOutputs);
    for (uint32_t i = 0; i < 6; ++i) {
      EXPECT_EQ(out->events[i * 4 + 0], 0u) << executor->name() << " particle " << i;
      EXPECT_EQ(out->events[i * 4 + 1], expected[i]) << executor->name() << " particle " << i;
      EXPECT_EQ(out->events[i * 4 + 2], 0u) << executor->name() << " particle " << i;
      EXPECT_EQ(out->events[i * 4 + 3], 3u) << executor->name() << " particle " << i;
    }
  }
  p.init = p.update;  // INIT may send events too (a spawn burst's own trigger)
  in.section = Section::kInit;
  const auto from_init = make_reference_executor()->run(in);
  ASSERT_TRUE(from_init.ok()) << from_init.error().to_string();
  EXPECT_EQ(from_init->events[1], 4u);
  p.update[1] = make_ins(Op::EMIT_EVENT, 1, 0, reg(0), raw(s::kVmEventOutputs));
  in.section = Section::kUpdate;
  const auto refused = make_reference_executor()->run(in);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kVerify);
  EXPECT_EQ(refused.error().where, "update[1].s1");
}

// SAMPLE_FIELD reads slot b of RunInput::vector_fields: a 2 x 2 x 2 field over the unit cube whose
// corner k holds (k, 2k, -k), so its centre is the corners' mean exactly and a point past the
// box reads the nearest corner; an empty slot and one past the list read 0; a field whose vector
// count does not match its grid is refused with its place.
TEST(VmReference, SampleFieldReadsItsSlotTrilinearAndClamped) {
  VectorField cube{.size = {2, 2, 2}, .box_min = {0.0f, 0.0f, 0.0f}, .box_max = {1.0f, 1.0f, 1.0f}, .vectors = {}};
  for (int k = 0; k < 8; ++k) cube.vectors.insert(cube.vectors.end(), {float(k), 2.0f * float(k), -float(k)});
  Program p;
  p.register_count = 16;
  p.particle_fields = {{"p", 3}, {"a", 4}, {"b", 4}, {"c", 4}};
  p.update = {make_ins(Op::LOAD_FIELD, 3, 0, raw(1)),           make_ins(Op::SAMPLE_FIELD, 4, 4, reg(0), raw(1)),
              make_ins(Op::SAMPLE_FIELD, 3, 8, reg(0), raw(0)), make_ins(Op::SAMPLE_FIELD, 3, 12, reg(0), raw(3)),
              make_ins(Op::STORE_FIELD, 4, 0, raw(4), reg(4)),  make_ins(Op::STORE_FIELD, 3, 0, raw(8), reg(8)),
              make_ins(Op::STORE_FIELD, 3, 0, raw(12), reg(12))};
  RunInput in = blank_input(p, 3);
  in.vector_fields = {nullptr, &cube};
  const float points[3][3] = {{0.5f, 0.5f, 0.5f}, {5.0f, 7.0f, 9.0f}, {0.0f, 1.0f, 0.0f}};
  const float expected[3][3] = {{3.5f, 7.0f, -3.5f}, {7.0f, 14.0f, -7.0f}, {2.0f, 4.0f, -2.0f}};
  const uint32_t rw = 16;
  for (uint32_t i = 0; i < 3; ++i)
    for (uint32_t k = 0; k < 3; ++k) in.records[i * rw + 1 + k] = f2u(points[i][k]);
  std::unique_ptr<Executor> executors[] = {make_reference_executor(), make_batch_executor()};
  for (const auto& executor : executors) {
    const auto out = executor->run(in);
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    for (uint32_t i = 0; i < 3; ++i) {
      for (uint32_t k = 0; k < 3; ++k) {
        EXPECT_EQ(u2f(out->records[i * rw + 4 + k]), expected[i][k]) << executor->name() << " particle " << i;
        EXPECT_EQ(u2f(out->records[i * rw + 8 + k]), 0.0f) << executor->name() << " empty slot, particle " << i;
        EXPECT_EQ(u2f(out->records[i * rw + 12 + k]), 0.0f) << executor->name() << " slot past the list";
      }
      EXPECT_EQ(u2f(out->records[i * rw + 7]), 0.0f) << executor->name() << " dst.w";
    }
  }
  VectorField short_field = cube;
  short_field.vectors.pop_back();
  in.vector_fields = {&short_field};
  const auto refused = make_reference_executor()->run(in);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(refused.error().where, "vector_fields[0]");
  in.vector_fields.assign(s::kVmVectorFields + 1, nullptr);
  EXPECT_FALSE(make_batch_executor()->run(in).ok());
}

TEST(VmReference, BuiltinsAndFieldSpaces) {
  Program p;
  p.register_count = 16;
  p.particle_fields = {{"o", 4}, {"r", 4}};
  p.emitter_fields = {{"e0", 2}, {"e1", 1}};
  p.update = {
      make_ins(Op::LOAD_BUILTIN, 1, 0, raw(uint32_t(isa::Builtin::PARTICLE_INDEX))),
      make_ins(Op::LOAD_BUILTIN, 1, 1, raw(uint32_t(isa::Builtin::SPAWN_INDEX))),
      make_ins(Op::LOAD_BUILTIN, 1, 2, raw(uint32_t(isa::Builtin::SPAWN_FRACTION))),
      make_ins(Op::LOAD_BUILTIN, 1, 3, raw(uint32_t(isa::Builtin::SPAWN_COUNT))),
      make_ins(Op::STORE_FIELD, 4, 0, raw(1), reg(0)),
      make_ins(Op::LOAD_BUILTIN, 1, 4, raw(uint32_t(isa::Builtin::EMITTER_SEED))),
      make_ins(Op::LOAD_BUILTIN, 1, 5, raw(builtin_word(s::kVmSpaceEmitterField, 2))),
      make_ins(Op::LOAD_BUILTIN, 2, 6, raw(builtin_word(s::kVmSpaceGlobalField, 1))),
      make_ins(Op::STORE_FIELD, 4, 0, raw(5), reg(4)),
  };
  RunInput in = blank_input(p, 4);
  in.first_particle_index = 1000;
  in.emitter.seed = 0x12345678u;
  in.emitter_fields = {f2u(1.0f), f2u(2.0f), f2u(3.0f)};
  in.global_fields = {f2u(10.0f), f2u(20.0f), f2u(30.0f)};
  const RunOutput out = run_reference(p, in);
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t* r = &out.records[i * 9];
    EXPECT_EQ(u2f(r[1]), float(1000 + i));
    EXPECT_EQ(u2f(r[2]), float(i));
    EXPECT_EQ(u2f(r[3]), (float(i) + 0.5f) / 4.0f);
    EXPECT_EQ(u2f(r[4]), 4.0f);
    EXPECT_EQ(u2f(r[5]), float(0x345678));
    EXPECT_EQ(u2f(r[6]), 3.0f);
    EXPECT_EQ(u2f(r[7]), 20.0f);
    EXPECT_EQ(u2f(r[8]), 30.0f);
  }
}

TEST(VmReference, SwizzleAndImmediateSplat) {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"v", 4}};
  p.update = {make_ins(Op::LOAD_FIELD, 4, 0, raw(1)), make_ins(Op::ADD, 4, 4, reg(0, {3, 2, 1, 0}), imm(0.5f)),
              make_ins(Op::STORE_FIELD, 4, 0, raw(1), reg(4))};
  RunInput in = blank_input(p, 1);
  in.records = {0, f2u(1.0f), f2u(2.0f), f2u(3.0f), f2u(4.0f)};
  const RunOutput out = run_reference(p, in);
  EXPECT_EQ(u2f(out.records[1]), 4.5f);
  EXPECT_EQ(u2f(out.records[4]), 1.5f);
}

TEST(VmReference, GeneratedProgramsVerifyAndLeaveHeadersAlone) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const Program p = generate_random_program(seed);
    for (Section section : {Section::kInit, Section::kUpdate}) {
      RunInput in = make_random_input(p, section, 17, seed, 32);  // pool stride wider than the record
      auto out = make_reference_executor()->run(in);
      ASSERT_TRUE(out.ok()) << "seed " << seed << ": " << out.error().to_string();
      const uint32_t fields_end = vm_particle_record_words(p);
      for (uint32_t i = 0; i < in.count; ++i) {
        EXPECT_EQ(out->records[i * 32], generated_header(i));
        for (uint32_t w = fields_end; w < 32; ++w) EXPECT_EQ(out->records[i * 32 + w], 0xDEADBEEFu);
      }
    }
  }
}

}  // namespace
}  // namespace mote::test
