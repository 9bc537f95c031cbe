#include "render/reference_particle_lights.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>

#include "shared/frame.h"

namespace mote::render {

namespace {

// A record word as the selection passes read it (shaders/render/particle_lights_common.glsl):
// unbound or outside the record, the fallback.
float word_float(std::span<const uint32_t> record, uint32_t word, float fallback) {
  return (word == shader::kDrawUnbound || word >= record.size()) ? fallback : std::bit_cast<float>(record[word]);
}

glm::vec3 word_vec3(std::span<const uint32_t> record, uint32_t word, glm::vec3 fallback) {
  if (word == shader::kDrawUnbound || uint64_t(word) + 3 > record.size()) return fallback;
  return {word_float(record, word, 0.0f), word_float(record, word + 1, 0.0f), word_float(record, word + 2, 0.0f)};
}

glm::vec4 word_vec4(std::span<const uint32_t> record, uint32_t word, glm::vec4 fallback) {
  if (word == shader::kDrawUnbound || uint64_t(word) + 4 > record.size()) return fallback;
  return {word_float(record, word, 0.0f), word_float(record, word + 1, 0.0f), word_float(record, word + 2, 0.0f),
          word_float(record, word + 3, 0.0f)};
}

std::optional<shader::PointLightGpu> slot_light(std::span<const uint32_t> record,
                                                std::span<const shader::ParticleDrawRecord> records,
                                                std::span<const shader::ParticleLightRecord> light_records) {
  const uint32_t row = record[0] & shader::kFrameHeaderRowMask;
  if (row >= records.size() || row >= light_records.size()) return std::nullopt;
  const shader::ParticleDrawRecord& d = records[row];
  const shader::ParticleLightRecord& l = light_records[row];
  const bool live = (d.flags & shader::kDrawFlagLive) != 0 &&
                    (d.generation & shader::kFrameHeaderGenerationMask) == (record[0] >> shader::kFrameHeaderRowBits) &&
                    (l.flags & shader::kParticleLightFlagLive) != 0;
  if (!live) return std::nullopt;
  const glm::vec3 position = word_vec3(record, d.position_word, glm::vec3(0.0f));
  const float size = word_float(record, d.size_word, 1.0f) * d.size_scale;
  const glm::vec4 color = word_vec4(record, d.color_word, glm::vec4(1.0f)) * d.tint;
  return shader::particle_light(l, position, size, color);
}

}  // namespace

ReferenceParticleLights select_reference_particle_lights(std::span<const uint32_t> pool, uint32_t record_words,
                                                         std::span<const uint32_t> alive_slots,
                                                         std::span<const shader::ParticleDrawRecord> records,
                                                         std::span<const shader::ParticleLightRecord> light_records,
                                                         uint32_t max_lights) {
  ReferenceParticleLights out;
  out.header.capacity = max_lights;
  if (record_words == 0) return out;
  const size_t capacity = pool.size() / record_words;
  std::vector<std::pair<uint32_t, uint32_t>> candidates;  // (key, slot)
  for (const uint32_t slot : alive_slots) {
    if (slot >= capacity) continue;
    const auto light = slot_light(pool.subspan(size_t(slot) * record_words, record_words), records, light_records);
    if (!light) continue;
    const float weight = shader::particle_light_weight(*light);
    if (weight > 0.0f) candidates.emplace_back(shader::particle_light_key(weight), slot);
  }
  std::sort(candidates.begin(), candidates.end());
  out.header.candidates = uint32_t(candidates.size());
  out.header.count = std::min(out.header.candidates, max_lights);
  out.header.overflow = out.header.candidates - out.header.count;
  for (uint32_t i = 0; i < out.header.count; ++i) {
    const uint32_t slot = candidates[i].second;
    out.lights.push_back(*slot_light(pool.subspan(size_t(slot) * record_words, record_words), records, light_records));
  }
  return out;
}

}  // namespace mote::render
