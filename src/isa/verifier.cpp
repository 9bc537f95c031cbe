#include "mote/verifier.hpp"

#include <bitset>
#include <string>
#include <unordered_set>

#include "core/alloc_guard.hpp"
#include "isa/encoding.hpp"
#include "shared/vm_limits.h"

namespace mote {
namespace {

using isa::SrcRule;
namespace sh = mote::shader;

Error verify_error(std::string where, std::string message) {
  return make_error(ErrorCode::kVerify, std::move(message), std::move(where));
}

std::string indexed(const char* list, size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

// Widths 1..4, identifier names, unique within the list. `list` names the list in errors.
template <typename Decl>
Status check_decls(const std::vector<Decl>& decls, const char* list) {
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < decls.size(); ++i) {
    const Decl& d = decls[i];
    if (d.width < 1 || d.width > 4)
      return verify_error(indexed(list, i), "width " + std::to_string(d.width) + " is outside 1..4");
    if (d.name.empty()) return verify_error(indexed(list, i), "name is empty");
    if (!isa::is_identifier(d.name))
      return verify_error(indexed(list, i), "name '" + d.name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)");
    if (!seen.insert(d.name).second) return verify_error(indexed(list, i), "duplicate name '" + d.name + "'");
  }
  return ok_status();
}

Status check_header(const Program& p, const VerifyOptions& o) {
  if (p.register_count > sh::kVmMaxRegisters)
    return verify_error("register_count", "register count " + std::to_string(p.register_count) + " exceeds " +
                                              std::to_string(sh::kVmMaxRegisters));
  MOTE_TRY(check_decls(p.particle_fields, "particle_fields"));
  if (p.particle_record_words() > sh::kVmMaxRecordWords)
    return verify_error("particle_fields", "record of " + std::to_string(p.particle_record_words()) +
                                               " words exceeds " + std::to_string(sh::kVmMaxRecordWords));
  MOTE_TRY(check_decls(p.emitter_fields, "emitter_fields"));
  if (p.emitter_field_words() > sh::kVmMaxEmitterFieldWords)
    return verify_error("emitter_fields", "emitter field block of " + std::to_string(p.emitter_field_words()) +
                                              " words exceeds " + std::to_string(sh::kVmMaxEmitterFieldWords));
  MOTE_TRY(check_decls(p.global_imports, "global_imports"));
  if (p.global_imports.size() > sh::kVmBuiltinIndexMask + 1u)
    return verify_error("global_imports", "more imports than a 16-bit index can name");
  if (p.constants.size() % 4 != 0)
    return verify_error("constants", "constant pool of " + std::to_string(p.constants.size()) +
                                         " words is not a multiple of 4 (whole vec4s)");
  if (p.constants.size() > size_t(sh::kVmMaxConstantVec4s) * 4)
    return verify_error("constants", "constant pool of " + std::to_string(p.constants.size() / 4) + " vec4s exceeds " +
                                         std::to_string(sh::kVmMaxConstantVec4s));
  if (o.record_words != 0 && o.record_words < p.particle_record_words())
    return verify_error("record_words", "record stride " + std::to_string(o.record_words) +
                                            " is smaller than the program's record of " +
                                            std::to_string(p.particle_record_words()) + " words");
  return ok_status();
}

class SectionVerifier {
 public:
  SectionVerifier(const Program& p, const VerifyOptions& o, Section section)
      : p_(p), o_(o), section_(section), code_(p.code(section)) {}

  Status run() {
    if (code_.size() > sh::kVmMaxSectionInstructions)
      return verify_error(section_name(section_), "section of " + std::to_string(code_.size()) +
                                                      " instructions exceeds " +
                                                      std::to_string(sh::kVmMaxSectionInstructions));
    for (size_t i = 0; i < code_.size(); ++i) MOTE_TRY(instruction(i, code_[i]));
    return ok_status();
  }

 private:
  std::string where(size_t i) const { return indexed(section_name(section_), i); }
  std::string where(size_t i, int src) const { return where(i) + ".s" + std::to_string(src); }

