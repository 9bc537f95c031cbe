#include <gtest/gtest.h>

#include "isa/float_text.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"
#include "test_support.hpp"

namespace mote {
namespace {

using isa::Op;
using test::imm;
using test::inst;
using test::raw;
using test::reg;

Program must_assemble(std::string_view text) {
  Result<Program> r = assemble(text);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? *r : Program{};
}

void expect_round_trip(const Program& p) {
  const std::string text = disassemble(p);
  Result<Program> back = assemble(text);
  ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(*back, p) << text;
  EXPECT_EQ(save_mfx(*back), save_mfx(p));
}

Error parse_error(std::string_view text) {
  Result<Program> r = assemble(text);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(Assembler, DirectivesCommentsAndInstructions) {
  const Program p = must_assemble(R"(
; comment
.registers 8
.particle position 3
.particle velocity 3
.emitter speed 1
.global wind_strength 1
.const 1.0 0.5 -9.81 0.0        ; one vec4
.init
  LOAD_BUILTIN r0.xyz, EMITTER_POSITION
  STORE_FIELD @position, r0.xyz
  LOAD_BUILTIN r3.x, emitter:speed
  LOAD_BUILTIN r4.x, global:wind_strength
.update
  LOAD_FIELD r0.xyz, @velocity
  ADD r0.xyz, r0.xyz, 0.5
  CMP r4.x, r0.x, 1.0, GT
  RAND r5.xy, #7
  LOAD_CONST r6.xy, c[2]
  KILL r4.x
)");
  ASSERT_EQ(p.init.size(), 4u);
  EXPECT_EQ(p.init[0], inst(Op::LOAD_BUILTIN, 3, 0, raw(3)));
  EXPECT_EQ(p.init[1], inst(Op::STORE_FIELD, 3, 0, raw(1), reg(0, "xyz")));
  EXPECT_EQ(p.init[2], inst(Op::LOAD_BUILTIN, 1, 3, raw(isa::make_builtin(1, 0))));
  EXPECT_EQ(p.init[3], inst(Op::LOAD_BUILTIN, 1, 4, raw(isa::make_builtin(2, 0))));
  ASSERT_EQ(p.update.size(), 6u);
  EXPECT_EQ(p.update[0], inst(Op::LOAD_FIELD, 3, 0, raw(4)));
  EXPECT_EQ(p.update[1], inst(Op::ADD, 3, 0, reg(0, "xyz"), imm(0.5f)));
  EXPECT_EQ(p.update[2], inst(Op::CMP, 1, 4, reg(0, "x"), imm(1.0f), raw(5)));
  EXPECT_EQ(p.update[3], inst(Op::RAND, 2, 5, raw(7)));
  EXPECT_EQ(p.update[4], inst(Op::LOAD_CONST, 2, 6, raw(2)));
  EXPECT_EQ(p.update[5], inst(Op::KILL, 1, 0, reg(4, "x")));
  EXPECT_EQ(p.constants[2], std::bit_cast<uint32_t>(-9.81f));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  expect_round_trip(p);
}

TEST(Assembler, EmitEventNamesItsOutput) {
  const Program p = must_assemble(R"(
.registers 4
.particle n 1
.update
  LOAD_FIELD r0.x, @n
  EMIT_EVENT r0.x, e[3]
  EMIT_EVENT 2.0, e[0]
)");
  ASSERT_EQ(p.update.size(), 3u);
  EXPECT_EQ(p.update[1], inst(Op::EMIT_EVENT, 1, 0, reg(0, "x"), raw(3)));
  EXPECT_EQ(p.update[2], inst(Op::EMIT_EVENT, 1, 0, imm(2.0f), raw(0)));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  expect_round_trip(p);
  const Error past = parse_error(".registers 4\n.update\n  EMIT_EVENT 1.0, e[4]\n");
  EXPECT_NE(past.message.find("event output"), std::string::npos) << past.message;
  const Error bare = parse_error(".registers 4\n.update\n  EMIT_EVENT 1.0, 2\n");
  EXPECT_NE(bare.message.find("e[N]"), std::string::npos) << bare.message;
}

TEST(Assembler, SampleDepthTakesAPositionAndAThickness) {
  const Program p = must_assemble(R"(
.registers 8
.particle position 3
.update
  LOAD_FIELD r0.xyz, @position
  SAMPLE_DEPTH r4.xyzw, r0.xyz, 0.5
  STORE_FIELD @position, r4.xyz
)");
  ASSERT_EQ(p.update.size(), 3u);
  EXPECT_EQ(p.update[1], inst(Op::SAMPLE_DEPTH, 4, 4, reg(0, "xyz"), imm(0.5f)));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  expect_round_trip(p);
  // Four lanes only (the normal and the depth): the verifier's lane rule refuses three.
  Program narrow = p;
  narrow.update[1].words[0] = (narrow.update[1].words[0] & ~(7u << 8)) | (3u << 8);
  EXPECT_FALSE(verify_program(narrow).ok());
}

TEST(Assembler, SampleFieldNamesItsSlot) {
  const Program p = must_assemble(R"(
.registers 8
.particle position 3
.update
  LOAD_FIELD r0.xyz, @position
  SAMPLE_FIELD r4.xyz, r0.xyz, v[3]
  SAMPLE_FIELD r4.xyzw, 1.5, v[0]
  STORE_FIELD @position, r4.xyz
)");
  ASSERT_EQ(p.update.size(), 4u);
  EXPECT_EQ(p.update[1], inst(Op::SAMPLE_FIELD, 3, 4, reg(0, "xyz"), raw(3)));
  EXPECT_EQ(p.update[2], inst(Op::SAMPLE_FIELD, 4, 4, imm(1.5f), raw(0)));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  expect_round_trip(p);
  const Error past = parse_error(".registers 8\n.update\n  SAMPLE_FIELD r0.xyz, 1.0, v[4]\n");
  EXPECT_NE(past.message.find("vector field slot"), std::string::npos) << past.message;
  const Error bare = parse_error(".registers 8\n.update\n  SAMPLE_FIELD r0.xyz, 1.0, 2\n");
  EXPECT_NE(bare.message.find("v[N]"), std::string::npos) << bare.message;
  // The encoding's form check refuses a slot past the table, whatever wrote it.
  Program q = p;
  q.update[1].words[2] = shader::kVmVectorFields;
  EXPECT_FALSE(verify_program(q).ok());
}

TEST(Assembler, LaneCountRules) {
  const Program p = must_assemble(R"(
.registers 8
.particle a 3
.update
  MOV r0.xyzw, 1.0
  DOT r4, r0.xyz, r0.zyx       ; from the first register operand
  DOT.2 r5.x, 1.0, r0.xy       ; immediate first: explicit
  STORE_FIELD @a, 2.0          ; from the field's width
  STORE_FIELD.2 @a, 2.0
  STORE_FIELD @a, r0.x         ; from the register, not the field
  MUL r1.xyz, r0.xyz, r0.w     ; one letter replicates
  NOISE3 r6, r0.xyz            ; fixed lane count
  QMUL r0, r0.xyzw, r0.xyzw
)");
  ASSERT_EQ(p.update.size(), 9u);
  EXPECT_EQ(p.update[1], inst(Op::DOT, 3, 4, reg(0, "xyz"), reg(0, "zyx")));
  EXPECT_EQ(p.update[2], inst(Op::DOT, 2, 5, imm(1), reg(0, "xy")));
  EXPECT_EQ(p.update[3], inst(Op::STORE_FIELD, 3, 0, raw(1), imm(2)));
  EXPECT_EQ(p.update[4], inst(Op::STORE_FIELD, 2, 0, raw(1), imm(2)));
  EXPECT_EQ(p.update[5], inst(Op::STORE_FIELD, 1, 0, raw(1), reg(0, "x")));
  EXPECT_EQ(p.update[6], inst(Op::MUL, 3, 1, reg(0, "xyz"), reg(0, "www")));
  EXPECT_EQ(p.update[7], inst(Op::NOISE3, 3, 6, reg(0, "xyz")));
  EXPECT_EQ(p.update[8], inst(Op::QMUL, 4, 0, reg(0, "xyzw"), reg(0, "xyzw")));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  expect_round_trip(p);
}

TEST(Assembler, OldMnemonicsAreAliases) {
  const Program p =
      must_assemble(".registers 4\n.particle a 1\n.update\n  LOAD_ATTR r0.x, @a\n  STORE_ATTR @a, r0.x\n");
  ASSERT_EQ(p.update.size(), 2u);
  EXPECT_EQ(isa::word_op(p.update[0]), uint32_t(Op::LOAD_FIELD));
  EXPECT_EQ(isa::word_op(p.update[1]), uint32_t(Op::STORE_FIELD));
  const std::string text = disassemble(p);
  EXPECT_NE(text.find("LOAD_FIELD r0.x, @a"), std::string::npos) << text;
  EXPECT_EQ(text.find("ATTR"), std::string::npos);
}

TEST(Assembler, BuiltinOperandForms) {
  const Program p = must_assemble(R"(
.registers 4
.emitter s 1
.emitter t 2
.global g 1
.init
  LOAD_BUILTIN r0.x, emitter:@2
  LOAD_BUILTIN r0.x, emitter@1
  LOAD_BUILTIN r0.x, global:#0
  LOAD_BUILTIN r0.x, global@5
  LOAD_BUILTIN r0.x, global:@6
  LOAD_BUILTIN r0.x, dt
)");
  ASSERT_EQ(p.init.size(), 6u);
  EXPECT_EQ(p.init[0].words[1], isa::make_builtin(1, 2));
  EXPECT_EQ(p.init[1].words[1], isa::make_builtin(1, 1));
  EXPECT_EQ(p.init[2].words[1], isa::make_builtin(2, 0));
  EXPECT_EQ(p.init[3].words[1], isa::make_builtin(3, 5));
  EXPECT_EQ(p.init[4].words[1], isa::make_builtin(3, 6));
  EXPECT_EQ(p.init[5].words[1], 0u);
  const std::string text = disassemble(p);
  EXPECT_NE(text.find("emitter@2"), std::string::npos) << text;  // inside `t`: raw offset
  EXPECT_NE(text.find("emitter:t"), std::string::npos) << text;
  EXPECT_NE(text.find("global:g"), std::string::npos) << text;
  EXPECT_NE(text.find("global@5"), std::string::npos) << text;
  expect_round_trip(p);
}

TEST(Assembler, SpecialImmediatesRoundTrip) {
  Program p;
  p.register_count = 4;
  const uint32_t specials[] = {0x7fc00000u, 0x7f800001u, 0xff800000u, 0x7f800000u, 0x80000000u,
                               0x00000001u, 0x007fffffu, 0x3eaaaaabu, 0x4b000001u, 0xcf000000u};
  for (uint32_t bits : specials) {
    p.constants.push_back(bits);
    p.update.push_back(inst(Op::MOV, 1, 0, {shader::kVmKindImm, bits}));
  }
  p.constants.resize(12);
  expect_round_trip(p);
  EXPECT_EQ(isa::format_f32(0x7fc00000u), "f32:0x7fc00000");
  EXPECT_EQ(isa::format_f32(0x80000000u), "f32:0x80000000");
  EXPECT_EQ(isa::format_f32(std::bit_cast<uint32_t>(0.1f)), "0.1");
  EXPECT_EQ(isa::format_f32(std::bit_cast<uint32_t>(-9.81f)), "-9.81");
}

TEST(Assembler, MalformedInstructionsDisassembleAsWords) {
  Program p;
  p.update = {Instruction{{0xFFFFFFFFu, 1, 2, 3}}, Instruction{}};
  const std::string text = disassemble(p);
  EXPECT_NE(text.find(".word 0xffffffff, 0x00000001, 0x00000002, 0x00000003"), std::string::npos) << text;
  expect_round_trip(p);
}

TEST(Assembler, ErrorsNameLineAndColumn) {
  Error e = parse_error(".registers 4\n.update\n  FROB r0.x, 1.0\n");
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.where, "line 3:3");
  EXPECT_NE(e.message.find("unknown mnemonic"), std::string::npos);

  e = parse_error(".registers 4\n.update\n  MOV r0.xq, 1.0\n");
  EXPECT_EQ(e.where, "line 3:11");
  EXPECT_NE(e.message.find("swizzle letter"), std::string::npos);

  e = parse_error(".update\n  MOV r0.x, bogus\n");
  EXPECT_EQ(e.where, "line 2:13");

  e = parse_error(".update\n  ADD r0.x, 1.0\n");
  EXPECT_NE(e.message.find("takes 3 operand"), std::string::npos);

  e = parse_error("MOV r0.x, 1.0\n");
  EXPECT_NE(e.message.find("outside"), std::string::npos);
  EXPECT_EQ(e.where, "line 1:1");

  e = parse_error(".update\n  LOAD_FIELD r0.x, @nope\n");
  EXPECT_NE(e.message.find("unknown particle field"), std::string::npos);

  e = parse_error(".update\n  DOT r0, 1.0, 2.0\n");
  EXPECT_NE(e.message.find("DOT.N"), std::string::npos);

  e = parse_error(".registers 1\n.registers 2\n");
  EXPECT_EQ(e.where, "line 2:1");

  e = parse_error(".frobnicate\n");
  EXPECT_NE(e.message.find("unknown directive"), std::string::npos);

  e = parse_error(".update\n  MOV r0.yz, 1.0\n");
  EXPECT_NE(e.message.find("destination mask"), std::string::npos);

  e = parse_error(".update\n  MOV r256.x, 1.0\n");
  EXPECT_NE(e.message.find("above 255"), std::string::npos);

  e = parse_error(".const nan\n");
  EXPECT_EQ(e.where, "line 1:8");
}

}  // namespace
}  // namespace mote
