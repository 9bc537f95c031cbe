// The GPU runtime's frame, first version: one pool of uniform-stride records shared by every
// emitter, a free-list stack filled by a dispatch, two alive lists swapped per frame, a counters
// block that carries the indirect dispatch arguments, a GPU-owned emitter state table, and the
// frame's passes — the transforms' compose and the field bindings (when set), reset + spawn
// commands, emitter tick, prefix scan, emit (INIT), simulate (UPDATE, kill, orphans), finish —
// recorded into one submission with synchronization2 barriers.
// Nothing in the frame is sized from a CPU readback: the host supplies dt, the row count and the
// spawn commands it authored. Semantics: docs/design/simulation.md; design: docs/design/runtime_frame.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "mote/simulation.hpp"
#include "runtime_passes/prefix_scan.hpp"
#include "runtime_passes/transform_table.hpp"
#include "shared/frame.h"

namespace mote::runtime {

struct ParticleSystemOptions {
  uint32_t capacity = 0;       // pool records, 1 .. 2^24 (PARTICLE_INDEX is a float)
  uint32_t record_words = 32;  // pool stride (word 0 is the header)
  uint32_t max_emitters = 64;  // emitter table rows (the scan's length)
  // When non-zero, emit writes each newborn's birth serial into this record word (which must lie
  // past every program's fields): a debugging and test aid to match particles across executors.
  uint32_t serial_word = 0;
};

// Declared bursts (EmissionSettings::bursts with count > 0) an effect may have on the GPU frame.
inline constexpr uint32_t kMaxEffectBursts = shader::kFrameMaxBursts;

// EmitterOptions::transform_row of an emitter placed by its own constant pose.
inline constexpr uint32_t kNoTransformRow = shader::kFrameNoTransform;

// The TransformTable channel a field binding copies (shader::TransformChannels): POSITION,
// DIRECTION and UP are 3 words (as the emitter builtins of the same names), ORIENTATION a
// quaternion of 4 (scale and a mirror divided out). A field is bound only to a channel exactly
// as wide as it.
enum class Channel : uint32_t {
  kPosition = shader::kFrameChannelPosition,
  kDirection = shader::kFrameChannelDirection,
  kUp = shader::kFrameChannelUp,
  kOrientation = shader::kFrameChannelOrientation,
};
constexpr uint32_t channel_width(Channel c) { return c == Channel::kOrientation ? 4u : 3u; }

struct EmitterOptions {
  uint32_t seed = 0;
  float position[3] = {0.0f, 0.0f, 0.0f};
  float rotation[4] = {0.0f, 0.0f, 0.0f, 1.0f};  // quaternion xyzw
  std::vector<FieldValue> emitter_fields;          // overrides of the effect's defaults
  std::vector<FieldValue> globals;                 // overrides of the effect's global previews
  // A live row of the system's TransformTable (set_transforms): the emitter stands at that row's
  // world pose, composed on the GPU each frame, and position / rotation above are ignored.
  uint32_t transform_row = kNoTransformRow;
};

// The counters as the last completed frame left them (read_stats: tests and tools only).
struct FrameStats {
  uint32_t alive = 0;       // this frame's alive list length
  uint32_t previous_alive = 0;  // what simulate walked (last frame's alive)
  uint32_t free_count = 0;
  uint32_t budget_left = 0;
  uint32_t newborns = 0;
  uint32_t dropped = 0;
  uint32_t killed = 0;
  uint32_t orphaned = 0;
  uint32_t spawned_total = 0;
  uint32_t frames = 0;
};

class ParticleSystem {
 public:
  // Allocates the buffers and builds the pipelines, then fills the free list on the GPU.
  static Result<ParticleSystem> create(gpu::Device& device, const ParticleSystemOptions& options);

  ParticleSystem(ParticleSystem&&) noexcept = default;
  ParticleSystem& operator=(ParticleSystem&&) noexcept = default;
  ParticleSystem(const ParticleSystem&) = delete;
  ParticleSystem& operator=(const ParticleSystem&) = delete;

