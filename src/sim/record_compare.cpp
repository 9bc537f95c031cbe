#include "sim/record_compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace mote::sim {

Result<BirthSerialMatcher> BirthSerialMatcher::create(const Program& program, uint32_t record_words,
                                                      uint32_t serial_word) {
  const uint32_t own = program.particle_record_words();
  if (record_words < own)
    return make_error(ErrorCode::kInvalidArgument, "records of " + std::to_string(record_words) +
                                                       " words cannot hold the program's " + std::to_string(own));
  if (serial_word < own || serial_word >= record_words)
    return make_error(ErrorCode::kInvalidArgument, "the serial word " + std::to_string(serial_word) +
                                                       " is not past the program's fields inside the record");
  BirthSerialMatcher m;
  m.record_words_ = record_words;
  m.serial_word_ = serial_word;
  for (const FieldDecl& f : program.particle_fields) {
    m.field_widths_.push_back(f.width);
    m.summary_.max_deviation.push_back({f.name, 0.0, 0.0, false});
  }
  return m;
}

Status BirthSerialMatcher::add_frame(std::span<const uint32_t> reference_pool,
                                     std::span<const uint32_t> reference_alive, uint32_t reference_spawned,
                                     std::span<const uint32_t> gpu_records) {
  if (reference_pool.size() % record_words_ != 0 || gpu_records.size() % record_words_ != 0)
    return make_error(ErrorCode::kInvalidArgument,
                      "the records are not whole records of " + std::to_string(record_words_) + " words");
  const size_t pool_records = reference_pool.size() / record_words_;
  for (uint32_t slot : reference_alive)
    if (slot >= pool_records)
      return make_error(ErrorCode::kInvalidArgument, "reference slot " + std::to_string(slot) + " is past its pool");

  const uint32_t newborns = std::min<uint32_t>(reference_spawned, uint32_t(reference_alive.size()));
  for (uint32_t i = 0; i < newborns; ++i) ref_serial_[reference_alive[i]] = born_ + i;
  born_ += reference_spawned;
  std::map<uint64_t, uint32_t> ref_by_serial;  // serial -> reference slot, this frame's live ones
  for (uint32_t slot : reference_alive) {
    auto it = ref_serial_.find(slot);
    if (it != ref_serial_.end()) ref_by_serial[it->second] = slot;
  }

  for (size_t i = 0; i < gpu_records.size(); i += record_words_) {
    const uint32_t* got = gpu_records.data() + i;
    auto it = ref_by_serial.find(got[serial_word_]);
    if (it == ref_by_serial.end()) {
      ++summary_.unmatched;
      continue;
    }
    const uint32_t* want = reference_pool.data() + size_t(it->second) * record_words_;
    summary_.header_mismatches += got[0] != want[0];
    uint32_t word = 1;
    for (size_t f = 0; f < field_widths_.size(); ++f) {
      FieldDeviation& dev = summary_.max_deviation[f];
      for (uint32_t c = 0; c < field_widths_[f]; ++c, ++word) {
        const float x = std::bit_cast<float>(got[word]);
        const float y = std::bit_cast<float>(want[word]);
        if (std::isnan(x) || std::isnan(y)) {
          if (std::isnan(x) != std::isnan(y)) dev.nan_mismatch = true;
          continue;
        }
        const double d = std::abs(double(x) - double(y));
        dev.abs = std::max(dev.abs, d);
        dev.relative = std::max(dev.relative, d / (1.0 + std::abs(double(y))));
      }
    }
    ++summary_.records_compared;
  }
  return ok_status();
}

}  // namespace mote::sim
