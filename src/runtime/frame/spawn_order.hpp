// The spawn order (docs/design/runtime_frame.md, "Two orderings"): the emitter rows arranged so
// that every live program's rows lie together, in row order within a program, free rows last.
// The tick writes each row's spawn count at its place, so the scan leaves every program's
// newborns one run and each program's emit dispatch walks its own run (FrameSpawnRange), not the
// frame's every newborn. Kept on the host from the registry's table; rebuilt when rows change and
// uploaded only when it differs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shared/frame.h"

namespace mote::runtime {

class SpawnOrder {
 public:
  // Rebuilds the order over the first `rows` rows of `table` (kEmitterRecordWords words a row; a
  // free row is zero) for program ids [0, program_ids). True when it changed.
  bool rebuild(std::span<const uint32_t> table, uint32_t rows, uint32_t program_ids);

  std::span<const uint32_t> places() const { return places_; }  // per row: its place
  std::span<const uint32_t> rows() const { return rows_; }      // per place: its row
  // Per program id: the places its rows take (first_place, end_place; the rest zero, written
  // by the GPU each frame).
  std::span<const shader::FrameSpawnRange> ranges() const { return ranges_; }

 private:
  std::vector<uint32_t> places_;
  std::vector<uint32_t> rows_;
  std::vector<shader::FrameSpawnRange> ranges_;
};

}  // namespace mote::runtime
