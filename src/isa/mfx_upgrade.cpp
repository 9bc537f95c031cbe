// Reading older .mfx versions into the current Program.
//
// Version 1 (before emitter fields and global fields existed) has META, PFLD, CNST, INIT and
// UPDT with the same payloads as today, and no EFLD/GIMP. Its LOAD_BUILTIN word was a plain
// engine builtin id: builtin spaces did not exist, so a v1 file whose LOAD_BUILTIN sets space
// bits was never written by a v1 tool and is rejected rather than silently reinterpreted as an
// emitter or global field read.
#include <string>

#include "isa/encoding.hpp"
#include "isa/mfx_sections.hpp"

namespace mote::mfx {

Result<Program> upgrade_v1(const Container& c) {
  Program p;
  MOTE_TRY_ASSIGN(const SectionView* meta, require_section(c, kTagMeta));
  MOTE_TRY(decode_meta(*meta, p));
  MOTE_TRY_ASSIGN(const SectionView* pfld, require_section(c, kTagParticleFields));
  MOTE_TRY(decode_fields(*pfld, p.particle_fields));
  MOTE_TRY_ASSIGN(const SectionView* cnst, require_section(c, kTagConstants));
  MOTE_TRY(decode_words(*cnst, p.constants));
  MOTE_TRY_ASSIGN(const SectionView* init, require_section(c, kTagInit));
  MOTE_TRY(decode_code(*init, p.init));
  MOTE_TRY_ASSIGN(const SectionView* update, require_section(c, kTagUpdate));
  MOTE_TRY(decode_code(*update, p.update));
  // No emitter fields, no global imports: the v1 program is unchanged otherwise.
  for (const SectionView* s : {init, update}) {
    const std::vector<Instruction>& code = s == init ? p.init : p.update;
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

}  // namespace mote::mfx