  Status instruction(size_t i, const Instruction& inst) {
    if (auto form = isa::check_form(inst)) {
      std::string at = form->src >= 0 ? where(i, form->src) : form->on_dst ? where(i) + ".dst" : where(i);
      return verify_error(std::move(at), std::move(form->message));
    }
    const isa::OpInfo& info = *isa::op_info(isa::word_op(inst));
    const uint32_t lanes = isa::word_lanes(inst);
    if (info.op == isa::Op::KILL && section_ != Section::kUpdate)
      return verify_error(where(i), "KILL is only allowed in UPDATE");
    // Reads first: an instruction may read the slots it overwrites, never ones only it writes.
    for (int s = 0; s < 3; ++s) MOTE_TRY(source(i, s, inst, info.src[s], lanes));
    if (section_ == Section::kEval) MOTE_TRY(eval_rules(i, inst, info, lanes));
    const uint32_t dst = isa::word_dst(inst);
    uint32_t written = 0;
    if (info.dst == isa::DstRule::kDstLanes) {
      if (dst + lanes > p_.register_count)
        return verify_error(where(i) + ".dst", "destination r" + std::to_string(dst) + " with " +
                                                   std::to_string(lanes) + " lanes exceeds register count " +
                                                   std::to_string(p_.register_count));
      written = lanes;
    } else if (info.dst == isa::DstRule::kDstScalar) {
      if (dst >= p_.register_count)
        return verify_error(where(i) + ".dst", "destination r" + std::to_string(dst) + " exceeds register count " +
                                                   std::to_string(p_.register_count));
      written = 1;
    }
    for (uint32_t k = 0; k < written; ++k) written_.set(dst + k);
    return ok_status();
  }

  // EVAL is a pure function of (time, seed, index): nothing persists between its runs, so it may
  // read back only record words it stored earlier in the same run, sends no events and reads no
  // builtin that depends on how the clock got there (docs/design/isa.md, "EVAL").
  Status eval_rules(size_t i, const Instruction& inst, const isa::OpInfo& info, uint32_t lanes) {
    if (info.op == isa::Op::EMIT_EVENT) return verify_error(where(i), "EMIT_EVENT is not allowed in EVAL");
    if (info.op == isa::Op::LOAD_BUILTIN && isa::builtin_space(inst.words[1]) == sh::kVmSpaceEngine) {
      const isa::BuiltinInfo& b = *isa::builtin_info(isa::builtin_index(inst.words[1]));  // known: check_form
      if (!eval_reads_builtin(b.builtin))
        return verify_error(where(i, 0), "builtin " + std::string(b.name) +
                                             " is not defined in EVAL (a frame depends only on time, seed and index)");
    }
    const uint32_t offset = inst.words[1];
    if (info.op == isa::Op::LOAD_FIELD) {
      for (uint32_t k = 0; k < lanes; ++k)
        if (offset + k >= stored_.size() || !stored_.test(offset + k))
          return verify_error(where(i, 0), "record word " + std::to_string(offset + k) +
                                               " is read before EVAL stores it: nothing persists between frames");
    }
    if (info.op == isa::Op::STORE_FIELD)
      for (uint32_t k = 0; k < lanes && offset + k < stored_.size(); ++k) stored_.set(offset + k);
    return ok_status();
  }

  static bool eval_reads_builtin(isa::Builtin b) {
    switch (b) {
      case isa::Builtin::DT:
      case isa::Builtin::EVENT_POSITION:
      case isa::Builtin::EVENT_VELOCITY:
      case isa::Builtin::EVENT_COLOR:
      case isa::Builtin::EVENT_ID: return false;
      default: return true;
    }
  }

  Status source(size_t i, int s, const Instruction& inst, SrcRule rule, uint32_t lanes) {
    const uint32_t word = isa::src_word(inst, uint32_t(s));
    if (isa::is_value_rule(rule)) {
      if (isa::word_kind(inst, uint32_t(s)) != sh::kVmKindReg) return ok_status();
      const uint32_t width = isa::source_width(rule, lanes);
      for (uint32_t c = 0; c < width; ++c) {
        const uint32_t slot = isa::reg_base(word) + isa::reg_component(word, c);
        if (slot >= p_.register_count)
          return verify_error(where(i, s), "register r" + std::to_string(slot) + " exceeds register count " +
                                               std::to_string(p_.register_count));
        if (!written_.test(slot))
          return verify_error(where(i, s),
                              "register r" + std::to_string(slot) + " is read before it is written in this section");
      }
      return ok_status();
    }
    switch (rule) {
      case SrcRule::kField: return field(i, s, word, lanes);
      case SrcRule::kConst: {
        const uint64_t end = uint64_t(word) + lanes;
        if (end > p_.constants.size())
          return verify_error(where(i, s), "constant index " + std::to_string(word) + " + " + std::to_string(lanes) +
                                               " lanes exceeds the constant pool of " +
                                               std::to_string(p_.constants.size()) + " scalars");
        if (word / 4 != (word + lanes - 1) / 4)
          return verify_error(where(i, s), "constant read at index " + std::to_string(word) + " with " +
                                               std::to_string(lanes) + " lanes straddles a vec4 boundary");
        return ok_status();
      }
      case SrcRule::kBuiltin: return builtin(i, s, word, lanes);
      default: return ok_status();  // kUnused/kCmp checked by check_form; kDraw takes any value
    }
  }

