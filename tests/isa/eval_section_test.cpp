// The EVAL section (docs/design/isa.md, "EVAL"): its verifier rules, its place in .mfx version 3
// and the upgrade of version 2 files, and its assembly text.
#include <gtest/gtest.h>

#include "core/hash.hpp"
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

// A stateless program: position = (time, index, seed draw), size stored then read back.
Program eval_program() {
  Program p;
  p.register_count = 8;
  p.particle_fields = {{"position", 3}, {"size", 1}};
  p.constants = {0x3f800000u, 0, 0, 0};
  p.eval = {inst(Op::LOAD_BUILTIN, 1, 0, raw(uint32_t(isa::Builtin::TIME))),
            inst(Op::LOAD_BUILTIN, 1, 1, raw(uint32_t(isa::Builtin::PARTICLE_INDEX))),
            inst(Op::RAND, 1, 2, raw(0)),
            inst(Op::STORE_FIELD, 3, 0, raw(1), reg(0, "xyz")),
            inst(Op::STORE_FIELD, 1, 0, raw(4), imm(0.25f)),
            inst(Op::LOAD_FIELD, 1, 3, raw(4)),
            inst(Op::MUL, 1, 4, reg(3, "x"), reg(0, "x")),
            inst(Op::STORE_FIELD, 1, 0, raw(4), reg(4, "x"))};
  return p;
}

std::string verify_where(const Program& p) {
  Status s = verify_program(p);
  if (s.ok()) return "ok";
  const Error& e = s.error();
  EXPECT_EQ(e.code, ErrorCode::kVerify);
  return e.where + ": " + e.message;
}

TEST(EvalSection, VerifiesAStatelessProgram) {
  EXPECT_EQ(verify_where(eval_program()), "ok");
  EXPECT_STREQ(section_name(Section::kEval), "eval");
  Program p = eval_program();
  EXPECT_EQ(&p.code(Section::kEval), &p.eval);
}

TEST(EvalSection, RefusesAReadOfAWordItDidNotStore) {
  Program p = eval_program();
  // Read the position before anything stored it: state from an earlier frame, which EVAL has not.
  p.eval.insert(p.eval.begin(), inst(Op::LOAD_FIELD, 3, 5, raw(1)));
  const std::string w = verify_where(p);
  EXPECT_EQ(w.substr(0, w.find(':')), "eval[0].s0") << w;
  EXPECT_NE(w.find("nothing persists"), std::string::npos) << w;
}

TEST(EvalSection, RefusesAReadWiderThanWhatWasStored) {
  Program p = eval_program();
  // Store only position.x, then read all three words.
  p.eval = {inst(Op::STORE_FIELD, 1, 0, raw(1), imm(1.0f)), inst(Op::LOAD_FIELD, 3, 0, raw(1))};
  const std::string w = verify_where(p);
  EXPECT_EQ(w.substr(0, w.find(':')), "eval[1].s0") << w;
  EXPECT_NE(w.find("record word 2"), std::string::npos) << w;
}

TEST(EvalSection, TheSameReadIsFineInUpdate) {
  Program p = eval_program();
  p.update = {inst(Op::LOAD_FIELD, 3, 5, raw(1))};
  EXPECT_EQ(verify_where(p), "ok");
}

TEST(EvalSection, RefusesKillEventsAndClockBuiltins) {
  Program kill = eval_program();
  kill.eval.push_back(inst(Op::KILL, 1, 0, imm(1.0f)));
  EXPECT_NE(verify_where(kill).find("KILL is only allowed in UPDATE"), std::string::npos);

  Program event = eval_program();
  event.eval.push_back(inst(Op::EMIT_EVENT, 1, 0, imm(1.0f), raw(0)));
  const std::string ew = verify_where(event);
  EXPECT_EQ(ew.substr(0, ew.find(':')), "eval[8]") << ew;
  EXPECT_NE(ew.find("EMIT_EVENT"), std::string::npos) << ew;

  for (isa::Builtin b : {isa::Builtin::DT, isa::Builtin::EVENT_POSITION, isa::Builtin::EVENT_ID}) {
    Program p = eval_program();
    p.eval.push_back(inst(Op::LOAD_BUILTIN, 1, 6, raw(uint32_t(b))));
    const std::string w = verify_where(p);
    EXPECT_EQ(w.substr(0, w.find(':')), "eval[8].s0") << w;
    EXPECT_NE(w.find("not defined in EVAL"), std::string::npos) << w;
  }
  // The same builtins stay legal where they always were.
  Program update = eval_program();
  update.update = {inst(Op::LOAD_BUILTIN, 1, 6, raw(uint32_t(isa::Builtin::DT)))};
  EXPECT_EQ(verify_where(update), "ok");
}

