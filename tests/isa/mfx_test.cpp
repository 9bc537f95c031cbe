#include <gtest/gtest.h>

#include "core/hash.hpp"
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

Program sample_program() {
  Program p;
  p.register_count = 12;
  p.particle_fields = {{"position", 3}, {"velocity", 3}, {"a", 1}};
  p.emitter_fields = {{"speed", 1}};
  p.global_imports = {{"wind_strength", 1}, {"gravity_vector", 3}};
  p.constants = {0x3f800000u, 0x7fc00000u, 0x80000000u, 0x00000001u};
  p.init = {inst(Op::LOAD_BUILTIN, 3, 0, raw(3)), inst(Op::STORE_FIELD, 3, 0, raw(1), reg(0, "xyz"))};
  p.update = {inst(Op::LOAD_FIELD, 3, 0, raw(4)), inst(Op::LOAD_BUILTIN, 1, 3, raw(isa::make_builtin(2, 0))),
              inst(Op::MUL, 3, 4, reg(0, "xyz"), reg(3, "xxx")), inst(Op::KILL, 1, 0, imm(0))};
  return p;
}

uint32_t get_u32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void set_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}
void fix_checksum(std::vector<uint8_t>& b) { set_u32(b, 12, crc32(std::span<const uint8_t>(b).subspan(16))); }

// A hand-rolled container writer, independent of the library's, for the format tests.
struct RawSection {
  const char* tag;
  std::vector<uint32_t> words;
};
std::vector<uint8_t> build_file(uint32_t version, const std::vector<RawSection>& sections) {
  std::vector<uint8_t> b = {'M', 'F', 'X', 0x1A};
  auto put = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
  };
  put(version);
  put(uint32_t(sections.size()));
  put(0);  // checksum, fixed below
  uint32_t offset = 16 + 12 * uint32_t(sections.size());
  for (const RawSection& s : sections) {
    b.insert(b.end(), s.tag, s.tag + 4);
    put(offset);
    put(uint32_t(s.words.size() * 4));
    offset += uint32_t(s.words.size() * 4);
  }
  for (const RawSection& s : sections)
    for (uint32_t w : s.words) put(w);
  fix_checksum(b);
  return b;
}
uint32_t chars(const char* s) {  // a 4-byte string as its little-endian word
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}

TEST(Mfx, RoundTrips) {
  const Program p = sample_program();
  const std::vector<uint8_t> bytes = save_mfx(p);
  Result<Program> loaded = load_mfx(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(*loaded, p);
  EXPECT_EQ(save_mfx(*loaded), bytes);
  EXPECT_EQ(loaded->hash(), p.hash());
}

TEST(Mfx, EmptyProgramRoundTrips) {
  Result<Program> loaded = load_mfx(save_mfx(Program{}));
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(*loaded, Program{});
}

TEST(Mfx, HeaderLayout) {
  const std::vector<uint8_t> b = save_mfx(sample_program());
  EXPECT_EQ(b[0], 'M');
  EXPECT_EQ(b[3], 0x1A);
  EXPECT_EQ(get_u32(b, 4), kMfxVersion);
  EXPECT_EQ(get_u32(b, 8), 8u);
  EXPECT_EQ(get_u32(b, 16), chars("META"));
  EXPECT_EQ(get_u32(b, 20), 16u + 8 * 12);
  EXPECT_EQ(get_u32(b, 24), 8u);
  EXPECT_EQ(get_u32(b, 16 + 8 * 12), 12u);  // register_count
  EXPECT_EQ(b.size() % 4, 0u);
}

TEST(Mfx, ChecksumCorruptionDetected) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  b[b.size() - 3] ^= 0x10;
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFormat);
  EXPECT_EQ(r.error().where, "offset 0xc");
  EXPECT_NE(r.error().message.find("checksum"), std::string::npos);
}

TEST(Mfx, BadMagicAndShortFile) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  b[0] = 'X';
  EXPECT_NE(load_mfx(b).error().message.find("magic"), std::string::npos);
  EXPECT_NE(load_mfx(std::span<const uint8_t>(b).first(10)).error().message.find("shorter"), std::string::npos);
  EXPECT_FALSE(load_mfx({}).ok());
}

TEST(Mfx, UnsupportedVersion) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  set_u32(b, 4, kMfxVersion + 1);
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(r.error().where, "offset 0x4");
}

TEST(Mfx, UnknownSectionTag) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  set_u32(b, 16 + 12, chars("XXXX"));
  fix_checksum(b);
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "offset 0x1c");
  EXPECT_NE(r.error().message.find("unknown section tag XXXX"), std::string::npos);
}

TEST(Mfx, DuplicateSection) {
  auto b = build_file(2, {{"META", {1, 0}}, {"META", {1, 0}}});
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("duplicate section META"), std::string::npos);
  EXPECT_EQ(r.error().where, "offset 0x1c");
}

