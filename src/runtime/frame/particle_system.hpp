// The GPU runtime's frame (docs/design/runtime_frame.md): one pool of uniform-stride records
// shared by every emitter, a free-list stack filled by a dispatch, two alive lists swapped per
// frame, a counters block that carries the indirect dispatch arguments, a GPU-owned emitter state
// table, and the frame's passes recorded into one command buffer with synchronization2 barriers.
// Nothing in the frame is sized from a CPU readback: the host supplies dt, the row count and the
// spawn commands it authored.
//
// ParticleSystem composes the parts, each a type with its own state: the emitters on the host
// (EmitterLifecycle: program heap, registry, rows), the field bindings (FieldBindings), the
// program buffer (ProgramBuffer), the frame's uploads (FrameUploads), the compiled kernels
// (FrameKernels), the buffers (FrameBuffers), and one type per pass beside its shader in
// shaders/runtime/frame/. A frame is, in order: uploads → transforms' compose → field bind →
// reset and bursts → tick and scan → emit → simulate → compact → finish (record_frame()).
// Semantics: docs/design/simulation.md.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "mote/wind.hpp"
#include "runtime/frame/alive_watch.hpp"
#include "runtime/frame/bounds_pass.hpp"
#include "runtime/frame/bucket_pass.hpp"
#include "runtime/frame/compact_pass.hpp"
#include "runtime/frame/emit_pass.hpp"
#include "runtime/drivers/manual_driver.hpp"
#include "runtime/drivers/pool_full_policy.hpp"
#include "runtime/drivers/stateless_driver.hpp"
#include "runtime/frame/emitter_lifecycle.hpp"
#include "runtime/frame/field_bind_pass.hpp"
#include "runtime/frame/field_bindings.hpp"
#include "runtime/frame/finish_pass.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_events.hpp"
#include "runtime/frame/frame_depth.hpp"
#include "runtime/frame/frame_vector_fields.hpp"
#include "runtime/frame/frame_kernels.hpp"
#include "runtime/frame/frame_options.hpp"
#include "runtime/frame/frame_uploads.hpp"
#include "runtime/frame/init_pass.hpp"
#include "runtime/frame/program_buffer.hpp"
#include "runtime/frame/reset_pass.hpp"
#include "runtime/frame/simulate_pass.hpp"
#include "runtime/frame/spawn_order.hpp"
#include "runtime/frame/tick_pass.hpp"
#include "runtime/frame/warmup_pass.hpp"
#include "runtime/transforms/transform_table.hpp"

namespace mote::runtime {

class ParticleSystem {
 public:
  // Allocates the buffers and builds the pipelines, then fills the free list on the GPU.
  static Result<ParticleSystem> create(gpu::Device& device, const ParticleSystemOptions& options);

  ParticleSystem(ParticleSystem&&) noexcept = default;
  ParticleSystem& operator=(ParticleSystem&&) noexcept = default;
  ParticleSystem(const ParticleSystem&) = delete;
  ParticleSystem& operator=(const ParticleSystem&) = delete;

