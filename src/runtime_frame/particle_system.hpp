// The GPU runtime's frame, first version: one pool of uniform-stride records shared by every
// emitter, a free-list stack filled by a dispatch, two alive lists swapped per frame, a counters
// block that carries the indirect dispatch arguments, a GPU-owned emitter state table, and the
// frame's passes — reset + spawn commands, emitter tick, prefix scan, emit (INIT), simulate
// (UPDATE, kill, orphans), finish — recorded into one submission with synchronization2 barriers.
// Nothing in the frame is sized from a CPU readback: the host supplies dt, the row count and the
// spawn commands it authored. Semantics: docs/design/simulation.md; design: docs/design/runtime_frame.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
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
  Status remove_emitter(uint32_t row);
  // Queues `count` extra spawns for the row's next frame (merged per row on the host; they go
  // through the same budget and INIT as the rate): gameplay bursts, on top of the effect's own
  // declared bursts, which the GPU schedules by itself.
  Status burst(uint32_t row, uint32_t count);

  // The scene's transforms (non-owning; nullptr: none). While set, execute() records the table's
  // compose pass at the start of the frame, before the tick, and emitters added at one of its rows
  // read EMITTER_POSITION / DIRECTION / UP / ROTATION from that row's channels. The caller
  // uploads the table (TransformTable::upload, after the previous frame completed) before each
  // execute(), keeps it alive while set, and keeps an emitter's row live while the emitter is.
  // Refused (kInvalidArgument) while a live emitter is placed at a row and `table` differs from
  // the current one.
  Status set_transforms(TransformTable* table);
  TransformTable* transforms() const { return transforms_; }

  // Records and submits one frame of `dt` seconds. Does not wait.
  Status execute(float dt);

  // When set (default: none), execute() resets the profiler and records GPU timestamps around
  // its passes: "reset", "tick", "scan", "emit_args", "emit", "simulate", "finish" (tick .. emit
  // only when rows are live; emit and simulate span all their per-program dispatches). Each pass
  // includes the barrier that follows it. Resolve after the frame completed. Needs max_passes >= 7.
  // The profiler must outlive its use; pass nullptr to stop.
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

  ParticleSystem() = default;

 private:
  struct Row {
    bool live = false;
    Program linked;
    std::vector<uint32_t> fields;
    std::vector<uint32_t> globals;
    shader::FrameEmitter record{};
    shader::FrameBurst bursts[shader::kFrameMaxBursts]{};  // unused entries: count 0
  };

  Result<Row> make_row(const CompiledEffect& effect, const EmitterOptions& options);
  Status upload_tables();
  uint32_t row_count() const;

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
  std::vector<Row> rows_;
  std::vector<uint32_t> programs_;  // live program ids (one emit/simulate dispatch each)
  std::map<uint32_t, uint32_t> pending_bursts_;  // row -> count, merged on the host
  uint32_t next_generation_ = 1;
  uint32_t frame_ = 0;  // frames recorded: selects the alive list written this frame
  gpu::GpuProfiler* profiler_ = nullptr;  // optional per-pass timestamps (set_profiler)
};

}  // namespace mote::runtime
