#include "runtime/frame/particle_system.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "runtime/frame/cull_view.hpp"
#include "runtime/frame/frame_readbacks.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/interpreted_code.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

namespace {

Status check_options(const gpu::Device& device, const ParticleSystemOptions& options) {
  if (options.capacity == 0 || options.capacity > (1u << 24))
    return make_error(ErrorCode::kInvalidArgument, "capacity must be 1 .. 2^24 (PARTICLE_INDEX is a float)");
  if (options.record_words < 2 || options.record_words > shader::kVmMaxRecordWords)
    return make_error(ErrorCode::kInvalidArgument,
                      "record_words must be 2 .. " + std::to_string(shader::kVmMaxRecordWords));
  if (options.max_emitters == 0 || options.max_emitters > shader::kFrameHeaderRowMask + 1)
    return make_error(ErrorCode::kInvalidArgument, "max_emitters must be 1 .. 2^20 (the header's row bits)");
  if (options.serial_word >= options.record_words)
    return make_error(ErrorCode::kInvalidArgument, "serial_word must lie inside the record");
  if (options.wide_lanes == 0 || options.wide_lanes % shader::kFrameWorkgroupSize != 0 ||
      options.wide_lanes > (1u << 20))
    return make_error(ErrorCode::kInvalidArgument, "wide_lanes must be a multiple of " +
                                                       std::to_string(shader::kFrameWorkgroupSize) + ", at most 2^20");
  if (options.frames_in_flight == 0 || options.frames_in_flight > 8)
    return make_error(ErrorCode::kInvalidArgument, "frames_in_flight must be 1 .. 8");
  const uint64_t pool_bytes = uint64_t(options.capacity) * options.record_words * 4;
  if (pool_bytes > device.limits().maxStorageBufferRange)
    return make_error(ErrorCode::kUnsupported, "the pool exceeds the device's maxStorageBufferRange");
  return ok_status();
}

}  // namespace

Result<ParticleSystem> ParticleSystem::create(gpu::Device& device, const ParticleSystemOptions& options) {
  MOTE_TRY(check_options(device, options));
  ParticleSystem s;
  s.device_ = &device;
  s.options_ = options;
  // Globals are per-emitter copies in each emitter's block (EmitterDesc overrides a global per
  // emitter), and the heap keeps each section in the interpreters' form.
  auto encode_section = [record_words = options.record_words](const Program& linked, Section section) {
    return interpreted_section_code(linked, section, record_words);
  };
  s.emitters_ =
      std::make_unique<EmitterLifecycle>(options,
                                         ProgramHeapOptions{.initial_constant_words = options.heap_constant_words,
                                                            .initial_code_words = options.heap_code_words,
                                                            .initial_field_block_words = options.heap_field_words,
                                                            .per_emitter_globals = true,
                                                            .encode_section = encode_section});
  MOTE_TRY_ASSIGN(s.bindings_, FieldBindings::create(device, options.max_emitters));
  MOTE_TRY_ASSIGN(s.buffers_, FrameBuffers::create(device, options));
  MOTE_TRY_ASSIGN(s.events_, FrameEvents::create(device, options.max_emitters, options.capacity));
  MOTE_TRY_ASSIGN(s.vector_fields_, FrameVectorFields::create(device));
  MOTE_TRY_ASSIGN(s.collision_depth_, FrameDepth::create(device));
  MOTE_TRY_ASSIGN(s.program_, ProgramBuffer::create(device, s.emitters_->heap(), s.uploads_stats_));
  if (options.compiled_simulate)
    s.kernels_ = std::make_unique<FrameKernels>(device, options.record_words, options.compile_in_background);
  MOTE_TRY_ASSIGN(s.reset_, ResetPass::create(device));
  MOTE_TRY_ASSIGN(s.field_bind_, FieldBindPass::create(device));
  MOTE_TRY_ASSIGN(s.tick_, TickPass::create(device));
  MOTE_TRY_ASSIGN(s.emit_, EmitPass::create(device));
  // Program ids: one per live program, at most one per live emitter, plus the new program a
  // swap places before it releases the old one.
  MOTE_TRY_ASSIGN(s.buckets_, BucketPass::create(device, options.max_emitters + 1));
  MOTE_TRY_ASSIGN(s.simulate_, SimulatePass::create(device));
  MOTE_TRY_ASSIGN(s.compact_, CompactPass::create(device));
  MOTE_TRY_ASSIGN(s.finish_, FinishPass::create(device));
  MOTE_TRY_ASSIGN(s.bounds_, BoundsPass::create(device));
  MOTE_TRY_ASSIGN(s.warmup_, WarmupPass::create(device));
  MOTE_TRY_ASSIGN(s.manual_, ManualDrivers::create(device));
  MOTE_TRY_ASSIGN(s.stateless_, StatelessDrivers::create(device));
  MOTE_TRY_ASSIGN(s.alive_watch_, AliveWatch::create(device));
  MOTE_TRY_ASSIGN(const InitPass init, InitPass::create(device));
  MOTE_TRY(init.run(device, s.buffers_, options.capacity));
  return s;
}

