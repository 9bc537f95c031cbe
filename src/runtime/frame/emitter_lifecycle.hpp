// The frame's emitters on the host: the program heap (the program buffer's CPU image) and the
// emitter registry (rows, generations, the table's CPU image), each live emitter's authoring data
// (effect, field values, its own copies of its globals, pose, seed, declared bursts), the host's
// queued bursts, and the system's values of globals (set_global). Adding, removing and swapping
// emitters and setting their values only edit this state and note the changed rows; the frame
// uploads what changed at its start. It knows nothing of field bindings (FieldBindings) or of the
// GPU: ParticleSystem composes them. docs/design/runtime_frame.md, "Emitters".
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/emitter_registry.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime/bookkeeping/word_ranges.hpp"
#include "runtime/frame/frame_options.hpp"
#include "runtime/transforms/transform_table.hpp"

namespace mote::runtime {

class EmitterLifecycle {
 public:
  // A live emitter: the registry's authoring data (the registry holds its address, so a Row is
  // allocated once and never moved) and what only the frame keeps.
  struct Row {
    Emitter emitter;      // effect, field values, own global copies, pose, seed, version
    EmitterDesc options;  // as given (swap_effect keeps the seed, pose, row and overrides)
    shader::FrameBurst bursts[shader::kFrameMaxBursts]{};  // unused entries: count 0
    uint64_t serial = 0;                                   // which emitter this is (a swap keeps it, a re-add does not)
    uint32_t transform_generation = 0;  // of options.transform.row, when the emitter was placed there
  };

  // `encode_section`: the code the heap keeps for each section (the interpreters' form).
  EmitterLifecycle(const ParticleSystemOptions& options, ProgramHeapOptions heap_options);

  // The transforms table emitters may stand at (non-owning; nullptr: none).
  void set_transforms(const TransformTable* table) { transforms_ = table; }

  // Everything that can refuse runs before anything is added; on an error nothing is added.
  Result<std::vector<uint32_t>> add_emitters(const CompiledEffect& effect, std::span<const EmitterDesc> options);
  Status remove_emitter(uint32_t row);
  // The row runs `effect` under a new generation; fields both programs declare with one width
  // keep their values. On an error the row is unchanged.
  Status swap_effect(uint32_t row, const CompiledEffect& effect);
  Status burst(uint32_t row, uint32_t count);
  // Every live reader's copy and the system's value (which emitters added later start from).
  // The caller refuses a bound global first.
  Status set_global(std::string_view name, std::span<const float> values);
  Status set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values);
  // The runtime controls (src/runtime/frame/emitter_controls.cpp, docs/design/drivers.md): one of
  // shader::kEmitterControlFlags on or off for the row's record, and the constant pose of an
  // emitter placed by value (kInvalidArgument for one standing at a transform row; a null
  // rotation keeps the emitter's). The next frame's flush restages the row.
  Status set_control(uint32_t row, uint32_t flag, bool on);
  Status set_pose(uint32_t row, const std::array<float, 3>& position, const std::array<float, 4>* rotation);
  // set_emitter_field's checks alone (a live row, a known field, 1 or `width` values).
  Status check_emitter_field(uint32_t row, std::string_view name, size_t value_count) const;

  // The system's value of a global without touching any emitter (a bound global's last value).
  void set_system_global(std::string_view name, std::span<const float> values);
  const std::vector<float>* system_global(std::string_view name) const;
  // Writes `values` into every live reader's copy of `global` (an unbound global's last value).
  void write_global_to_readers(std::string_view global, std::span<const float> values);
  // A bound value read back from the GPU: into the emitter's field or global copy of that name
  // and width, if the emitter at `row` is still the one (`serial`).
  void take_bound_value(uint32_t row, uint64_t serial, bool global, std::string_view name,
                        std::span<const uint32_t> value);

  // Once a frame, after a change: the edited emitters' blocks and records into the heap and the
  // table. Returns whether a repack moved placements or blocks (every row restaged).
  Result<bool> flush();
  // This frame's spawn commands ([row, count] pairs, at most kFrameMaxCommands) from the queued
  // bursts, which it clears.
  std::vector<uint32_t> take_commands();
  bool has_queued_bursts() const { return !pending_bursts_.empty(); }
  // The rows whose record and bursts the next frame writes, and their forgetting after it did.
  const WordRanges& dirty_rows() const { return dirty_rows_; }
  void clear_dirty_rows() { dirty_rows_.clear(); }
  // FrameBurst, kFrameMaxBursts per row: what the bursts buffer holds.
  std::span<const shader::FrameBurst> burst_table() const { return burst_table_; }

  // Whether an emitter stands at `transform_row` (kInvalidArgument naming it), and whether every
  // emitter's row is still the one it was given.
  Status check_transform_row_unused(uint32_t transform_row) const;
  Status check_transform_references(const TransformTable& table) const;
  bool any_at_transform() const;

  bool is_live(uint32_t row) const { return registry_->is_live(row); }
  uint32_t generation(uint32_t row) const;
  const Row* row(uint32_t r) const { return r < rows_.size() ? rows_[r].get() : nullptr; }
  uint32_t row_count() const { return row_count_; }  // one past the highest live row
  uint32_t live_count() const { return registry_->live_count(); }
  // The program buffer word (in the heap image) where the emitter's block starts.
  uint32_t block_word(uint32_t row) const;

  ProgramHeap& heap() { return *heap_; }
  const ProgramHeap& heap() const { return *heap_; }
  const EmitterRegistry& registry() const { return *registry_; }

 private:
  Result<Row> make_row(const CompiledEffect& effect, const EmitterDesc& options) const;
  void note_row_changed(uint32_t row);
  // After an edit of the row's emitter (its values): the next flush rewrites its block and record.
  void edited(uint32_t row);

  ParticleSystemOptions options_;
  const TransformTable* transforms_ = nullptr;
  std::unique_ptr<ProgramHeap> heap_;
  std::unique_ptr<EmitterRegistry> registry_;
  std::vector<std::unique_ptr<Row>> rows_;  // by registry row; null when free
  std::vector<shader::FrameBurst> burst_table_;
  WordRanges dirty_rows_;
  uint32_t row_count_ = 0;
  uint64_t next_serial_ = 1;
  std::map<uint32_t, uint32_t> pending_bursts_;                           // row -> count, merged on the host
  std::map<std::string, std::vector<float>, std::less<>> global_values_;  // set_global's values
};

}  // namespace mote::runtime
