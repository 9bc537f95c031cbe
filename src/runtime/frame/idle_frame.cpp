// The idle frame (docs/design/drivers.md, "Zero cost"): a system whose live emitters are all
// inactive, or that has none, holds nothing once one frame has freed what was left, and nothing
// it would record could change that. Its frames then record no dispatch at all: the first one
// zeroes the per-frame counters the last real frame left (so read_stats() reads an idle frame's
// zeros), the following ones record and submit nothing. Only the clock (TIME) runs on; the frame
// counter (FrameCounters::frames) counts the frames that ran passes.
#include <cstddef>

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

Result<bool> ParticleSystem::run_idle_frame(float dt, VkCommandBuffer host_cmd) {
  if (!(dt > 0.0f)) return false;  // the frame's own check reports it
  if (idle_state_ == IdleState::kBusy || any_active_emitter()) return false;
  // Anything waiting to go out (a record, a block, a binding, a burst, a pre-warm, an emitter at a
  // transform or a binding, which the compose pass serves) needs the frame's passes; nothing else
  // reads the composed channels.
  if (!emitters_->dirty_rows().empty() || emitters_->has_queued_bursts() || !warmup_queue_.empty() || uses_transforms())
    return false;
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
