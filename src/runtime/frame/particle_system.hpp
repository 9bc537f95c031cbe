// The GPU runtime's frame, first version: one pool of uniform-stride records shared by every
// emitter, a free-list stack filled by a dispatch, two alive lists swapped per frame, a counters
// block that carries the indirect dispatch arguments, a GPU-owned emitter state table, and the
// frame's passes — the transforms' compose and the field bindings (when set), reset + spawn
// commands, emitter tick, prefix scan, emit (INIT), simulate (UPDATE, kill, orphans), finish —
// recorded into one submission with synchronization2 barriers.
// Nothing in the frame is sized from a CPU readback: the host supplies dt, the row count and the
// spawn commands it authored. The program buffer is the ProgramHeap's image (programs
// deduplicated and reference counted, emitter blocks in its field section) and the emitter table
// the EmitterRegistry's; changes reach the GPU as changed ranges at the next execute().
// Semantics: docs/design/simulation.md; design: docs/design/runtime_frame.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
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
#include "runtime/bookkeeping/emitter_registry.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime/bookkeeping/word_ranges.hpp"
#include "mote/simulation.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "shared/frame.h"

namespace mote::runtime {

struct ParticleSystemOptions {
  uint32_t capacity = 0;       // pool records, 1 .. 2^24 (PARTICLE_INDEX is a float)
  uint32_t record_words = 32;  // pool stride (word 0 is the header)
  uint32_t max_emitters = 64;  // emitter table rows (the scan's length)
  // When non-zero, emit writes each newborn's birth serial into this record word (which must lie
  // past every program's fields): a debugging and test aid to match particles across executors.
  uint32_t serial_word = 0;
  // The program heap's first section sizes, in words. Sections only grow (a section with no
  // room is repacked, then grown to at least twice its size; the GPU buffer follows by a copy
  // on the GPU). Tiny values force repacks and growth early (tests).
  uint32_t heap_constant_words = 256;
  uint32_t heap_code_words = 1024;
  uint32_t heap_field_words = 1024;
  // Lanes one dispatch of the wide interpreter launches (a multiple of kFrameWorkgroupSize,
  // 64 .. 2^20): the lanes walk the newborns or the alive list with a grid stride, and the
  // register file holds kVmMaxRegisters slots per lane (4 MiB at 4096 lanes), allocated when the
  // first program over kVmFastRegisterSlots registers is added.
  uint32_t wide_lanes = 4096;
  // Simulate and emit run each program's UPDATE and INIT sections as their own compiled
  // kernels (src/vm_gpu/kernels/, KernelHarness::kFrameSimulate / kFrameEmit: straight-line code, the
  // record window in registers) instead of the fast interpreter — 3.7x faster for a typical
  // 25-instruction program on the H200 (docs/PERFORMANCE.md). A program is translated and
  // compiled when a frame first runs it (tens of milliseconds of glslang and driver work, once
  // per content per system). Programs over kVmFastRegisterSlots registers stay on the wide
  // interpreter. Off: every program is interpreted.
  bool compiled_simulate = true;
  // With compiled_simulate: a new program's kernel is translated, compiled and its pipeline
  // created on a worker thread while its particles keep running on the interpreter, and the
  // first execute() after it is ready switches over — no frame waits for a compile. Off (the
  // default here: frames are reproducible run to run), execute() compiles before it records.
  // The public API (mote::ParticleSystemDesc) turns it on.
  bool compile_in_background = false;
};

// Bytes the host wrote into the frame's GPU buffers since create() (tests and tools: a set-up
// path writes the changed ranges, not the image).
struct UploadStats {
  uint64_t program_bytes = 0;   // the program buffer (at create: the shapes and the whole image)
  uint64_t table_bytes = 0;     // emitter records and declared bursts of changed rows
  uint64_t bindings_bytes = 0;  // the field-bindings table
  uint64_t staged_regions = 0;   // regions copied from a staging buffer (vkCmdCopyBuffer)
  uint64_t updated_regions = 0;  // regions written inline (vkCmdUpdateBuffer)
  uint64_t program_buffer_growths = 0;  // the program buffer replaced by a larger one, copied on the GPU
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
  // stride) and returns its row (the lowest free one). The program is placed in the heap once per
  // content: emitters of one effect share its placement and its emit and simulate dispatches.
  // Does not wait: the changed ranges of the program buffer and the row's record go out with the
  // next execute(). Programs over the fast interpreter's kVmFastRegisterSlots registers run on
  // the wide interpreter (refused, kUnsupported, when the device cannot bind its register file).
  // Refuses effects declaring more than kMaxEffectBursts bursts (count > 0) or a burst with a
  // non-finite time or interval. The effect's declared bursts are scheduled by the GPU tick
  // against the emitter's clock, as the reference simulation fires them (sim::bursts_due).
  Result<uint32_t> add_emitter(const CompiledEffect& effect, const EmitterOptions& options = {});
  // Adds one emitter per entry of `options`, all running `effect` (the set-up path for thousands
  // of emitters: one program placement, one registry flush). Returns the rows in order. On an
  // error nothing is added.
  Result<std::vector<uint32_t>> add_emitters(const CompiledEffect& effect, std::span<const EmitterOptions> options);
  // Frees the row (generation 0): the next frame's simulate frees its particles as orphans. The
  // last emitter of a program releases its placement. The row's field bindings go with it. Does
  // not wait.
  Status remove_emitter(uint32_t row);
  // The seed's live program swap: the row runs `effect` from the next frame on, under a new
  // generation, so the old program's particles die as orphans in the next simulate and the
  // emitter's state (clock, accumulator, serials, declared bursts) starts over; queued burst()
  // spawns are kept. The seed, constant pose, transform row and the per-emitter global overrides
  // given to add_emitter stay (overrides of globals the new effect does not read are dropped);
  // emitter fields start from the new effect's defaults, and fields the old and new programs
  // both declare with the same width keep the emitter's current values and bindings (other
  // bindings are dropped; a carried bound field keeps the host's copy until the bind pass next
  // writes it). Checked like add_emitter; on an error the row is unchanged. Does not wait.
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
  // Whether any emitter stands at `transform_row` or any field or global binding reads it: a
  // host removing the row asks first (the public API's remove_transform does). kInvalidArgument
  // names the first user; an unused row is ok. A row removed while in use anyway (straight on
  // the TransformTable) stops execute(), which names the user, until it is moved or unbound.
  Status check_transform_row_unused(uint32_t transform_row) const;
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

