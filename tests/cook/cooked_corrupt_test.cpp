// Cooked effects that must be refused, each with an error value (never a crash) that says where:
// every truncation, every flipped byte (the checksum), and, with the checksum resealed so the
// other checks are reached, each structural and consistency rule of docs/design/cooked.md.
#include <gtest/gtest.h>

#include <filesystem>

#include "cook/cooked_test_support.hpp"

namespace mote {
namespace {

std::vector<uint8_t> fire_bytes() {
  return save_cooked_effect(test::compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json"));
}

// Loads `bytes` (resealed first) and expects a refusal whose message contains `words`.
void expect_refused(std::vector<uint8_t> bytes, const std::string& words, ErrorCode code = ErrorCode::kFormat) {
  test::reseal(bytes);
  Result<CompiledEffect> r = load_cooked_effect(bytes);
  ASSERT_FALSE(r.ok()) << "accepted; expected: " << words;
  EXPECT_EQ(r.error().code, code) << r.error().to_string();
  EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().to_string();
  EXPECT_FALSE(r.error().where.empty()) << r.error().to_string();
}

TEST(CookedCorrupt, EveryTruncationIsRefused) {
  const std::vector<uint8_t> bytes = fire_bytes();
  for (size_t size = 0; size < bytes.size(); ++size) {
    Result<CompiledEffect> r = load_cooked_effect(std::span(bytes.data(), size));
    ASSERT_FALSE(r.ok()) << "a file cut to " << size << " bytes loaded";
    EXPECT_EQ(r.error().code, ErrorCode::kFormat);
  }
}

TEST(CookedCorrupt, EveryFlippedPayloadByteFailsTheChecksum) {
  const std::vector<uint8_t> bytes = fire_bytes();
  for (size_t at = 16; at < bytes.size(); ++at) {
    std::vector<uint8_t> flipped = bytes;
    flipped[at] ^= 0x5a;
    Result<CompiledEffect> r = load_cooked_effect(flipped);
    ASSERT_FALSE(r.ok()) << "byte " << at << " flipped loaded";
    EXPECT_NE(r.error().message.find("checksum"), std::string::npos) << r.error().to_string();
  }
}

TEST(CookedCorrupt, HeaderProblems) {
  std::vector<uint8_t> bytes = fire_bytes();
  std::vector<uint8_t> magic = bytes;
  magic[1] = 'X';
  expect_refused(magic, "bad magic");
  std::vector<uint8_t> future = bytes;
  test::put_u32(future, 4, kCookedEffectVersion + 1);
  expect_refused(future, "unsupported cooked effect version", ErrorCode::kUnsupported);
  std::vector<uint8_t> zero = bytes;
  test::put_u32(zero, 4, 0);
  expect_refused(zero, "unsupported cooked effect version", ErrorCode::kUnsupported);
  std::vector<uint8_t> sized = bytes;
  test::put_u32(sized, 8, 7);  // not resealed: the size is checked before the checksum
  Result<CompiledEffect> r = load_cooked_effect(sized);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("payload bytes"), std::string::npos) << r.error().to_string();
  EXPECT_EQ(r.error().where, "offset 0x8");
}

TEST(CookedCorrupt, ChunkStructure) {
  const std::vector<uint8_t> bytes = fire_bytes();
  // Trailing bytes after the last chunk.
  std::vector<uint8_t> trailing = bytes;
  trailing.insert(trailing.end(), {0, 0, 0, 0});
  expect_refused(trailing, "left over");
  // Chunks out of order: EMIT's tag where EDEF belongs.
  std::vector<uint8_t> order = bytes;
  test::put_u32(order, test::find_chunk(order, "EDEF").at, test::tag("EMIT"));
  expect_refused(order, "chunk EMIT where version " + std::to_string(kCookedEffectVersion) + " has EDEF");
  // A chunk size past the end, and one not a multiple of 4.
  std::vector<uint8_t> past = bytes;
  test::put_u32(past, test::find_chunk(past, "REND").at + 4, 1u << 20);
  expect_refused(past, "more bytes");
  std::vector<uint8_t> odd = bytes;
  test::put_u32(odd, test::find_chunk(odd, "NAME").at + 4, 5);
  expect_refused(odd, "not a multiple of 4");
  // A string longer than the limit, and one with a zero byte in it.
  std::vector<uint8_t> long_name = bytes;
  test::put_u32(long_name, test::find_chunk(long_name, "NAME").payload, kCookedMaxString + 1);
  expect_refused(long_name, "at most 4096");
  std::vector<uint8_t> nul = bytes;
  nul[test::find_chunk(nul, "NAME").payload + 4] = 0;
  expect_refused(nul, "zero byte");
  // Non-zero padding (the name "fire" is 4 bytes: make it 3, leaving a non-zero pad byte).
  std::vector<uint8_t> pad = bytes;
  test::put_u32(pad, test::find_chunk(pad, "NAME").payload, 3);
  expect_refused(pad, "padding is not zero");
}

TEST(CookedCorrupt, CountsAreBoundedBeforeAllocation) {
  const std::vector<uint8_t> bytes = fire_bytes();
  std::vector<uint8_t> defaults = bytes;
  test::put_u32(defaults, test::find_chunk(defaults, "EDEF").payload, 0xFFFFFFFFu);
  expect_refused(defaults, "do not fit in EDEF");
  std::vector<uint8_t> globals = bytes;
  test::put_u32(globals, test::find_chunk(globals, "GLOB").payload, 0xFFFFFFFFu);
  expect_refused(globals, "do not fit in GLOB");
  std::vector<uint8_t> bursts = bytes;
  test::put_u32(bursts, test::find_chunk(bursts, "EMIT").payload + 12, 0xFFFFFFFFu);
  expect_refused(bursts, "bursts do not fit");
}

TEST(CookedCorrupt, ValuesAndConsistency) {
  const std::vector<uint8_t> bytes = fire_bytes();
  const test::ChunkSpan emit = test::find_chunk(bytes, "EMIT");
  std::vector<uint8_t> nan_rate = bytes;
  test::put_u32(nan_rate, emit.payload, 0x7fc00000u);
  expect_refused(nan_rate, "not finite");
  std::vector<uint8_t> negative = bytes;
  test::put_u32(negative, emit.payload, 0xbf800000u);  // -1.0
  expect_refused(negative, "rate");
  std::vector<uint8_t> capacity = bytes;
  test::put_u32(capacity, emit.payload + 8, 0);
  expect_refused(capacity, "capacity 0");
  // One emitter default word fewer than the program's emitter fields.
  std::vector<uint8_t> defaults = bytes;
  const test::ChunkSpan edef = test::find_chunk(defaults, "EDEF");
  const uint32_t words = test::get_u32(defaults, edef.payload);
  ASSERT_GT(words, 0u) << "fire.json declares emitter fields";
  test::put_u32(defaults, edef.payload, words - 1);
  defaults.erase(defaults.begin() + std::ptrdiff_t(edef.payload + 4),
                 defaults.begin() + std::ptrdiff_t(edef.payload + 8));
  test::put_u32(defaults, edef.at + 4, edef.size - 4);
  expect_refused(defaults, "default words for");
  // Unknown render flags.
  std::vector<uint8_t> flags = bytes;
  const test::ChunkSpan rend = test::find_chunk(flags, "REND");
  test::put_u32(flags, rend.payload + rend.size - 4, 0x80u);
  expect_refused(flags, "unknown render flags");
}

// The writer stores what it is given; the loader verifies the program (an opcode past the ISA
// table here) and checks the settings against each other and the program's layouts.
TEST(CookedCorrupt, ProgramAndLayoutChecks) {
  CompiledEffect effect = test::compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  CompiledEffect bad_program = effect;
  ASSERT_FALSE(bad_program.program.update.empty());
  bad_program.program.update[0].words[0] = 0xFFFFu;
  expect_refused(save_cooked_effect(bad_program), "does not verify", ErrorCode::kVerify);
  CompiledEffect bad_blend = effect;
  bad_blend.render.blend = "subtract";
  expect_refused(save_cooked_effect(bad_blend), "unknown blend 'subtract'");
  CompiledEffect bad_mesh = effect;
  bad_mesh.render.mesh = "box";  // a mesh without projection "mesh"
  expect_refused(save_cooked_effect(bad_mesh), "projection is 'mesh'");
  CompiledEffect bad_global = effect;
  bad_global.globals.push_back({"wind", {1.0f}});
  expect_refused(save_cooked_effect(bad_global), "global previews for");
}

}  // namespace
}  // namespace mote
