#include "runtime/frame/warmup_pass.hpp"

#include <algorithm>
#include <cmath>

#include "gpu/commands.hpp"
#include "mote/simulation.hpp"
#include "runtime/frame/init_pass.hpp"
#include "runtime/frame/interpreted_code.hpp"
#include "runtime/frame/simulate_pass.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

static_assert(shader::kFrameWarmupDtBuckets == kWarmupDtBuckets && shader::kFrameWarmupDtJitter == kWarmupDtJitter,
              "the GPU advance jitters as src/sim/warmup.cpp does");

Result<WarmupPass> WarmupPass::create(gpu::Device& device) {
  WarmupPass pass;
  const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kFrameFastWindowChunks}};
  MOTE_TRY_ASSIGN(pass.tick_, gpu::ComputePipeline::create(device, "runtime/frame/tick_warmup"));
  MOTE_TRY_ASSIGN(pass.keep_clear_, gpu::ComputePipeline::create(device, "runtime/frame/keep_clear"));
  MOTE_TRY_ASSIGN(pass.advance_, gpu::ComputePipeline::create(device, "runtime/frame/simulate_warmup", window));
  MOTE_TRY_ASSIGN(pass.migrate_, gpu::ComputePipeline::create(device, "runtime/frame/migrate"));
  MOTE_TRY_ASSIGN(pass.migrate_counts_, gpu::ComputePipeline::create(device, "runtime/frame/migrate_counts"));
  return pass;
}

Status WarmupPass::ensure(gpu::Device& device, const Program& program, uint32_t record_words) {
  if (needs_large_window(program, Section::kUpdate, record_words) && !advance_large_window_.valid()) {
    const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kVmMaxWindowChunks}};
    MOTE_TRY_ASSIGN(advance_large_window_,
                    gpu::ComputePipeline::create(device, "runtime/frame/simulate_warmup", window));
  }
  if (needs_wide_interpreter(program) && !advance_wide_.valid()) {
    MOTE_TRY_ASSIGN(advance_wide_, gpu::ComputePipeline::create(device, "runtime/frame/simulate_warmup_wide"));
  }
  return ok_status();
}

Result<std::unique_ptr<WarmupPopulation>> WarmupPass::prepare(gpu::Device& device, const ParticleSystemOptions& options,
                                                              std::span<const WarmupRequest> requests,
                                                              VkDeviceSize wide_register_bytes) {
  auto population = std::make_unique<WarmupPopulation>();
  float longest = 0.0f;
  uint64_t hinted = 0;
  for (const WarmupRequest& r : requests) {
    longest = std::max(longest, r.seconds);
    hinted += r.capacity_hint;
    if (std::find(population->programs.begin(), population->programs.end(), r.program) == population->programs.end())
      population->programs.push_back(r.program);
  }
  // The schedule: at most kWarmupMaxTicks ticks, stretched to the longest; each emitter takes
  // part in the last round(seconds / tick) of them, so each ends having run its own pre-warm.
  const WarmupSchedule schedule = warmup_schedule(longest);
  population->ticks = schedule.ticks;
  population->tick_seconds = schedule.tick_seconds;
  for (const WarmupRequest& r : requests) {
    const float share = std::round(r.seconds / schedule.tick_seconds);
    const uint32_t runs = uint32_t(std::clamp(share, 1.0f, float(schedule.ticks)));
    population->entries.push_back({r.row, r.generation, schedule.ticks - runs, 0u});
  }
  // What the population holds: the effects' capacity hints (a steady state), at least one
  // workgroup, at most the main pool. A warm-up that outgrows it drops spawns, counted.
  population->capacity = uint32_t(std::clamp<uint64_t>(hinted, shader::kFrameWorkgroupSize, options.capacity));
  ParticleSystemOptions warm = options;
  warm.capacity = population->capacity;
  MOTE_TRY_ASSIGN(population->buffers, FrameBuffers::create(device, warm));
  if (wide_register_bytes > 0) MOTE_TRY(population->buffers.ensure_wide_registers(device, wide_register_bytes));
  MOTE_TRY_ASSIGN(population->queue,
                  make_frame_buffer(device, population->entries.size() * sizeof(shader::FrameWarmupEntry),
                                    kFrameStorageUsage, "mote.frame.warmup_queue"));
  MOTE_TRY_ASSIGN(const InitPass init, InitPass::create(device));
  MOTE_TRY(init.run(device, population->buffers, population->capacity));
  return population;
}

