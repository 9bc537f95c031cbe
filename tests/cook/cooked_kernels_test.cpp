// KERN, the cooked effect's ahead-of-time kernels (src/cook/cooked_kernels.cpp,
// docs/design/cooked.md): they round-trip, older files load without them, and every malformed
// kernel is refused at its offset before a driver could see it.
#include <gtest/gtest.h>

#include <filesystem>

#include "cook/cooked_test_support.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/effect.hpp"

namespace mote {
namespace {

CompiledEffect fire_with_kernels() {
  CompiledEffect effect = test::compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  const Status s = compile_effect_kernels(effect);
  EXPECT_TRUE(s.ok()) << s.error().to_string();
  return effect;
}

void expect_refused(std::vector<uint8_t> bytes, const std::string& words) {
  test::reseal(bytes);
  Result<CompiledEffect> r = load_cooked_effect(bytes);
  ASSERT_FALSE(r.ok()) << "accepted; expected: " << words;
  EXPECT_EQ(r.error().code, ErrorCode::kFormat) << r.error().to_string();
  EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().to_string();
  EXPECT_EQ(r.error().where.rfind("offset 0x", 0), 0u) << r.error().to_string();
}

TEST(CookedKernels, RoundTripWithBothStages) {
  const CompiledEffect effect = fire_with_kernels();
  ASSERT_EQ(effect.kernels.size(), 2u);  // fire has an INIT section: emit and simulate
  EXPECT_EQ(effect.kernels[0].stage, KernelStage::kEmit);
  EXPECT_EQ(effect.kernels[1].stage, KernelStage::kSimulate);
  const std::vector<uint8_t> bytes = save_cooked_effect(effect);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  ASSERT_EQ(loaded->kernels.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(loaded->kernels[i].stage, effect.kernels[i].stage);
    EXPECT_EQ(loaded->kernels[i].spirv, effect.kernels[i].spirv);
  }
  EXPECT_EQ(save_cooked_effect(*loaded), bytes);  // deterministic
}

TEST(CookedKernels, Version3LoadsWithoutKernels) {
  std::vector<uint8_t> bytes = save_cooked_effect(fire_with_kernels());
  test::erase_chunk(bytes, "KERN");
  test::erase_chunk(bytes, "RIBN");
  test::erase_chunk(bytes, "LITE");
  test::put_u32(bytes, 4, 3);
  test::reseal(bytes);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_TRUE(loaded->kernels.empty());
}

TEST(CookedKernels, MalformedKernelsAreRefused) {
  const std::vector<uint8_t> bytes = save_cooked_effect(fire_with_kernels());
  const test::ChunkSpan kern = test::find_chunk(bytes, "KERN");
  const size_t first = kern.payload + 4;  // kernel 0: stage, hash (2 words), words, SPIR-V
  const size_t first_words = test::get_u32(bytes, first + 12);
  const size_t second = first + 16 + first_words * 4;  // kernel 1
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, kern.payload, 3);
    expect_refused(b, "at most one per stage");
  }
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, first, 2);
    expect_refused(b, "has stage 2");
  }
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, second, 0);  // a second emit kernel
    expect_refused(b, "a second emit kernel");
  }
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, first + 12, kCookedMaxKernelWords + 1);
    expect_refused(b, "do not fit in KERN");
  }
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, first + 16, 0x12345678);  // the magic
    expect_refused(b, "not a SPIR-V module");
  }
  {
    // A module whose id bound (header word 3) is 1: every id in it is out of bounds.
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, first + 16 + 3 * 4, 1);
    expect_refused(b, "does not validate");
  }
  {
    // The simulate kernel's last instruction cut off: the chunk shrinks by one word.
    std::vector<uint8_t> b = bytes;
    const size_t words = test::get_u32(b, second + 12);
    test::put_u32(b, second + 12, uint32_t(words - 1));
    b.erase(b.begin() + std::ptrdiff_t(second + 16 + (words - 1) * 4),
            b.begin() + std::ptrdiff_t(second + 16 + words * 4));
    test::put_u32(b, kern.at + 4, kern.size - 4);
    expect_refused(b, "does not validate");
  }
  {
    std::vector<uint8_t> b = bytes;
    test::put_u32(b, first + 4, test::get_u32(b, first + 4) ^ 1u);  // the program hash's low word
    expect_refused(b, "compiled from another program");
  }
}

TEST(CookedKernels, AnEmitKernelNeedsAnInitSection) {
  CompiledEffect effect = fire_with_kernels();
  effect.program.init.clear();  // still verifies: INIT is optional
  std::vector<uint8_t> bytes = save_cooked_effect(effect);
  expect_refused(bytes, "without an INIT section");
}

}  // namespace
}  // namespace mote