  // Adds an emitter running `effect` (its program linked to its globals, verified for the pool's
  // stride) and returns its row (the lowest free one). An effect with emission.prewarm_seconds > 0
  // is pre-warmed on the GPU by the next frame, before it is drawn (docs/design/runtime_frame.md,
  // "Pre-warm"); a swap to such an effect is too. The program is placed in the heap once per
  // content: emitters of one effect share its placement and its emit and simulate dispatches.
  // Does not wait: the changed ranges of the program buffer and the row's record go out with the
  // next frame. Programs over the fast interpreter's kVmFastRegisterSlots registers run on the
  // wide interpreter (refused, kUnsupported, when the device cannot bind its register file).
  // Refuses effects declaring more than kMaxEffectBursts bursts (count > 0) or a burst with a
  // non-finite time or interval. The effect's declared bursts are scheduled by the GPU tick
  // against the emitter's clock, as the reference simulation fires them (sim::bursts_due).
  Result<uint32_t> add_emitter(const CompiledEffect& effect, const EmitterDesc& options = {});
  // Adds one emitter per entry of `options`, all running `effect` (the set-up path for thousands
  // of emitters: one program placement, one registry flush). Returns the rows in order. On an
  // error nothing is added.
  Result<std::vector<uint32_t>> add_emitters(const CompiledEffect& effect, std::span<const EmitterDesc> options);
  // Frees the row (generation 0): the next frame's simulate frees its particles as orphans. The
  // last emitter of a program releases its placement. The row's field bindings go with it. Does
  // not wait.
  Status remove_emitter(uint32_t row);
  // The live program swap: the row runs `effect` from the next frame on, under a new generation,
  // so the old program's particles die as orphans in the next simulate and the emitter's state
  // (clock, accumulator, serials, declared bursts) starts over; queued burst() spawns are kept.
  // The seed, constant pose, transform row and the per-emitter global overrides given to
  // add_emitter stay (overrides of globals the new effect does not read are dropped); emitter
  // fields start from the new effect's defaults, and fields the old and new programs both declare
  // with the same width keep the emitter's current values and bindings (other bindings are
  // dropped; a carried bound field keeps the host's copy until the bind pass next writes it).
  // Checked like add_emitter; on an error the row is unchanged. Does not wait.
  Status swap_effect(uint32_t row, const CompiledEffect& effect);
  // Queues `count` extra spawns for the row's next frame (merged per row on the host; they go
  // through the same budget and INIT as the rate): gameplay bursts, on top of the effect's own
  // declared bursts, which the GPU schedules by itself.
  Status burst(uint32_t row, uint32_t count);
  // The runtime controls (docs/design/drivers.md): one of shader::kEmitterControlFlags (paused,
  // stopped, inactive) on or off, and the constant pose of an emitter placed by value (a null
  // rotation keeps its own). From the next frame; nothing waits.
  Status set_emitter_control(uint32_t row, uint32_t flag, bool on) { return emitters_->set_control(row, flag, on); }
  // The manual driver (src/runtime/drivers/, docs/design/drivers.md): an emitter of `effect`
  // (whose record must be the standard particle after the header: its render settings draw the
  // records) whose particles are the host's up to `max_count` records, drawn as uploaded
  // (manual().set / write_range / set_count / upload).
  Result<uint32_t> add_manual_emitter(const CompiledEffect& effect, uint32_t max_count,
                                      const EmitterDesc& options = {});
  // The stateless driver (src/runtime/drivers/stateless_driver.hpp, docs/design/drivers.md): an
  // emitter of a stateless effect (an EVAL section) whose emission.capacity particles are
  // evaluated on the GPU every frame at the emitter's own clock (stateless().set_time /
  // set_time_scale). It stands at its own pose (a transform is refused) and needs records of at
  // least the standard particle's 21 words (its records are placed as a manual row's). add_emitter
  // and add_emitters refuse a stateless effect (kUnsupported: the public add_emitter routes here).
  Result<uint32_t> add_stateless_emitter(const CompiledEffect& effect, const EmitterDesc& options = {});
  StatelessDrivers& stateless() { return stateless_; }
  const StatelessDrivers& stateless() const { return stateless_; }
  // Live driver swaps of a row (docs/design/drivers.md, "Swapping drivers"): the row keeps its
  // index, generation and particles. make_manual: its live particles (`records`, as the last
  // frame left them) become the manual driver's first records and stay as they are on the GPU;
  // make_gpu_driven: the frame's UPDATE and rate drive it again from the next frame.
  Status make_manual(uint32_t row, uint32_t max_count, std::span<const Particle> records);
  Status make_gpu_driven(uint32_t row);
  // The row's pool-full policy for burst() (src/runtime/drivers/pool_full_policy.hpp): drop (the
  // default) or replace the oldest. Kept by swap_effect, forgotten by remove_emitter; refused
  // (kInvalidArgument) for a manual row, whose spawns are its uploads.
  Status set_pool_full_policy(uint32_t row, PoolFullPolicy policy);
  PoolFullPolicy pool_full_policy(uint32_t row) const { return pool_full_.policy(row); }
  // What the last frame's replace-oldest bursts did (reserved slots, particles replaced).
  const ReplaceOldestReport& last_replace_report() const { return last_replace_; }
  ManualDrivers& manual() { return manual_; }
  const EmitterLifecycle::Row* emitter_row(uint32_t row) const { return emitters_->row(row); }
  const ManualDrivers& manual() const { return manual_; }
  Status set_emitter_pose(uint32_t row, const std::array<float, 3>& position, const std::array<float, 4>* rotation) {
    if (stateless_.is_stateless(row))
      return make_error(ErrorCode::kUnsupported, "a stateless emitter stands where it was added in this build");
    return emitters_->set_pose(row, position, rotation);
  }

