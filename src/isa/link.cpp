#include "mote/link.hpp"

#include <string>

#include "isa/encoding.hpp"

namespace mote {

Result<Program> link_globals(const Program& program, std::span<const uint32_t> import_offsets) {
  if (import_offsets.size() != program.global_imports.size())
    return make_error(ErrorCode::kInvalidArgument, std::to_string(import_offsets.size()) + " offsets given for " +
                                                       std::to_string(program.global_imports.size()) +
                                                       " global imports");
  for (size_t i = 0; i < import_offsets.size(); ++i)
    if (import_offsets[i] > shader::kVmBuiltinIndexMask)
      return make_error(ErrorCode::kInvalidArgument,
                        "offset " + std::to_string(import_offsets[i]) + " does not fit the 16-bit builtin index",
                        "import_offsets[" + std::to_string(i) + "]");
  Program linked = program;
  for (Section section : kAllSections) {
    std::vector<Instruction>& code = linked.code(section);
    for (size_t i = 0; i < code.size(); ++i) {
      Instruction& inst = code[i];
      if (isa::word_op(inst) != uint32_t(isa::Op::LOAD_BUILTIN) || isa::word_kind(inst, 0) != shader::kVmKindNone)
        continue;
      const uint32_t word = inst.words[1];
      if ((word >> 18) != 0 || isa::builtin_space(word) != shader::kVmSpaceGlobalImport) continue;
      const uint32_t index = isa::builtin_index(word);
      if (index >= import_offsets.size())
        return make_error(ErrorCode::kInvalidArgument,
                          "global import index " + std::to_string(index) + " does not exist",
                          std::string(section_name(section)) + "[" + std::to_string(i) + "]");
      inst.words[1] = isa::make_builtin(shader::kVmSpaceGlobalField, import_offsets[index]);
    }
  }
  return linked;
}

}  // namespace mote