  // Adds an emitter running `effect` (its program linked to its globals, verified for the pool's
  // stride) and returns its row. Set-up path: waits for the GPU and re-uploads the program image
  // and the emitter table. Refuses programs over the fast interpreter's 64 registers, and effects
  // declaring more than kMaxEffectBursts bursts (count > 0) or a burst with a non-finite time or
  // interval. The effect's declared bursts are scheduled by the GPU tick against the emitter's
  // clock, as the reference simulation fires them (sim::bursts_due).
  Result<uint32_t> add_emitter(const CompiledEffect& effect, const EmitterOptions& options = {});
  // Adds one emitter per entry of `options`, all running `effect`, with a single wait and
  // re-upload of the image and table (the set-up path for thousands of emitters). Returns the
  // rows in order. On an error nothing is added.
  Result<std::vector<uint32_t>> add_emitters(const CompiledEffect& effect, std::span<const EmitterOptions> options);
  // Frees the row (generation 0): the next frame's simulate frees its particles as orphans.
  // The row's field bindings go with it. Set-up path (waits, re-uploads).
  //
  // Every set-up path (add_emitter(s), remove_emitter, swap_effect) first reads back the words
  // the field-bind pass wrote since the last upload, when there are any, so the re-upload keeps
  // the values bound fields and globals last had.
  Status remove_emitter(uint32_t row);
  // The seed's live program swap: the row runs `effect` from the next frame on, under a new
  // generation, so the old program's particles die as orphans in the next simulate and the
  // emitter's state (clock, accumulator, serials, declared bursts) starts over; queued burst()
  // spawns are kept. The seed, constant pose, transform row and the per-emitter global overrides
  // given to add_emitter stay (overrides of globals the new effect does not read are dropped);
  // emitter fields start from the new effect's defaults, and fields the old and new programs
  // both declare with the same width keep the emitter's current values and bindings (other
  // bindings are dropped). Checked like add_emitter; on an error the row is unchanged.
  // Set-up path (waits, re-uploads).
  Status swap_effect(uint32_t row, const CompiledEffect& effect);
  // Queues `count` extra spawns for the row's next frame (merged per row on the host; they go
  // through the same budget and INIT as the rate): gameplay bursts, on top of the effect's own
  // declared bursts, which the GPU schedules by itself.
  Status burst(uint32_t row, uint32_t count);

  // The scene's transforms (non-owning; nullptr: none). While set, execute() records the table's
  // compose pass at the start of the frame, before the tick, and emitters added at one of its rows
  // read EMITTER_POSITION / DIRECTION / UP / ROTATION from that row's channels. The caller
  // uploads the table (TransformTable::upload, after the previous frame completed) before each
  // execute(), keeps it alive while set, and keeps an emitter's row live while the emitter is.
  // Refused (kInvalidArgument) while a live emitter is placed at a row, or a field or global is
  // bound to one, and `table` differs from the current one.
  Status set_transforms(TransformTable* table);
  TransformTable* transforms() const { return transforms_; }

  // Field bindings (the seed's "Transform bindings"): every frame, right after the transforms'
  // compose pass and before the tick, the GPU copies the transform row's channel into the bound
  // words of the program image, so INIT and UPDATE read this frame's pose. Needs a transforms
  // table (set_transforms) and a live transform row; the field's width must equal the channel's
  // (errors name the field). Binding a bound field again replaces its binding. The system does
  // not notice a transform row removed while bound (the pass only bounds-checks the row).
  //
  // bind_field: emitter field `emitter_field` of the live emitter at `row`. Host-only (the
  // bindings table goes out with the next execute); the binding goes with the emitter.
  Status bind_field(uint32_t row, std::string_view emitter_field, uint32_t transform_row, Channel channel);
  // Stops the updates: the field keeps the value the pass wrote last (read back from the GPU,
  // so it waits for the GPU; it becomes the emitter's value, kept by later uploads).
  Status unbind_field(uint32_t row, std::string_view emitter_field);
  // bind_global: the global field `global`. Globals are per-row copies in the program image
  // (each emitter's linked program reads its own block), so the pass writes every live row's
  // copy of that global, and emitters added later that read it are bound too. A name no live
  // emitter reads yet is accepted (it declares the name with the channel's width); an emitter
  // that reads a bound global with another width is refused by add_emitter / swap_effect.
  Status bind_global(std::string_view global, uint32_t transform_row, Channel channel);
  // Stops the updates; every reader keeps the last written value, which also becomes the
  // global's system value (set_global) for emitters added later. Waits for the GPU.
  Status unbind_global(std::string_view global);

