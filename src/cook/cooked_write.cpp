// save_cooked_effect: the current version's writer (docs/design/cooked.md).
#include <zlib.h>

#include <cstring>

#include "cook/byte_io.hpp"
#include "cook/cooked_format.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/mfx.hpp"

namespace mote {
namespace {

void write_emission(const EmissionSettings& e, cook::ByteWriter& out) {
  out.f32(e.rate);
  out.f32(e.prewarm_seconds);
  out.u32(e.capacity_hint);
  out.u32(uint32_t(e.bursts.size()));
  for (const Burst& b : e.bursts) {
    out.f32(b.time);
    out.u32(b.count);
    out.u32(b.cycles);
    out.f32(b.interval);
  }
}

void write_render(const RenderSettings& r, cook::ByteWriter& out) {
  for (const std::string* s : {&r.texture, &r.projection, &r.blend, &r.mesh, &r.position_field, &r.size_field,
                               &r.color_field, &r.velocity_field, &r.rotation_field, &r.frame_field})
    out.string(*s);
  out.u32(r.flipbook_columns);
  out.u32(r.flipbook_rows);
  out.u32((r.flipbook_blend ? cook::kFlagFlipbookBlend : 0u) | (r.soft ? cook::kFlagSoft : 0u) |
          (r.lit ? cook::kFlagLit : 0u));
}

void write_ribbon(const RibbonSettings& r, cook::ByteWriter& out) {
  for (const std::string* s : {&r.id_field, &r.serial_field, &r.uv_mode, &r.facing, &r.normal_field}) out.string(*s);
  out.f32(r.uv_tile_length);
  out.u32(r.subdivisions);
}

void write_light(const LightSettings& l, cook::ByteWriter& out) {
  out.u32(l.enabled ? 1u : 0u);
  for (float c : l.color) out.f32(c);
  out.f32(l.intensity);
  out.u32(l.use_particle_color ? 1u : 0u);
  out.f32(l.radius);
  out.f32(l.radius_from_size);
}

void write_chunk(uint32_t tag, cook::ByteWriter& payload, cook::ByteWriter& out) {
  payload.pad();
  out.u32(tag);
  out.u32(uint32_t(payload.bytes().size()));
  out.raw(payload.bytes());
}

}  // namespace

std::vector<uint8_t> save_cooked_effect(const CompiledEffect& effect) {
  cook::ByteWriter body;
  for (uint32_t tag : cook::version_chunks(kCookedEffectVersion)) {
    cook::ByteWriter chunk;
    if (tag == cook::kChunkName) {
      chunk.string(effect.name);
    } else if (tag == cook::kChunkProgram) {
      chunk.raw(save_mfx(effect.program));
    } else if (tag == cook::kChunkEmitterDefaults) {
      chunk.u32(uint32_t(effect.emitter_defaults.size()));
      for (uint32_t w : effect.emitter_defaults) chunk.u32(w);
    } else if (tag == cook::kChunkGlobalPreviews) {
      chunk.u32(uint32_t(effect.globals.size()));
      for (const GlobalPreview& g : effect.globals) {
        chunk.string(g.name);
        chunk.u32(uint32_t(g.values.size()));
        for (float v : g.values) chunk.f32(v);
      }
    } else if (tag == cook::kChunkEmission) {
      write_emission(effect.emission, chunk);
    } else if (tag == cook::kChunkCulling) {
      chunk.u32(effect.emission.cull ? 1u : 0u);
      chunk.f32(effect.emission.max_catchup_seconds);
    } else if (tag == cook::kChunkRender) {
      write_render(effect.render, chunk);
    } else if (tag == cook::kChunkRibbon) {
      write_ribbon(effect.render.ribbon, chunk);
    } else if (tag == cook::kChunkLight) {
      write_light(effect.render.light, chunk);
    } else if (tag == cook::kChunkKernels) {
      cook::write_kernels(effect, chunk);
    }
    write_chunk(tag, chunk, body);
  }
  const std::vector<uint8_t>& payload = body.bytes();
  cook::ByteWriter out;
  out.raw(kCookedEffectMagic);
  out.u32(kCookedEffectVersion);
  out.u32(uint32_t(payload.size()));
  out.u32(uint32_t(::crc32(0L, payload.data(), uInt(payload.size()))));
  out.raw(payload);
  return std::move(out.bytes());
}

bool is_cooked_effect(std::span<const uint8_t> bytes) {
  return bytes.size() >= kCookedEffectMagic.size() &&
         std::memcmp(bytes.data(), kCookedEffectMagic.data(), kCookedEffectMagic.size()) == 0;
}

}  // namespace mote