  // The scene's transforms (non-owning; nullptr: none). While set, each frame records the table's
  // compose pass at its start, before the tick, and emitters added at one of its rows read
  // EMITTER_POSITION / DIRECTION / UP / ROTATION from that row's channels. The caller uploads the
  // table (TransformTable::upload, after the previous frame completed) before each frame, keeps it
  // alive while set, and keeps an emitter's row live while the emitter is. Refused
  // (kInvalidArgument) while a live emitter is placed at a row, or a field or global is bound to
  // one, and `table` differs from the current one.
  Status set_transforms(TransformTable* table);
  // Whether any emitter stands at `transform_row` or any field or global binding reads it: a
  // host removing the row asks first (the public API's remove_transform does). kInvalidArgument
  // names the first user; an unused row is ok. A row removed while in use anyway (straight on
  // the TransformTable) stops the next frame, which names the user, until it is moved or unbound.
  Status check_transform_row_unused(uint32_t transform_row) const;
  TransformTable* transforms() const { return transforms_; }

  // Field bindings: every frame, right after the transforms' compose pass and before the tick,
  // the GPU copies the transform row's channel into the bound words of the program image, so
  // INIT and UPDATE read this frame's pose. Needs a transforms table (set_transforms) and a live
  // transform row; the field's width must equal the channel's (errors name the field). Binding a
  // bound field again replaces its binding. The system does not notice a transform row removed
  // while bound (the pass only bounds-checks the row).
  //
  // bind_field: emitter field `emitter_field` of the live emitter at `row`. Host-only (the
  // bindings table goes out with the next frame); the binding goes with the emitter.
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

  // Run-time values (the changed blocks and records are written at the start of the next frame,
  // ahead of every pass).
  //
  // set_global: the global field `name` for every live emitter that reads it (each row's copy),
  // and the system's value of that name: emitters added later start from it instead of their
  // effect's preview (an explicit EmitterDesc::globals entry still wins at add_emitter).
  // `values` must have exactly the width every reader reads it with (1..4); the name keeps that
  // width. Refused while the global is bound to a transform.
  Status set_global(std::string_view name, std::span<const float> values);
  // set_emitter_field: one emitter's field (1 value for every component, or exactly its width).
  // The field "rate" (width 1) also changes the emitter's rate from the next tick. Refused while
  // the field is bound to a transform.
  Status set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values);

  // The camera culling tests against from the next frame on (view-projection, column-major,
  // Vulkan clip space), or none (nullopt, the default): nothing is culled. Emitters whose effect
  // culls (EmissionSettings::cull) spawn nothing while the bounds the previous frame measured
  // lie outside its frustum (docs/design/runtime_frame.md, "Culling").
  void set_cull_camera(const std::optional<std::array<float, 16>>& view_projection);

  // The wind SAMPLE_WIND reads from the next frame on, evaluated each frame at its TIME
  // (mote/wind.hpp, docs/design/wind.md). kInvalidArgument when check_wind refuses it.
  Status set_wind(const Wind& wind);
  // SAMPLE_FIELD's slot `slot` (the `vector_field` node's field, by the effect's vector_fields
  // order) reads `field` from the next frame on; nullopt empties it (it reads 0, the default).
  // Errors: a slot >= kVmVectorFields ("slot"), a field check_vector_field refuses ("field.*").
  Status set_vector_field(uint32_t slot, std::optional<VectorField> field);
  const FrameVectorFields& vector_fields() const { return vector_fields_; }
  // What SAMPLE_DEPTH (the `collide_depth` node) tests against from the next frame on: a depth
  // image and its camera (nullopt: none, the node never hits). Errors: an image
  // check_depth_image refuses ("depth.*").
  Status set_collision_depth(std::optional<DepthImage> image);
  const FrameDepth& collision_depth() const { return collision_depth_; }

  // Events (docs/design/events.md, "On the GPU"): the events the emitter at `source` sends to
  // its output `output` (an index below its effect's event_outputs, or below 4 for an effect that
  // names none) spawn children in the emitter at `target` from the next frame on, each child's
  // INIT reading its event's payload. Up to 4 targets per output; an output bound to nothing is
  // inert. Removing either emitter drops the binding; events already queued for a removed
  // target are inert. Errors name the argument ("source", "target", "output").
  Status bind_event(uint32_t source, uint32_t output, uint32_t target);
  Status bind_event(uint32_t source, std::string_view output, uint32_t target);
  Status unbind_event(uint32_t source, uint32_t output, uint32_t target);
  size_t event_binding_count() const { return events_.binding_count(); }
  uint32_t event_queue_capacity() const { return events_.queue_capacity(); }
  // The last frame's event counts per row (up to the table's high-water mark) and the queue's
  // totals (wait for the GPU).
  Result<std::vector<EmitterEventStats>> read_event_stats();
  Result<FrameEventTotals> read_event_totals();