uint32_t ParticleSystem::wide_program_count() const {
  const ProgramHeap& heap = emitters_->heap();
  uint32_t n = 0;
  for (uint32_t id = 0; id < heap.program_id_capacity(); ++id)
    if (heap.is_live(ProgramHandle{id}) && needs_wide_interpreter(heap.program(ProgramHandle{id}))) ++n;
  return n;
}

Status ParticleSystem::ensure_interpreters(const Program& program) {
  MOTE_TRY(emit_.ensure(*device_, program, options_.record_words));
  MOTE_TRY(simulate_.ensure(*device_, program, options_.record_words));
  MOTE_TRY(warmup_.ensure(*device_, program, options_.record_words));
  if (!needs_wide_interpreter(program) || buffers_.wide_registers.valid()) return ok_status();
  MOTE_TRY_ASSIGN(const VkDeviceSize bytes, wide_register_file_bytes(*device_, program, options_.wide_lanes));
  return buffers_.ensure_wide_registers(*device_, bytes);
}

Result<uint32_t> ParticleSystem::add_emitter(const CompiledEffect& effect, const EmitterDesc& options) {
  MOTE_TRY_ASSIGN(std::vector<uint32_t> rows, add_emitters(effect, std::span(&options, 1)));
  return rows[0];
}

Result<std::vector<uint32_t>> ParticleSystem::add_emitters(const CompiledEffect& effect,
                                                           std::span<const EmitterDesc> options) {
  if (!effect.program.eval.empty())
    return make_error(ErrorCode::kUnsupported,
                      "a stateless effect (an EVAL section) is evaluated, not spawned: add it as a stateless emitter");
  return add_rows(effect, options);
}

Result<std::vector<uint32_t>> ParticleSystem::add_rows(const CompiledEffect& effect,
                                                       std::span<const EmitterDesc> options) {
  if (emitters_->live_count() + options.size() > options_.max_emitters)
    return make_error(ErrorCode::kOutOfMemory, "the emitter table is full");
  MOTE_TRY(ensure_interpreters(effect.program));
  MOTE_TRY(bindings_.check_program(effect.program));
  MOTE_TRY_ASSIGN(std::vector<uint32_t> rows, emitters_->add_emitters(effect, options));
  if (kernels_) kernels_->offer(effect);
  bindings_.emitters_added();
  for (uint32_t row : rows) {
    events_.emitter_added(row, emitters_->generation(row), effect);
    queue_warmup(row, effect);
  }
  return rows;
}

Status ParticleSystem::remove_emitter(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  bindings_.emitter_removed(row);
  events_.emitter_removed(row);
  manual_.remove(row);
  stateless_.remove(row);
  pool_full_.remove(row);
  return emitters_->remove_emitter(row);
}

Status ParticleSystem::swap_effect(uint32_t row, const CompiledEffect& effect) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  if (!effect.program.eval.empty() || stateless_.is_stateless(row))
    return make_error(ErrorCode::kUnsupported,
                      "swap_effect neither swaps to nor from a stateless effect: remove the emitter and add the other");
  if (manual_.is_manual(row)) MOTE_TRY(check_standard_particle(effect.program));  // its records must still fit
  MOTE_TRY(ensure_interpreters(effect.program));
  MOTE_TRY(bindings_.check_program(effect.program));
  MOTE_TRY(emitters_->swap_effect(row, effect));
  if (kernels_) kernels_->offer(effect);
  bindings_.effect_swapped(row, effect.program);
  events_.effect_swapped(row, emitters_->generation(row), effect);
  if (manual_.is_manual(row)) {
    // The host's records come back under the new generation; a manual row is never pre-warmed.
    MOTE_TRY(manual_.upload(row));
    return ok_status();
  }
  queue_warmup(row, effect);
  return ok_status();
}

