// The idle frame (docs/design/drivers.md, "Zero cost"): a system whose live emitters are all
// inactive, or that has none, holds nothing once one frame has freed what was left, and nothing
// it would record could change that. Its frames then record no dispatch at all: the first one
// zeroes the per-frame counters the last real frame left (so read_stats() reads an idle frame's
// zeros), the following ones record and submit nothing. Only the clock (TIME) runs on; the frame
// counter (FrameCounters::frames) counts the frames that ran passes.
#include <cstddef>
#include <cstring>
#include <span>

#include "gpu/commands.hpp"
#include "runtime/frame/particle_system.hpp"

namespace mote::runtime {

bool ParticleSystem::any_active_emitter() const {
  for (uint32_t r = 0; r < emitters_->row_count(); ++r) {
    const EmitterLifecycle::Row* row = emitters_->row(r);
    if (row != nullptr && (row->emitter.control_flags & shader::kEmitterFlagInactive) == 0) return true;
  }
  return false;
}

namespace {

// The per-frame counters of FrameCounters an idle frame reads as zero: newborns, dropped, killed
// and orphaned (four consecutive words), and prewarmed.
void record_counter_clear(VkCommandBuffer cmd, const gpu::Buffer& counters) {
  static_assert(offsetof(shader::FrameCounters, orphaned) == offsetof(shader::FrameCounters, newborns) + 12);
  frame_start_barrier(cmd);
  vkCmdFillBuffer(cmd, counters.handle(), offsetof(shader::FrameCounters, newborns), 16, 0u);
  vkCmdFillBuffer(cmd, counters.handle(), offsetof(shader::FrameCounters, prewarmed), 4, 0u);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                          VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

}  // namespace

bool ParticleSystem::spawn_free_rows() const {
  if (events_.active()) return false;
  const std::span<const uint32_t> table = emitters_->registry().table();
  const std::span<const shader::FrameBurst> bursts = emitters_->burst_table();
  for (uint32_t r = 0; r < emitters_->row_count(); ++r) {
    if (emitters_->row(r) == nullptr) continue;
    if (manual_.is_manual(r)) return false;  // its uploads spawn
    if (table.size() < size_t(r + 1) * shader::kEmitterRecordWords) return false;
    shader::EmitterRecord record;
    std::memcpy(&record, table.data() + size_t(r) * shader::kEmitterRecordWords, sizeof(record));
    if ((record.flags & (shader::kEmitterFlagInactive | shader::kEmitterFlagPaused)) != 0u) continue;
    if (!(record.spawn_rate <= 0.0f)) return false;
    // A culled row's queued spawns wait for the view, which the host does not see.
    if (cull_planes_ && (record.flags & shader::kEmitterFlagCull) != 0u) return false;
    if (bursts.size() < size_t(r + 1) * shader::kFrameMaxBursts) return false;
    for (uint32_t b = 0; b < shader::kFrameMaxBursts; ++b)
      if (bursts[size_t(r) * shader::kFrameMaxBursts + b].count != 0u) return false;
  }
  return true;
}

Result<bool> ParticleSystem::run_quiescent_frame(float dt, VkCommandBuffer host_cmd) {
  if (!spawn_free_rows()) return false;
  MOTE_TRY_ASSIGN(const bool empty, alive_watch_.known_empty(*device_, frame_, options_.frames_in_flight));
  if (!empty) return false;
  const shader::FrameParams params = frame_params(dt, emitters_->row_count(), 0);
  if (host_cmd != VK_NULL_HANDLE) {
    MOTE_TRY(record_quiescent_frame(host_cmd, params));
  } else {
    Status recorded = ok_status();
    MOTE_TRY(device_->submit([&](VkCommandBuffer cmd) { recorded = record_quiescent_frame(cmd, params); }));
    MOTE_TRY(recorded);
  }
  quiescent_cleared_ = true;
  time_ = params.time;
  return true;
}

Status ParticleSystem::record_quiescent_frame(VkCommandBuffer cmd, const shader::FrameParams& params) {
  const FrameRecording frame = recording(cmd, params.row_count, 0);
  if (profiler_) profiler_->reset(cmd);
  frame.begin_pass("reset");
  // The first quiescent frame reads as an idle one: the last full frame's per-frame counters go.
  if (!quiescent_cleared_) record_counter_clear(cmd, buffers_.counters);
  frame_start_barrier(cmd);
  vkCmdUpdateBuffer(cmd, buffers_.params.handle(), 0, sizeof(params), &params);
  gpu::transfer_to_compute(cmd);
  frame.end_pass();
  tick_.record_tick(frame);
  frame_end_barrier(cmd);
  return ok_status();
}

Result<bool> ParticleSystem::run_idle_frame(float dt, VkCommandBuffer host_cmd) {
  if (!(dt > 0.0f)) return false;  // the frame's own check reports it
  // Anything waiting to go out (a record, a block, a binding, a burst, a pre-warm, an emitter at a
  // transform or a binding, which the compose pass serves) needs the frame's passes; nothing else
  // reads the composed channels.
  if (!emitters_->dirty_rows().empty() || emitters_->has_queued_bursts() || !warmup_queue_.empty() || uses_transforms())
    return false;
  if (any_active_emitter()) return run_quiescent_frame(dt, host_cmd);
  if (idle_state_ == IdleState::kBusy) return false;
  if (idle_state_ == IdleState::kQuiet) {
    if (host_cmd != VK_NULL_HANDLE) {
      record_counter_clear(host_cmd, buffers_.counters);
    } else {
      MOTE_TRY(device_->submit([&](VkCommandBuffer cmd) { record_counter_clear(cmd, buffers_.counters); }));
    }
    idle_state_ = IdleState::kIdle;
  }
  time_ = time_ + dt;  // f32, as prepare_frame sums it
  return true;
}

}  // namespace mote::runtime
