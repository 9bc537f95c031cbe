#include "isa/encoding.hpp"

namespace mote::isa {

std::optional<FormError> check_form(const Instruction& inst) {
  const uint32_t w0 = inst.words[0];
  const OpInfo* info = op_info(word_op(inst));
  if (info == nullptr) return FormError{-1, false, "unknown opcode " + std::to_string(word_op(inst))};
  if ((w0 & kWord0ReservedMask) != 0) return FormError{-1, false, "reserved bits of word 0 are not zero"};
  const uint32_t lanes = word_lanes(inst);
  if (lanes < info->lanes_min || lanes > info->lanes_max)
    return FormError{-1, false,
                     "lane count " + std::to_string(lanes) + " outside " + std::string(info->mnemonic) + "'s range " +
                         std::to_string(info->lanes_min) + ".." + std::to_string(info->lanes_max)};
  if (info->dst == DstRule::kDstNone && word_dst(inst) != 0)
    return FormError{-1, true, "dst byte must be 0: " + std::string(info->mnemonic) + " writes no register"};
  for (int s = 0; s < 3; ++s) {
    const SrcRule rule = info->src[s];
    const uint32_t kind = word_kind(inst, uint32_t(s));
    const uint32_t word = src_word(inst, uint32_t(s));
    if (is_value_rule(rule)) {
      if (kind != shader::kVmKindReg && kind != shader::kVmKindImm)
        return FormError{s, false, "source kind " + std::to_string(kind) + " illegal: operand must be REG or IMM"};
      if (kind == shader::kVmKindReg) {
        if ((word & 0xFFFF0000u) != 0) return FormError{s, false, "REG operand bits 16..31 are not zero"};
        const uint32_t width = source_width(rule, lanes);
        for (uint32_t i = width; i < 4; ++i)
          if (reg_component(word, i) != i)
            return FormError{s, false, "unused swizzle component " + std::to_string(i) + " is not the identity value"};
      }
      continue;
    }
    if (kind != shader::kVmKindNone)
      return FormError{s, false, "source kind " + std::to_string(kind) + " illegal: operand must be NONE (raw)"};
    switch (rule) {
      case SrcRule::kUnused:
        if (word != 0) return FormError{s, false, "unused source word is not zero"};
        break;
      case SrcRule::kCmp:
        if (word >= kCmpCodeCount) return FormError{s, false, "compare code " + std::to_string(word) + " > 5"};
        break;
      case SrcRule::kEvent:
        if (word >= shader::kVmEventOutputs)
          return FormError{s, false,
                           "event output " + std::to_string(word) + " >= " + std::to_string(shader::kVmEventOutputs)};
        break;
      case SrcRule::kVectorField:
        if (word >= shader::kVmVectorFields)
          return FormError{s, false,
                           "vector field slot " + std::to_string(word) +
                               " >= " + std::to_string(shader::kVmVectorFields)};
        break;
      case SrcRule::kBuiltin:
        if ((word >> 18) != 0) return FormError{s, false, "builtin word bits 18..31 are not zero"};
        if (builtin_space(word) == shader::kVmSpaceEngine && builtin_info(builtin_index(word)) == nullptr)
          return FormError{s, false, "unknown builtin id " + std::to_string(builtin_index(word))};
        break;
      default: break;  // kField/kConst/kDraw: any value is well formed; bounds are the verifier's
    }
  }
  return std::nullopt;
}

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0)) return false;
  }
  return true;
}

}  // namespace mote::isa
