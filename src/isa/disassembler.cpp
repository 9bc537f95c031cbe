// Program -> .masm text. Everything the assembler reads back to the same Program: well-formed
// instructions print symbolically, anything else (which the verifier would reject anyway) as a
// raw `.word` line so even a broken program can be inspected and edited.
#include <cstdio>
#include <string>

#include "isa/encoding.hpp"
#include "isa/float_text.hpp"
#include "mote/assembly.hpp"

namespace mote {
namespace {

using isa::SrcRule;
namespace sh = mote::shader;

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

std::string reg_text(uint32_t base, const uint32_t* components, uint32_t count) {
  std::string s = "r" + std::to_string(base);
  if (count > 0) s += '.';
  for (uint32_t i = 0; i < count; ++i) s += isa::kSwizzleLetters[components[i] & 3u];
  return s;
}

class Disassembler {
 public:
  explicit Disassembler(const Program& p) : p_(p) {}

  std::string run() {
    out_ += "; mote assembly\n";
    out_ += ".registers " + std::to_string(p_.register_count) + "\n";
    for (const FieldDecl& f : p_.particle_fields) out_ += ".particle " + f.name + " " + std::to_string(f.width) + "\n";
    for (const FieldDecl& f : p_.emitter_fields) out_ += ".emitter " + f.name + " " + std::to_string(f.width) + "\n";
    for (const GlobalImport& g : p_.global_imports) out_ += ".global " + g.name + " " + std::to_string(g.width) + "\n";
    for (size_t i = 0; i < p_.constants.size(); i += 4) {
      out_ += ".const";
      for (size_t k = i; k < i + 4 && k < p_.constants.size(); ++k) out_ += " " + isa::format_f32(p_.constants[k]);
      out_ += "          ; c[" + std::to_string(i) + "]\n";
    }
    // .eval only when the program has one, so a stateful program's text is what it always was.
    for (Section section : kAllSections) {
      if (section == Section::kEval && p_.eval.empty()) continue;
      out_ += "." + std::string(section_name(section)) + "\n";
      for (const Instruction& inst : p_.code(section)) out_ += "  " + instruction(inst) + "\n";
    }
    return std::move(out_);
  }

 private:
  std::string instruction(const Instruction& inst) const {
    if (isa::check_form(inst)) {
      return ".word " + hex32(inst.words[0]) + ", " + hex32(inst.words[1]) + ", " + hex32(inst.words[2]) + ", " +
             hex32(inst.words[3]);
    }
    const isa::OpInfo& info = *isa::op_info(isa::word_op(inst));
    const uint32_t lanes = isa::word_lanes(inst);
    std::string text(info.mnemonic);
    // The assembler takes the lane count from the dst mask, else from the first kVal
    // register (always printed with all its components): only ops with neither need `.N`.
    bool has_val_reg = false;
    for (int s = 0; s < 3; ++s)
      has_val_reg |= info.src[s] == SrcRule::kVal && isa::word_kind(inst, uint32_t(s)) == sh::kVmKindReg;
    if (info.dst != isa::DstRule::kDstLanes && info.lanes_min != info.lanes_max && !has_val_reg)
      text += "." + std::to_string(lanes);
    std::string operands;
    auto add = [&](const std::string& operand) {
      operands += operands.empty() ? " " : ", ";
      operands += operand;
    };
    const uint32_t identity[4] = {0, 1, 2, 3};
    if (info.dst == isa::DstRule::kDstLanes) add(reg_text(isa::word_dst(inst), identity, lanes));
    if (info.dst == isa::DstRule::kDstScalar) add(reg_text(isa::word_dst(inst), identity, 1));
    for (int s = 0; s < 3; ++s) {
      if (info.src[s] == SrcRule::kUnused) continue;
      add(source(inst, uint32_t(s), info.src[s], lanes));
    }
    return text + operands;
  }

  std::string source(const Instruction& inst, uint32_t s, SrcRule rule, uint32_t lanes) const {
    const uint32_t word = isa::src_word(inst, s);
    if (isa::is_value_rule(rule)) {
      if (isa::word_kind(inst, s) == sh::kVmKindImm) return isa::format_f32(word);
      uint32_t c[4];
      for (uint32_t i = 0; i < 4; ++i) c[i] = isa::reg_component(word, i);
      return reg_text(isa::reg_base(word), c, isa::source_width(rule, lanes));
    }
    switch (rule) {
      case SrcRule::kField: {
        // A name only where it reads back to this offset (first field of that name).
        for (const FieldDecl& f : p_.particle_fields)
          if (isa::is_identifier(f.name) && p_.particle_field_offset(f.name) == word) return "@" + f.name;
        return "@" + std::to_string(word);
      }
      case SrcRule::kConst: return "c[" + std::to_string(word) + "]";
      case SrcRule::kDraw: return "#" + std::to_string(word);
      case SrcRule::kCmp: return isa::kCmpNames[word];                       // < 6: check_form
      case SrcRule::kEvent: return "e[" + std::to_string(word) + "]";        // < kVmEventOutputs: check_form
      case SrcRule::kVectorField: return "v[" + std::to_string(word) + "]";  // < kVmVectorFields: check_form
      case SrcRule::kBuiltin: return builtin(word);
      default: return "?";
    }
  }

  std::string builtin(uint32_t word) const {
    const uint32_t index = isa::builtin_index(word);
    switch (isa::builtin_space(word)) {
      case sh::kVmSpaceEngine: return std::string(isa::builtin_info(index)->name);  // known: check_form
      case sh::kVmSpaceEmitterField:
        for (const FieldDecl& f : p_.emitter_fields)
          if (isa::is_identifier(f.name) && p_.emitter_field_offset(f.name) == index) return "emitter:" + f.name;
        return "emitter@" + std::to_string(index);
      case sh::kVmSpaceGlobalImport:
        if (index < p_.global_imports.size()) {
          const std::string& name = p_.global_imports[index].name;
          bool first = isa::is_identifier(name);
          for (uint32_t k = 0; k < index && first; ++k) first = p_.global_imports[k].name != name;
          if (first) return "global:" + name;
        }
        return "global:#" + std::to_string(index);
      default: return "global@" + std::to_string(index);
    }
  }

  const Program& p_;
  std::string out_;
};

}  // namespace

std::string disassemble(const Program& program) { return Disassembler(program).run(); }

}  // namespace mote
