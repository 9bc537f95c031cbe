#include <gtest/gtest.h>

#include <functional>

#include "mote/verifier.hpp"
#include "test_support.hpp"

namespace mote {
namespace {

using isa::Op;
using test::imm;
using test::inst;
using test::raw;
using test::reg;

// r0.x = DT at update[0], so cases may read r0.x; everything else is unwritten.
Program base_program() {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"position", 3}, {"age", 1}};  // words 1..3, 4
  p.emitter_fields = {{"speed", 1}, {"dir", 3}};      // words 0, 1..3
  p.global_imports = {{"wind", 1}, {"gravity", 3}};
  p.constants = std::vector<uint32_t>(8, 0);
  p.update = {inst(Op::LOAD_BUILTIN, 1, 0, raw(0))};
  return p;
}

void add(Program& p, Instruction i) { p.update.push_back(i); }

TEST(Verifier, AcceptsBaseProgram) { EXPECT_TRUE(verify_program(base_program()).ok()); }

TEST(Verifier, AcceptsEveryBuiltinSpace) {
  Program p = base_program();
  add(p, inst(Op::LOAD_BUILTIN, 3, 1, raw(isa::make_builtin(1, 1))));  // emitter dir
  add(p, inst(Op::LOAD_BUILTIN, 3, 4, raw(isa::make_builtin(2, 1))));  // import gravity
  add(p, inst(Op::RAND, 2, 6, raw(0xFFFFFFFFu)));                      // any draw index
  add(p, inst(Op::KILL, 1, 0, reg(0, "x")));
  EXPECT_TRUE(verify_program(p).ok()) << verify_program(p).error().to_string();
  Program linked = base_program();
  add(linked, inst(Op::LOAD_BUILTIN, 3, 1, raw(isa::make_builtin(3, 5))));
  EXPECT_TRUE(verify_program(linked, {.linked = true, .global_field_words = 8}).ok());
}

struct Case {
  const char* name;
  std::function<void(Program&, VerifyOptions&)> mutate;
  const char* where;
  const char* message;  // a substring of the reason
};

class VerifierRejects : public testing::TestWithParam<Case> {};

TEST_P(VerifierRejects, NamesWhereAndWhy) {
  const Case& c = GetParam();
  Program p = base_program();
  VerifyOptions o;
  c.mutate(p, o);
  Status s = verify_program(p, o);
  ASSERT_FALSE(s.ok()) << c.name;
  EXPECT_EQ(s.error().code, ErrorCode::kVerify);
  EXPECT_EQ(s.error().where, c.where);
  EXPECT_NE(s.error().message.find(c.message), std::string::npos) << s.error().message;
}

