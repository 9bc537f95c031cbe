// load_cooked_effect: the strict decoder of every supported version, and the upgrade of older
// versions to the current CompiledEffect (docs/design/cooked.md). A pure function of its bytes.
//
// Version 1 is version 2 without the GLOB chunk: its effects load with a zero preview for each
// global import, at the import's width — what a document that declares a global field without
// preview values compiles to. Version 2 is version 3 without the CULL chunk: its effects load
// with EmissionSettings' defaults (no culling), as the documents that made them did. Version 3 is
// version 4 without the KERN chunk: its effects load with no kernels (compiled where they run).
// Version 4 is version 5 without the RIBN chunk: its effects load with RibbonSettings' defaults
// (no version 4 file can hold a ribbon emitter: the projection "ribbon" came with version 5).
// Version 5 is version 6 without the LITE chunk: its effects load with LightSettings' defaults (no
// particle lights: render "light" came with version 6).
#include <zlib.h>

#include <cstdio>

#include "cook/byte_io.hpp"
#include "cook/cooked_format.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

namespace mote {
namespace cook {
namespace {

constexpr uint32_t kV1Chunks[] = {kChunkName, kChunkProgram, kChunkEmitterDefaults, kChunkEmission, kChunkRender};
constexpr uint32_t kV2Chunks[] = {kChunkName,           kChunkProgram,  kChunkEmitterDefaults,
                                  kChunkGlobalPreviews, kChunkEmission, kChunkRender};
constexpr uint32_t kV3Chunks[] = {kChunkName,     kChunkProgram, kChunkEmitterDefaults, kChunkGlobalPreviews,
                                  kChunkEmission, kChunkCulling, kChunkRender};
constexpr uint32_t kV4Chunks[] = {kChunkName,     kChunkProgram, kChunkEmitterDefaults, kChunkGlobalPreviews,
                                  kChunkEmission, kChunkCulling, kChunkRender,          kChunkKernels};
constexpr uint32_t kV5Chunks[] = {kChunkName,           kChunkProgram,  kChunkEmitterDefaults,
                                  kChunkGlobalPreviews, kChunkEmission, kChunkCulling,
                                  kChunkRender,         kChunkRibbon,   kChunkKernels};
constexpr uint32_t kV6Chunks[] = {kChunkName,     kChunkProgram, kChunkEmitterDefaults, kChunkGlobalPreviews,
                                  kChunkEmission, kChunkCulling, kChunkRender,          kChunkRibbon,
                                  kChunkLight,    kChunkKernels};

std::string tag_text(uint32_t tag) {
  std::string text;
  for (int i = 0; i < 4; ++i) {
    const char c = char(tag >> (8 * i));
    if (c < 0x20 || c > 0x7e) {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "0x%08x", tag);
      return hex;
    }
    text += c;
  }
  return text;
}

Status read_program(ByteReader& in, CompiledEffect& effect) {
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const std::span<const uint8_t> mfx, in.raw(in.left()));
  Result<Program> program = load_mfx(mfx);
  if (!program) {
    Error e = program.take_error();
    e.message = "the program (PROG at " + offset_text(at) + "): " + e.message;
    return e;
  }
  effect.program = std::move(program).value();
  if (Status s = verify_program(effect.program); !s) {
    Error e = s.error();
    e.message = "the program does not verify: " + e.message;
    return e;
  }
  return ok_status();
}

Status read_emitter_defaults(ByteReader& in, CompiledEffect& effect) {
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t count, in.u32());
  if (count > in.left() / 4) return in.error_at(std::to_string(count) + " default words do not fit in EDEF", at);
  effect.emitter_defaults.resize(count);
  for (uint32_t& w : effect.emitter_defaults) {
    MOTE_TRY_ASSIGN(w, in.u32());
  }
  return ok_status();
}

Status read_global_previews(ByteReader& in, CompiledEffect& effect) {
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t count, in.u32());
  if (count > kCookedMaxGlobals || count > in.left() / 8)
    return in.error_at(std::to_string(count) + " global previews do not fit in GLOB", at);
  effect.globals.resize(count);
  for (GlobalPreview& g : effect.globals) {
    MOTE_TRY_ASSIGN(g.name, in.string(kCookedMaxString));
    const size_t values_at = in.offset();
    MOTE_TRY_ASSIGN(const uint32_t n, in.u32());
    if (n < 1 || n > 4)
      return in.error_at("global preview '" + g.name + "' has " + std::to_string(n) + " values", values_at);
    g.values.resize(n);
    for (float& v : g.values) {
      MOTE_TRY_ASSIGN(v, in.f32());
    }
  }
  return ok_status();
}