Status ParticleSystem::burst(uint32_t row, uint32_t count) { return emitters_->burst(row, count); }

Status ParticleSystem::set_pool_full_policy(uint32_t row, PoolFullPolicy policy) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  if (manual_.is_manual(row))
    return make_error(ErrorCode::kInvalidArgument, "a manual emitter's spawns are its uploads: no pool-full policy");
  pool_full_.set(row, policy);
  return ok_status();
}

void ParticleSystem::queue_warmup(uint32_t row, const CompiledEffect& effect) {
  const float seconds = effect.emission.prewarm_seconds;
  if (!(seconds > 0.0f) || !std::isfinite(seconds)) return;
  warmup_queue_.push_back({row, emitters_->generation(row), seconds, effect.emission.capacity_hint, 0u});
}

Result<std::shared_ptr<WarmupPopulation>> ParticleSystem::prepare_warmup() {
  // Emitters removed or swapped again since they were queued are not pre-warmed (a swap queues
  // its own); the program of each is its record's, as the flush just wrote it.
  std::vector<WarmupRequest> requests;
  const std::span<const uint32_t> table = emitters_->registry().table();
  for (WarmupRequest r : warmup_queue_) {
    if (!is_live(r.row) || generation(r.row) != r.generation) continue;
    const size_t at = size_t(r.row) * shader::kEmitterRecordWords;
    r.program = table[at + offsetof(shader::EmitterRecord, program_id) / 4];
    requests.push_back(r);
  }
  warmup_queue_.clear();
  if (requests.empty()) return std::shared_ptr<WarmupPopulation>{};
  const VkDeviceSize wide = buffers_.wide_registers.valid() ? buffers_.wide_registers.size() : 0;
  MOTE_TRY_ASSIGN(std::unique_ptr<WarmupPopulation> population,
                  WarmupPass::prepare(*device_, options_, requests, wide));
  return std::shared_ptr<WarmupPopulation>(std::move(population));
}

bool ParticleSystem::uses_transforms() const { return emitters_->any_at_transform() || bindings_.any(); }

Status ParticleSystem::set_transforms(TransformTable* table) {
  if (table != transforms_ && uses_transforms())
    return make_error(ErrorCode::kInvalidArgument,
                      "emitters are placed at, or fields bound to, rows of the current transforms table: remove or "
                      "unbind them first");
  transforms_ = table;
  emitters_->set_transforms(table);
  checked_topology_ = UINT64_MAX;
  return ok_status();
}

Status ParticleSystem::check_transform_row_unused(uint32_t transform_row) const {
  MOTE_TRY(emitters_->check_transform_row_unused(transform_row));
  return bindings_.check_transform_row_unused(transform_row);
}

Status ParticleSystem::check_transform_references() {
  if (transforms_ == nullptr || transforms_->topology_version() == checked_topology_) return ok_status();
  MOTE_TRY(emitters_->check_transform_references(*transforms_));
  MOTE_TRY(bindings_.check_transform_references(*transforms_, emitters_->row_count()));
  checked_topology_ = transforms_->topology_version();
  return ok_status();
}

Status ParticleSystem::bind_field(uint32_t row, std::string_view emitter_field, uint32_t transform_row,
                                  Channel channel) {
  return bindings_.bind_field(*emitters_, transforms_, row, emitter_field, transform_row, channel);
}

Status ParticleSystem::unbind_field(uint32_t row, std::string_view emitter_field) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  if (!bindings_.is_field_bound(row, emitter_field))
    return make_error(ErrorCode::kNotFound, "emitter field '" + std::string(emitter_field) +
                                                "' of the emitter at row " + std::to_string(row) + " is not bound");
  MOTE_TRY(bindings_.sync(*device_, program_.buffer(), *emitters_));  // the host copy takes the last written value
  bindings_.unbind_field(row, emitter_field);
  return ok_status();
}

Status ParticleSystem::bind_global(std::string_view global, uint32_t transform_row, Channel channel) {
  return bindings_.bind_global(*emitters_, transforms_, global, transform_row, channel);
}

