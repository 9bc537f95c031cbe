// The pieces of the .mfx container shared by the current loader (mfx_format.cpp) and the
// upgrader of older versions (mfx_upgrade.cpp): section tags, the parsed container, and the
// encoders/decoders of the individual section payloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote::mfx {

constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}
inline constexpr uint32_t kTagMeta = fourcc('M', 'E', 'T', 'A');
inline constexpr uint32_t kTagParticleFields = fourcc('P', 'F', 'L', 'D');
inline constexpr uint32_t kTagEmitterFields = fourcc('E', 'F', 'L', 'D');
inline constexpr uint32_t kTagGlobalImports = fourcc('G', 'I', 'M', 'P');
inline constexpr uint32_t kTagConstants = fourcc('C', 'N', 'S', 'T');
inline constexpr uint32_t kTagInit = fourcc('I', 'N', 'I', 'T');
inline constexpr uint32_t kTagUpdate = fourcc('U', 'P', 'D', 'T');
inline constexpr uint32_t kTagEval = fourcc('E', 'V', 'A', 'L');

inline constexpr size_t kHeaderBytes = 16;
inline constexpr size_t kTableEntryBytes = 12;
inline constexpr uint32_t kMetaBytes = 8;

std::string offset_text(size_t offset);  // "offset 0x24"
std::string tag_text(uint32_t tag);      // "EFLD", or "0x12345678" when not printable

struct SectionView {
  uint32_t tag = 0;
  size_t offset = 0;  // of the payload in the file, for error locations
  std::span<const uint8_t> bytes;
};

struct Container {
  uint32_t version = 0;
  std::vector<SectionView> sections;  // in table order; tags unique and allowed for the version
  const SectionView* find(uint32_t tag) const;
};

// Header, checksum, table and payload placement; the tags a version allows are given by the
// caller-independent table in mfx_format.cpp.
Result<Container> parse_container(std::span<const uint8_t> bytes);
// The section must be present (an error naming the tag otherwise).
Result<const SectionView*> require_section(const Container& container, uint32_t tag);

// Payload encoders (append to `out`, always a multiple of 4 bytes).
void encode_meta(const Program& p, std::vector<uint8_t>& out);
void encode_fields(const std::vector<FieldDecl>& fields, std::vector<uint8_t>& out);
void encode_imports(const std::vector<GlobalImport>& imports, std::vector<uint8_t>& out);
void encode_words(std::span<const uint32_t> words, std::vector<uint8_t>& out);
void encode_code(const std::vector<Instruction>& code, std::vector<uint8_t>& out);

// Payload decoders: consume the whole payload or fail with a kFormat error at its offset.
Status decode_meta(const SectionView& s, Program& p);
Status decode_fields(const SectionView& s, std::vector<FieldDecl>& fields);
Status decode_imports(const SectionView& s, std::vector<GlobalImport>& imports);
Status decode_words(const SectionView& s, std::vector<uint32_t>& words);
Status decode_code(const SectionView& s, std::vector<Instruction>& code);
// The sections every version has: META, PFLD, CNST, INIT, UPDT.
Status decode_common_sections(const Container& c, Program& p);

// Version 1 -> current Program (mfx_upgrade.cpp).
Result<Program> upgrade_v1(const Container& container);
// Version 2 -> current Program: every section but EVAL, which version 2 did not have.
Result<Program> upgrade_v2(const Container& container);
// EFLD and GIMP, which versions 2 and later have.
Status decode_field_sections(const Container& c, Program& p);

}  // namespace mote::mfx