  // Run-time values (the changed blocks and records are written at the start of the next
  // execute(), ahead of every pass).
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
  // its passes: "reset", "tick", "scan", "emit_args", "emit", "simulate", "compact", "finish"
  // (tick .. emit only when rows are live; emit and simulate span all their per-program
  // dispatches; "compact" is the survivors' keep-flag scan and placement; "reset" also spans the
  // frame's buffer updates and, when recorded, the transforms' compose pass and the field-bind
  // pass). Each pass includes the barrier that follows it. Resolve after the frame completed.
  // Needs max_passes >= 8. The profiler must outlive its use; pass nullptr to stop.
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
  // The buffers the frame reads the emitters from (shader::EmitterRecord rows for the whole
  // system's life; the program buffer: kFrameShapeWords of opcode shapes, then the heap's image,
  // valid until the next execute(), which replaces it when the heap grew).
  const gpu::Buffer& emitter_table() const { return emitters_; }
  const gpu::Buffer& program_buffer() const { return program_; }

  // Readbacks (submit and wait): for tests and tools, never a per-frame path.
  Result<FrameStats> read_stats();
  Result<std::vector<uint32_t>> read_alive_slots();  // this frame's alive list
  Result<std::vector<uint32_t>> read_free_slots();   // the free stack, bottom first
  Result<std::vector<uint32_t>> read_pool();         // capacity * record_words words
  Result<std::vector<shader::FrameEmitterState>> read_emitter_states();

  // The GPU's copies, read back (waits): the heap image the last execute() left in the program
  // buffer (after the shapes; heap image words while no change is pending) and the emitter
  // table's first `rows` records as words. For tests and tools.
  Result<std::vector<uint32_t>> read_program_image();
  Result<std::vector<uint32_t>> read_emitter_table(uint32_t rows);

  uint32_t capacity() const { return options_.capacity; }
  uint32_t record_words() const { return options_.record_words; }
  uint32_t generation(uint32_t row) const;
  bool is_live(uint32_t row) const { return registry_ && registry_->is_live(row); }
  // Rows of the bindings table the next frame's bind pass walks (emitter bindings plus one per
  // live reader of each bound global): for tests and tools.
  uint32_t field_binding_count() const { return uint32_t(build_binding_table().rows.size()); }
  // Programs placed in the heap: one per distinct program among the live emitters, and so the
  // emit and simulate dispatches a frame records (each).
  uint32_t placed_program_count() const { return heap_ ? uint32_t(heap_->live_program_count()) : 0u; }
  // Of those, the programs over kVmFastRegisterSlots registers: they run on the wide interpreter
  // when simulate is not compiled, or until their kernels are built.
  uint32_t wide_program_count() const;
  // Compiled kernels this system has built: per program content it ran with compiled_simulate
  // on, its simulate (UPDATE) and its emit (INIT) kernel; kept after the program's release.
  uint32_t compiled_kernel_count() const { return kernels_ ? uint32_t(kernels_->size()) : 0u; }
  // Kernels being compiled in the background (compile_in_background), and a wait for all of
  // them: afterwards every program simulated so far runs compiled from the next execute() on
  // (tests and tools; a compile error, a Mote bug, is returned).
  uint32_t pending_kernel_count() const { return uint32_t(kernel_jobs_.size()); }
  Status wait_for_kernels();
  const UploadStats& upload_stats() const { return uploads_; }
  // The bookkeeping (tests and tools): placements, repacks, the CPU image and table.
  const ProgramHeap& program_heap() const { return *heap_; }
  const EmitterRegistry& emitter_registry() const { return *registry_; }