Status ParticleSystem::unbind_global(std::string_view global) {
  if (!bindings_.is_global_bound(global))
    return make_error(ErrorCode::kNotFound, "global field '" + std::string(global) + "' is not bound");
  MOTE_TRY(bindings_.sync(*device_, program_.buffer(), *emitters_));  // the system value takes the last written one
  bindings_.unbind_global(global);
  // Every reader keeps the last written value, also one added since the last frame.
  if (const std::vector<float>* last = emitters_->system_global(global)) {
    const std::vector<float> values = *last;
    emitters_->write_global_to_readers(global, values);
  }
  return ok_status();
}

Status ParticleSystem::set_global(std::string_view name, std::span<const float> values) {
  if (values.empty() || values.size() > 4)
    return make_error(ErrorCode::kInvalidArgument, "global field '" + std::string(name) + "': 1 to 4 values, " +
                                                       std::to_string(values.size()) + " given");
  if (bindings_.is_global_bound(name))
    return make_error(ErrorCode::kInvalidArgument,
                      "global field '" + std::string(name) + "' is bound to a transform: unbind it first");
  return emitters_->set_global(name, values);
}

Status ParticleSystem::set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values) {
  MOTE_TRY(emitters_->check_emitter_field(row, name, values.size()));
  if (bindings_.is_field_bound(row, name))
    return make_error(ErrorCode::kInvalidArgument,
                      "emitter field '" + std::string(name) + "' is bound to a transform: unbind it first");
  return emitters_->set_emitter_field(row, name, values);
}

void ParticleSystem::add_spawn_order_uploads() {
  const std::span<const uint32_t> places = spawn_order_.places(), rows = spawn_order_.rows();
  const std::span<const shader::FrameSpawnRange> ranges = spawn_order_.ranges();
  const VkDeviceSize range_bytes = std::min<VkDeviceSize>(ranges.size_bytes(), buffers_.spawn_ranges.size());
  uploads_.add(buffers_.spawn_places, 0, places.data(), places.size_bytes());
  uploads_.add(buffers_.spawn_rows, 0, rows.data(), rows.size_bytes());
  if (range_bytes > 0) uploads_.add(buffers_.spawn_ranges, 0, ranges.data(), range_bytes);
  uploads_stats_.table_bytes += places.size_bytes() + rows.size_bytes() + range_bytes;
}

shader::FrameParams ParticleSystem::frame_params(float dt, uint32_t rows, uint32_t command_count) const {
  const ProgramHeap& heap = emitters_->heap();
  shader::FrameParams params{};
  params.dt = dt;
  params.row_count = rows;
  params.command_count = command_count;
  params.capacity = options_.capacity;
  params.record_words = options_.record_words;
  params.serial_word = options_.serial_word;
  params.constants_base = shader::kFrameShapeWords + heap.constants_base();
  params.code_base = shader::kFrameShapeWords + heap.code_base();
  params.field_base = shader::kFrameShapeWords + heap.field_base();
  params.time = time_ + dt;  // f32, as the tick sums an emitter's age
  params.cull_view = cull_planes_ ? 1u : 0u;
  params.bounds_in_simulate = rows <= options_.bounds_in_simulate_max_rows ? 1u : 0u;
  const VmWindField wind = wind_field_at(wind_, params.time);
  params.wind_base = shader::vec4(wind.base_velocity[0], wind.base_velocity[1], wind.base_velocity[2], 0.0f);
  params.wind_turbulence = shader::vec4(wind.turbulence[0], wind.turbulence[1], wind.turbulence[2], wind.turbulence[3]);
  if (cull_planes_)
    for (size_t i = 0; i < cull_planes_->size(); ++i) params.cull_planes[i] = (*cull_planes_)[i];
  return params;
}

