// Reading older .mfx versions into the current Program.
//
// Version 1 (before emitter fields and global fields existed) has META, PFLD, CNST, INIT and
// UPDT with the same payloads as today, and no EFLD/GIMP. Its LOAD_BUILTIN word was a plain
// engine builtin id: builtin spaces did not exist, so a v1 file whose LOAD_BUILTIN sets space
// bits was never written by a v1 tool and is rejected rather than silently reinterpreted as an
// emitter or global field read.
//
// Version 2 (before stateless programs) is version 3 without the EVAL section: its program is
// read unchanged with an empty EVAL, which is what every version 2 program meant.
#include <string>

#include "isa/encoding.hpp"
#include "isa/mfx_sections.hpp"

namespace mote::mfx {

Result<Program> upgrade_v1(const Container& c) {
  Program p;
  MOTE_TRY(decode_common_sections(c, p));
  // No emitter fields, no global imports: the v1 program is unchanged otherwise.
  for (Section section : {Section::kInit, Section::kUpdate}) {
    const std::vector<Instruction>& code = p.code(section);
    MOTE_TRY_ASSIGN(const SectionView* s, require_section(c, section == Section::kInit ? kTagInit : kTagUpdate));
    for (size_t i = 0; i < code.size(); ++i) {
      const Instruction& inst = code[i];
      if (isa::word_op(inst) == uint32_t(isa::Op::LOAD_BUILTIN) && (inst.words[1] >> 16) != 0)
        return make_error(ErrorCode::kFormat,
                          "version 1 LOAD_BUILTIN id " + std::to_string(inst.words[1]) +
                              " uses builtin spaces, which version 1 did not have",
                          offset_text(s->offset + i * 16 + 4));
    }
  }
  return p;
}

Result<Program> upgrade_v2(const Container& c) {
  Program p;
  MOTE_TRY(decode_common_sections(c, p));
  MOTE_TRY(decode_field_sections(c, p));
  return p;  // p.eval stays empty: a version 2 program is stateful
}

}  // namespace mote::mfx
