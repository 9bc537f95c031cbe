// Matching the GPU frame's particles with the reference simulation's by birth serial, and the
// per-field deviation between the twins: the CPU half of mote/compare.hpp, fed frame by frame
// (src/sim/gpu_compare.cpp runs the two sides). Plain words in, no device: tests/sim drives it
// with records of its own.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "mote/compare.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote::sim {

class BirthSerialMatcher {
 public:
  // `program` lays out the records (its particle fields, from word 1); both sides' records are
  // `record_words` long and the GPU's carry their birth serial at word `serial_word`, past the
  // program's fields.
  static Result<BirthSerialMatcher> create(const Program& program, uint32_t record_words, uint32_t serial_word);

  // One frame, after both sides stepped. The reference's newborns are the first
  // `reference_spawned` entries of its alive list (the loop puts them first) and take the next
  // serials in that order; every GPU record is then matched with the reference particle of its
  // serial: the headers compared, and each field's largest deviation kept. A GPU record without
  // a twin counts as unmatched. kInvalidArgument for words that are not whole records or a slot
  // past the reference pool.
  Status add_frame(std::span<const uint32_t> reference_pool, std::span<const uint32_t> reference_alive,
                   uint32_t reference_spawned, std::span<const uint32_t> gpu_records);

  // records_compared, unmatched, header_mismatches and max_deviation (one per particle field, in
  // the program's order); the frame counts are the caller's.
  const ComparisonSummary& summary() const { return summary_; }

 private:
  BirthSerialMatcher() = default;

  std::vector<uint32_t> field_widths_;
  uint32_t record_words_ = 0;
  uint32_t serial_word_ = 0;
  uint64_t born_ = 0;                        // reference newborns so far: the next serial
  std::map<uint32_t, uint64_t> ref_serial_;  // reference slot -> the serial of its tenant
  ComparisonSummary summary_;
};

}  // namespace mote::sim