Result<ParticleSystem::FramePlan> ParticleSystem::prepare_frame(float dt, bool host_submits) {
  if (!(dt > 0.0f)) return make_error(ErrorCode::kInvalidArgument, "dt must be a positive number of seconds");
  gpu::Device& device = *device_;
  uploads_.clear();
  // The stateless rows' placings, then the manual drivers' uploads become spawn commands and
  // record flags before the flush.
  MOTE_TRY(stateless_.prepare(*emitters_, manual_));
  MOTE_TRY(manual_.prepare(*emitters_, uploads_));
  // The emitters' edits into the heap (blocks) and the table (records) first.
  MOTE_TRY_ASSIGN(const bool relocated, emitters_->flush());
  if (relocated) bindings_.mark_dirty();
  MOTE_TRY(check_transform_references());
  FramePlan plan;
  plan.dt = dt;
  plan.host_submits = host_submits;
  plan.rows = emitters_->row_count();
  plan.commands = emitters_->take_commands();
  // Replace-oldest bursts make their room first (reads the last frame back when the pool is short).
  MOTE_TRY_ASSIGN(last_replace_, pool_full_.prepare(
                                     device, buffers_, frame_, options_, *emitters_,
                                     [&](uint32_t row) { return manual_.is_manual(row); }, plan.commands, uploads_));
  MOTE_TRY_ASSIGN(plan.dispatches, plan_program_dispatches(emitters_->heap(), kernels_.get(), options_.record_words));
  plan.program_ids = emitters_->heap().program_id_capacity();
  plan.bucketed = plan.dispatches.size() >= 2;
  if (!warmup_queue_.empty()) {
    MOTE_TRY_ASSIGN(plan.warmup, prepare_warmup());
  }
  if (plan.bucketed) MOTE_TRY(buckets_.ensure(device, options_.capacity, plan.program_ids, retired_, frame_));

  // What changed since the last frame, as regions: the heap's changed ranges (after a growth of
  // the program buffer, which copies the old sections on the GPU), the changed rows' records and
  // bursts, the bindings table.
  const ProgramHeap& heap = emitters_->heap();
  MOTE_TRY_ASSIGN(const bool grown, program_.prepare(device, heap, uploads_, uploads_stats_, retired_, frame_));
  if (grown) bindings_.mark_dirty();  // the field base moved
  const std::span<const uint32_t> table = emitters_->registry().table();
  const std::span<const shader::FrameBurst> bursts = emitters_->burst_table();
  const uint32_t table_rows = emitters_->registry().row_capacity();
  for (const auto& [first, end] : emitters_->dirty_rows()) {
    const uint32_t last = std::min(end, table_rows);
    if (first >= last) continue;
    const VkDeviceSize n = last - first;
    uploads_.add(buffers_.emitters, VkDeviceSize(first) * sizeof(shader::EmitterRecord),
                 table.data() + size_t(first) * shader::kEmitterRecordWords, n * sizeof(shader::EmitterRecord));
    const VkDeviceSize burst_bytes = n * shader::kFrameMaxBursts * sizeof(shader::FrameBurst);
    if (bursts.size() >= size_t(last) * shader::kFrameMaxBursts)
      uploads_.add(buffers_.bursts, VkDeviceSize(first) * shader::kFrameMaxBursts * sizeof(shader::FrameBurst),
                   bursts.data() + size_t(first) * shader::kFrameMaxBursts, burst_bytes);
    uploads_stats_.table_bytes += n * sizeof(shader::EmitterRecord) + burst_bytes;
  }
  if (!emitters_->dirty_rows().empty() || plan.program_ids != spawn_order_.ranges().size()) {
    if (spawn_order_.rebuild(table, plan.rows, plan.program_ids)) add_spawn_order_uploads();
  }
  MOTE_TRY(bindings_.prepare(device, *emitters_, uploads_, uploads_stats_, retired_, frame_));
  MOTE_TRY(events_.prepare(device, uploads_, retired_, frame_));
  MOTE_TRY(vector_fields_.prepare(device, uploads_, retired_, frame_));
  MOTE_TRY(collision_depth_.prepare(device, uploads_, retired_, frame_));
  MOTE_TRY(uploads_.stage(device, host_submits));
  plan.bind_pass = transforms_ != nullptr && bindings_.gpu_row_count() > 0;

  plan.params = frame_params(dt, plan.rows, uint32_t(plan.commands.size() / 2));
  // Whether anything can spawn this frame (AliveWatch: a pool that ended empty stays empty
  // through frames that cannot).
  plan.could_spawn = !plan.commands.empty() || plan.warmup != nullptr || !spawn_free_rows();
  return plan;
}

FrameRecording ParticleSystem::recording(VkCommandBuffer cmd, uint32_t rows, uint32_t command_count) const {
  return FrameRecording{.device = *device_,
                        .cmd = cmd,
                        .buffers = buffers_,
                        .alive_in = buffers_.alive_in(frame_),
                        .alive_out = buffers_.alive_out(frame_),
                        .program = program_.buffer(),
                        .channels = transforms_ ? transforms_->channels() : buffers_.no_transforms,
                        .rows = rows,
                        .command_count = command_count,
                        .wide_lanes = options_.wide_lanes,
                        .profiler = profiler_,
                        .events = events_.views(frame_),
                        .field_headers = &vector_fields_.headers(),
                        .field_values = &vector_fields_.values(),
                        .collision_depth = &collision_depth_.buffer()};
}