TEST(EvalSection, RoundTripsThroughMfxVersion3) {
  const Program p = eval_program();
  const std::vector<uint8_t> bytes = save_mfx(p);
  Result<Program> loaded = load_mfx(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(*loaded, p);
  EXPECT_EQ(save_mfx(*loaded), bytes);
  ASSERT_EQ(kMfxVersion, 3u);
}

Program stateful_program() {
  Program p = eval_program();
  p.eval.clear();
  p.emitter_fields = {{"speed", 1}};
  p.global_imports = {{"gravity", 3}};
  p.update = {inst(Op::LOAD_BUILTIN, 1, 0, raw(uint32_t(isa::Builtin::DT))),
              inst(Op::STORE_FIELD, 1, 0, raw(4), reg(0, "x"))};
  return p;
}

// A version 2 file, written by hand (no EVAL section): what every Mote before stateless
// programs wrote. `p` has no EVAL code.
std::vector<uint8_t> version2_file(const Program& p) {
  std::vector<uint8_t> current = save_mfx(p);
  // The library writes EVAL last; a version 2 file is the same bytes without its table entry.
  std::vector<uint8_t> b(current.begin(), current.begin() + 16);
  auto put_at = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
  };
  put_at(4, 2);
  put_at(8, 7);
  for (size_t e = 0; e < 7; ++e) {
    const size_t at = 16 + e * 12;
    b.insert(b.end(), current.begin() + std::ptrdiff_t(at), current.begin() + std::ptrdiff_t(at + 12));
    const uint32_t offset = uint32_t(current[at + 4]) | uint32_t(current[at + 5]) << 8 |
                            uint32_t(current[at + 6]) << 16 | uint32_t(current[at + 7]) << 24;
    put_at(16 + e * 12 + 4, offset - 12);
  }
  b.insert(b.end(), current.begin() + 16 + 8 * 12, current.end());
  put_at(12, crc32(std::span<const uint8_t>(b).subspan(16)));
  return b;
}

TEST(EvalSection, LoadsVersion2ThroughTheUpgrader) {
  const Program stateful = stateful_program();
  const std::vector<uint8_t> v2 = version2_file(stateful);
  Result<Program> r = load_mfx(v2);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, stateful);
  EXPECT_TRUE(r->eval.empty());
  // Saved again it is a version 3 file of the same program.
  const std::vector<uint8_t> v3 = save_mfx(*r);
  EXPECT_EQ(v3[4], 3u);
  EXPECT_EQ(*load_mfx(v3), stateful);
  EXPECT_EQ(v3.size(), v2.size() + 12);  // one more table entry, an empty payload
}

TEST(EvalSection, Version2RefusesAnEvalSection) {
  // A version 2 file cannot carry EVAL: the tag is unknown to that version.
  std::vector<uint8_t> b = save_mfx(eval_program());
  b[4] = 2;
  const uint32_t crc = crc32(std::span<const uint8_t>(b).subspan(16));
  for (int i = 0; i < 4; ++i) b[12 + size_t(i)] = uint8_t(crc >> (8 * i));
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFormat);
  EXPECT_NE(r.error().message.find("unknown section tag EVAL for version 2"), std::string::npos)
      << r.error().to_string();
}

TEST(EvalSection, Version3RequiresEval) {
  std::vector<uint8_t> v2 = version2_file(stateful_program());
  v2[4] = 3;
  const uint32_t crc = crc32(std::span<const uint8_t>(v2).subspan(16));
  for (int i = 0; i < 4; ++i) v2[12 + size_t(i)] = uint8_t(crc >> (8 * i));
  Result<Program> r = load_mfx(v2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("required section EVAL is missing"), std::string::npos) << r.error().to_string();
}

TEST(EvalSection, HashCoversEvalAndLeavesStatefulProgramsAlone) {
  Program a = eval_program();
  Program b = a;
  b.eval.back() = inst(Op::STORE_FIELD, 1, 0, raw(4), reg(3, "x"));
  EXPECT_NE(a.hash(), b.hash());
  // Moving the code to UPDATE is a different program.
  Program c = a;
  c.update = c.eval;
  c.eval.clear();
  EXPECT_NE(a.hash(), c.hash());
}

TEST(EvalSection, AssemblyRoundTripsAndStatefulTextIsUnchanged) {
  const Program p = eval_program();
  const std::string text = disassemble(p);
  EXPECT_NE(text.find(".eval\n"), std::string::npos) << text;
  Result<Program> back = assemble(text);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, p);

  Program stateful = p;
  stateful.update = stateful.eval;
  stateful.eval.clear();
  const std::string stateful_text = disassemble(stateful);
  EXPECT_EQ(stateful_text.find(".eval"), std::string::npos) << stateful_text;

  Result<Program> written =
      assemble(".registers 2\n.particle size 1\n.eval\n  LOAD_BUILTIN r0.x, TIME\n  STORE_FIELD @size, r0.x\n");
  ASSERT_TRUE(written.ok()) << written.error().to_string();
  EXPECT_EQ(written->eval.size(), 2u);
  EXPECT_TRUE(written->init.empty());
  EXPECT_TRUE(verify_program(*written).ok());
}

}  // namespace
}  // namespace mote