const Case kCases[] = {
    {"RegisterCount", [](Program& p, VerifyOptions&) { p.register_count = 257; }, "register_count", "exceeds 256"},
    {"FieldWidthZero", [](Program& p, VerifyOptions&) { p.particle_fields[1].width = 0; }, "particle_fields[1]",
     "outside 1..4"},
    {"FieldWidthFive", [](Program& p, VerifyOptions&) { p.particle_fields[0].width = 5; }, "particle_fields[0]",
     "outside 1..4"},
    {"FieldNameEmpty", [](Program& p, VerifyOptions&) { p.particle_fields[1].name = ""; }, "particle_fields[1]",
     "empty"},
    {"FieldNameNotIdentifier", [](Program& p, VerifyOptions&) { p.particle_fields[1].name = "a b"; },
     "particle_fields[1]", "not an identifier"},
    {"FieldNameDuplicate", [](Program& p, VerifyOptions&) { p.particle_fields[1].name = "position"; },
     "particle_fields[1]", "duplicate"},
    {"RecordTooLarge",
     [](Program& p, VerifyOptions&) {
       for (int i = 0; i < 64; ++i) p.particle_fields.push_back({"f" + std::to_string(i), 4});
     },
     "particle_fields", "exceeds 256"},
    {"EmitterFieldDuplicate", [](Program& p, VerifyOptions&) { p.emitter_fields[1].name = "speed"; },
     "emitter_fields[1]", "duplicate"},
    {"EmitterBlockTooLarge",
     [](Program& p, VerifyOptions&) {
       for (int i = 0; i < 256; ++i) p.emitter_fields.push_back({"e" + std::to_string(i), 4});
     },
     "emitter_fields", "exceeds 1024"},
    {"ImportWidth", [](Program& p, VerifyOptions&) { p.global_imports[0].width = 0; }, "global_imports[0]",
     "outside 1..4"},
    {"ImportDuplicate", [](Program& p, VerifyOptions&) { p.global_imports[1].name = "wind"; }, "global_imports[1]",
     "duplicate"},
    {"ConstantsNotVec4", [](Program& p, VerifyOptions&) { p.constants.push_back(0); }, "constants", "multiple of 4"},
    {"ConstantsTooMany", [](Program& p, VerifyOptions&) { p.constants.assign(4097 * 4, 0); }, "constants",
     "exceeds 4096"},
    {"RecordStrideTooSmall", [](Program&, VerifyOptions& o) { o.record_words = 4; }, "record_words", "smaller"},
    {"SectionTooLong", [](Program& p, VerifyOptions&) { p.init.assign(4097, inst(Op::NOP, 1, 0)); }, "init",
     "exceeds 4096"},
    {"UnknownOpcode",
     [](Program& p, VerifyOptions&) {
       add(p, Instruction{{0x153u, 0, 0, 0}});
     },
     "update[1]", "unknown opcode 83"},
    {"LanesOutOfRange", [](Program& p, VerifyOptions&) { add(p, inst(Op::CROSS, 2, 1, reg(0, "xx"), reg(0, "xx"))); },
     "update[1]", "lane count 2"},
    {"LanesZero", [](Program& p, VerifyOptions&) { add(p, Instruction{}); }, "update[1]", "lane count 0"},
    {"ReservedBits",
     [](Program& p, VerifyOptions&) {
       Instruction i = inst(Op::MOV, 1, 1, reg(0, "x"));
       i.words[0] |= 1u << 12;
       add(p, i);
     },
     "update[1]", "reserved bits"},
    {"ReservedBitsHigh",
     [](Program& p, VerifyOptions&) {
       Instruction i = inst(Op::MOV, 1, 1, reg(0, "x"));
       i.words[0] |= 1u << 22;
       add(p, i);
     },
     "update[1]", "reserved bits"},
    {"ValueKindNone", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 1, 1, raw(0))); }, "update[1].s0",
     "REG or IMM"},
    {"ValueKindThree",
     [](Program& p, VerifyOptions&) {
       add(p, inst(Op::ADD, 1, 1, reg(0, "x"), {3, 0}));
     },
     "update[1].s1", "REG or IMM"},
    {"RawKindReg", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_FIELD, 1, 1, reg(1, "x"))); }, "update[1].s0",
     "must be NONE"},
    {"UnusedKindImm", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 1, 1, reg(0, "x"), imm(1))); },
     "update[1].s1", "must be NONE"},
    {"UnusedWordNonZero", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 1, 1, reg(0, "x"), raw(7))); },
     "update[1].s1", "unused source word"},
    {"RegHighBits",
     [](Program& p, VerifyOptions&) {
       Instruction i = inst(Op::MOV, 1, 1, reg(0, "x"));
       i.words[1] |= 1u << 20;
       add(p, i);
     },
     "update[1].s0", "bits 16..31"},
    {"UnusedSwizzleNotIdentity", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 1, 1, reg(0, "xx"))); },
     "update[1].s0", "identity"},
    {"FixedWidthUnusedSwizzle",
     [](Program& p, VerifyOptions&) {
       // QFROM_AXIS_ANGLE's src1 is kVal1: only x is used whatever the lane count.
       add(p, inst(Op::MOV, 4, 1, imm(1)));
       add(p, inst(Op::QFROM_AXIS_ANGLE, 4, 1, reg(1, "xyz"), reg(0, "xx")));
     },
     "update[2].s1", "identity"},
    {"RegisterBeyondCount", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 1, 1, reg(7, "y"))); },
     "update[1].s0", "r8 exceeds register count"},
    {"ReadBeforeWrite", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 2, 1, reg(0, "xy"))); }, "update[1].s0",
     "r1 is read before it is written"},
    {"InitStartsEmpty", [](Program& p, VerifyOptions&) { p.init = {inst(Op::MOV, 1, 1, reg(0, "x"))}; }, "init[0].s0",
     "r0 is read before it is written"},
    {"DstLanesBeyondCount", [](Program& p, VerifyOptions&) { add(p, inst(Op::MOV, 3, 6, imm(0))); }, "update[1].dst",
     "exceeds register count"},
    {"DstScalarBeyondCount", [](Program& p, VerifyOptions&) { add(p, inst(Op::DOT, 1, 8, reg(0, "x"), reg(0, "x"))); },
     "update[1].dst", "exceeds register count"},
    {"DstNoneNonZero", [](Program& p, VerifyOptions&) { add(p, inst(Op::STORE_FIELD, 1, 2, raw(4), reg(0, "x"))); },
     "update[1].dst", "dst byte must be 0"},
    {"FieldHeader", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_FIELD, 1, 1, raw(0))); }, "update[1].s0",
     "record header"},
    {"FieldBeyondRecord", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_FIELD, 2, 1, raw(4))); },
     "update[1].s0", "exceeds the record of 5 words"},
    {"FieldHugeOffset", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_FIELD, 4, 1, raw(0xFFFFFFFEu))); },
     "update[1].s0", "exceeds the record"},
    {"FieldStraddle", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_FIELD, 2, 1, raw(3))); }, "update[1].s0",
     "crosses the end of field 'position'"},
    {"FieldInPadding",
     [](Program& p, VerifyOptions& o) {
       o.record_words = 32;
       add(p, inst(Op::LOAD_FIELD, 1, 1, raw(5)));
     },
     "update[1].s0", "not inside a declared field"},
    {"ConstBeyondPool", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_CONST, 2, 1, raw(7))); }, "update[1].s0",
     "exceeds the constant pool"},
    {"ConstStraddle", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_CONST, 2, 1, raw(3))); }, "update[1].s0",
     "straddles a vec4"},
    {"BuiltinUnknown", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 1, 1, raw(99))); },
     "update[1].s0", "unknown builtin id 99"},
    {"BuiltinTooWide", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 2, 1, raw(0))); }, "update[1].s0",
     "exceed builtin DT"},
    {"BuiltinHighBits", [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 1, 1, raw(1u << 20))); },
     "update[1].s0", "bits 18..31"},
    {"EmitterFieldBeyondBlock",
     [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 2, 1, raw(isa::make_builtin(1, 3)))); },
     "update[1].s0", "emitter field block of 4 words"},
    {"ImportInLinkedProgram",
     [](Program& p, VerifyOptions& o) {
       o.linked = true;
       add(p, inst(Op::LOAD_BUILTIN, 1, 1, raw(isa::make_builtin(2, 0))));
     },
     "update[1].s0", "linked program"},
    {"ImportIndex",
     [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 1, 1, raw(isa::make_builtin(2, 2)))); },
     "update[1].s0", "import index 2 exceeds"},
    {"ImportTooWide",
     [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 2, 1, raw(isa::make_builtin(2, 0)))); },
     "update[1].s0", "exceed global import 'wind'"},
    {"GlobalOffsetUnlinked",
     [](Program& p, VerifyOptions&) { add(p, inst(Op::LOAD_BUILTIN, 1, 1, raw(isa::make_builtin(3, 0)))); },
     "update[1].s0", "unlinked program"},
    {"GlobalOffsetBeyondSection",
     [](Program& p, VerifyOptions& o) {
       o.linked = true;
       o.global_field_words = 4;
       add(p, inst(Op::LOAD_BUILTIN, 2, 1, raw(isa::make_builtin(3, 3))));
     },
     "update[1].s0", "global field section of 4 words"},
    {"CompareCode", [](Program& p, VerifyOptions&) { add(p, inst(Op::CMP, 1, 1, reg(0, "x"), imm(1), raw(6))); },
     "update[1].s2", "compare code 6"},
    {"KillInInit", [](Program& p, VerifyOptions&) { p.init = {inst(Op::KILL, 1, 0, imm(1))}; }, "init[0]",
     "only allowed in UPDATE"},
};

INSTANTIATE_TEST_SUITE_P(Rules, VerifierRejects, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace mote