Status ParticleSystem::record_frame(VkCommandBuffer cmd, const FramePlan& plan) {
  const FrameRecording frame = recording(cmd, plan.rows, uint32_t(plan.commands.size() / 2));
  if (profiler_) profiler_->reset(cmd);
  frame.begin_pass("reset");
  frame_start_barrier(cmd);
  // This frame's uploads: the program buffer's growth and fills, the parameters, the spawn
  // commands, the changed ranges (a bound word among them is rewritten by the bind pass below
  // before anything reads it).
  program_.record(cmd);
  vkCmdUpdateBuffer(cmd, buffers_.params.handle(), 0, sizeof(plan.params), &plan.params);
  if (!plan.commands.empty())
    vkCmdUpdateBuffer(cmd, buffers_.commands.handle(), 0, plan.commands.size() * 4, plan.commands.data());
  uploads_.record(cmd);
  stateless_.record_uploads(cmd, *emitters_);
  events_.record_fills(cmd, frame_);
  gpu::transfer_to_compute(cmd);
  // This frame's world poses and channels, composed before anything of the frame reads them.
  if (transforms_) {
    if (plan.host_submits) {
      transforms_->record_inline_upload(cmd);
    } else {
      transforms_->record(cmd);
    }
    gpu::compute_to_compute(cmd);
  }
  // The bound words of the program buffer from this frame's channels (ordered before the tick
  // by the reset's barrier: the reset touches other buffers).
  if (plan.bind_pass) field_bind_.record(frame, bindings_.buffer(), bindings_.gpu_row_count());
  reset_.record(frame);
  frame.end_pass();
  Status status = ok_status();
  if (plan.warmup)
    status = warmup_.record(frame, *plan.warmup, plan.params, plan.dispatches, plan.program_ids, reset_, emit_,
                            compact_, finish_);
  if (plan.rows > 0) {
    // Last frame's events: their children join their targets' requests before the tick, and
    // after the scan each child learns its event (docs/design/events.md, "On the GPU").
    if (Status delivered = events_.record_delivery(frame); !delivered.ok() && status.ok()) status = delivered;
    if (Status ticked = tick_.record(frame); !ticked.ok() && status.ok()) status = ticked;
    events_.record_scatter(frame);
    emit_.record(frame, plan.dispatches, plan.program_ids);
    manual_.record(frame);
    stateless_.record(frame, *emitters_, manual_);
  }
  if (Status simulated = simulate_.record(frame, plan.dispatches, buckets_, plan.bucketed, plan.program_ids);
      !simulated.ok() && status.ok())
    status = simulated;
  if (Status compacted = compact_.record(frame); !compacted.ok() && status.ok()) status = compacted;
  finish_.record(frame);
  bounds_.record(frame);
  alive_watch_.record_copy(cmd, buffers_.counters, frame_);
  return status;
}

void ParticleSystem::frame_recorded(const FramePlan& plan, uint64_t serial) {
  uploads_.submitted(serial, uploads_stats_);
  program_.committed(emitters_->heap());
  emitters_->clear_dirty_rows();
  manual_.recorded(*emitters_);
  stateless_.recorded(plan.dt, *emitters_);
  bindings_.recorded(plan.bind_pass);
  events_.recorded();
  time_ = plan.params.time;
  idle_state_ = any_active_emitter() ? IdleState::kBusy : IdleState::kQuiet;
  alive_watch_.recorded(frame_, serial, plan.could_spawn);
  quiescent_cleared_ = false;
  if (plan.warmup) warmup_retired_.emplace_back(frame_, plan.warmup);
  ++frame_;
  retired_.release(frame_, options_.frames_in_flight);
  std::erase_if(warmup_retired_, [&](const auto& kept) { return kept.first + options_.frames_in_flight <= frame_; });
}

Status ParticleSystem::set_wind(const Wind& wind) {
  MOTE_TRY(check_wind(wind));
  wind_ = wind;
  return {};
}

