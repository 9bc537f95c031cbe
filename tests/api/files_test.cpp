// The file helpers of the public API (mote/files.hpp): no device, the errors a tool reports.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"

namespace mote {
namespace {

class ApiFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test and process: CTest runs each test as its own process, in parallel.
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(testing::TempDir()) /
           (std::string("mote_api_files_") + test->name() + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ApiFiles, ReadsAndWritesWholeFiles) {
  const std::vector<uint8_t> bytes = {0, 1, 2, 250, 255};
  ASSERT_TRUE(write_binary_file(dir_ / "b.bin", bytes).ok());
  auto back = read_binary_file(dir_ / "b.bin");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back.value(), bytes);
  ASSERT_TRUE(write_text_file(dir_ / "t.txt", "line\n").ok());
  auto text = read_text_file(dir_ / "t.txt");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.value(), "line\n");

  auto missing = read_text_file(dir_ / "missing.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().where, (dir_ / "missing.txt").string());
  auto too_big = read_binary_file(dir_ / "b.bin", 4);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error().code, ErrorCode::kIo);
  EXPECT_FALSE(write_binary_file(dir_ / "no_such_folder" / "x.bin", bytes).ok());
}

TEST_F(ApiFiles, CompilesEffectDocumentsFromTheirPath) {
  auto fire = compile_effect_file(std::string(MOTE_EFFECTS_DIR) + "/fire.json");
  ASSERT_TRUE(fire.ok()) << fire.error().to_string();
  EXPECT_FALSE(fire.value().program.update.empty());

  ASSERT_TRUE(
      write_text_file(dir_ / "bad.json", R"({"name": "x", "particle_fields": [{"name": "p", "width": 9}]})").ok());
  auto bad = compile_effect_file(dir_ / "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where.substr(0, 1), "/");  // a JSON pointer, as compile_effect gives it
  auto missing = compile_effect_file(dir_ / "missing.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

TEST_F(ApiFiles, LoadsProgramsAsAssemblyOrBinary) {
  auto from_text = load_program_file(std::string(MOTE_PROGRAMS_DIR) + "/integrate_gravity.masm");
  ASSERT_TRUE(from_text.ok()) << from_text.error().to_string();
  ASSERT_TRUE(write_binary_file(dir_ / "p.mfx", save_mfx(from_text.value())).ok());
  auto from_binary = load_program_file(dir_ / "p.mfx");
  ASSERT_TRUE(from_binary.ok()) << from_binary.error().to_string();
  EXPECT_EQ(from_binary.value(), from_text.value());

  ASSERT_TRUE(write_text_file(dir_ / "bad.masm", ".registers 4\n.update\n  FROB r0.x, 1\n").ok());
  auto bad_text = load_program_file(dir_ / "bad.masm");
  ASSERT_FALSE(bad_text.ok());
  EXPECT_EQ(bad_text.error().code, ErrorCode::kParse);
  EXPECT_EQ(bad_text.error().where.rfind("line 3", 0), 0u) << bad_text.error().where;
  ASSERT_TRUE(write_text_file(dir_ / "garbage.mfx", "garbage").ok());
  auto garbage = load_program_file(dir_ / "garbage.mfx");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().code, ErrorCode::kFormat);
}

}  // namespace
}  // namespace mote
