// The emitter table's CPU side: which row each emitter has, its generation, its program
// placement and field block, and the staging of its record (shaders/shared/emitter_record.h)
// into a word image the GPU uploads as one span of rows.
//
// An Emitter is the author's: an effect, its emitter field values, the transforms row it is
// placed at and a version the author bumps after editing any of it. Everything the registry
// assigns lives in an EmitterContext kept apart, reached through context(row), so no emitter
// carries a row or a generation that anything but the registry could have written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime/bookkeeping/word_span.hpp"
#include "shared/emitter_record.h"

namespace mote::runtime {

struct Emitter {
  CompiledEffect effect;
  // f32 bit patterns, effect.program.emitter_field_words() of them; any other size (empty
  // included) means the effect's emitter_defaults (or zeros when those do not fit either).
  std::vector<uint32_t> field_values;
  // Only when the heap keeps per-emitter globals: this emitter's copy of its program's imports,
  // f32 bit patterns packed in import order; any other size means zeros.
  std::vector<uint32_t> global_values;
  // The transforms row the emitter stands at, or shader::kEmitterNoTransform for the constant
  // pose below (EMITTER_POSITION / ROTATION; DIRECTION and UP are +Z and +Y turned by it).
  uint32_t transform_row = shader::kEmitterNoTransform;
  float position[3] = {0.0f, 0.0f, 0.0f};
  float rotation[4] = {0.0f, 0.0f, 0.0f, 1.0f};  // quaternion xyzw
  uint32_t seed = 0;                             // 0: the registration's generation (unless the options keep a 0 seed)
  // The runtime controls (shader::kEmitterControlFlags: paused, stopped, inactive) the record's
  // flags carry besides the effect's own (docs/design/drivers.md).
  uint32_t control_flags = 0;
  uint64_t version = 0;  // bump after any edit; flush restages rows whose version moved
};

struct EmitterContext {
  uint32_t row = 0;
  uint32_t generation = 0;  // never 0 while registered
  ProgramHandle program;
  FieldBlockHandle field_block;
  uint32_t transform_row = 0;   // as last staged
  uint64_t staged_version = 0;  // the emitter version the row was staged from
  bool needs_stage = false;     // a change the emitter's version does not show (add, set_program)
  // A program the heap refused, by hash: not offered again until the emitter's program changes.
  bool has_refused = false;
  uint64_t refused_hash = 0;
};

struct FlushReport {
  WordSpan rows;           // rows [begin, end) whose records changed (staged or cleared)
  uint32_t restaged = 0;   // records written this flush
  uint32_t refused = 0;    // program replacements the heap refused this flush
  bool relocated = false;  // the heap's placement_version moved: every live row was restaged
};

struct EmitterRegistryOptions {
  uint32_t first_generation = 1;  // 0 is taken as 1; tests start near the wrap
  // Generations run 1 .. max_generation and wrap to 1 (never 0). The GPU frame keeps them
  // inside the particle header's 12 bits (0xFFF).
  uint32_t max_generation = UINT32_MAX;
  // Emitter::seed 0 resolves to the generation, so emitters left unseeded still differ. The GPU
  // frame keeps 0 as a seed like any other, as the reference simulation does
  // (docs/design/runtime_bookkeeping.md, "The registry").
  bool seed_from_generation = true;
};

// Fills `record` from an emitter and its context: the one place authoring data and
// assignment meet. `seed_from_generation`: EmitterRegistryOptions::seed_from_generation.
void write_emitter_record(shader::EmitterRecord& record, const Emitter& emitter, const EmitterContext& context,
                          const ProgramHeap& heap, bool seed_from_generation = true);

class EmitterRegistry {
 public:
  explicit EmitterRegistry(ProgramHeap& heap, const EmitterRegistryOptions& options = {});
  EmitterRegistry(const EmitterRegistry&) = delete;
  EmitterRegistry& operator=(const EmitterRegistry&) = delete;

  // Registers `emitter` (not owned: it must outlive its registration) and returns its row,
  // stable until remove(); a freed row is handed to the next add. Claims nothing when the
  // heap refuses the program. The record is staged by the next flush.
  Result<uint32_t> add(Emitter& emitter);
  // Frees the row (its record zero-filled: generation 0 kills its particles), the program
  // reference and the field block.
  Status remove(uint32_t row);
  // Live swap: the new program is acquired before the old is released, the field block is
  // reallocated when the emitter layout's size changes, and emitter.effect.program becomes
  // `program`. A refused program leaves everything as it was.
  Status set_program(uint32_t row, const Program& program);
  // Gives the live row a new generation (restaged by the next flush): to the GPU it is a new
  // emitter, so its particles die as orphans and its state starts over. The GPU frame's
  // swap_effect, which does not carry particles across a program swap.
  Status renew_generation(uint32_t row);

  // Reconciles edited emitters (program replacements first, since acquiring one may move
  // other placements), then restages every row whose version moved or whose context changed,
  // or every live row when the heap's placement_version moved. Allocates nothing.
  FlushReport flush();

  bool is_live(uint32_t row) const { return row < rows_.size() && rows_[row].emitter != nullptr; }
  const EmitterContext* context(uint32_t row) const { return is_live(row) ? &rows_[row].context : nullptr; }
  const Emitter* emitter(uint32_t row) const { return is_live(row) ? rows_[row].emitter : nullptr; }
  uint32_t row_capacity() const { return uint32_t(rows_.size()); }
  uint32_t live_count() const { return live_; }
  // row_capacity() * kEmitterRecordWords words; freed rows are zero.
  std::span<const uint32_t> table() const { return table_; }
  const ProgramHeap& heap() const { return heap_; }
  const EmitterRegistryOptions& options() const { return options_; }

 private:
  struct Row {
    Emitter* emitter = nullptr;
    EmitterContext context;
  };

  uint32_t take_generation();
  // The values to write into a block of `words` words (see Emitter::field_values).
  std::span<const uint32_t> field_values_for(const Emitter& emitter, uint32_t words) const;
  // Writes the emitter's block: its field values, then (per-emitter globals) its global copies.
  void write_block(const Emitter& emitter, FieldBlockHandle block, const Program& program);
  Status swap_program(Row& row, const Program& program);
  void reconcile(Row& row, FlushReport& report);
  void stage(uint32_t row);

  ProgramHeap& heap_;
  EmitterRegistryOptions options_;
  std::vector<Row> rows_;
  std::vector<uint32_t> free_rows_;  // a min-heap: the lowest free row goes first (short scans)
  std::vector<uint32_t> table_;
  std::vector<uint32_t> zeros_;      // zeros for the largest block, so a flush allocates nothing
  std::vector<uint32_t> block_;      // the block being written (fields then globals), preallocated
  shader::EmitterRecord staging_{};  // every restaged row goes through this one record
  uint32_t next_generation_;
  uint32_t live_ = 0;
  uint64_t staged_placement_version_ = 0;
  WordSpan pending_rows_;  // rows changed since the last flush (removes)
};

}  // namespace mote::runtime
