// The .mfx container (header, section table, payload placement) and the current version's
// loader and writer. Older versions are read by mfx_upgrade.cpp.
#include "mote/mfx.hpp"

#include <algorithm>
#include <cstring>

#include "core/alloc_guard.hpp"
#include "core/hash.hpp"
#include "isa/mfx_sections.hpp"

namespace mote {
namespace mfx {
namespace {

uint32_t read_u32(std::span<const uint8_t> bytes, size_t at) {
  return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
         uint32_t(bytes[at + 3]) << 24;
}
void write_u32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + size_t(i)] = uint8_t(v >> (8 * i));
}

Error format_error(std::string message, size_t offset) {
  return make_error(ErrorCode::kFormat, std::move(message), offset_text(offset));
}

// Every section a version has; all of them are required, no others are allowed.
constexpr uint32_t kV1Tags[] = {kTagMeta, kTagParticleFields, kTagConstants, kTagInit, kTagUpdate};
constexpr uint32_t kV2Tags[] = {kTagMeta,      kTagParticleFields, kTagEmitterFields, kTagGlobalImports,
                                kTagConstants, kTagInit,           kTagUpdate};
constexpr uint32_t kV3Tags[] = {kTagMeta,      kTagParticleFields, kTagEmitterFields, kTagGlobalImports,
                                kTagConstants, kTagInit,           kTagUpdate,        kTagEval};

std::span<const uint32_t> version_tags(uint32_t version) {
  if (version == 1) return kV1Tags;
  if (version == 2) return kV2Tags;
  return kV3Tags;
}

}  // namespace

Result<Container> parse_container(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes)
    return format_error("file of " + std::to_string(bytes.size()) + " bytes is shorter than the 16-byte header", 0);
  if (!std::equal(kMfxMagic.begin(), kMfxMagic.end(), bytes.begin()))
    return format_error("bad magic: not an .mfx file", 0);
  Container c;
  c.version = read_u32(bytes, 4);
  if (c.version < 1 || c.version > kMfxVersion)
    return make_error(ErrorCode::kUnsupported,
                      "unsupported .mfx version " + std::to_string(c.version) + " (this build reads 1.." +
                          std::to_string(kMfxVersion) + ")",
                      offset_text(4));
  const uint32_t expected_crc = read_u32(bytes, 12);
  const uint32_t actual_crc = crc32(bytes.subspan(kHeaderBytes));
  if (expected_crc != actual_crc) return format_error("checksum mismatch: the file is corrupt", 12);

  const uint32_t count = read_u32(bytes, 8);
  const size_t body = bytes.size() - kHeaderBytes;
  if (count > body / kTableEntryBytes)
    return format_error("section count " + std::to_string(count) + " does not fit in the file", 8);
  const std::span<const uint32_t> allowed = version_tags(c.version);
  // Payloads follow the table contiguously in table order, each padded with zeros to 4 bytes:
  // one canonical layout, so there is nowhere for unparsed bytes to hide.
  size_t cursor = kHeaderBytes + size_t(count) * kTableEntryBytes;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t entry = kHeaderBytes + size_t(i) * kTableEntryBytes;
    const uint32_t tag = read_u32(bytes, entry);
    const uint32_t offset = read_u32(bytes, entry + 4);
    const uint32_t size = read_u32(bytes, entry + 8);
    if (std::find(allowed.begin(), allowed.end(), tag) == allowed.end())
      return format_error("unknown section tag " + tag_text(tag) + " for version " + std::to_string(c.version), entry);
    if (c.find(tag) != nullptr) return format_error("duplicate section " + tag_text(tag), entry);
    if (offset != cursor)
      return format_error("section " + tag_text(tag) + " payload offset " + std::to_string(offset) + " is not " +
                              std::to_string(cursor) + " (payloads follow the table in order)",
                          entry + 4);
    if (size > bytes.size() - cursor)
      return format_error("section " + tag_text(tag) + " size " + std::to_string(size) +
                              " runs past the end of the file",
                          entry + 8);
    c.sections.push_back(SectionView{tag, cursor, bytes.subspan(cursor, size)});
    cursor += size;
    while (cursor % 4 != 0) {
      if (cursor >= bytes.size()) return format_error("section padding is missing", cursor);
      if (bytes[cursor] != 0) return format_error("section padding is not zero", cursor);
      ++cursor;
    }
  }
  if (cursor != bytes.size())
    return format_error(std::to_string(bytes.size() - cursor) + " trailing bytes after the last section", cursor);
  return c;
}

}  // namespace mfx

std::vector<uint8_t> save_mfx(const Program& program) {
  using namespace mfx;
  struct Payload {
    uint32_t tag;
    std::vector<uint8_t> bytes;
  };
  std::vector<Payload> payloads;
  auto add = [&](uint32_t tag, auto&& encode) {
    payloads.push_back({tag, {}});
    encode(payloads.back().bytes);
  };
  add(kTagMeta, [&](auto& out) { encode_meta(program, out); });
  add(kTagParticleFields, [&](auto& out) { encode_fields(program.particle_fields, out); });
  add(kTagEmitterFields, [&](auto& out) { encode_fields(program.emitter_fields, out); });
  add(kTagGlobalImports, [&](auto& out) { encode_imports(program.global_imports, out); });
  add(kTagConstants, [&](auto& out) { encode_words(program.constants, out); });
  add(kTagInit, [&](auto& out) { encode_code(program.init, out); });
  add(kTagUpdate, [&](auto& out) { encode_code(program.update, out); });
  add(kTagEval, [&](auto& out) { encode_code(program.eval, out); });

  const size_t table_end = kHeaderBytes + payloads.size() * kTableEntryBytes;
  size_t total = table_end;
  for (const Payload& p : payloads) total += p.bytes.size();  // every payload is a multiple of 4
  std::vector<uint8_t> out(total, 0);
  std::memcpy(out.data(), kMfxMagic.data(), 4);
  write_u32(out, 4, kMfxVersion);
  write_u32(out, 8, uint32_t(payloads.size()));
  size_t cursor = table_end;
  for (size_t i = 0; i < payloads.size(); ++i) {
    const size_t entry = kHeaderBytes + i * kTableEntryBytes;
    write_u32(out, entry, payloads[i].tag);
    write_u32(out, entry + 4, uint32_t(cursor));
    write_u32(out, entry + 8, uint32_t(payloads[i].bytes.size()));
    std::copy(payloads[i].bytes.begin(), payloads[i].bytes.end(), out.begin() + std::ptrdiff_t(cursor));
    cursor += payloads[i].bytes.size();
  }
  write_u32(out, 12, crc32(std::span<const uint8_t>(out).subspan(kHeaderBytes)));
  return out;
}

namespace {

Result<Program> load_mfx_body(std::span<const uint8_t> bytes) {
  using namespace mfx;
  MOTE_TRY_ASSIGN(Container c, parse_container(bytes));
  if (c.version == 1) return upgrade_v1(c);
  if (c.version == 2) return upgrade_v2(c);
  Program p;
  MOTE_TRY(decode_common_sections(c, p));
  MOTE_TRY(decode_field_sections(c, p));
  MOTE_TRY_ASSIGN(const SectionView* eval, require_section(c, kTagEval));
  MOTE_TRY(decode_code(*eval, p.eval));
  return p;
}

}  // namespace

Result<Program> load_mfx(std::span<const uint8_t> bytes) {
  return core::guard_allocation("load_mfx", [&] { return load_mfx_body(bytes); });
}

}  // namespace mote