  Status field(size_t i, int s, uint32_t offset, uint32_t lanes) {
    if (offset < 1) return verify_error(where(i, s), "field offset 0 is the record header");
    const uint64_t end = uint64_t(offset) + lanes;
    const uint32_t record = o_.record_words != 0 ? o_.record_words : p_.particle_record_words();
    if (end > record)
      return verify_error(where(i, s), "field offset " + std::to_string(offset) + " + " + std::to_string(lanes) +
                                           " lanes exceeds the record of " + std::to_string(record) + " words");
    uint64_t start = 1;
    for (const FieldDecl& f : p_.particle_fields) {
      const uint64_t field_end = start + f.width;
      if (offset >= start && offset < field_end) {
        if (end > field_end)
          return verify_error(where(i, s), "field access at offset " + std::to_string(offset) + " with " +
                                               std::to_string(lanes) + " lanes crosses the end of field '" + f.name +
                                               "'");
        return ok_status();
      }
      start = field_end;
    }
    return verify_error(where(i, s), "field offset " + std::to_string(offset) + " is not inside a declared field");
  }

  Status builtin(size_t i, int s, uint32_t word, uint32_t lanes) {
    const uint32_t index = isa::builtin_index(word);
    switch (isa::builtin_space(word)) {
      case sh::kVmSpaceEngine: {
        const isa::BuiltinInfo& b = *isa::builtin_info(index);  // known: check_form
        if (lanes > b.width)
          return verify_error(where(i, s), std::to_string(lanes) + " lanes exceed builtin " + std::string(b.name) +
                                               "'s width " + std::to_string(b.width));
        return ok_status();
      }
      case sh::kVmSpaceEmitterField:
        if (uint64_t(index) + lanes > p_.emitter_field_words())
          return verify_error(where(i, s), "emitter field offset " + std::to_string(index) + " + " +
                                               std::to_string(lanes) + " lanes exceeds the emitter field block of " +
                                               std::to_string(p_.emitter_field_words()) + " words");
        return ok_status();
      case sh::kVmSpaceGlobalImport:
        if (o_.linked)
          return verify_error(where(i, s), "global import (space 2) in a linked program: link_globals rewrites "
                                           "imports to space 3");
        if (index >= p_.global_imports.size())
          return verify_error(where(i, s), "global import index " + std::to_string(index) + " exceeds the " +
                                               std::to_string(p_.global_imports.size()) + " imports");
        if (lanes > p_.global_imports[index].width)
          return verify_error(where(i, s), std::to_string(lanes) + " lanes exceed global import '" +
                                               p_.global_imports[index].name + "''s width " +
                                               std::to_string(p_.global_imports[index].width));
        return ok_status();
      default:  // kVmSpaceGlobalField
        if (!o_.linked)
          return verify_error(where(i, s), "global field offset (space 3) in an unlinked program: use an import "
                                           "(space 2)");
        if (uint64_t(index) + lanes > o_.global_field_words)
          return verify_error(where(i, s), "global field offset " + std::to_string(index) + " + " +
                                               std::to_string(lanes) + " lanes exceeds the global field section of " +
                                               std::to_string(o_.global_field_words) + " words");
        return ok_status();
    }
  }

  const Program& p_;
  const VerifyOptions& o_;
  Section section_;
  const std::vector<Instruction>& code_;
  std::bitset<sh::kVmMaxRegisters> written_;
  std::bitset<sh::kVmMaxRecordWords> stored_;  // EVAL: record words stored so far
};

}  // namespace

Status verify_program(const Program& program, const VerifyOptions& options) {
  return core::guard_allocation("verify_program", [&]() -> Status {
    MOTE_TRY(check_header(program, options));
    MOTE_TRY(SectionVerifier(program, options, Section::kInit).run());
    MOTE_TRY(SectionVerifier(program, options, Section::kUpdate).run());
    MOTE_TRY(SectionVerifier(program, options, Section::kEval).run());
    return ok_status();
  });
}

}  // namespace mote