void WarmupPass::record_advance(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches,
                                uint32_t tick) const {
  const FrameBuffers& b = frame.buffers;
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(keep_clear_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingKeep, &b.keep}})
      .dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_compute(frame.cmd);
  const uint32_t wide_groups = frame.wide_lanes / shader::kFrameWorkgroupSize;
  for (size_t i = 0; i < dispatches.size(); ++i) {
    const ProgramDispatch& d = dispatches[i];
    shader::FramePush push = d.update_push;
    push.program = d.program;
    push.first_dispatch = i == 0 ? 1u : 0u;
    push.only_dispatch = dispatches.size() == 1 ? 1u : 0u;
    push.bucketed = 0u;
    push.warmup_tick = tick;
    // The buckets are never read by a walk of the list: the keep flags stand in for them.
    const std::vector<gpu::BufferBinding> bindings = simulate_bindings(frame, b.keep, b.keep, d.wide);
    gpu::ComputeRecorder rec(frame.device, frame.cmd);
    rec.bind(d.wide                  ? advance_wide_
             : d.update_large_window ? advance_large_window_
                                     : advance_)
        .buffers(std::span<const gpu::BufferBinding>(bindings))
        .push(push);
    if (d.wide) {
      rec.dispatch(wide_groups);
      gpu::compute_to_compute(frame.cmd);
    } else {
      rec.dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
    }
  }
  gpu::compute_to_compute(frame.cmd);
}