TEST(Mfx, MissingSection) {
  auto b = build_file(2, {{"META", {1, 0}}});
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("missing"), std::string::npos);
}

TEST(Mfx, TrailingGarbage) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  const size_t end = b.size();
  b.insert(b.end(), {0, 0, 0, 0});
  fix_checksum(b);
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("trailing"), std::string::npos);
  char where[32];
  std::snprintf(where, sizeof(where), "offset 0x%zx", end);
  EXPECT_EQ(r.error().where, where);
}

TEST(Mfx, SectionSizePastEnd) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  set_u32(b, 16 + 6 * 12 + 8, 0xFFFFFFF0u);  // UPDT size
  fix_checksum(b);
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("past the end"), std::string::npos);
}

TEST(Mfx, HugeFieldCountRejectedWithoutAllocating) {
  std::vector<uint8_t> b = save_mfx(sample_program());
  const uint32_t pfld = get_u32(b, 16 + 12 + 4);
  set_u32(b, pfld, 0xFFFFFFFFu);
  fix_checksum(b);
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kFormat);
}

TEST(Mfx, LoadsVersion1ThroughUpgrader) {
  // Version 1: META, PFLD, CNST, INIT, UPDT; no emitter fields, no global imports.
  const Instruction load_dt = inst(Op::LOAD_BUILTIN, 1, 0, raw(0));
  const Instruction store = inst(Op::STORE_FIELD, 1, 0, raw(1), reg(0, "x"));
  std::vector<uint32_t> update;
  for (const Instruction& i : {load_dt, store}) update.insert(update.end(), i.words.begin(), i.words.end());
  auto b = build_file(1, {{"META", {2, 0}},
                          {"PFLD", {1, 1, 3, chars("age\0")}},
                          {"CNST", {0x3f800000u, 0, 0, 0}},
                          {"INIT", {}},
                          {"UPDT", update}});
  Result<Program> r = load_mfx(b);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  Program expected;
  expected.register_count = 2;
  expected.particle_fields = {{"age", 1}};
  expected.constants = {0x3f800000u, 0, 0, 0};
  expected.update = {load_dt, store};
  EXPECT_EQ(*r, expected);
  EXPECT_TRUE(verify_program(*r).ok());
  // Saving writes the current version, which loads back to the same program.
  std::vector<uint8_t> current = save_mfx(*r);
  EXPECT_EQ(get_u32(current, 4), kMfxVersion);
  EXPECT_EQ(*load_mfx(current), expected);
}

TEST(Mfx, Version1RejectsLaterSections) {
  auto b = build_file(1, {{"META", {2, 0}}, {"EFLD", {0}}});
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("unknown section tag EFLD for version 1"), std::string::npos);
}

TEST(Mfx, Version1RejectsBuiltinSpaces) {
  const Instruction i = inst(Op::LOAD_BUILTIN, 1, 0, raw(isa::make_builtin(1, 0)));
  auto b = build_file(1, {{"META", {2, 0}},
                          {"PFLD", {0}},
                          {"CNST", {}},
                          {"INIT", {i.words[0], i.words[1], i.words[2], i.words[3]}},
                          {"UPDT", {}}});
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("version 1"), std::string::npos);
}

TEST(Mfx, NonZeroPaddingRejected) {
  auto b = build_file(2, {{"META", {1, 0}},
                          {"PFLD", {1, 1, 1, chars("a\0\0\x01")}},
                          {"EFLD", {0}},
                          {"GIMP", {0}},
                          {"CNST", {}},
                          {"INIT", {}},
                          {"UPDT", {}}});
  Result<Program> r = load_mfx(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("padding"), std::string::npos);
}

TEST(ProgramHash, ContentDefined) {
  Program a = sample_program();
  Program b = sample_program();
  EXPECT_EQ(a.hash(), b.hash());
  b.constants[0] ^= 1;
  EXPECT_NE(a.hash(), b.hash());
  Program c = sample_program();
  c.particle_fields[0].name = "positio";
  c.particle_fields[1].name = "nvelocity";  // same bytes concatenated, different split
  EXPECT_NE(a.hash(), c.hash());
}

TEST(ProgramLayout, OffsetsAndSizes) {
  const Program p = sample_program();
  EXPECT_EQ(p.particle_record_words(), 8u);
  EXPECT_EQ(p.emitter_field_words(), 1u);
  EXPECT_EQ(p.particle_field_offset("velocity"), 4u);
  EXPECT_EQ(p.particle_field_offset("nope"), std::nullopt);
  EXPECT_EQ(p.emitter_field_offset("speed"), 0u);
  EXPECT_STREQ(section_name(Section::kUpdate), "update");
}

}  // namespace
}  // namespace mote