  ParticleSystem() = default;

 private:
  // One emitter field bound to a transform row.
  struct FieldBinding {
    std::string field;
    uint32_t offset = 0;  // word in the emitter's fields
    uint32_t width = 0;
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
    uint32_t transform_generation = 0;  // TransformTable::generation at bind time
  };
  struct GlobalBinding {
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
    uint32_t transform_generation = 0;
  };
  // A live emitter: the registry's authoring data (the registry holds its address, so a Row is
  // allocated once and never moved) and what only the frame keeps.
  struct Row {
    Emitter emitter;         // effect, field values, own global copies, pose, seed, version
    EmitterOptions options;  // as given (swap_effect keeps the seed, pose, row and overrides)
    std::vector<FieldBinding> bindings;
    shader::FrameBurst bursts[shader::kFrameMaxBursts]{};  // unused entries: count 0
    uint64_t serial = 0;     // which emitter this is (a swap keeps it, a re-add does not)
    uint32_t transform_generation = 0;  // of options.transform_row, when the emitter was placed there
  };

  Result<Row> make_row(const CompiledEffect& effect, const EmitterOptions& options);
  // The interpreter pipelines `program` needs beyond the ones made with the system: the wide
  // interpreter's pipelines and register file, made when the first program the fast register
  // file cannot hold arrives (kUnsupported when the device cannot bind them), and the emit and
  // simulate pipelines whose staging holds the widest record windows, made with the first
  // program that needs them.
  Status ensure_interpreters(const Program& program);
  // Flushes the registry (edited emitters' blocks and records; every row after a repack), once
  // at the start of execute().
  Status flush_registry();
  // The row's record and bursts go out with the next execute().
  void note_row_changed(uint32_t row);
  // After an edit of the row's emitter (its values): the next flush rewrites its block and record.
  void edited(Emitter& emitter, uint32_t row);
  bool uses_transforms() const;
  Status check_transform_row(uint32_t transform_row) const;
  // After the transforms table's topology moved: every row an emitter stands at or a binding
  // reads must still be the row it was given (live, same generation); else kInvalidArgument
  // naming the user, and the frame is not run.
  Status check_transform_references();
  uint64_t checked_topology_ = UINT64_MAX;
  // Where a row of the bindings table lands in the host copies: the emitter (by row and serial)
  // and the field or global it writes, by name, so a value read back still finds its field after
  // the emitter's block moved or its program was swapped.
  struct BindingSource {
    uint32_t row = 0;
    uint64_t serial = 0;
    bool global = false;  // a global's copy (else an emitter field)
    std::string name;
  };
  struct BindingTable {
    std::vector<shader::FrameFieldBinding> rows;
    std::vector<BindingSource> sources;
  };
  // The bindings table the bind pass walks, from the rows' and the globals' bindings, with the
  // heap's current layout (absolute program buffer words).
  BindingTable build_binding_table() const;
  // Copies what the bind pass last wrote into the host copies (and a bound global's value into
  // global_values_), so an unbind keeps the last written values. Reads the program buffer back
  // (waits) only when a frame has run the bind pass since the last sync.
  Status sync_bound_values();

  // One region of an upload at the start of execute().
  struct Upload {
    const gpu::Buffer* dst = nullptr;
    VkDeviceSize offset = 0;
    const void* data = nullptr;
    VkDeviceSize bytes = 0;
  };
  // A host-visible staging buffer, reused once the submission that read it (serial) completed.
  struct Staging {
    gpu::Buffer buffer;
    uint64_t serial = 0;
  };
  Result<Staging*> staging_for(VkDeviceSize bytes);