Status ParticleSystem::set_collision_depth(std::optional<DepthImage> image) {
  return collision_depth_.set(std::move(image));
}

Status ParticleSystem::set_vector_field(uint32_t slot, std::optional<VectorField> field) {
  return vector_fields_.set(slot, std::move(field));
}

void ParticleSystem::set_cull_camera(const std::optional<std::array<float, 16>>& view_projection) {
  cull_planes_.reset();
  if (view_projection) cull_planes_ = frustum_planes(*view_projection);
}

Status ParticleSystem::execute(float dt) {
  MOTE_TRY_ASSIGN(const bool idle, run_idle_frame(dt, VK_NULL_HANDLE));
  if (idle) return ok_status();
  MOTE_TRY_ASSIGN(const FramePlan plan, prepare_frame(dt, false));
  Status recorded = ok_status();
  MOTE_TRY_ASSIGN(const uint64_t serial,
                  device_->submit([&](VkCommandBuffer cmd) { recorded = record_frame(cmd, plan); }));
  MOTE_TRY(recorded);
  frame_recorded(plan, serial);
  return ok_status();
}

Status ParticleSystem::record(VkCommandBuffer cmd, float dt) {
  if (cmd == VK_NULL_HANDLE) return make_error(ErrorCode::kInvalidArgument, "record() needs a command buffer");
  MOTE_TRY_ASSIGN(const bool idle, run_idle_frame(dt, cmd));
  if (idle) return ok_status();
  MOTE_TRY_ASSIGN(const FramePlan plan, prepare_frame(dt, true));
  MOTE_TRY(record_frame(cmd, plan));
  frame_recorded(plan, 0);
  return ok_status();
}

Result<std::vector<uint32_t>> ParticleSystem::read_program_image() { return program_.read_image(*device_); }

Result<std::vector<uint32_t>> ParticleSystem::read_emitter_table(uint32_t rows) {
  return read_emitter_table_words(*device_, buffers_, std::min(rows, options_.max_emitters));
}

Result<BucketReadback> ParticleSystem::read_buckets() {
  return buckets_.read(*device_, emitters_->heap().program_id_capacity());
}

Result<std::vector<shader::FrameEmitterBounds>> ParticleSystem::read_emitter_bounds() {
  const uint32_t rows = std::min(emitters_->row_count(), options_.max_emitters);
  if (rows == 0) return std::vector<shader::FrameEmitterBounds>{};
  return gpu::readback_as<shader::FrameEmitterBounds>(*device_, buffers_.emitter_bounds, rows);
}

Status ParticleSystem::bind_event(uint32_t source, uint32_t output, uint32_t target) {
  if (!is_live(source)) return make_error(ErrorCode::kNotFound, "no live emitter at that row", "source");
  if (!is_live(target)) return make_error(ErrorCode::kNotFound, "no live emitter at that row", "target");
  return events_.bind(source, output, target);
}

Status ParticleSystem::bind_event(uint32_t source, std::string_view output, uint32_t target) {
  if (!is_live(source)) return make_error(ErrorCode::kNotFound, "no live emitter at that row", "source");
  MOTE_TRY_ASSIGN(const uint32_t index, events_.output_index(source, output));
  return bind_event(source, index, target);
}

Status ParticleSystem::unbind_event(uint32_t source, uint32_t output, uint32_t target) {
  return events_.unbind(source, output, target);
}

Result<std::vector<EmitterEventStats>> ParticleSystem::read_event_stats() {
  return events_.read_rows(*device_, emitters_->row_count());
}

Result<FrameEventTotals> ParticleSystem::read_event_totals() { return events_.read_totals(*device_, frame_); }

Result<FrameStats> ParticleSystem::read_stats() { return read_frame_stats(*device_, buffers_); }

Result<std::vector<uint32_t>> ParticleSystem::read_alive_slots() {
  return read_alive_list(*device_, buffers_, frame_, options_.capacity);
}

Result<std::vector<uint32_t>> ParticleSystem::read_free_slots() {
  return read_free_list(*device_, buffers_, options_.capacity);
}

Result<std::vector<uint32_t>> ParticleSystem::read_pool() { return read_pool_words(*device_, buffers_, options_); }

Result<std::vector<shader::FrameEmitterState>> ParticleSystem::read_emitter_states() {
  return read_emitter_state_rows(*device_, buffers_, options_.max_emitters);
}

}  // namespace mote::runtime