Status read_emission(ByteReader& in, EmissionSettings& e) {
  MOTE_TRY_ASSIGN(e.rate, in.f32());
  MOTE_TRY_ASSIGN(e.prewarm_seconds, in.f32());
  MOTE_TRY_ASSIGN(e.capacity_hint, in.u32());
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t count, in.u32());
  if (count > kCookedMaxBursts || count > in.left() / 16)
    return in.error_at(std::to_string(count) + " bursts do not fit in EMIT (at most " +
                           std::to_string(kCookedMaxBursts) + ")",
                       at);
  e.bursts.resize(count);
  for (Burst& b : e.bursts) {
    MOTE_TRY_ASSIGN(b.time, in.f32());
    MOTE_TRY_ASSIGN(b.count, in.u32());
    MOTE_TRY_ASSIGN(b.cycles, in.u32());
    MOTE_TRY_ASSIGN(b.interval, in.f32());
  }
  return ok_status();
}

Status read_render(ByteReader& in, RenderSettings& r) {
  for (std::string* s : {&r.texture, &r.projection, &r.blend, &r.mesh, &r.position_field, &r.size_field, &r.color_field,
                         &r.velocity_field, &r.rotation_field, &r.frame_field}) {
    MOTE_TRY_ASSIGN(*s, in.string(kCookedMaxString));
  }
  MOTE_TRY_ASSIGN(r.flipbook_columns, in.u32());
  MOTE_TRY_ASSIGN(r.flipbook_rows, in.u32());
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t flags, in.u32());
  if ((flags & ~kKnownFlags) != 0) return in.error_at("unknown render flags " + std::to_string(flags), at);
  r.flipbook_blend = (flags & kFlagFlipbookBlend) != 0;
  r.soft = (flags & kFlagSoft) != 0;
  r.lit = (flags & kFlagLit) != 0;
  return ok_status();
}

Status read_ribbon(ByteReader& in, RibbonSettings& r) {
  for (std::string* s : {&r.id_field, &r.serial_field, &r.uv_mode, &r.facing, &r.normal_field}) {
    MOTE_TRY_ASSIGN(*s, in.string(kCookedMaxString));
  }
  MOTE_TRY_ASSIGN(r.uv_tile_length, in.f32());
  MOTE_TRY_ASSIGN(r.subdivisions, in.u32());
  return ok_status();
}

// LITE: enabled (u32 0 or 1), colour (3 f32), intensity, use_particle_color (u32 0 or 1), radius,
// radius_from_size; the ranges are check_cooked_effect's.
Status read_light(ByteReader& in, LightSettings& l) {
  const auto flag = [&](bool& out) -> Status {
    const size_t at = in.offset();
    MOTE_TRY_ASSIGN(const uint32_t v, in.u32());
    if (v > 1) return in.error_at("a light flag of " + std::to_string(v) + " (0 or 1)", at);
    out = v == 1;
    return ok_status();
  };
  MOTE_TRY(flag(l.enabled));
  for (float& c : l.color) {
    MOTE_TRY_ASSIGN(c, in.f32());
  }
  MOTE_TRY_ASSIGN(l.intensity, in.f32());
  MOTE_TRY(flag(l.use_particle_color));
  MOTE_TRY_ASSIGN(l.radius, in.f32());
  MOTE_TRY_ASSIGN(l.radius_from_size, in.f32());
  return ok_status();
}

Status read_culling(ByteReader& in, EmissionSettings& e) {
  const size_t at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t cull, in.u32());
  if (cull > 1) return in.error_at("the cull flag is " + std::to_string(cull) + ", not 0 or 1", at);
  e.cull = cull == 1;
  MOTE_TRY_ASSIGN(e.max_catchup_seconds, in.f32());
  return ok_status();
}