Status WarmupPass::record(const FrameRecording& main, const WarmupPopulation& population,
                          const shader::FrameParams& params, std::span<const ProgramDispatch> dispatches,
                          uint32_t program_ids, const ResetPass& reset, const EmitPass& emit,
                          const CompactPass& compact, const FinishPass& finish) const {
  const FrameBuffers& m = main.buffers;
  const FrameBuffers& w = population.buffers;
  const VkCommandBuffer cmd = main.cmd;
  const uint32_t rows = main.rows;
  std::vector<ProgramDispatch> queued;
  for (const ProgramDispatch& d : dispatches)
    if (std::find(population.programs.begin(), population.programs.end(), d.program) != population.programs.end())
      queued.push_back(d);
  main.begin_pass("prewarm");
  // The population's inputs: the emitter table, the states as the main reset left them, the
  // bursts; its parameters and queue.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  const VkBufferCopy table{0, 0, VkDeviceSize(rows) * sizeof(shader::EmitterRecord)};
  const VkBufferCopy states{0, 0, VkDeviceSize(rows) * sizeof(shader::FrameEmitterState)};
  const VkBufferCopy bursts{0, 0, VkDeviceSize(rows) * shader::kFrameMaxBursts * sizeof(shader::FrameBurst)};
  vkCmdCopyBuffer(cmd, m.emitters.handle(), w.emitters.handle(), 1, &table);
  vkCmdCopyBuffer(cmd, m.states.handle(), w.states.handle(), 1, &states);
  vkCmdCopyBuffer(cmd, m.bursts.handle(), w.bursts.handle(), 1, &bursts);
  // The spawn order: its places, rows and the programs' places (the runs are the warm-up's own).
  const VkBufferCopy order{0, 0, VkDeviceSize(rows) * 4};
  const VkBufferCopy ranges{0, 0, std::min(m.spawn_ranges.size(), w.spawn_ranges.size())};
  vkCmdCopyBuffer(cmd, m.spawn_places.handle(), w.spawn_places.handle(), 1, &order);
  vkCmdCopyBuffer(cmd, m.spawn_rows.handle(), w.spawn_rows.handle(), 1, &order);
  vkCmdCopyBuffer(cmd, m.spawn_ranges.handle(), w.spawn_ranges.handle(), 1, &ranges);
  vkCmdFillBuffer(cmd, w.spawn_counts.handle(), 0, VkDeviceSize(rows) * 4, 0u);
  shader::FrameParams warm = params;
  warm.dt = population.tick_seconds;
  warm.command_count = 0;
  warm.capacity = population.capacity;
  warm.cull_view = 0;
  vkCmdUpdateBuffer(cmd, w.params.handle(), 0, sizeof(warm), &warm);
  const size_t per_update = 65536 / sizeof(shader::FrameWarmupEntry);
  for (size_t at = 0; at < population.entries.size(); at += per_update) {
    const size_t n = std::min(per_update, population.entries.size() - at);
    vkCmdUpdateBuffer(cmd, population.queue.handle(), at * sizeof(shader::FrameWarmupEntry),
                      n * sizeof(shader::FrameWarmupEntry), population.entries.data() + at);
  }
  gpu::transfer_to_compute(cmd);
  const uint32_t entry_count = uint32_t(population.entries.size());
  Status status = ok_status();
  for (uint32_t t = 0; t < population.ticks && status.ok(); ++t) {
    const FrameRecording frame{.device = main.device,
                               .cmd = cmd,
                               .buffers = w,
                               .alive_in = w.alive_in(t),
                               .alive_out = w.alive_out(t),
                               .program = main.program,
                               .channels = main.channels,
                               .rows = rows,
                               .command_count = 0,
                               .wide_lanes = main.wide_lanes,
                               .profiler = nullptr,
                               // The pre-warm sends no events and delivers none (the reference's rule).
                               .events = FrameEventViews{.routes = main.events.routes,
                                                         .rows = main.events.rows,
                                                         .events_in = main.events.events_in,
                                                         .events_out = main.events.events_out,
                                                         .children = main.events.children,
                                                         .on = false},
                               .field_headers = main.field_headers,
                               .field_values = main.field_values,
                               .collision_depth = main.collision_depth};
    reset.record(frame);
    gpu::ComputeRecorder(main.device, cmd)
        .bind(tick_)
        .buffers({{shader::kFrameBindingParams, &w.params},
                  {shader::kFrameBindingCounters, &w.counters},
                  {shader::kFrameBindingEmitters, &w.emitters},
                  {shader::kFrameBindingStates, &w.states},
                  {shader::kFrameBindingSpawnCounts, &w.spawn_counts},
                  {shader::kFrameBindingSpawnPlaces, &w.spawn_places},
                  {shader::kFrameBindingBursts, &w.bursts},
                  {shader::kFrameBindingEmitterBounds, &w.emitter_bounds},
                  {shader::kFrameBindingWarmupQueue, &population.queue}})
        .push(shader::FrameWarmupPush{t, entry_count, population.capacity, 0u})
        .dispatch_threads(entry_count);
    gpu::compute_to_compute(cmd);
    status = w.spawn_scan.record(cmd, w.spawn_counts, w.spawn_sums, gpu::ScanCount::host(rows),
                                 gpu::ScanKind::kInclusive);
    gpu::compute_to_compute(cmd);
    emit.record(frame, queued, program_ids);
    record_advance(frame, queued, t);
    if (Status compacted = compact.record(frame); !compacted.ok() && status.ok()) status = compacted;
    finish.record(frame);
  }
  // The emitters' states back to the main table (the rows the warm-up did not run are as they
  // were copied), then the survivors into the main pool.
  vkCmdCopyBuffer(cmd, w.states.handle(), m.states.handle(), 1, &states);
  gpu::transfer_to_compute(cmd);
  const gpu::Buffer& survivors = w.alive_out(population.ticks - 1);
  const shader::FrameWarmupPush push{0u, entry_count, population.capacity, 0u};
  gpu::ComputeRecorder rec(main.device, cmd);
  rec.bind(migrate_)
      .buffers({{shader::kFrameBindingParams, &m.params},
                {shader::kFrameBindingCounters, &m.counters},
                {shader::kFrameBindingWarmupCounters, &w.counters},
                {shader::kFrameBindingFreeList, &m.free_list},
                {shader::kFrameBindingAliveIn, &main.alive_in},
                {shader::kFrameBindingPool, &m.pool},
                {shader::kFrameBindingWarmupPool, &w.pool},
                {shader::kFrameBindingWarmupAlive, &survivors}})
      .push(push)
      .dispatch_indirect(w.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_compute(cmd);
  rec.bind(migrate_counts_)
      .buffers({{shader::kFrameBindingParams, &m.params},
                {shader::kFrameBindingCounters, &m.counters},
                {shader::kFrameBindingWarmupCounters, &w.counters}})
      .push(push)
      .dispatch(1);
  gpu::compute_to_indirect(cmd);
  main.end_pass();
  return status;
}

}  // namespace mote::runtime