  gpu::Device* device_ = nullptr;
  ParticleSystemOptions options_;
  gpu::Buffer pool_;
  gpu::Buffer free_list_;
  gpu::Buffer alive_[2];
  gpu::Buffer counters_;
  gpu::Buffer emitters_;  // shader::EmitterRecord per row (the registry's table)
  gpu::Buffer states_;
  gpu::Buffer bursts_;  // FrameBurst, kFrameMaxBursts per row (host-written with the rows)
  gpu::Buffer spawn_counts_;
  gpu::Buffer spawn_sums_;
  gpu::Buffer commands_;
  gpu::Buffer params_;
  gpu::Buffer program_;  // [kFrameShapeWords shapes][the heap image as of the last execute]
  gpu::Buffer no_transforms_;  // bound as the channels when no table is set (never read)
  gpu::Buffer wide_registers_;  // the wide interpreter's register file (made with the first wide program)
  TransformTable* transforms_ = nullptr;
  gpu::PrefixScan scan_;
  // Simulate's keep flags over last frame's list, scanned in place (inclusive) for frame_compact.
  gpu::Buffer keep_;
  gpu::PrefixScan keep_scan_;
  gpu::ComputePipeline compact_;
  gpu::ComputePipeline init_;
  gpu::ComputePipeline reset_;
  gpu::ComputePipeline tick_;
  gpu::ComputePipeline emit_args_;
  gpu::ComputePipeline emit_;                   // stages record windows up to kFrameFastWindowChunks
  gpu::ComputePipeline emit_large_window_;      // up to kVmMaxWindowChunks; made when first needed
  gpu::ComputePipeline simulate_;               // stages record windows up to kFrameFastWindowChunks
  gpu::ComputePipeline simulate_large_window_;  // up to kVmMaxWindowChunks; made when first needed
  gpu::ComputePipeline emit_wide_;      // made with the first wide program
  gpu::ComputePipeline simulate_wide_;
  gpu::ComputePipeline finish_;
  gpu::ComputePipeline field_bind_;
  std::unique_ptr<vm_kernels::KernelCache> kernels_;  // compiled simulate kernels (compiled_simulate)
  // A kernel compiling on a worker thread (compile_in_background), by the linked program.
  struct KernelJob {
    Program program;
    vm_kernels::KernelHarness harness;
    std::future<Result<vm_kernels::KernelCache::Built>> built;
  };
  std::vector<KernelJob> kernel_jobs_;
  // The compiled emit (INIT) or simulate (UPDATE) kernel of a linked program if it is ready
  // (compiling it first, or starting its background compile and returning null meanwhile).
  Result<const gpu::ComputePipeline*> frame_kernel(const Program& linked, vm_kernels::KernelHarness harness);
  // The push constants of program `program`'s emit (INIT) or simulate (UPDATE) dispatch: the
  // section as the heap placed it (none for an id that is not live).
  shader::FramePush frame_push(uint32_t program, Section section, uint32_t first_dispatch, uint32_t only_dispatch) const;
  // Takes every finished background compile into the cache (`wait`: waits for all).
  Status collect_kernels(bool wait);
  gpu::Buffer field_bindings_;  // FrameFieldBinding rows, written by execute() when changed
  std::vector<Staging> staging_;

  std::unique_ptr<ProgramHeap> heap_;          // the program buffer's CPU image
  std::unique_ptr<EmitterRegistry> registry_;  // rows, generations, the table's CPU image
  std::vector<std::unique_ptr<Row>> rows_;     // by registry row; null when free
  std::vector<shader::FrameBurst> burst_table_;  // kFrameMaxBursts per row: what bursts_ holds
  WordRanges dirty_rows_;  // rows whose record and bursts the next execute() writes
  // The heap layout the program buffer has on the GPU (section bases and capacities, words of
  // the heap image): compared with the heap's at execute() to grow the buffer by a GPU copy.
  uint32_t gpu_bases_[kHeapSectionCount] = {};
  uint32_t gpu_capacities_[kHeapSectionCount] = {};
  uint32_t gpu_image_words_ = 0;
  uint32_t row_count_ = 0;  // one past the highest live row: the tick's and the scan's length
  uint64_t next_serial_ = 1;
  std::map<uint32_t, uint32_t> pending_bursts_;  // row -> count, merged on the host
  std::map<std::string, GlobalBinding, std::less<>> global_bindings_;
  std::map<std::string, std::vector<float>, std::less<>> global_values_;  // set_global's values
  BindingTable gpu_bindings_;    // what field_bindings_ holds (as of the last execute)
  bool bindings_written_ = false;  // a frame ran the bind pass with gpu_bindings_ since the last sync
  bool bindings_dirty_ = false;  // field_bindings_ must be rebuilt by the next execute()
  uint32_t bindings_field_base_ = 0;  // the heap field base gpu_bindings_ was built with
  UploadStats uploads_;
  uint32_t frame_ = 0;  // frames recorded: selects the alive list written this frame
  gpu::GpuProfiler* profiler_ = nullptr;  // optional per-pass timestamps (set_profiler)
};

}  // namespace mote::runtime
