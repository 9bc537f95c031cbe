#include "isa/mfx_sections.hpp"

#include <cstdio>

namespace mote::mfx {
namespace {

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

void put_string(std::vector<uint8_t>& out, const std::string& s) {
  put_u32(out, uint32_t(s.size()));
  out.insert(out.end(), s.begin(), s.end());
  while (out.size() % 4 != 0) out.push_back(0);
}

Error format_error(std::string message, size_t offset) {
  return make_error(ErrorCode::kFormat, std::move(message), offset_text(offset));
}

// Bounds-checked little-endian reads over one payload; every failure names the file offset.
class Reader {
 public:
  explicit Reader(const SectionView& s) : s_(s) {}
  size_t file_offset() const { return s_.offset + pos_; }
  size_t remaining() const { return s_.bytes.size() - pos_; }

  Result<uint32_t> u32(const char* what) {
    if (remaining() < 4)
      return format_error(std::string(what) + " runs past the end of section " + tag_text(s_.tag), file_offset());
    const uint8_t* b = s_.bytes.data() + pos_;
    pos_ += 4;
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }

  Result<std::string> string(const char* what) {
    const size_t at = file_offset();
    MOTE_TRY_ASSIGN(uint32_t length, u32(what));
    if (length > remaining())
      return format_error(std::string(what) + " length " + std::to_string(length) + " runs past the end of section " +
                              tag_text(s_.tag),
                          at);
    std::string s(reinterpret_cast<const char*>(s_.bytes.data() + pos_), length);
    pos_ += length;
    // Padding to 4 bytes, zero so every file has one canonical form.
    while (pos_ % 4 != 0) {
      if (pos_ >= s_.bytes.size()) return format_error(std::string(what) + " padding is missing", file_offset());
      if (s_.bytes[pos_] != 0) return format_error(std::string(what) + " padding is not zero", file_offset());
      ++pos_;
    }
    return s;
  }

  Status finish() const {
    if (remaining() != 0)
      return format_error(std::to_string(remaining()) + " unexpected bytes at the end of section " + tag_text(s_.tag),
                          file_offset());
    return ok_status();
  }

 private:
  const SectionView& s_;
  size_t pos_ = 0;
};

// Fields and imports share one shape: u32 count, then {u32 width, string name} each.
template <typename Decl>
Status decode_decls(const SectionView& s, std::vector<Decl>& out, const char* what) {
  Reader r(s);
  MOTE_TRY_ASSIGN(uint32_t count, r.u32("entry count"));
  // Each entry is at least 8 bytes: a count the payload cannot hold is malformed, and checking
  // it first keeps a hostile count from driving a huge loop or allocation.
  if (count > r.remaining() / 8)
    return format_error(std::to_string(count) + " " + what + " cannot fit in section " + tag_text(s.tag), s.offset);
  out.clear();
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    Decl d;
    MOTE_TRY_ASSIGN(d.width, r.u32("width"));
    MOTE_TRY_ASSIGN(d.name, r.string("name"));
    out.push_back(std::move(d));
  }
  return r.finish();
}

template <typename Decl>
void encode_decls(const std::vector<Decl>& decls, std::vector<uint8_t>& out) {
  put_u32(out, uint32_t(decls.size()));
  for (const Decl& d : decls) {
    put_u32(out, d.width);
    put_string(out, d.name);
  }
}

}  // namespace

std::string offset_text(size_t offset) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "offset 0x%zx", offset);
  return buf;
}

std::string tag_text(uint32_t tag) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = char(tag >> (8 * i));
    if (c < 0x20 || c > 0x7E) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "0x%08x", tag);
      return buf;
    }
    s += c;
  }
  return s;
}

const SectionView* Container::find(uint32_t tag) const {
  for (const SectionView& s : sections)
    if (s.tag == tag) return &s;
  return nullptr;
}

Result<const SectionView*> require_section(const Container& container, uint32_t tag) {
  if (const SectionView* s = container.find(tag)) return s;
  return make_error(ErrorCode::kFormat,
                    "required section " + tag_text(tag) + " is missing (version " + std::to_string(container.version) +
                        ")",
                    offset_text(kHeaderBytes));
}

void encode_meta(const Program& p, std::vector<uint8_t>& out) {
  put_u32(out, p.register_count);
  put_u32(out, 0);  // flags: none defined yet
}
void encode_fields(const std::vector<FieldDecl>& fields, std::vector<uint8_t>& out) { encode_decls(fields, out); }
void encode_imports(const std::vector<GlobalImport>& imports, std::vector<uint8_t>& out) { encode_decls(imports, out); }
void encode_words(std::span<const uint32_t> words, std::vector<uint8_t>& out) {
  for (uint32_t w : words) put_u32(out, w);
}
void encode_code(const std::vector<Instruction>& code, std::vector<uint8_t>& out) {
  for (const Instruction& inst : code) encode_words(inst.words, out);
}

Status decode_meta(const SectionView& s, Program& p) {
  if (s.bytes.size() != kMetaBytes)
    return format_error("META section is " + std::to_string(s.bytes.size()) + " bytes, expected 8", s.offset);
  Reader r(s);
  MOTE_TRY_ASSIGN(p.register_count, r.u32("register count"));
  MOTE_TRY_ASSIGN(uint32_t flags, r.u32("flags"));
  if (flags != 0)
    return make_error(ErrorCode::kUnsupported, "unknown META flags " + std::to_string(flags),
                      offset_text(s.offset + 4));
  return r.finish();
}

Status decode_fields(const SectionView& s, std::vector<FieldDecl>& fields) { return decode_decls(s, fields, "fields"); }
Status decode_imports(const SectionView& s, std::vector<GlobalImport>& imports) {
  return decode_decls(s, imports, "imports");
}

Status decode_words(const SectionView& s, std::vector<uint32_t>& words) {
  if (s.bytes.size() % 4 != 0)
    return format_error("section " + tag_text(s.tag) + " size is not a multiple of 4", s.offset);
  Reader r(s);
  words.clear();
  words.reserve(s.bytes.size() / 4);
  while (r.remaining() > 0) {
    MOTE_TRY_ASSIGN(uint32_t w, r.u32("word"));
    words.push_back(w);
  }
  return ok_status();
}

Status decode_code(const SectionView& s, std::vector<Instruction>& code) {
  if (s.bytes.size() % 16 != 0)
    return format_error("section " + tag_text(s.tag) + " size " + std::to_string(s.bytes.size()) +
                            " is not a whole number of 16-byte instructions",
                        s.offset);
  std::vector<uint32_t> words;
  MOTE_TRY(decode_words(s, words));
  code.assign(words.size() / 4, Instruction{});
  for (size_t i = 0; i < code.size(); ++i)
    for (size_t k = 0; k < 4; ++k) code[i].words[k] = words[4 * i + k];
  return ok_status();
}

Status decode_common_sections(const Container& c, Program& p) {
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
  return {};
}

Status decode_field_sections(const Container& c, Program& p) {
  MOTE_TRY_ASSIGN(const SectionView* efld, require_section(c, kTagEmitterFields));
  MOTE_TRY(decode_fields(*efld, p.emitter_fields));
  MOTE_TRY_ASSIGN(const SectionView* gimp, require_section(c, kTagGlobalImports));
  MOTE_TRY(decode_imports(*gimp, p.global_imports));
  return {};
}

}  // namespace mote::mfx
