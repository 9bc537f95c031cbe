#include "runtime/frame/spawn_order.hpp"

#include <cstddef>

#include "shared/emitter_record.h"

namespace mote::runtime {

namespace {

constexpr size_t kProgramWord = offsetof(shader::EmitterRecord, program_id) / 4;
constexpr size_t kGenerationWord = offsetof(shader::EmitterRecord, generation) / 4;

}  // namespace

bool SpawnOrder::rebuild(std::span<const uint32_t> table, uint32_t rows, uint32_t program_ids) {
  // A counting sort of the rows by program (a stable one: row order within a program), the rows
  // of no live program (free, or an id outside the heap's) in one last group.
  const uint32_t none = program_ids;
  auto program_of = [&](uint32_t row) {
    const size_t at = size_t(row) * shader::kEmitterRecordWords;
    if (at + shader::kEmitterRecordWords > table.size() || table[at + kGenerationWord] == 0u) return none;
    const uint32_t program = table[at + kProgramWord];
    return program < program_ids ? program : none;
  };
  std::vector<uint32_t> starts(size_t(program_ids) + 2, 0u);
  for (uint32_t row = 0; row < rows; ++row) ++starts[size_t(program_of(row)) + 1];
  for (size_t p = 1; p < starts.size(); ++p) starts[p] += starts[p - 1];
  std::vector<shader::FrameSpawnRange> ranges(program_ids, shader::FrameSpawnRange{});
  for (uint32_t p = 0; p < program_ids; ++p) {
    ranges[p].first_place = starts[p];
    ranges[p].end_place = starts[size_t(p) + 1];
  }
  std::vector<uint32_t> places(rows), order(rows);
  for (uint32_t row = 0; row < rows; ++row) {
    const uint32_t place = starts[program_of(row)]++;
    places[row] = place;
    order[place] = row;
  }
  auto same_ranges = [&] {
    if (ranges.size() != ranges_.size()) return false;
    for (size_t p = 0; p < ranges.size(); ++p)
      if (ranges[p].first_place != ranges_[p].first_place || ranges[p].end_place != ranges_[p].end_place) return false;
    return true;
  };
  if (places == places_ && same_ranges()) return false;
  places_ = std::move(places);
  rows_ = std::move(order);
  ranges_ = std::move(ranges);
  return true;
}

}  // namespace mote::runtime