Status read_chunk(uint32_t tag, ByteReader& in, CompiledEffect& effect) {
  if (tag == kChunkName) {
    MOTE_TRY_ASSIGN(effect.name, in.string(kCookedMaxString));
    return ok_status();
  }
  if (tag == kChunkProgram) return read_program(in, effect);
  if (tag == kChunkEmitterDefaults) return read_emitter_defaults(in, effect);
  if (tag == kChunkGlobalPreviews) return read_global_previews(in, effect);
  if (tag == kChunkEmission) return read_emission(in, effect.emission);
  if (tag == kChunkCulling) return read_culling(in, effect.emission);
  if (tag == kChunkKernels) return read_kernels(in, effect);
  if (tag == kChunkRibbon) return read_ribbon(in, effect.render.ribbon);
  if (tag == kChunkLight) return read_light(in, effect.render.light);
  return read_render(in, effect.render);
}

// Version 1 has no GLOB: a zero preview per import, at its width.
void upgrade_v1(CompiledEffect& effect) {
  effect.globals.clear();
  for (const GlobalImport& g : effect.program.global_imports)
    effect.globals.push_back({g.name, std::vector<float>(g.width, 0.0f)});
}

Result<uint32_t> read_header(std::span<const uint8_t> bytes) {
  ByteReader in(bytes, 0);
  if (bytes.size() < kHeaderBytes)
    return in.error_at("a file of " + std::to_string(bytes.size()) + " bytes is shorter than the 16-byte header", 0);
  if (!is_cooked_effect(bytes)) return in.error_at("bad magic: not a cooked effect (.mfe)", 0);
  MOTE_TRY(in.raw(4));
  MOTE_TRY_ASSIGN(const uint32_t version, in.u32());
  if (version < 1 || version > kCookedEffectVersion)
    return make_error(ErrorCode::kUnsupported,
                      "unsupported cooked effect version " + std::to_string(version) + " (this build reads 1.." +
                          std::to_string(kCookedEffectVersion) + ")",
                      offset_text(4));
  MOTE_TRY_ASSIGN(const uint32_t payload_bytes, in.u32());
  if (payload_bytes != bytes.size() - kHeaderBytes)
    return in.error_at("the header says " + std::to_string(payload_bytes) + " payload bytes, the file has " +
                           std::to_string(bytes.size() - kHeaderBytes),
                       8);
  MOTE_TRY_ASSIGN(const uint32_t expected_crc, in.u32());
  const std::span<const uint8_t> payload = bytes.subspan(kHeaderBytes);
  const uint32_t actual_crc = uint32_t(::crc32(0L, payload.data(), uInt(payload.size())));
  if (expected_crc != actual_crc) return in.error_at("checksum mismatch: the file is corrupt", 12);
  return version;
}

}  // namespace

std::span<const uint32_t> version_chunks(uint32_t version) {
  if (version == 1) return kV1Chunks;
  if (version == 2) return kV2Chunks;
  if (version == 3) return kV3Chunks;
  if (version == 4) return kV4Chunks;
  if (version == 5) return kV5Chunks;
  return kV6Chunks;
}

}  // namespace cook

Result<CompiledEffect> load_cooked_effect(std::span<const uint8_t> bytes) {
  using namespace cook;
  MOTE_TRY_ASSIGN(const uint32_t version, read_header(bytes));
  CompiledEffect effect;
  ByteReader file(bytes.subspan(kHeaderBytes), kHeaderBytes);
  for (uint32_t expected : version_chunks(version)) {
    const size_t at = file.offset();
    MOTE_TRY_ASSIGN(const uint32_t tag, file.u32());
    if (tag != expected)
      return file.error_at("chunk " + tag_text(tag) + " where version " + std::to_string(version) + " has " +
                               tag_text(expected),
                           at);
    MOTE_TRY_ASSIGN(const uint32_t size, file.u32());
    if (size % 4 != 0)
      return file.error_at("chunk " + tag_text(tag) + " size " + std::to_string(size) + " is not a multiple of 4",
                           at + 4);
    const size_t payload_at = file.offset();
    MOTE_TRY_ASSIGN(const std::span<const uint8_t> payload, file.raw(size));
    ByteReader in(payload, payload_at);
    MOTE_TRY(read_chunk(tag, in, effect));
    MOTE_TRY(in.zero_padding());
    MOTE_TRY(in.at_end());
  }
  MOTE_TRY(file.at_end());
  if (version == 1) upgrade_v1(effect);
  MOTE_TRY(check_cooked_effect(effect));
  return effect;
}

}  // namespace mote
