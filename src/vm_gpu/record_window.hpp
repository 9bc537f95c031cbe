// The record window of a program section: the 4-word chunks of a particle record that its
// LOAD_FIELD and STORE_FIELD instructions touch. GPU executors stage the window with 16-byte
// loads before the section runs and write the chunks it stored back with 16-byte stores after,
// instead of one 4-byte access per field word. With a 128-byte record that is the difference
// between every STORE_FIELD lane sending its own partial-sector write to L2 and one full write
// per chunk (docs/PERFORMANCE.md, "GPU interpreters", has the measurements).
#pragma once

#include <cstdint>

#include "mote/program.hpp"

namespace mote {

struct RecordWindow {
  uint32_t first_chunk = 0;  // the window starts at record word first_chunk * 4
  uint32_t chunks = 0;       // 0: no window (no field access, a stride that is not a multiple
                             // of 4 words, or a span over kVmMaxWindowChunks): access word by word
  uint32_t dirty_mask = 0;   // bit c: chunk first_chunk + c holds a STORE_FIELD word
};

// Field words are computed and clamped as the shaders do (min(word + lane, record_words - 1) in
// 32 bits), so the window covers every word a section can touch, verified or not; the shaders
// still send a word outside the window straight to the record.
RecordWindow record_window(const Program& program, Section section, uint32_t record_words);

}  // namespace mote