  // Run-time values (no re-upload of the image: the changed words are written into the next
  // execute()'s command buffer with vkCmdUpdateBuffer, ahead of every pass).
  //
  // set_global: the global field `name` for every live emitter that reads it (each row's copy),
  // and the system's value of that name: emitters added later start from it instead of their
  // effect's preview (an explicit EmitterOptions::globals entry still wins at add_emitter).
  // `values` must have exactly the width every reader reads it with (1..4); the name keeps that
  // width. Refused while the global is bound to a transform.
  Status set_global(std::string_view name, std::span<const float> values);
  // set_emitter_field: one emitter's field (1 value for every component, or exactly its width).
  // The field "rate" (width 1) also changes the emitter's rate from the next tick. Refused while
  // the field is bound to a transform.
  Status set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values);

  // Records and submits one frame of `dt` seconds. Does not wait.
  Status execute(float dt);

  // When set (default: none), execute() resets the profiler and records GPU timestamps around
  // its passes: "reset", "tick", "scan", "emit_args", "emit", "simulate", "finish" (tick .. emit
  // only when rows are live; emit and simulate span all their per-program dispatches; "reset"
  // also spans the frame's buffer updates and, when recorded, the transforms' compose pass and
  // the field-bind pass). Each pass includes the barrier that follows it. Resolve after the frame
  // completed. Needs max_passes >= 7. The profiler must outlive its use; pass nullptr to stop.
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }

  // The buffers a draw reads after execute() recorded a frame (the renderer's ParticleInputs):
  // the pool, the alive list that frame wrote and the counters block whose u32 word
  // kAliveCountWord is its length. Valid until the next execute(); a submission recorded after
  // execute() sees them once it barriers compute-shader writes to its own stages.
  const gpu::Buffer& pool() const { return pool_; }
  const gpu::Buffer& drawn_alive_list() const { return alive_[(frame_ + 1u) & 1u]; }
  const gpu::Buffer& counters() const { return counters_; }
  static constexpr uint32_t kAliveCountWord = offsetof(shader::FrameCounters, alive_out) / 4;
  uint32_t row_capacity() const { return options_.max_emitters; }

  // Readbacks (submit and wait): for tests and tools, never a per-frame path.
  Result<FrameStats> read_stats();
  Result<std::vector<uint32_t>> read_alive_slots();  // this frame's alive list
  Result<std::vector<uint32_t>> read_free_slots();   // the free stack, bottom first
  Result<std::vector<uint32_t>> read_pool();         // capacity * record_words words
  Result<std::vector<shader::FrameEmitterState>> read_emitter_states();

  uint32_t capacity() const { return options_.capacity; }
  uint32_t record_words() const { return options_.record_words; }
  uint32_t generation(uint32_t row) const { return row < rows_.size() ? rows_[row].record.generation : 0; }
  bool is_live(uint32_t row) const { return row < rows_.size() && rows_[row].live; }
  // Rows of the bindings table the next frame's bind pass walks (emitter bindings plus one per
  // live reader of each bound global): for tests and tools.
  uint32_t field_binding_count() const { return uint32_t(build_binding_table().rows.size()); }

  ParticleSystem() = default;

 private:
  // One emitter field bound to a transform row (the field's name and width are looked up in the
  // row's program when the table is built).
  struct FieldBinding {
    std::string field;
    uint32_t offset = 0;  // word in the row's field block
    uint32_t width = 0;
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
  };
  struct GlobalBinding {
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
  };
  struct Row {
    bool live = false;
    Program linked;  // keeps the emitter fields' and global imports' names and widths
    EmitterOptions options;  // as given (swap_effect keeps the seed, pose, row and overrides)
    std::vector<uint32_t> global_offsets;  // per import, its word in `globals`
    std::vector<uint32_t> fields;
    std::vector<uint32_t> globals;
    std::vector<FieldBinding> bindings;
    shader::FrameEmitter record{};
    shader::FrameBurst bursts[shader::kFrameMaxBursts]{};  // unused entries: count 0
    // Host values changed since the last upload, written by the next execute().
    bool fields_dirty = false;
    bool globals_dirty = false;
  };

  Result<Row> make_row(const CompiledEffect& effect, const EmitterOptions& options);
  Status upload_tables();
  uint32_t row_count() const;
  bool uses_transforms() const;
  Status check_transform_row(uint32_t transform_row) const;
  // Where a row of the bindings table lands in the host copies.
  struct BindingSource {
    uint32_t row = 0;
    bool global = false;  // the row's globals block (else its fields block)
    uint32_t offset = 0;  // word in that block
    std::string global_name;
  };
  struct BindingTable {
    std::vector<shader::FrameFieldBinding> rows;
    std::vector<BindingSource> sources;
  };
  // The bindings table the bind pass walks, from the rows' and the globals' bindings, with the
  // program image's current layout.
  BindingTable build_binding_table() const;
  // Copies what the bind pass last wrote into the host copies (and a bound global's value into
  // global_values_), so a re-upload of the image or an unbind keeps the last written values.
  // Called first by every set-up path; reads the image back (waits) only when a frame has run
  // the bind pass since the last upload.
  Status sync_bound_values();

  gpu::Device* device_ = nullptr;
  ParticleSystemOptions options_;
  gpu::Buffer pool_;
  gpu::Buffer free_list_;
  gpu::Buffer alive_[2];
  gpu::Buffer counters_;
  gpu::Buffer emitters_;
  gpu::Buffer states_;
  gpu::Buffer bursts_;  // FrameBurst, kFrameMaxBursts per row (host-written with the table)
  gpu::Buffer spawn_counts_;
  gpu::Buffer spawn_sums_;
  gpu::Buffer commands_;
  gpu::Buffer params_;
  gpu::Buffer program_;
  gpu::Buffer no_transforms_;  // bound as the channels when no table is set (never read)
  TransformTable* transforms_ = nullptr;
  PrefixScan scan_;
  gpu::ComputePipeline init_;
  gpu::ComputePipeline reset_;
  gpu::ComputePipeline tick_;
  gpu::ComputePipeline emit_args_;
  gpu::ComputePipeline emit_;
  gpu::ComputePipeline simulate_;
  gpu::ComputePipeline finish_;
  gpu::ComputePipeline field_bind_;
  gpu::Buffer field_bindings_;  // FrameFieldBinding rows, written by execute() when changed
  std::vector<Row> rows_;
  std::vector<uint32_t> programs_;  // live program ids (one emit/simulate dispatch each)
  std::map<uint32_t, uint32_t> pending_bursts_;  // row -> count, merged on the host
  std::map<std::string, GlobalBinding, std::less<>> global_bindings_;
  std::map<std::string, std::vector<float>, std::less<>> global_values_;  // set_global's values
  BindingTable gpu_bindings_;    // what field_bindings_ holds (as of the last execute)
  bool bindings_written_ = false;  // a frame ran the bind pass with gpu_bindings_ since the last upload
  bool bindings_dirty_ = false;  // field_bindings_ must be rebuilt by the next execute()
  uint32_t image_words_ = 0;     // words of the program image last uploaded
  bool values_dirty_ = false;    // some row's fields_dirty / globals_dirty is set
  uint32_t next_generation_ = 1;
  uint32_t frame_ = 0;  // frames recorded: selects the alive list written this frame
  gpu::GpuProfiler* profiler_ = nullptr;  // optional per-pass timestamps (set_profiler)
};

}  // namespace mote::runtime