  // Records and submits one frame of `dt` seconds on Mote's queue. Does not wait.
  Status execute(float dt);
  // Records one frame of `dt` seconds into the host's command buffer `cmd` (primary, recording,
  // on a queue family that computes; not inside a render pass) and submits nothing. Everything
  // the frame uploads goes into `cmd` itself, the transforms table's poses included (set them
  // before record(); TransformTable::upload is for execute()). The host must submit `cmd` before
  // its next record() or execute(), and must not record more than options.frames_in_flight
  // frames ahead of the GPU (buffers the frame replaces live that many frames). `cmd` ends with a barrier that makes
  // the frame's writes visible to compute, indirect and transfer work recorded after it; a draw reading the pool adds
  // its own barrier to its stages. Readbacks (read_*) wait for Mote's queue only: call them after the host's submission
  // completed.
  Status record(VkCommandBuffer cmd, float dt);

  // When set (default: none), each frame resets the profiler and records GPU timestamps around
  // its passes: "reset", "prewarm", "tick", "scan", "emit_args", "emit", "bucket", "simulate",
  // "compact", "finish", "bounds" ("prewarm" only on a frame with emitters to pre-warm; tick .. emit only when rows are
  // live; "bucket" only with two or more live programs; emit and simulate span all their per-program dispatches;
  // "compact" is the survivors' keep-flag scan and placement; "reset" also spans the frame's buffer updates and, when
  // recorded, the transforms' compose pass and the field-bind pass). Each pass includes the barrier that follows it.
  // Resolve after the frame completed. Needs max_passes >= 11. The profiler must outlive its use; pass nullptr to stop.
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }

  // The buffers a draw reads after a frame was recorded (the renderer's ParticleInputs): the
  // pool, the alive list that frame wrote and the counters block whose u32 word kAliveCountWord
  // is its length. Valid until the next frame; a submission recorded after the frame sees them
  // once it barriers compute-shader writes to its own stages.
  const gpu::Buffer& pool() const { return buffers_.pool; }
  const gpu::Buffer& drawn_alive_list() const { return buffers_.alive_in(frame_); }
  const gpu::Buffer& counters() const { return buffers_.counters; }
  static constexpr uint32_t kAliveCountWord = offsetof(shader::FrameCounters, alive_out) / 4;
  uint32_t row_capacity() const { return options_.max_emitters; }
  // shader::FrameEmitterBounds per row (row_capacity() rows), as the frame's bounds pass published them.
  const gpu::Buffer& emitter_bounds() const { return buffers_.emitter_bounds; }
  // The buffers the frame reads the emitters from (shader::EmitterRecord rows for the whole
  // system's life; the program buffer: kFrameShapeWords of opcode shapes, then the heap's image,
  // valid until the next frame, which replaces it when the heap grew).
  const gpu::Buffer& emitter_table() const { return buffers_.emitters; }
  const gpu::Buffer& program_buffer() const { return program_.buffer(); }

  // The system's clock, TIME: the f32 sum of the dts of the frames recorded so far.
  float time() const { return time_; }

  // Readbacks (submit and wait): for tests and tools, never a per-frame path.
  Result<FrameStats> read_stats();
  Result<std::vector<uint32_t>> read_alive_slots();  // the last frame's alive list
  Result<std::vector<uint32_t>> read_free_slots();   // the free stack, bottom first
  Result<std::vector<uint32_t>> read_pool();         // capacity * record_words words
  Result<std::vector<shader::FrameEmitterState>> read_emitter_states();
  // The coherence buckets the last bucketed frame wrote (per program id) and the coherence list
  // (entries: indices into that frame's walked list, kFrameBucketPadEntry in the padding); empty
  // before the first frame with two or more live programs.
  Result<BucketReadback> read_buckets();
  // Every row's measured bounds as the last frame published them (rows below the table's
  // high-water mark; FrameEmitterBounds::generation says whose they are).
  Result<std::vector<shader::FrameEmitterBounds>> read_emitter_bounds();
  // The GPU's copies, read back (waits): the heap image the last frame left in the program
  // buffer (after the shapes; heap image words while no change is pending) and the emitter
  // table's first `rows` records as words. For tests and tools.
  Result<std::vector<uint32_t>> read_program_image();
  Result<std::vector<uint32_t>> read_emitter_table(uint32_t rows);

  uint32_t capacity() const { return options_.capacity; }
  uint32_t record_words() const { return options_.record_words; }
  uint32_t frames_in_flight() const { return options_.frames_in_flight; }
  uint32_t generation(uint32_t row) const { return emitters_ ? emitters_->generation(row) : 0u; }
  bool is_live(uint32_t row) const { return emitters_ && emitters_->is_live(row); }
  // Rows of the bindings table the next frame's bind pass walks (emitter bindings plus one per
  // live reader of each bound global): for tests and tools.
  uint32_t field_binding_count() const { return bindings_.table_size(*emitters_); }
  // Programs placed in the heap: one per distinct program among the live emitters, and so the
  // emit and simulate dispatches a frame records (each).
  uint32_t placed_program_count() const { return uint32_t(emitters_->heap().live_program_count()); }
  // Of those, the programs over kVmFastRegisterSlots registers: they run on the wide interpreter
  // when simulate is not compiled, or until their kernels are built.
  uint32_t wide_program_count() const;
  // Compiled kernels this system has built: per program content it ran with compiled_simulate
  // on, its simulate (UPDATE) and its emit (INIT) kernel; kept after the program's release.
  uint32_t compiled_kernel_count() const { return kernels_ ? kernels_->built_count() : 0u; }
  // Kernels being compiled in the background (compile_in_background), and a wait for all of
  // them: afterwards every program simulated so far runs compiled from the next frame on
  // (tests and tools; a compile error, a Mote bug, is returned).
  uint32_t pending_kernel_count() const { return kernels_ ? kernels_->pending_count() : 0u; }
  Status wait_for_kernels() { return kernels_ ? kernels_->wait_all() : ok_status(); }
  const UploadStats& upload_stats() const { return uploads_stats_; }
  // The bookkeeping (tests and tools): placements, repacks, the CPU image and table.
  const ProgramHeap& program_heap() const { return emitters_->heap(); }
  const EmitterRegistry& emitter_registry() const { return emitters_->registry(); }
  // The interpreted simulate pipeline (tools: its statistics).
  const gpu::ComputePipeline& interpreted_simulate_pipeline() const { return simulate_.interpreter(); }

  ParticleSystem() = default;

 private:
  // add_emitters without the stateless refusal (add_stateless_emitter's rows).
  Result<std::vector<uint32_t>> add_rows(const CompiledEffect& effect, std::span<const EmitterDesc> options);
  // What one frame records, decided on the host before recording.
  struct FramePlan {
    float dt = 0.0f;
    std::vector<ProgramDispatch> dispatches;
    std::vector<uint32_t> commands;  // [row, count] spawn commands
    shader::FrameParams params{};
    uint32_t rows = 0;
    bool bind_pass = false;
    bool bucketed = false;                     // two or more live programs: simulate walks the coherence buckets
    std::shared_ptr<WarmupPopulation> warmup;  // emitters queued for a GPU pre-warm this frame
    uint32_t program_ids = 0;                  // the heap's program ids (the buckets' count)
    bool host_submits = false;                 // record(): every upload inline, the transforms' poses too
    bool could_spawn = true;                   // anything can spawn (else the pool cannot grow this frame)
  };
  // Queues a GPU pre-warm of the emitter at `row` when `effect` asks for one.
  void queue_warmup(uint32_t row, const CompiledEffect& effect);
  // The pre-warm of the queued emitters still live (none: null), after the registry's flush.
  Result<std::shared_ptr<WarmupPopulation>> prepare_warmup();
  // The interpreter pipelines and register file `program` needs beyond the ones made with the
  // system (kUnsupported when the device cannot bind the wide interpreter's).
  Status ensure_interpreters(const Program& program);
  bool uses_transforms() const;
  // After the transforms table's topology moved: every row an emitter stands at or a binding
  // reads must still be the row it was given (live, same generation); else kInvalidArgument
  // naming the user, and the frame is not run.
  Status check_transform_references();
  // The host's half of a frame: flushes the emitters, plans the dispatches, gathers the uploads.
  Result<FramePlan> prepare_frame(float dt, bool host_submits);
  // The frame's parameters (TIME = the clock + dt) for `rows` rows and `command_count` commands.
  shader::FrameParams frame_params(float dt, uint32_t rows, uint32_t command_count) const;
  // What every pass records against, for this frame.
  FrameRecording recording(VkCommandBuffer cmd, uint32_t rows, uint32_t command_count) const;
  // The spawn order's three arrays into this frame's uploads (after it changed).
  void add_spawn_order_uploads();
  // The frame's passes, in the order they run.
  Status record_frame(VkCommandBuffer cmd, const FramePlan& plan);
  // After the frame was recorded (and submitted as `serial`; 0 when the host submits).
  void frame_recorded(const FramePlan& plan, uint64_t serial);
  // The idle frame (src/runtime/frame/idle_frame.cpp, docs/design/drivers.md "Zero cost"): no
  // live emitter is active, the last frame recorded freed whatever was left, and nothing waits
  // to be uploaded. Then a frame records no dispatch: the first such frame only zeroes the last
  // frame's per-frame counters (into `host_cmd`, or a submission of its own when null), later
  // ones record and submit nothing. Returns whether the frame was idle (the clock still runs).
  Result<bool> run_idle_frame(float dt, VkCommandBuffer host_cmd);
  bool any_active_emitter() const;
  // The quiescent frame (idle_frame.cpp, docs/design/runtime_frame.md "Quiescent frames"): no
  // row can spawn (spawn_free_rows), nothing waits to be uploaded and the pool is known empty
  // (AliveWatch). Then the frame records the tick alone, so every clock runs exactly as the full
  // frame would run it, and nothing sized by the pool. Returns whether it ran.
  Result<bool> run_quiescent_frame(float dt, VkCommandBuffer host_cmd);
  Status record_quiescent_frame(VkCommandBuffer cmd, const shader::FrameParams& params);
  // No live row can spawn: every one is inactive or paused, or at rate 0 with no declared burst
  // and no culling camera on it; no manual row, no event binding.
  bool spawn_free_rows() const;
  enum class IdleState { kBusy, kQuiet, kIdle };

  gpu::Device* device_ = nullptr;
  ParticleSystemOptions options_;
  std::unique_ptr<EmitterLifecycle> emitters_;
  FieldBindings bindings_;
  FrameBuffers buffers_;
  FrameEvents events_;
  ProgramBuffer program_;
  FrameUploads uploads_;
  RetiredBuffers retired_;
  std::unique_ptr<FrameKernels> kernels_;  // compiled_simulate only
  ResetPass reset_;
  FieldBindPass field_bind_;
  TickPass tick_;
  EmitPass emit_;
  BucketPass buckets_;
  SpawnOrder spawn_order_;  // the rows by program, for emit (uploaded when it changes)
  SimulatePass simulate_;
  CompactPass compact_;
  FinishPass finish_;
  BoundsPass bounds_;
  WarmupPass warmup_;
  ManualDrivers manual_;
  StatelessDrivers stateless_;
  PoolFullPolicies pool_full_;
  AliveWatch alive_watch_;
  bool quiescent_cleared_ = false;  // a quiescent frame zeroed the last full frame's per-frame counters
  ReplaceOldestReport last_replace_;
  std::vector<WarmupRequest> warmup_queue_;  // emitters added with a pre-warm, for the next frame
  // Pre-warm populations of recent frames, kept while those frames may be in flight.
  std::vector<std::pair<uint64_t, std::shared_ptr<WarmupPopulation>>> warmup_retired_;
  TransformTable* transforms_ = nullptr;
  uint64_t checked_topology_ = UINT64_MAX;
  UploadStats uploads_stats_;
  // kQuiet: the last frame recorded started with no active emitter, so it ended with nothing
  // alive; kIdle: and an idle frame has since zeroed its per-frame counters. A new system is idle.
  IdleState idle_state_ = IdleState::kIdle;
  uint32_t frame_ = 0;                    // frames recorded: selects the alive list written this frame
  float time_ = 0.0f;                     // TIME: the f32 sum of the recorded frames' dts
  gpu::GpuProfiler* profiler_ = nullptr;  // optional per-pass timestamps (set_profiler)
  std::optional<std::array<shader::vec4, 6>> cull_planes_;  // set_cull_camera
  Wind wind_;                                               // set_wind; still air
  FrameDepth collision_depth_;                              // set_collision_depth; none by default
  FrameVectorFields vector_fields_;                         // set_vector_field; every slot empty
};

}  // namespace mote::runtime
