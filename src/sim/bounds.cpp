// The bounds a FrameReport carries (include/mote/simulation.hpp): one computation for the
// reference simulation and for the GPU frame's reports (mote/compare.hpp, `mote simulate`).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "mote/simulation.hpp"

namespace mote {

namespace {

// `record(i)` is the first word of the i-th of `count` records, already checked to hold the field.
template <typename RecordAt>
void accumulate_bounds(size_t count, uint32_t field_offset, RecordAt record, FrameReport& report) {
  report.has_bounds = count > 0;
  if (count == 0) {
    for (int c = 0; c < 3; ++c) report.bounds_min[c] = report.bounds_max[c] = 0.0f;
    return;
  }
  float lo[3], hi[3];
  for (int c = 0; c < 3; ++c) {
    lo[c] = std::numeric_limits<float>::infinity();
    hi[c] = -std::numeric_limits<float>::infinity();
  }
  for (size_t i = 0; i < count; ++i) {
    const uint32_t* p = record(i) + field_offset;
    for (int c = 0; c < 3; ++c) {
      const float v = std::bit_cast<float>(p[c]);
      if (std::isnan(v)) continue;
      lo[c] = std::min(lo[c], v);
      hi[c] = std::max(hi[c], v);
    }
  }
  for (int c = 0; c < 3; ++c) {
    report.bounds_min[c] = lo[c];
    report.bounds_max[c] = hi[c];
  }
}

Status check_field(uint32_t record_words, uint32_t field_offset) {
  if (record_words == 0 || uint64_t(field_offset) + 3 > record_words)
    return make_error(ErrorCode::kInvalidArgument, "the bounds field (words " + std::to_string(field_offset) + ".." +
                                                       std::to_string(uint64_t(field_offset) + 2) +
                                                       ") is not inside a record of " + std::to_string(record_words) +
                                                       " words");
  return ok_status();
}

}  // namespace

std::optional<uint32_t> bounds_field_offset(const CompiledEffect& effect) {
  const std::string& name = effect.render.position_field.empty() ? std::string("position")
                                                                 : effect.render.position_field;
  for (const FieldDecl& f : effect.program.particle_fields)
    if (f.name == name && f.width >= 3) return effect.program.particle_field_offset(name);
  return std::nullopt;
}

Status measure_bounds(std::span<const uint32_t> records, uint32_t record_words, uint32_t field_offset,
                      FrameReport& report) {
  MOTE_TRY(check_field(record_words, field_offset));
  if (records.size() % record_words != 0)
    return make_error(ErrorCode::kInvalidArgument, std::to_string(records.size()) + " words are not whole records of " +
                                                       std::to_string(record_words));
  accumulate_bounds(
      records.size() / record_words, field_offset, [&](size_t i) { return records.data() + i * record_words; }, report);
  return ok_status();
}

Status measure_bounds(std::span<const uint32_t> pool, uint32_t record_words, std::span<const uint32_t> slots,
                      uint32_t field_offset, FrameReport& report) {
  MOTE_TRY(check_field(record_words, field_offset));
  const size_t pool_records = pool.size() / record_words;
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i] >= pool_records)
      return make_error(ErrorCode::kInvalidArgument, "slot " + std::to_string(slots[i]) + " (entry " +
                                                         std::to_string(i) + ") is past the pool's " +
                                                         std::to_string(pool_records) + " records");
  accumulate_bounds(
      slots.size(), field_offset, [&](size_t i) { return pool.data() + size_t(slots[i]) * record_words; }, report);
  return ok_status();
}

}  // namespace mote
