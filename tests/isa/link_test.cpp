#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "mote/link.hpp"
#include "mote/verifier.hpp"
#include "test_support.hpp"

namespace mote {
namespace {

using isa::Op;
using test::inst;
using test::raw;

Program importing_program() {
  Program p;
  p.register_count = 8;
  p.global_imports = {{"wind", 1}, {"gravity", 3}};
  p.init = {inst(Op::LOAD_BUILTIN, 3, 0, raw(isa::make_builtin(2, 1)))};
  p.update = {inst(Op::LOAD_BUILTIN, 1, 0, raw(isa::make_builtin(2, 0))),
              inst(Op::LOAD_BUILTIN, 1, 1, raw(isa::make_builtin(0, 0)))};
  return p;
}

TEST(Linker, RewritesImportsToOffsets) {
  const Program p = importing_program();
  const Program before = p;
  const uint32_t offsets[] = {10, 4};
  Result<Program> linked = link_globals(p, offsets);
  ASSERT_TRUE(linked.ok()) << linked.error().to_string();
  EXPECT_EQ(p, before);  // input untouched
  EXPECT_EQ(linked->init[0].words[1], isa::make_builtin(3, 4));
  EXPECT_EQ(linked->update[0].words[1], isa::make_builtin(3, 10));
  EXPECT_EQ(linked->update[1], p.update[1]);  // engine builtin unchanged
  EXPECT_TRUE(verify_program(p).ok());
  EXPECT_FALSE(verify_program(*linked).ok());  // space 3 needs linked = true
  EXPECT_TRUE(verify_program(*linked, {.linked = true, .global_field_words = 11}).ok());
  EXPECT_FALSE(verify_program(*linked, {.linked = true, .global_field_words = 10}).ok());
}

TEST(Linker, RejectsWrongOffsetCount) {
  const uint32_t offsets[] = {1};
  Result<Program> r = link_globals(importing_program(), offsets);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
}

TEST(Linker, RejectsOffsetBeyond16Bits) {
  const uint32_t offsets[] = {0x10000, 0};
  Result<Program> r = link_globals(importing_program(), offsets);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "import_offsets[0]");
}

TEST(Linker, RejectsMissingImport) {
  Program p = importing_program();
  p.update.push_back(inst(Op::LOAD_BUILTIN, 1, 2, raw(isa::make_builtin(2, 9))));
  const uint32_t offsets[] = {0, 1};
  Result<Program> r = link_globals(p, offsets);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "update[2]");
}

TEST(GeneratedGlsl, DefinesEveryOpAndBuiltin) {
  std::ifstream in(MOTE_ISA_GLSL_HEADER_PATH);
  ASSERT_TRUE(in.good()) << MOTE_ISA_GLSL_HEADER_PATH;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  EXPECT_NE(text.find("do not edit"), std::string::npos);
  EXPECT_NE(text.find("#ifndef MOTE_GENERATED_VM_ISA_GLSL"), std::string::npos);
  for (const isa::OpInfo& op : isa::all_ops())
    EXPECT_NE(text.find("#define VM_OP_" + std::string(op.mnemonic) + " " + std::to_string(op.number) + "u\n"),
              std::string::npos);
  for (const isa::BuiltinInfo& b : isa::all_builtins())
    EXPECT_NE(text.find("#define VM_BUILTIN_" + std::string(b.name) + " " + std::to_string(b.id) + "u\n"),
              std::string::npos);
  EXPECT_NE(text.find("#define VM_OP_COUNT " + std::to_string(isa::kOpCount) + "u"), std::string::npos);
  EXPECT_NE(text.find("#define VM_BUILTIN_COUNT " + std::to_string(isa::kBuiltinCount) + "u"), std::string::npos);
}

}  // namespace
}  // namespace mote
