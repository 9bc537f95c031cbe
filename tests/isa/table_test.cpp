// The ISA table's dispatch columns (form, semantics, gpu_exact, node; include/mote/isa/isa_table.inc)
// and what the build generates from them for the GPU interpreter: one case per row in
// vm_interpreter_cases.glsl, and a VM_SPECIAL_<NAME>() in shaders/vm_gpu/interpreter.glsl for
// exactly the special rows. tests/vm/coverage_test.cpp runs every row on every executor.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "mote/isa.hpp"

namespace mote {
namespace {

using isa::OpForm;

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The rows every executor writes by hand (docs/design/isa.md): anything else added here must
// say why it cannot be a lane-wise or vector row.
TEST(IsaTable, SpecialRowsAreTheOnesThatTouchMoreThanTheirOperands) {
  std::string special;
  for (const isa::OpInfo& op : isa::all_ops())
    if (op.form == OpForm::kSpecial) special += std::string(special.empty() ? "" : " ") + std::string(op.mnemonic);
  EXPECT_EQ(special,
            "NOP CMP LOAD_FIELD STORE_FIELD LOAD_CONST LOAD_BUILTIN RAND SAMPLE_WIND KILL EMIT_EVENT SAMPLE_FIELD "
            "SAMPLE_DEPTH");
}

TEST(IsaTable, SemanticsFunctionsFollowTheirForm) {
  for (const isa::OpInfo& op : isa::all_ops()) {
    const std::string fn(op.semantics);
    switch (op.form) {
      case OpForm::kLane1:
      case OpForm::kLane2:
      case OpForm::kLane3:
        EXPECT_TRUE(fn.starts_with("vm_") && !fn.starts_with("vm_vector_")) << op.mnemonic << ": " << fn;
        break;
      case OpForm::kVector: EXPECT_TRUE(fn.starts_with("vm_vector_")) << op.mnemonic << ": " << fn; break;
      case OpForm::kSpecial: EXPECT_TRUE(fn.empty()) << op.mnemonic; break;
    }
  }
}

// The fast fold's allow-list (src/vm_gpu/fast_fold.cpp, docs/design/vm.md): a policy the table
// holds, not a dispatch.
TEST(IsaTable, GpuExactRowsAreTheFoldAllowList) {
  std::string exact;
  for (const isa::OpInfo& op : isa::all_ops())
    if (op.gpu_exact) exact += std::string(exact.empty() ? "" : " ") + std::string(op.mnemonic);
  EXPECT_EQ(exact, "MOV ADD SUB MUL FMA MIN MAX CLAMP ABS SIGN FLOOR CEIL STEP CMP SELECT AND OR NOT HASH");
}

TEST(GeneratedGlsl, InterpreterCasesCoverEveryRowByItsForm) {
  const std::string text = read_text(MOTE_ISA_INTERPRETER_CASES_PATH);
  ASSERT_FALSE(text.empty()) << MOTE_ISA_INTERPRETER_CASES_PATH;
  EXPECT_NE(text.find("do not edit"), std::string::npos);
  size_t cases = 0;
  for (size_t at = text.find("case VM_OP_"); at != std::string::npos; at = text.find("case VM_OP_", at + 1)) ++cases;
  EXPECT_EQ(cases, isa::kOpCount);
  size_t previous = 0;
  for (const isa::OpInfo& op : isa::all_ops()) {
    const std::string name(op.mnemonic), fn(op.semantics);
    std::string body;
    switch (op.form) {
      case OpForm::kLane1: body = "VM_RUN_LANEWISE1(" + fn + ");"; break;
      case OpForm::kLane2: body = "VM_RUN_LANEWISE2(" + fn + ");"; break;
      case OpForm::kLane3: body = "VM_RUN_LANEWISE3(" + fn + ");"; break;
      case OpForm::kVector:
        body = op.dst == isa::DstRule::kDstScalar ? "r.x = " + fn + "(a, b, c).x;" : "r = " + fn + "(a, b, c);";
        break;
      case OpForm::kSpecial: body = "VM_SPECIAL_" + name + "();"; break;
    }
    const std::string line = "case VM_OP_" + name + ": if (VM_OP_ENABLED(VM_OP_" + name + ")) { " + body +
                             " } break;\n";
    const size_t at = text.find(line);
    ASSERT_NE(at, std::string::npos) << line;
    EXPECT_GE(at, previous) << name << " out of table order";
    previous = at;
  }
}

TEST(GeneratedGlsl, InterpreterDefinesExactlyTheSpecialRows) {
  const std::string text = read_text(MOTE_INTERPRETER_GLSL_PATH);
  ASSERT_FALSE(text.empty()) << MOTE_INTERPRETER_GLSL_PATH;
  EXPECT_NE(text.find("#include \"generated/vm_interpreter_cases.glsl\""), std::string::npos);
  for (const isa::OpInfo& op : isa::all_ops()) {
    const bool defined = text.find("#define VM_SPECIAL_" + std::string(op.mnemonic) + "()") != std::string::npos;
    EXPECT_EQ(defined, op.form == OpForm::kSpecial) << op.mnemonic;
  }
}

}  // namespace
}  // namespace mote
